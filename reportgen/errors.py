"""One root error with a slug; input problems name file, line and column."""

from __future__ import annotations

from dataclasses import dataclass

DOCS = "docs/format.md"

#: Exit codes, documented in ``evreport --help`` and docs/cli.md.
EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2
EXIT_STRICT = 3


@dataclass(frozen=True)
class Problem:
    """One finding about an input file: where it is and what is wrong."""

    message: str
    path: str | None = None
    line: int | None = None
    column: int | None = None
    slug: str = "input"
    severity: str = "error"  # "error" or "warning"

    @property
    def where(self) -> str:
        parts = [self.path or "<project>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        return f"{self.where}: {self.severity}: {self.message} [{self.slug}]"

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "slug": self.slug,
            "message": self.message,
        }


class EvreportError(Exception):
    """Root of every error evreport raises on purpose."""

    slug = "error"
    exit_code = EXIT_INPUT


class InputError(EvreportError):
    """Bad input: one or more problems, each naming file, line and column."""

    slug = "input"

    def __init__(self, problems: list[Problem] | Problem | str, **where):
        if isinstance(problems, str):
            problems = [Problem(problems, **where)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = [p for p in problems if p.severity == "error"] or list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(EvreportError):
    """The command line itself is wrong."""

    slug = "usage"
    exit_code = EXIT_USAGE


class RenderError(EvreportError):
    """An output format could not be produced (e.g. missing system libraries for PDF)."""

    slug = "render"
