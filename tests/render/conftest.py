"""Shared fixtures for the render tests: the hand-made reports and their rendered files."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
GOLDEN = Path(__file__).resolve().parent / "golden"


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def scrubbed(report: dict) -> dict:
    """The report with build date, versions and paths replaced, for golden comparisons."""
    r = copy.deepcopy(report)
    r["build"]["date"] = "BUILD-DATE"
    r["build"]["command"] = "evreport build PROJECT"
    r["build"]["libraries"] = {name: "VERSION" for name in r["build"].get("libraries") or {}}
    r["tool"]["version"] = "VERSION"
    return r


@pytest.fixture(scope="session")
def sample() -> dict:
    return load("report-sample.json")


@pytest.fixture(scope="session")
def before_after() -> dict:
    return load("report-before-after.json")


@pytest.fixture(scope="session")
def minimal() -> dict:
    return load("report-minimal.json")


@pytest.fixture(scope="session")
def sample_files(sample) -> dict[str, bytes]:
    from reportgen.render import render_outputs

    files, problems = render_outputs(sample, ("html", "pdf", "json", "md"))
    assert problems == []
    return files


@pytest.fixture(scope="session")
def before_after_files(before_after) -> dict[str, bytes]:
    from reportgen.render import render_outputs

    files, problems = render_outputs(before_after, ("html", "pdf", "md"))
    assert problems == []
    return files


@pytest.fixture(scope="session")
def minimal_files(minimal) -> dict[str, bytes]:
    from reportgen.render import render_outputs

    files, problems = render_outputs(minimal, ("html", "pdf", "md"))
    assert problems == []
    return files


@pytest.fixture(scope="session")
def weekly_churn() -> dict:
    """report.json of the real examples/weekly-churn build, frozen as a fixture."""
    return load("report-weekly-churn.json")


@pytest.fixture(scope="session")
def tuned_no_replay() -> dict:
    """report.json of the real examples/tuned-no-replay build (before-after), frozen."""
    return load("report-tuned-no-replay.json")
