"""Shared fixtures for the render tests: the hand-made reports and their rendered files."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
#: every example project, built from its folder by tests/render/test_layout.py and test_text.py
EXAMPLES = [
    "weekly-churn",
    "moons-tie",
    "tuned-no-replay",
    "tuned-replay",
    "diabetes-regression",
    "digits-multiclass",
]
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


@pytest.fixture(scope="session")
def example_builds() -> dict[str, tuple[dict, dict[str, bytes]]]:
    """Each example's report dict and its HTML and PDF, built from its folder once per session."""
    from reportgen.checks import compute_report
    from reportgen.project import ProjectPaths, load_project
    from reportgen.render import render_outputs

    out = {}
    for name in EXAMPLES:
        project = load_project(ROOT / "examples" / name, ProjectPaths())
        report, _ = compute_report(project, command=f"evreport build examples/{name}")
        files, problems = render_outputs(report, ("html", "pdf"))
        assert problems == [], problems
        out[name] = (report, files)
    return out
