"""Cross-validation cells: the sentences about the fold gaps agree with the numbers and the
conventions they rest on (methods.md section 9)."""

from __future__ import annotations

from tests.layouts.conftest import built_ok

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
