"""Rung 1 reads every check file of a kind, whatever its name: all are cited, any failing one
fails the check."""

from __future__ import annotations

import json

import pytest

from reportgen.checks import compute_report
from reportgen.project import load_project
from reportgen.project.checkfiles import CheckFile, verdicts
from tests.checks.builder import make_project
from tests.checks.builder_ba import make_ba_project

FAILING = {"check": "initial_loss", "model": "net", "value": 5.0, "classes": 2}
PASSING = {"check": "initial_loss", "model": "net", "value": 0.71, "classes": 2}


def _rung1(tmp_path, extra: dict[str, dict]) -> tuple[dict, dict]:
    """Rung 1 and its initial_loss check of the builder's project with ``extra`` check files."""
    root = make_project(tmp_path / "p")
    for name, body in extra.items():
        (root / "artefacts" / "checks" / name).write_text(json.dumps(body))
    report, _ = compute_report(load_project(root))
    check = next(c for c in report["checks"] if c["id"] == "rung1-initial_loss")
    return report["ladder"][0], check


def test_a_failing_file_sorting_first_fails_rung_1_and_is_cited(tmp_path):
    rung, check = _rung1(tmp_path, {"a-initial_loss-rerun.json": FAILING})
    rerun = "artefacts/checks/a-initial_loss-rerun.json"
    assert rung["status"] == "not shown"
    assert check["passed"] is False
    assert rerun in rung["artefacts"] and rerun in check["artefacts"]
    assert "artefacts/checks/initial_loss.json" in check["artefacts"]
    assert rung["missing"].startswith(
        f"initial_loss check fails: 1 of 2 initial_loss files fails; {rerun}: initial loss 5.000"
    )
    assert rung["summary"] == "1 sanity check of net fails"


def test_a_failing_file_sorting_last_fails_rung_1_and_is_cited(tmp_path):
    rung, check = _rung1(tmp_path, {"zzz-initial_loss-rerun.json": FAILING})
    rerun = "artefacts/checks/zzz-initial_loss-rerun.json"
    assert rung["status"] == "not shown"
    assert check["passed"] is False
    assert check["artefacts"] == ["artefacts/checks/initial_loss.json", rerun]
    assert f"{rerun}: initial loss 5.000" in rung["missing"]


def test_every_passing_file_is_cited_and_rung_1_is_shown(tmp_path):
    rung, check = _rung1(
        tmp_path, {"a-initial_loss-rerun.json": PASSING, "zzz-initial_loss.json": PASSING}
    )
    files = [
        "artefacts/checks/a-initial_loss-rerun.json",
        "artefacts/checks/initial_loss.json",
        "artefacts/checks/zzz-initial_loss.json",
    ]
    assert rung["status"] == "shown"
    assert check["passed"] is True
    assert check["artefacts"] == files
    assert check["text"].startswith("all 3 initial_loss files pass; ")
    assert all(f"{f}: initial loss" in check["text"] for f in files)
    assert [a for a in rung["artefacts"] if a.startswith("artefacts/checks/")] == sorted(
        files + [f"artefacts/checks/{n}.json" for n in ("gradient", "overfit", "shapes")]
    )


def test_the_citations_are_sorted_whatever_order_the_files_arrive_in():
    def file(name: str, passed: bool) -> CheckFile:
        return CheckFile(f"artefacts/checks/{name}", "overfit", "net", {}, passed, name)

    files = [file("b.json", True), file("c.json", False), file("a.json", False)]
    forward, backward = verdicts(files, "net"), verdicts(files[::-1], "net")
    assert forward == backward
    v = forward["overfit"]
    assert v.paths == (
        "artefacts/checks/a.json",
        "artefacts/checks/b.json",
        "artefacts/checks/c.json",
    )
    assert v.passed is False
    assert v.detail == "2 of 3 overfit files fail; artefacts/checks/a.json: a.json"


def test_another_model_s_files_are_not_read_for_the_candidate():
    other = CheckFile("artefacts/checks/base.json", "overfit", "base", {}, False, "x")
    mine = CheckFile("artefacts/checks/net.json", "overfit", "net", {}, True, "y")
    assert verdicts([other, mine], "net")["overfit"].paths == ("artefacts/checks/net.json",)


def test_a_file_that_cannot_be_judged_leaves_its_check_uncredited(tmp_path):
    unjudged = {"check": "initial_loss", "model": "net", "value": "high", "classes": 2}
    rung, check = _rung1(tmp_path, {"zzz-initial_loss.json": unjudged})
    assert check["passed"] is None
    assert check["text"].startswith("1 of 2 initial_loss files pass, the others are not credited")
    assert rung["status"] == "partly"


def test_before_after_holds_one_check_per_kind_and_model_citing_all_its_files(tmp_path):
    root = make_ba_project(tmp_path / "p")
    rerun = {"check": "shapes", "model": "after", "passed": False, "assertions": 8}
    (root / "artefacts" / "checks" / "a-shapes-rerun.json").write_text(json.dumps(rerun))
    report, _ = compute_report(load_project(root))
    harness = [c for c in report["checks"] if c["id"].startswith("rung1-shapes")]
    files = ["artefacts/checks/a-shapes-rerun.json", "artefacts/checks/shapes.json"]
    assert [(c["id"], c["passed"], c["artefacts"]) for c in harness] == [
        ("rung1-shapes-after", False, files)
    ]
    assert report["ladder"][0]["status"] == "not shown"
    assert f"{files[0]}: shape assertions FAILED" in report["ladder"][0]["missing"]


@pytest.mark.parametrize(
    "error,passed,text",
    [
        (3.1e-05, True, "gradient check max relative error 3.1 × 10⁻⁵ (at most 10⁻⁴)"),
        (1e-4, True, "gradient check max relative error 0.00010 (at most 10⁻⁴)"),
        (0.002, False, "gradient check max relative error 0.0020 (above 10⁻⁴)"),
    ],
)
def test_the_gradient_check_prints_its_error_in_the_number_policy(error, passed, text):
    from reportgen.project.checkfiles import evaluate

    assert evaluate("gradient", {"max_relative_error": error}) == (passed, text)
