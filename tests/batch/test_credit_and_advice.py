"""The rubric scores the credited ladder, and feedback's advice comes from what is missing."""

from __future__ import annotations

import tomllib
from dataclasses import replace

import pytest

from reportgen.checks import compute
from reportgen.errors import UsageError
from reportgen.grading.advice import GENERAL, advice
from reportgen.grading.feedback import feedback_data, render_markdown
from reportgen.grading.rubric import TEMPLATE, max_points, parse_rubric, score
from reportgen.model import Report
from reportgen.model.common import IntPair
from reportgen.project import ProjectPaths, load_project
from tests.checks.builder_ba import HARM, write_ba_project

from .fakes import fixture_report, with_ladder


@pytest.fixture(scope="module")
def churn() -> Report:
    """weekly-churn: rungs 1, 2 and 5 shown, 3 and 4 not; 30 weekly test blocks."""
    report, _ = compute(load_project("examples/weekly-churn", ProjectPaths()))
    return report


def _points(scores) -> dict:
    return {s.line.column: (s.points, s.why) for s in scores}


def test_a_shown_rung_above_an_unshown_one_earns_no_credit(churn):
    assert [r.credited for r in churn.ladder] == [True, True, False, False, False]
    assert churn.ladder[4].status == "shown"  # its own status is kept
    pts = _points(score(parse_rubric(tomllib.loads(TEMPLATE)), churn))
    assert pts["rung5_bounded"] == (0.0, "shown, not credited: rung 3 below it is not shown")
    assert pts["rung2_fair"] == (2.0, "shown")


def test_the_rubric_may_score_each_rung_s_own_status(churn):
    doc = tomllib.loads(TEMPLATE)
    doc["rungs"]["credit"] = "status"
    pts = _points(score(parse_rubric(doc), churn))
    assert pts["rung5_bounded"] == (1.0, "shown")


def test_not_credited_earns_the_not_shown_points():
    doc = {"rungs": {"relevant": {"shown": 2, "partly": 1, "not_shown": 0.5}}}
    statuses = ["shown", "partly"] + ["shown"] * 3
    (s,) = score(parse_rubric(doc), with_ladder(fixture_report("report-minimal.json"), statuses))
    assert (s.points, s.why) == (0.5, "shown, not credited: rung 2 below it is partly")


def test_a_bad_credit_option_is_refused():
    with pytest.raises(UsageError, match="credit = 'ladder' is not one of 'credited', 'status'"):
        parse_rubric({"rungs": {"credit": "ladder", "correct": 1}})


# ----------------------------------------------------------------------------- advice


def test_advice_for_thirty_weekly_blocks_never_asks_for_a_block_column(churn):
    text = advice(churn, 3)
    assert "block column" not in text
    assert "+0.88 seed sd" in text and "more than 2" in text
    assert "−0.0051 to +0.0116 includes zero" in text
    md = render_markdown(feedback_data("alice", churn))
    assert "block column" not in md.split("## The claim")[0]


def _with(report: Report, **noise) -> Report:
    return replace(report, noise=replace(report.noise, **noise))


def test_advice_without_per_row_predictions_asks_for_them(churn):
    text = advice(_with(churn, block=None, interval=None), 3)
    assert "Write per-row test predictions for both models" in text


def test_advice_with_one_seed_per_model_asks_for_seeds(churn):
    assert churn.noise.seed is not None
    seed = replace(churn.noise.seed, n=IntPair(candidate=1, baseline=1), gap_in_sd=None)
    seed = replace(seed, trivial=False)
    text = advice(_with(churn, seed=seed), 3)
    assert "Log at least 5 seeds of each model" in text and "(now 1 and 1)" in text


def test_advice_with_one_block_asks_for_more_blocks(churn):
    assert churn.noise.block is not None
    block = replace(churn.noise.block, low=None, high=None, blocks=1)
    assert "fall in 1 block, and an interval needs at least 2" in advice(
        _with(churn, block=block), 3
    )


def test_advice_for_fairness_names_the_failing_fact(churn):
    fact = replace(
        next(f for f in churn.fairness if f.id == "rule-before-runs"),
        passed=False,
        text="decision rule written 2026-04-01, AFTER the first run",
    )
    r = replace(churn, fairness=tuple(fact if f.id == fact.id else f for f in churn.fairness))
    text = advice(r, 2)
    assert "[rule] written in evreport.toml) is dated after the first run" in text
    assert "(now: decision rule written 2026-04-01, AFTER the first run)" in text


def test_advice_for_relevance_and_bounds(churn):
    assert churn.relevance is not None
    r = replace(churn, relevance=replace(churn.relevance, min_useful_effect=None))
    assert advice(r, 4).startswith("State the smallest gain worth having")
    r = replace(r, project=replace(r.project, slice_column=None))
    assert "Add a slice column" in advice(r, 5)
    assert "block column" not in advice(r, 5)  # the report has one: week
    r = replace(r, project=replace(r.project, block_column=None))
    assert "Add a block column" in advice(r, 5)


def test_advice_falls_back_to_the_general_paragraph_when_the_report_says_nothing_more(churn):
    fair = replace(churn, fairness=tuple(replace(f, passed=True) for f in churn.fairness))
    assert advice(fair, 2) == GENERAL[2]()
    # the seed rule passes and the test interval lies above zero: nothing specific to say
    assert churn.noise.seed is not None and churn.noise.block is not None
    seed = replace(churn.noise.seed, passes=True)
    block = replace(churn.noise.block, low=0.001, high=0.007)
    assert advice(_with(churn, seed=seed, block=block), 3) == GENERAL[3]()
    assert advice(replace(churn, relevance=None), 4).startswith("There is no evaluation interval")


def harm_report(tmp_path) -> Report:
    """report.json of a before-after harm: 5 fixed, 40 broken, interval −0.159 to −0.075."""
    before, after = HARM
    root = write_ba_project(tmp_path / "p", before=before, after=after)
    return compute(load_project(root))[0]


def test_advice_on_a_harm_says_harm_and_never_narrowing(tmp_path):
    """300 questions, 150 right before; 5 fixed, 40 broken: interval −0.159 to −0.075."""
    r = harm_report(tmp_path)
    assert r.ladder[2].status == "not shown"
    text = advice(r, 3)
    assert text == (
        "The test interval −0.159 to −0.075 lies wholly below zero: after is worse than before "
        "on the test rows, a harm that more test rows would not turn into a gain; claim the harm, "
        "as the claim your evidence supports does."
    )
    assert "includes zero" not in text and "narrow" not in text


def test_a_check_that_never_applies_to_before_after_is_left_out_of_the_maximum(tmp_path):
    """The template rubric's fair-test-opened-once-candidate has no before-after counterpart:
    not applicable, out of the maximum (13 of the template's 14), never a lost point."""
    r = harm_report(tmp_path)
    rubric = parse_rubric(tomllib.loads(TEMPLATE))
    scores = score(rubric, r)
    (line,) = [s for s in scores if s.line.column == "check_fair-test-opened-once-candidate"]
    assert not line.applies and line.points == 0.0
    assert line.why == "does not apply to a before/after comparison: left out of the maximum"
    assert rubric.max == 14 and max_points(rubric, scores) == 13
    md = render_markdown(feedback_data("bea", r, scores, 5.0, max_points(rubric, scores)))
    assert "**Points: 5 of 13**" in md
    assert "| check fair test opened once candidate | — | does not apply" in md
