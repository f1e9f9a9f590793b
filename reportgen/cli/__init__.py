"""The evreport command line: `main` is the click group the console script and
`python -m reportgen` run; its commands live in the modules beside it."""

from reportgen.cli.commands import main

__all__ = ["main"]
