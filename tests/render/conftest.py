"""Shared fixtures for the render tests: the pipeline-made reports and their rendered files.

Every report here is a file of tests/fixtures/, written by ``make fixtures``
(tests/render/make_fixtures.py) from the example projects, and checked to be what the
pipeline makes today by tests/test_fixtures.py.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from reportgen.model import Report

# EXAMPLES: the examples that get a fixture, whose PDF layout test_layout.py and test_text.py
# measure; ROOT is re-exported for the render tests
from .make_fixtures import EXAMPLES, FIXTURES
from .make_fixtures import ROOT as ROOT

GOLDEN = Path(__file__).resolve().parent / "golden"
ALL_FORMATS = ("html", "pdf", "json", "md")
#: the fixtures whose PDF a test reads (the others are rendered without one, which is slow)
WITH_PDF = {*EXAMPLES, "weekly-churn", "tuned-no-replay", "minimal"}


def load(name: str) -> dict:
    """tests/fixtures/report-NAME.json."""
    return json.loads((FIXTURES / f"report-{name}.json").read_text(encoding="utf-8"))


def scrubbed(report: dict) -> dict:
    """The report with build date, versions and paths replaced, for golden comparisons."""
    r = copy.deepcopy(report)
    r["build"]["date"] = "BUILD-DATE"
    r["build"]["command"] = "evreport build PROJECT"
    r["build"]["libraries"] = {name: "VERSION" for name in r["build"].get("libraries") or {}}
    r["tool"]["version"] = "VERSION"
    return r


class Files(Mapping[str, bytes]):
    """One fixture's rendered files; the PDF, the slow one, is laid out on first read."""

    def __init__(self, report: Report, pdf: bool) -> None:
        self._report = report
        self._files: dict[str, bytes] = {}
        self._render(tuple(f for f in ALL_FORMATS if f != "pdf"))
        self._pdf_pending = pdf

    def _render(self, formats: tuple[str, ...]) -> None:
        from reportgen.render import render_outputs

        files, problems = render_outputs(self._report, formats)
        assert problems == [], problems
        self._files.update(files)

    def _pdf(self) -> None:
        if self._pdf_pending:
            self._render(("pdf",))
            self._pdf_pending = False

    def __getitem__(self, name: str) -> bytes:
        if name == "report.pdf":
            self._pdf()
        return self._files[name]

    def __iter__(self) -> Iterator[str]:
        self._pdf()
        return iter(self._files)

    def __len__(self) -> int:
        self._pdf()
        return len(self._files)


class Rendered:
    """Each fixture's report rendered once per session, on first use: every format, the PDF
    only for WITH_PDF and only when a test reads it."""

    def __init__(self) -> None:
        self._files: dict[str, Files] = {}

    def __call__(self, name: str) -> Files:
        if name not in self._files:
            self._files[name] = Files(Report.from_json(load(name)), name in WITH_PDF)
        return self._files[name]


@pytest.fixture(scope="session")
def rendered() -> Rendered:
    return Rendered()


@pytest.fixture(scope="session")
def weekly_churn() -> dict:
    """Model against baseline with every section: threshold, ranking, calibration, slices."""
    return load("weekly-churn")


@pytest.fixture(scope="session")
def tuned_no_replay() -> dict:
    """Before-after whose general set did not hold (roll back), categories as slices."""
    return load("tuned-no-replay")


@pytest.fixture(scope="session")
def minimal() -> dict:
    """A run log only: one run per model, no predictions, no manifest; every section empty."""
    return load("minimal")


@pytest.fixture(scope="session")
def weekly_churn_files(rendered) -> Files:
    return rendered("weekly-churn")


@pytest.fixture(scope="session")
def tuned_no_replay_files(rendered) -> Files:
    return rendered("tuned-no-replay")


@pytest.fixture(scope="session")
def minimal_files(rendered) -> Files:
    return rendered("minimal")


@pytest.fixture(scope="session")
def example_builds(rendered) -> dict[str, tuple[dict, Files]]:
    """Each of EXAMPLES: its report dict and its rendered files (HTML, PDF, JSON, Markdown)."""
    return {name: (load(name), rendered(name)) for name in EXAMPLES}
