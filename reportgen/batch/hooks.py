"""The steps a batch lets another layer add (reportgen.grading adds the rubric, feedback,
copied work and reuse this way), so that batch/ never imports that layer.

``run_batch`` calls them in this order:

    formats(formats)         which formats to build (a rubric needs report.json)
    prepare(...)             before the workers start: rows of reports reused as they are
    after_build              in each worker, after a build: keys added to the row
    finish(rows, stage)      after the last row, before the swap: keys added to summary.json
    write(out)               beside summary.json: files of its own (grades.csv)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from reportgen.batch.intake import Submission


class BatchHooks(Protocol):
    """What ``run_batch`` asks of a layer on top of it; ``NoHooks`` is the plain batch."""

    #: ``module:function`` a worker calls as ``function(project_folder, report)`` (a
    #: ``reportgen.model.Report``) after a build; the dict it returns is added to the row
    #: (JSON-able). None: nothing.
    after_build: str | None

    def formats(self, formats: Sequence[str]) -> tuple[str, ...]:
        """The report formats to build, from those asked for."""
        ...

    def prepare(
        self,
        out: Path,
        subs: Sequence[Submission],
        earlier: Sequence[str],
        formats: Sequence[str],
        build_ref: str,
        stage: Path,
        language: str | None = None,
    ) -> list[dict[str, Any]]:
        """Stage reports that need no build into ``stage/NAME``; their rows (not rebuilt).
        ``language``: the batch's ``--lang`` (None: each project's own), which a reused
        report must have been written in."""
        ...

    def finish(self, rows: list[dict[str, Any]], stage: Path) -> dict[str, Any]:
        """Work on the staged reports and the rows (in name order); keys for summary.json."""
        ...

    def write(self, out: Path) -> None:
        """Write this layer's own files into OUT, after the summary."""
        ...


class NoHooks:
    """The plain batch: every submission built, nothing added."""

    after_build: str | None = None

    def formats(self, formats: Sequence[str]) -> tuple[str, ...]:
        return tuple(formats)

    def prepare(
        self,
        out: Path,
        subs: Sequence[Submission],
        earlier: Sequence[str],
        formats: Sequence[str],
        build_ref: str,
        stage: Path,
        language: str | None = None,
    ) -> list[dict[str, Any]]:
        return []

    def finish(self, rows: list[dict[str, Any]], stage: Path) -> dict[str, Any]:
        return {}

    def write(self, out: Path) -> None:
        return None
