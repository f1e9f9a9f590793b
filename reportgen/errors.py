"""One root error with a slug; input problems name file, line and column."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from reportgen.safe import escape_controls
from reportgen.words.i18n import p_

DOCS = "docs/format.md"

#: Exit codes, documented in ``evreport --help`` and docs/cli.md.
EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2
EXIT_STRICT = 3


#: longest quoted value in a message, and longest message, in characters
QUOTE_LIMIT = 80
MESSAGE_LIMIT = 2000


def clean_text(text: object, limit: int | None = MESSAGE_LIMIT) -> str:
    """Text safe to echo: control characters (C0, C1, line breaks) shown as escapes, capped.

    Also turns the undecodable bytes of a non-UTF-8 file name (lone surrogates from
    ``surrogateescape``) into ``\\xNN`` so the text can always be written as UTF-8.
    """
    s = escape_controls(str(text).replace("\t", " ").replace("\n", " "))
    if limit is not None and len(s) > limit:
        s = s[: limit - 1] + "…"
    return s


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr``-style quoting of a user value for a message, capped at ``limit`` characters."""
    if not isinstance(value, str):
        r = repr(value)
        return r if len(r) <= limit else r[:limit] + "…"
    if len(value) > limit:
        return repr(value[:limit]) + f"… ({len(value):,} characters)"
    return repr(value)


def said(value: object, limit: int | None = QUOTE_LIMIT) -> str:
    """A user's value (a column, a check's name, a label) quoted in a warning: ``quote`` in
    English ('seeed'; ``limit`` None: its whole repr), «seeed» in another language (control
    characters escaped, capped at ``limit``)."""
    from reportgen.words.i18n import current

    if current() == "en":
        return repr(value) if limit is None else quote(value, limit)
    s = escape_controls(str(value))
    return f"«{s[:limit] + '…' if limit is not None and len(s) > limit else s}»"


def said_ids(ids: Iterable[str]) -> str:
    """Ids the code knows (the check kinds) listed in a warning: as they are in English
    ("initial_loss, gradient"), each quoted in another language («initial_loss», «gradient»),
    where a run of Latin ids would read as English words."""
    from reportgen.words.i18n import current

    return ", ".join(ids) if current() == "en" else ", ".join(said(i, None) for i in ids)


def display_name(name: object) -> str:
    """A file or submission name for people: undecodable bytes as the replacement character."""
    s = str(name)
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        s = s.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        s = s.encode("utf-8", "replace").decode("utf-8")  # lone surrogates not from a file name
    return s


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
        """One line, whatever the message holds: control characters escaped, length capped;
        the severity in the current language ("error" in English, «помилка» in Ukrainian)."""
        words = {"error": p_("severity", "error"), "warning": p_("severity", "warning")}
        return (
            f"{clean_text(self.where, 300)}: {words.get(self.severity, self.severity)}: "
            f"{clean_text(self.message)} [{self.slug}]"
        )

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


def reading_order(problems: list[Problem]) -> list[Problem]:
    """Errors before warnings; files in the order their first problem was found (a root cause,
    the manifest, before the predictions it breaks); within a file by line and column, a
    problem without a line (a "5 more" count) after the file's lines."""
    rank: dict[str | None, int] = {}
    for p in problems:
        rank.setdefault(p.path, len(rank))
    return sorted(
        problems,
        key=lambda p: (
            p.severity != "error",
            rank[p.path],
            p.line is None,
            p.line or 0,
            p.column or 0,
        ),
    )


class InputError(EvreportError):
    """Bad input: one or more problems, each naming file, line and column."""

    slug = "input"

    def __init__(self, problems: list[Problem] | Problem | str, **where):
        if isinstance(problems, str):
            problems = [Problem(problems, **where)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = reading_order(
            [p for p in problems if p.severity == "error"] or list(problems)
        )
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(EvreportError):
    """The command line itself is wrong."""

    slug = "usage"
    exit_code = EXIT_USAGE


class BusyError(UsageError):
    """The output folder is being written by another evreport process right now."""

    slug = "out-in-use"


class RenderError(EvreportError):
    """An output format could not be produced (e.g. missing system libraries for PDF)."""

    slug = "render"


class SetupError(EvreportError):
    """The environment evreport runs in is wrong (e.g. a malformed EVREPORT_* variable)."""

    slug = "environment"
