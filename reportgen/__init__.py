"""evreport: what a model comparison actually proves, as a reviewer's report."""

__version__ = "0.1.0"
