"""Cross-validation cells: the sentences about the fold gaps agree with the numbers and the
conventions they rest on (methods.md section 9)."""

from __future__ import annotations

import pandas as pd
import pytest

from reportgen.checks import compute_report
from reportgen.project import load_project
from tests.layouts import cells as C
from tests.layouts.conftest import built_ok
from tests.layouts.gen_cv import make_cv_project

REGRESSION = {"id": "cv-regression", "kind": "cv", "task": "regression", "unit": "points"}
#: two folds: the corrected interval is refused; no check files: nothing is established
REFUSED_UNCHECKED = {
    "id": "cv-two-folds-unchecked",
    "kind": "cv",
    "repeats": 1,
    "folds": 2,
    "rows": 40,
    "checks": False,
}
LEAVE_ONE_OUT = {"id": "cv-leave-one-out", "kind": "cv", "repeats": 1, "folds": 8, "rows": 8}


def _report(built_cells, cell) -> dict:
    b = built_ok(built_cells, cell)
    assert b.report is not None, b.describe()
    return b.report


def test_the_seed_and_resampling_lines_name_the_metric_with_its_unit(built_cells):
    report = _report(built_cells, REGRESSION)
    seed_line, cv_line = report["noise"]["lines"]
    assert "the cross-validation gap is " in seed_line
    assert (
        seed_line.split("the cross-validation gap is ")[1]
        .split(",")[0]
        .endswith(" mean squared error in points²")
    )
    assert " mean squared error in points² over 15 fold gaps" in cv_line


def test_a_refused_cv_interval_calls_the_fold_gap_a_cross_validation_gap(built_cells):
    for cell in (REFUSED_UNCHECKED, LEAVE_ONE_OUT):
        report = _report(built_cells, cell)
        assert report["noise"]["interval"] is None
        claim = report["claim"]["rewritten"]
        assert "validation" not in claim.replace("cross-validation", "")
        assert "test interval" not in claim
    unchecked = _report(built_cells, REFUSED_UNCHECKED)["claim"]["rewritten"]
    assert "a cross-validation log loss gap of " in unchecked
    loo = _report(built_cells, LEAVE_ONE_OUT)["claim"]["rewritten"]
    assert "there is no cross-validation interval" in loo


def _without_last_fold(tmp_path):
    """A 3 x 5 cv project whose runs of repeat 3 fold 5 were never logged (14 fold gaps)."""
    gen = make_cv_project(tmp_path / "p")
    runs = pd.read_csv(gen.path / "runs.csv")
    runs[~((runs.repeat == 3) & (runs.fold == 5))].to_csv(gen.path / "runs.csv", index=False)
    report, _ = compute_report(load_project(gen.path))
    return report


def test_planning_half_width_is_the_computed_intervals_with_a_fold_left_out(tmp_path):
    cv = _without_last_fold(tmp_path)["noise"]["cv"]
    c, plan = cv["corrected"], cv["planning"]
    assert (cv["J"], c["df"]) == (14, 13)
    assert plan["half_width"] == pytest.approx((c["high"] - c["low"]) / 2, rel=1e-12)


def _cell(name: str) -> dict:
    return next(c for c in C.cv_cells() if c["id"] == name)


def test_the_planning_note_says_a_tie_cannot_be_shown_only_while_the_interval_is_undecided(
    built_cells,
):
    tie = "cannot show a tie, however often it is repeated"
    # a useful gain shown, and a useful gain ruled out: the floor does not stop either
    for name in ("cv-custom-metric", "cv-worse"):
        cv = _report(built_cells, _cell(name))["noise"]["cv"]
        assert cv["planning"]["floor_exceeds_useful"] is True
        assert tie not in cv["planning"]["text"]
        assert "useful gain from a tie" not in cv["planning"]["text"]
    shown = _report(built_cells, _cell("cv-custom-metric"))["noise"]["cv"]["corrected"]
    assert shown["low"] >= 0.01
    # the interval holds the useful effect: no number of repeats can show a tie
    cv = _report(built_cells, _cell("cv-test-part"))["noise"]["cv"]
    assert cv["corrected"]["low"] < 0.01 <= cv["corrected"]["high"]
    assert cv["planning"]["text"].endswith(
        "The floor is at least the useful effect 0.01, so the interval can never lie inside "
        f"±0.01: cross-validation on these rows {tie}."
    )
