"""Cross-validation cells: the sentences about the fold gaps agree with the numbers and the
conventions they rest on (methods.md section 9)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from scipy import stats

from reportgen.checks import compute_report
from reportgen.model import Report
from reportgen.project import load_project
from reportgen.render.html import render_html
from reportgen.view import build_view
from reportgen.words import with_sign
from tests.layouts import cells as C
from tests.layouts.conftest import built_ok
from tests.layouts.gen_cv import CAND, make_cv_project

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


def test_the_corrected_p_is_labelled_two_sided_with_its_t_statistic_beside_it(built_cells):
    report = _report(built_cells, _cell("cv-test-part"))
    cv = report["noise"]["cv"]
    c = cv["corrected"]
    assert cv["t"] == pytest.approx(cv["gap"] / c["se"], rel=1e-12)
    assert c["p"] == pytest.approx(2 * stats.t.sf(abs(cv["t"]), c["df"]), rel=1e-9)
    t_text = f"t = {with_sign(cv['t'], 2)}, two-sided p = {c['p']:.3f}"
    assert t_text in report["noise"]["lines"][1]
    rows = build_view(Report.from_json(report), ()).cv.interval_rows
    assert [r.t for r in rows] == [
        with_sign(cv["gap"] / part["se"], 2) for part in (c, cv["naive"])
    ]
    html = render_html(build_view(Report.from_json(report), ()))
    assert '<th scope="col" class="num">Two-sided p</th>' in html
    assert '<th scope="col" class="num">t</th>' in html


def _uneven_seeds(tmp_path):
    """3 x 5 folds, 3 candidate seeds, but seed 3 never ran on repeat 1 fold 1."""
    gen = make_cv_project(tmp_path / "p", seeds=(3, 2))
    runs = pd.read_csv(gen.path / "runs.csv")
    gone = (runs.model == CAND) & (runs.seed == 3) & (runs.repeat == 1) & (runs.fold == 1)
    runs[~gone].to_csv(gen.path / "runs.csv", index=False)
    report, _ = compute_report(load_project(gen.path))
    return report


def test_the_seed_line_says_seeds_per_fold_are_the_fewest_in_any_fold(tmp_path):
    report = _uneven_seeds(tmp_path)
    seed = report["noise"]["seed"]
    assert seed["n"] == {"candidate": 2, "baseline": 2}
    assert len(seed["values"]["candidate"]) == 3  # every seed analysed
    assert report["noise"]["lines"][0].endswith(
        " Seeds per fold count the fewest in any fold: net has 2 to 3 per fold, 3 seeds in all; "
        "every seed is analysed."
    )
    [item] = [i for i in report["claim"]["reconsider_items"] if "seed sd" in i]
    assert item.endswith("sd, with 2 of net and 2 of base in the fold with the fewest)")


def test_even_seeds_per_fold_need_no_word_on_the_fewest(built_cells):
    report = _report(built_cells, _cell("cv-test-part"))
    assert "the fewest in any fold" not in report["noise"]["lines"][0]


def test_the_planning_note_is_not_pasted_into_a_reconsider_item(built_cells):
    report = _report(built_cells, _cell("cv-worse"))
    plan = report["noise"]["cv"]["planning"]
    assert plan["repeats_needed"] == 4
    items = report["claim"]["reconsider_items"]
    assert not any(plan["text"] in i or "More repeats shrink" in i for i in items)
    assert (
        "4 repeats of 5 folds are run (now 3): the planning note in the noise section "
        "estimates the interval would then exclude zero"
    ) in items


def test_one_run_per_fold_is_told_that_a_second_seed_shows_determinism(built_cells):
    """One seed a side per fold never measures the seed rule, so rung 3 is out of reach; the
    reconsider-when item says what a second seed per fold would show."""
    report = _report(built_cells, {"id": "cv-one-seed", "kind": "cv", "seeds": (1, 1)})
    seed = report["noise"]["seed"]
    assert seed["gap_in_sd"] is None and not seed["trivial"]
    assert report["ladder"][2]["status"] != "shown"
    (item,) = [i for i in report["claim"]["reconsider_items"] if "seeds per fold" in i]
    assert "(now 1 net, 1 base): a second seed per fold also shows whether a model trains " in (
        item
    )


def test_a_likely_tie_by_the_bayesian_view_is_never_called_too_wide_to_decide():
    """breast-cancer-cv: P(equivalent) 0.97 on page three, and page one's reading of the same
    interval (rung 4, relevance) says which end reaches the useful effect instead of "too wide
    to decide"; the resampling line says the verdict follows the interval."""
    from pathlib import Path

    path = Path(__file__).parents[1] / "fixtures" / "report-breast-cancer-cv.json"
    report = Report.from_json(json.loads(path.read_text(encoding="utf-8"))).to_json()
    bayes = report["noise"]["cv"]["bayes"]
    assert bayes["p_equivalent"] > 0.9
    rel = report["relevance"]
    assert rel["finding"] == "inconclusive"
    said = [rel["text"], *(r["missing"] or "" for r in report["ladder"])]
    said += list(report["decision"]["reasons"])
    assert not any("too wide to decide" in s for s in said), said
    assert "neither a gain nor a tie is shown" in rel["text"]
    assert "the verdict follows the interval" in report["noise"]["lines"][1]
    assert "corrected resampled t" not in report["claim"]["rewritten"]
