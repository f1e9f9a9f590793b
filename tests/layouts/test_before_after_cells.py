"""The before/after cells of the layout matrix where a harm or a mismatch
passed. Expectations come from the generator's truth (tests/layouts/gen.py) with numpy and scipy,
never from reportgen."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from click.testing import CliRunner

from reportgen.cli import main
from tests.layouts import cells as C
from tests.layouts.conftest import cell_params
from tests.layouts.gen import BA_BASE, BA_CAND
from tests.layouts.test_figures import built_ok


def t_interval(d: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """The paired t interval of a mean difference over questions, written out."""
    se = d.std(ddof=1) / np.sqrt(d.size)
    q = scipy.stats.t.ppf(0.5 + confidence / 2, d.size - 1)
    return d.mean() - q * se, d.mean() + q * se


def assert_wider_of_bootstrap_and_t(entry: dict, t: tuple[float, float]) -> None:
    """The primary interval is the wider of the bootstrap and the t interval (section 3)."""
    low, high = entry["low"], entry["high"]
    assert high - low >= t[1] - t[0] - 1e-12
    if entry["primary"] == "t":
        assert (low, high) == pytest.approx(t, abs=1e-12)


def fact(report: dict, fact_id: str) -> dict:
    return next(f for f in report["fairness"] if f["id"] == fact_id)


# --------------------------------------------------------------------------- item 1


def test_general_set_on_other_questions_is_not_held(built_cells):
    r = built_ok(built_cells, C.BA_GENERAL_OTHER).report
    g = r["general"]
    # before g0000-g0299 at 0.9, after g0150-g0449 at 0.7; the 150 shared ones right on both
    assert (g["before"], g["after"]) == pytest.approx((270 / 300, 210 / 300), abs=1e-12)
    assert g["held"] is False and g["status"] == "not shown"
    assert g["drop"] is None and g["low"] is None and g["high"] is None
    cov = g["coverage"]
    assert cov["questions"] == 450 and cov["both"] == 150
    assert cov["before"]["lacks"] == 150 and cov["after"]["lacks"] == 150
    assert (
        "the before version left 150 and the after version 150 of the 450 general questions"
        in (g["reason"])
    )
    assert r["decision"]["verdict"] == "roll-back"
    assert any("did not answer the same general questions" in x for x in r["decision"]["reasons"])
    assert r["ladder"][4]["status"] == "not shown"


def test_general_set_on_the_same_questions_adopts(built_cells):
    """The control: the same cell with both versions on the same general questions adopts."""
    control = {**C.BA_GENERAL_OTHER, "id": "ba-general-same-questions", "general_shift": 0}
    r = built_ok(built_cells, control).report
    assert r["general"]["held"] is True and r["general"]["coverage"]["complete"] is True
    assert r["decision"]["verdict"] == "adopt"


def test_general_set_in_the_manifest_fails_coverage_and_is_not_held(built_cells):
    r = built_ok(built_cells, C.BA_GENERAL_OTHER_FROZEN).report
    assert fact(r, "manifest-verified")["passed"] is True
    assert fact(r, "predictions-cover-parts")["passed"] is False
    assert r["general"]["held"] is False and r["general"]["drop"] is None
    assert r["decision"]["verdict"] == "roll-back"
    claim = r["claim"]["rewritten"]
    assert claim.startswith("The comparison is not shown to be fair: coverage fails (")
    assert "untouched" not in claim


# --------------------------------------------------------------------------- item 2


def test_duplicated_question_id_is_an_input_error_at_build(built_cells):
    b = built_cells(C.BA_DUPLICATE_ID)
    assert b.traceback is None, b.crash()
    assert b.exit_code == 1 and b.report is None
    # q0150 is data row 151 (line 152); the second q0150 is appended as row 301 (line 302)
    assert (
        "split/test.csv:302:1: error: duplicate row_id 'q0150': also at split/test.csv:152:1"
    ) in b.stderr


@pytest.mark.parametrize("command", ["validate", "freeze"])
def test_duplicated_question_id_is_an_input_error_at_validate_and_freeze(built_cells, command):
    b = built_cells(C.BA_DUPLICATE_ID)
    manifest = b.gen.path / "split" / "manifest.json"
    before = manifest.read_bytes()
    r = CliRunner().invoke(main, [command, str(b.gen.path)])
    assert r.exit_code == 1, r.output
    assert "split/test.csv:302:1" in r.output and "also at split/test.csv:152:1" in r.output
    assert manifest.read_bytes() == before  # freeze refuses: the manifest is not rewritten


# --------------------------------------------------------------------------- item 3


def test_required_slice_that_got_worse_rolls_back(built_cells):
    b = built_ok(built_cells, C.BA_SLICE_WORSE)
    r, gen = b.report, b.gen
    dates = gen.parts["test"]["category"].to_numpy() == "dates"
    before = gen.per_row[(BA_BASE, 0, "test")][dates]
    after = gen.per_row[(BA_CAND, 0, "test")][dates]
    assert (before.mean(), after.mean()) == (0.52, 0.38)  # the generator's promise
    s = next(x for x in r["slices"] if x["slice"] == "dates")
    assert s["rows"] == 100 and s["required"] is True
    assert (s["before"], s["after"]) == pytest.approx((0.52, 0.38), abs=1e-12)
    assert s["gap"] == pytest.approx(-0.14, abs=1e-12)
    t = t_interval(after - before)
    assert t == pytest.approx((-0.20920, -0.07080), abs=5e-5)
    assert_wider_of_bootstrap_and_t(s, t)
    assert s["worse"] is True and s["not_worse"] is False and s["margin"] == 0.02
    check = next(c for c in r["checks"] if c["id"] == "not-worse-on-dates")
    assert check["passed"] is False
    assert r["decision"]["verdict"] == "roll-back"
    assert r["decision"]["reasons"][0].startswith(
        "tuning made slice 'dates' (100 questions) worse: from 0.520 to 0.380, difference −0.140"
    )
    assert r["ladder"][3]["status"] == "partly" and "'dates'" in r["ladder"][3]["missing"]
    assert "made slice 'dates' (100 questions) worse" in r["claim"]["rewritten"]


def test_the_same_cell_without_a_required_slice_adopts(built_cells):
    control = {**C.BA_SLICE_WORSE, "id": "ba-slice-not-required", "slice_required": None}
    r = built_ok(built_cells, control).report
    assert r["slices"] is None and r["decision"]["verdict"] == "adopt"


# --------------------------------------------------------------------------- item 4


def test_a_clear_harm_is_called_one(built_cells):
    b = built_ok(built_cells, C.BA_HARM)
    r, gen = b.report, b.gen
    d = gen.per_row[(BA_CAND, 0, "test")] - gen.per_row[(BA_BASE, 0, "test")]
    ba = r["before_after"]
    assert (ba["fixed"], ba["broken"]) == (5, 40)
    assert ba["difference"] == pytest.approx(-35 / 300, abs=1e-12)
    t = t_interval(d)
    assert t == pytest.approx((-0.15870, -0.07464), abs=5e-5)
    assert (ba["t"]["low"], ba["t"]["high"]) == pytest.approx(t, abs=1e-12)
    assert_wider_of_bootstrap_and_t(ba, t)
    p = scipy.stats.binomtest(5, 45, 0.5).pvalue
    assert ba["mcnemar_p"] == pytest.approx(p, rel=1e-12) and p == pytest.approx(7.88e-8, rel=1e-3)
    claim = r["claim"]["rewritten"]
    assert claim.startswith(
        "Tuning made the model worse: frozen-set accuracy fell from 0.500 to 0.383"
    )
    assert "−0.117" in claim and "5 fixed, 40 broken; McNemar p < 0.001" in claim
    assert "did not clearly change" not in claim
    assert r["decision"]["verdict"] == "roll-back"
    assert r["decision"]["reasons"][0].startswith("tuning made it worse: the difference −0.117")
    assert r["ladder"][2]["missing"].startswith("tuning made it worse")


# --------------------------------------------------------------------------- item 5


def test_unanswered_frozen_questions_name_coverage_and_the_count(built_cells):
    b = built_ok(built_cells, C.BA_UNANSWERED)
    r, gen = b.report, b.gen
    ba = r["before_after"]
    before = gen.per_row[(BA_BASE, 0, "test")][:290]
    after = gen.per_row[(BA_CAND, 0, "test")]
    assert after.size == 290 and ba["questions"] == 290
    assert (ba["before"], ba["after"]) == pytest.approx((before.mean(), after.mean()), abs=1e-12)
    cov = ba["coverage"]
    assert (cov["questions"], cov["both"], cov["after"]["lacks"]) == (300, 290, 10)
    assert fact(r, "manifest-verified")["passed"] is True
    assert fact(r, "predictions-cover-parts")["passed"] is False
    claim = r["claim"]["rewritten"]
    assert claim.startswith("The comparison is not shown to be fair: coverage fails (")
    on = f"from {before.mean():.3f} to {after.mean():.3f} on 290 of 300 questions ("
    assert on in claim and "untouched" not in claim
    assert r["decision"]["verdict"] == "roll-back"
    assert any(
        "left 10 of the 300 frozen questions unanswered" in x for x in r["decision"]["reasons"]
    )


def test_general_rows_missing_name_coverage_not_the_frozen_set(built_cells):
    r = built_ok(built_cells, C.BA_GENERAL_ROWS_MISSING).report
    assert fact(r, "manifest-verified")["passed"] is True
    assert r["general"]["held"] is False and r["general"]["drop"] is None
    assert (
        "the after version left 10 of the 300 general questions unanswered"
        in r["general"]["reason"]
    )
    claim = r["claim"]["rewritten"]
    assert claim.startswith("The comparison is not shown to be fair: coverage fails (")
    assert "untouched" not in claim
    assert r["decision"]["verdict"] == "roll-back"


# --------------------------------------------------------------------------- every cell


@pytest.mark.parametrize("cell", cell_params([c for c in C.all_cells() if c.get("kind") == "ba"]))
def test_general_set_held_only_on_the_same_questions(cell, built_cells):
    """Held is shown or false: never on a general set the two versions answered differently."""
    b = built_cells(cell)
    if b.report is None or not b.report.get("general"):
        return
    g = b.report["general"]
    if g["held"]:
        assert g["coverage"] is not None and g["coverage"]["complete"] is True, g
        assert g["high"] is not None and g["high"] <= g["max_drop"], g
