"""An interval that rules out a useful gain says so."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import scipy.stats

from reportgen.checks import compute_report
from reportgen.checks.relevance import relevance
from reportgen.checks.types import Interval
from reportgen.model.relevance import Relevance
from reportgen.project import load_project
from reportgen.project.config import Config
from tests.checks.builder import make_project
from tests.checks.builder_ba import write_ba_project


def _rel(low: float, high: float, m: float | None) -> Relevance:
    project = SimpleNamespace(config=Config(min_useful_effect=m))
    rel = relevance(
        project, Interval((low + high) / 2, low, high, "block", "test", "30 weeks"), None
    )
    assert rel is not None
    return rel


def test_an_interval_below_the_useful_effect_rules_out_a_useful_gain():
    rel = _rel(-0.0247, 0.0037, 0.02)
    assert rel.finding == "no-useful-gain"
    assert rel.text == (
        "the interval −0.0247 to +0.0037 lies below the useful effect 0.02: no useful gain is "
        "there (its upper end +0.0037 rules one out), but it is no tie either: its lower end "
        "−0.0247 reaches beyond −0.02"
    )
    assert "too wide" not in rel.text


@pytest.mark.parametrize(
    "low, high, m, finding",
    [
        (0.021, 0.03, 0.02, "useful-gain-shown"),
        (0.001, 0.03, 0.02, "positive-not-useful"),
        (-0.019, 0.019, 0.02, "equivalent"),
        (-0.03, -0.001, 0.02, "worse"),
        (-0.0247, 0.0037, 0.02, "no-useful-gain"),
        (-0.03, 0.0199, 0.02, "no-useful-gain"),
        (-0.03, 0.02, 0.02, "inconclusive"),  # reaches the useful effect: still open
        (-0.01, 0.03, 0.02, "inconclusive"),
        (-0.0247, 0.0037, 0.0, "inconclusive"),  # m = 0: no band, nothing ruled out
        (-0.0247, 0.0037, None, "inconclusive"),
    ],
)
def test_findings_in_order(low, high, m, finding):
    assert _rel(low, high, m).finding == finding


def test_the_claim_and_rung_4_say_the_gain_is_ruled_out(tmp_path):
    root = make_project(
        tmp_path / "p", cand_strength=1.0, base_strength=1.0, min_useful_effect=0.005
    )
    report, _ = compute_report(load_project(root))
    rel = report["relevance"]
    assert rel["finding"] == "no-useful-gain"
    assert rel["low"] <= -0.005 and 0 <= rel["high"] < 0.005
    assert report["ladder"][3]["missing"] == rel["finding_text"]
    # the slice shown worse is named after it
    assert (
        "; a useful gain of 0.005 is ruled out (upper end +0.00164); but net is worse on "
        in (report["claim"]["rewritten"])
    )
    assert report["decision"]["verdict"] == "keep-baseline"


def test_before_after_says_a_useful_gain_is_ruled_out(tmp_path):
    """300 questions, 150 right before; 10 fixed, 14 broken: −0.0133 (t interval −0.0455 to
    +0.0188) with min_useful_effect 0.02: a useful gain is ruled out, as model-against-baseline
    says it."""
    q300 = [f"q{i:04d}" for i in range(300)]
    before = {q: int(i < 150) for i, q in enumerate(q300)}
    after = {q: int(14 <= i < 160) for i, q in enumerate(q300)}
    root = write_ba_project(
        tmp_path / "p",
        before=before,
        after=after,
        min_useful_effect=0.02,
    )
    report, _ = compute_report(load_project(root))
    d = np.array([after[q] - before[q] for q in q300], dtype=float)
    half = scipy.stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
    assert (d.mean() - half, d.mean() + half) == pytest.approx((-0.04548, 0.01882), abs=1e-5)
    rel = report["relevance"]
    assert rel["finding"] == "no-useful-gain"
    assert (rel["low"], rel["high"]) == pytest.approx((d.mean() - half, d.mean() + half))
    assert (
        report["ladder"][3]["missing"]
        == rel["finding_text"]
        == (
            "the interval −0.0455 to +0.0188 lies below the useful effect 0.02: no useful gain is "
            "there (its upper end +0.0188 rules one out), but it is no tie either: its lower end "
            "−0.0455 reaches beyond −0.02"
        )
    )
    assert report["ladder"][3]["summary"] == "a useful gain is ruled out"
    assert report["claim"]["rewritten"] == (
        "Tuning did not clearly change the model: frozen-set accuracy went from 0.500 to 0.487 "
        "(−0.0133, 95% interval −0.0455 to +0.0188; 10 fixed, 14 broken); a useful gain of 0.02 "
        "is ruled out (upper end +0.0188)."
    )
    assert report["decision"]["reasons"][0] == (
        "the interval −0.0455 to +0.0188 is not above the useful effect 0.02: a useful gain of "
        "0.02 is ruled out (upper end +0.0188)"
    )


def test_an_interval_past_the_useful_effect_at_its_upper_end_only_says_which_end():
    # breast-cancer-cv's case: inside -m at the low end, just past +m at the high end; a
    # Bayesian P(equivalent) near 0.97 beside it must not meet "too wide to decide"
    rel = _rel(-0.0032, 0.0103, 0.01)
    assert rel.finding == "inconclusive"
    assert rel.text == (
        "the interval −0.0032 to +0.0103 holds zero and its upper end +0.0103 reaches the "
        "useful effect 0.01: neither a gain nor a tie is shown"
    )
    # past both ends it is too wide for either
    assert _rel(-0.03, 0.03, 0.02).text == ("the interval −0.0300 to +0.0300 is too wide to decide")
