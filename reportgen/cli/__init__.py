"""The evreport command line: `main`, the group the console script and `python -m reportgen` run."""

from reportgen.cli.commands import main

__all__ = ["main"]
