"""compute_report's contract: (report, warnings), the project never modified, typed results as report.json objects."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from reportgen.checks import compute_report
from reportgen.checks.jsonsafe import ReportValueError, jsonable
from reportgen.checks.report import SECTIONS, Header, assemble
from reportgen.checks.types import Check, Evidence, FactCheck, Interval, Rung
from reportgen.model import Report
from reportgen.project import load_project
from tests.layouts.gen import make_project

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def warned(tmp_path_factory):
    """A project with load warnings (empty block labels) and both kinds of check warnings
    (logged values rounded to 4 decimals, seed labels without a partner)."""
    gen = make_project(
        tmp_path_factory.mktemp("warned") / "p",
        paired=True,
        labels="disjoint",
        log_digits=4,
        empty_block_rows=3,
    )
    return gen.path


def test_twice_gives_equal_reports_and_warnings_and_leaves_the_project_alone(warned):
    project = load_project(warned)
    loaded = list(project.warnings)
    assert {w.slug for w in loaded} == {"empty-label"}
    report, warnings = compute_report(project, command="cmd")
    again, warnings_again = compute_report(project, command="cmd")
    assert again == report
    assert [w.as_dict() for w in warnings_again] == [w.as_dict() for w in warnings]
    assert project.warnings == loaded
    # the load warnings first, then the checks' own, exactly as report.json lists them
    slugs = [w.slug for w in warnings]
    assert slugs[: len(loaded)] == [w.slug for w in loaded]
    assert slugs[len(loaded) :] == ["logged-differs", "unpaired-seeds"]
    assert report["warnings"] == [w.as_dict() for w in warnings]


def test_before_after_twice_is_the_same():
    project = load_project(ROOT / "examples" / "tuned-no-replay")
    loaded = list(project.warnings)
    first, w1 = compute_report(project, command="cmd")
    second, w2 = compute_report(project, command="cmd")
    assert first == second and w1 == w2 == loaded == project.warnings
    assert first["project"]["kind"] == "before-after"


def test_build_result_carries_the_same_warnings(warned, tmp_path):
    from reportgen.api import build_report

    result = build_report(warned, tmp_path / "out", ("json",))
    written = json.loads((tmp_path / "out" / "report.json").read_text())
    assert [w.as_dict() for w in result.warnings] == written["warnings"]
    assert [w.slug for w in result.warnings][-2:] == ["logged-differs", "unpaired-seeds"]


def test_interval_object_keeps_report_json_keys():
    test = Interval(gap=0.01, low=-0.002, high=0.02, source="block", part="test", what="30 weeks")
    assert list(jsonable(test)) == ["gap", "low", "high", "source", "part", "what"]
    assert not test.above_zero and not test.below_zero
    # before-after intervals have no part, and report.json never had the key
    ba = Interval(gap=0.1, low=0.05, high=0.15, source="questions", part=None, what="40 questions")
    assert jsonable(ba) == {
        "gap": 0.1,
        "low": 0.05,
        "high": 0.15,
        "source": "questions",
        "what": "40 questions",
    }
    assert ba.above_zero


def test_check_and_fact_check_key_order():
    c = Check("useful-effect", 4, False, 0.003, 0.005, ("evreport.toml:7",), "too small")
    assert list(jsonable(c)) == ["id", "rung", "passed", "value", "bar", "artefacts", "text"]
    assert jsonable(c)["artefacts"] == ["evreport.toml:7"]
    fact = Evidence("same-metric", True, "both log_loss", ("runs.csv:2",))
    assert list(jsonable(fact)) == ["id", "passed", "text", "artefacts"]
    fc = FactCheck("fair-same-metric", 2, True, None, None, fact.artefacts, fact.text)
    assert list(jsonable(fc)) == ["id", "rung", "passed", "value", "bar", "text", "artefacts"]


def test_rung_reason_and_dict():
    r = Rung(3, "larger than noise", "partly", ("runs.csv:4",), "the interval includes zero", "s")
    assert r.reason == "rung 3 (larger than noise) is partly: the interval includes zero"
    assert not r.shown
    assert list(jsonable(r)) == [
        "rung",
        "name",
        "status",
        "artefacts",
        "missing",
        "summary",
        "credited",
    ]


def _head() -> Header:
    """The header of a fixture report."""
    r = Report.from_json(json.loads((ROOT / "tests/fixtures/report-minimal.json").read_text()))
    return Header(r.schema, r.tool, r.build, r.project, r.inputs)


def test_assemble_refuses_unknown_sections_and_sections_that_are_not_models():
    head = _head()
    with pytest.raises(ReportValueError, match="no place for the sections"):
        assemble(head, {"ladderz": []}, [])
    with pytest.raises(ReportValueError, match=r"the sections \['general'\] are not model"):
        assemble(head, {"general": {"split": "general"}, "ladder": []}, [])


def test_assemble_writes_the_sections_in_report_json_order():
    r = Report.from_json(json.loads((ROOT / "tests/fixtures/report-minimal.json").read_text()))
    sections = {k: getattr(r, k) for k in reversed(SECTIONS)}
    out = assemble(_head(), sections, []).to_json()
    header_keys = ["schema", "tool", "build", "project", "inputs"]
    assert list(out) == [*header_keys, *SECTIONS, "warnings", "language"]
    assert out["warnings"] == []


def test_report_is_independent_of_later_edits(warned):
    """The report dict is plain JSON: editing it never reaches the checks' own results."""
    project = load_project(warned)
    report, _ = compute_report(project, command="cmd")
    snapshot = copy.deepcopy(report)
    report["ladder"][0]["artefacts"].append("x")
    again, _ = compute_report(project, command="cmd")
    assert again == snapshot


def test_assemble_refuses_a_numpy_scalar_the_report_model_cannot_write():
    r = Report.from_json(json.loads((ROOT / "tests/fixtures/report-minimal.json").read_text()))
    sections = {k: getattr(r, k) for k in SECTIONS}
    assert isinstance(assemble(_head(), sections, []), Report)
    check = replace(r.checks[0], passed=np.bool_(True))
    sections["checks"] = (check, *r.checks[1:])
    with pytest.raises(ReportValueError, match=r"report\.checks\[0\]\.passed is a numpy bool"):
        assemble(_head(), sections, [])
