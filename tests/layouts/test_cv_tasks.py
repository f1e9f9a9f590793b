"""Cross-validation cells of a multi-class or regression task: every rung-1 check of the split
design runs on the fold predictions, and a held-out test part gets the split design's task
sections (methods.md section 9)."""

from __future__ import annotations

from reportgen.model import Report
from reportgen.view import build_view
from tests.layouts.conftest import built_ok

MISNAMED = {
    "id": "cv-multiclass-misnamed",
    "kind": "cv",
    "task": "multiclass",
    "swap_classes": True,
}
MULTICLASS_TEST = {
    "id": "cv-multiclass-test",
    "kind": "cv",
    "task": "multiclass",
    "test_part": True,
}
REGRESSION_TEST = {
    "id": "cv-regression-test",
    "kind": "cv",
    "task": "regression",
    "test_part": True,
    "unit": "points",
}


def _report(built_cells, cell) -> dict:
    b = built_ok(built_cells, cell)
    assert b.report is not None, b.describe()
    return b.report


def test_misnamed_class_columns_in_fold_predictions_warn_and_make_rung_1_partly(built_cells):
    b = built_ok(built_cells, MISNAMED)
    report = b.report
    assert "class-order" in b.stderr
    assert "net's accuracy over its held-out folds" in b.stderr
    rung1 = report["ladder"][0]
    assert rung1["status"] == "partly"
    assert "the p_ columns are likely named in the wrong order" in rung1["missing"]
    assert "reading its columns p_a as c, p_b as a, p_c as b" in rung1["missing"]


def test_well_named_class_columns_in_fold_predictions_leave_rung_1_shown(built_cells):
    report = _report(built_cells, {**MISNAMED, "id": "cv-multiclass-named", "swap_classes": False})
    assert report["ladder"][0]["status"] == "shown"


def test_a_held_out_multiclass_test_part_gets_the_multiclass_section(built_cells):
    report = _report(built_cells, MULTICLASS_TEST)
    mc = report["multiclass"]
    assert mc is not None and mc["classes"] == ["a", "b", "c"]
    assert mc["candidate"]["rows"] == 120
    assert report["descriptions"]


def test_a_held_out_regression_test_part_gets_the_regression_section(built_cells):
    report = _report(built_cells, REGRESSION_TEST)
    assert report["regression"] is not None
    assert report["regression"]["candidate"]["rows"] == 120
    assert report["descriptions"]


def test_without_a_test_part_a_cv_task_has_no_task_sections(built_cells):
    report = _report(built_cells, {**REGRESSION_TEST, "id": "cv-regression", "test_part": False})
    assert report["regression"] is None and report["multiclass"] is None


def test_the_threshold_line_of_a_cv_project_with_a_test_part_does_not_say_it_has_none(
    built_cells,
):
    for cell in (MULTICLASS_TEST, REGRESSION_TEST):
        absent = build_view(Report.from_json(_report(built_cells, cell)), ()).absent
        assert "this project has none" not in absent.threshold
        assert "this project has none" not in absent.calibration
        assert absent.threshold.startswith("No threshold, cost or ranking section")
    without = {**REGRESSION_TEST, "id": "cv-regression", "test_part": False}
    absent = build_view(Report.from_json(_report(built_cells, without)), ()).absent
    assert "this project has none" in absent.threshold
