"""The orientation policy: one sign per interval, either model called better only on both noise
lines, flags and labels that say where the interval lies, no reconsider-when item already met."""

import re
from dataclasses import replace
from pathlib import Path

import pytest

from reportgen.checks import compute_report
from reportgen.checks.orientation import (
    Side,
    interval_side,
    noise_label,
    seed_side,
    shown_side,
    zero_words,
)
from reportgen.checks.types import Interval
from reportgen.model.enums import IntervalSource
from reportgen.model.seed import SeedNoise
from reportgen.project import load_project
from reportgen.stats.results import Bounds
from reportgen.words import interval as interval_words
from tests.checks.builder import make_project

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _iv(low: float, high: float) -> Interval:
    return Interval((low + high) / 2, low, high, IntervalSource.BLOCK, "test", "30 weeks")


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """A baseline shown better (both noise lines), a candidate shown better, and the diabetes
    example: its test interval lies below zero while the seed rule stays inside the noise."""
    cases = {
        "baseline shown better": {"cand_strength": 0.5, "base_strength": 2.0},
        "candidate shown better": {},
    }
    out = {}
    for name, kw in cases.items():
        root = make_project(tmp_path_factory.mktemp(name.replace(" ", "-")), **kw)
        out[name] = compute_report(load_project(root))[0]
    out["harm not shown"] = compute_report(load_project(EXAMPLES / "diabetes-regression"))[0]
    return out


@pytest.fixture(scope="module")
def seed(reports) -> SeedNoise:
    return SeedNoise.from_json(reports["candidate shown better"]["noise"]["seed"])


@pytest.mark.parametrize(
    "low,high,side,words",
    [
        (0.01, 0.03, Side.CANDIDATE, "lies above zero"),
        (-0.03, -0.01, Side.BASELINE, "lies below zero"),
        (-0.01, 0.03, Side.NEITHER, "includes zero"),
        (0.0, 0.03, Side.NEITHER, "includes zero"),
        (-0.03, 0.0, Side.NEITHER, "includes zero"),
    ],
)
def test_the_side_an_interval_favours_and_its_words(low, high, side, words):
    iv = _iv(low, high)
    assert interval_side(iv) == side
    assert zero_words(iv) == words
    assert Bounds(low, high).excludes_zero is (side != Side.NEITHER)
    assert interval_side(None) is None and Bounds(None, high).excludes_zero is False


def test_a_side_is_shown_only_when_both_noise_lines_agree(seed):
    k = seed.multiple
    above, below, across = _iv(0.01, 0.03), _iv(-0.03, -0.01), _iv(-0.01, 0.03)
    beyond_c = replace(seed, gap_in_sd=k + 0.5, passes=True, trivial=False)
    beyond_b = replace(seed, gap_in_sd=-k - 0.5, passes=False, trivial=False)
    inside = replace(seed, gap_in_sd=k - 0.5, passes=False, trivial=False)
    unmeasured = replace(seed, gap_in_sd=None, passes=False, trivial=False)
    assert seed_side(beyond_c) == Side.CANDIDATE and seed_side(beyond_b) == Side.BASELINE
    assert seed_side(inside) == Side.NEITHER and seed_side(unmeasured) is None
    # exactly at the bar is not beyond it (the rule is strict), on either side
    assert seed_side(replace(inside, gap_in_sd=-k)) == Side.NEITHER
    assert shown_side(beyond_c, above) == Side.CANDIDATE
    assert shown_side(beyond_b, below) == Side.BASELINE
    for s, iv in [(beyond_c, below), (beyond_b, above), (inside, below), (unmeasured, below)]:
        assert shown_side(s, iv) is None
    assert shown_side(beyond_b, across) is None and shown_side(beyond_b, None) is None
    # deterministic models: the sign of the gap is the seed line's side
    det = replace(seed, trivial=True, gap_in_sd=None)
    assert seed_side(replace(det, validation_gap=-0.01)) == Side.BASELINE
    assert seed_side(replace(det, validation_gap=0.01)) == Side.CANDIDATE
    assert seed_side(replace(det, validation_gap=0.0)) == Side.NEITHER


def test_rung_three_label_says_how_each_line_came_out(seed):
    below = _iv(-0.03, -0.01)
    inside = replace(seed, gap_in_sd=-1.02, passes=False, trivial=False)
    assert noise_label(inside, below, "test interval") == (
        "seed rule fails; test interval lies below zero"
    )
    beyond_b = replace(seed, gap_in_sd=-3.5, passes=False, trivial=False)
    assert noise_label(beyond_b, None, "test interval") == (
        "seed rule fails (on the baseline's side); no test interval"
    )
    assert noise_label(seed, _iv(0.01, 0.03), "test interval") == (
        "seed rule passes; test interval lies above zero"
    )


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


@pytest.mark.parametrize(
    "name", ["baseline shown better", "harm not shown", "candidate shown better"]
)
def test_the_evaluation_interval_is_printed_with_one_sign_everywhere(reports, name):
    r = reports[name]
    iv = Interval.from_json(r["noise"]["interval"])
    flipped = interval_words(-iv.high, -iv.low, digits=iv.digits)
    text = "\n".join(_strings(r))
    assert iv.ends in text
    assert flipped not in text


def test_the_baseline_shown_better_is_said_with_both_lines(reports):
    r = reports["baseline shown better"]
    iv = r["noise"]["interval"]
    assert iv["high"] < 0 and r["noise"]["seed"]["gap_in_sd"] < -2
    assert r["claim"]["rewritten"].startswith("Under a fair comparison, base beats net on")
    assert "negative favours base" in r["claim"]["rewritten"]
    assert r["decision"]["reasons"][0].startswith("the baseline is better: the test interval")
    assert "on the baseline's side" in r["decision"]["reasons"][0]
    assert r["noise"]["block"]["excludes_zero"] is True


def test_an_interval_below_zero_without_the_seed_rule_claims_no_winner(reports):
    r = reports["harm not shown"]
    iv, seed = r["noise"]["interval"], r["noise"]["seed"]
    assert iv["high"] < 0 and -2 < seed["gap_in_sd"] < 0
    claim = r["claim"]["rewritten"]
    assert " beats " not in claim and "is not shown to be better than" in claim
    assert "does not show ridge better either" in claim
    assert not any("the baseline is better" in x for x in r["decision"]["reasons"])
    assert r["decision"]["verdict"] == "keep-baseline"
    assert r["noise"]["block"]["excludes_zero"] is True
    assert r["ladder"][2]["summary"] == "seed rule fails; test interval lies below zero"
    assert "the candidate is worse" not in r["ladder"][3]["missing"]


@pytest.mark.parametrize(
    "name", ["baseline shown better", "harm not shown", "candidate shown better"]
)
def test_no_reconsider_when_item_is_already_met(reports, name):
    r = reports[name]
    iv = r["noise"]["interval"]
    text = r["claim"]["reconsider_when"]
    # the interval item asks for what is not true today: above zero, never "excludes zero"
    assert "interval excludes zero (now" not in text, text
    assert ("the test interval lies above zero (now " in text) is (iv["low"] <= 0), text
    m = re.search(r"the interval's lower end reaches the useful effect ([\d.]+)", text)
    if m:
        assert iv["low"] < float(m.group(1)), text


@pytest.mark.parametrize("required", [True, False])
def test_a_slice_shown_worse_is_named_in_the_claim_and_rung_five(tmp_path, required):
    kw = {"shifted_worse": True, "base_strength": 0.8}
    root = make_project(tmp_path, **kw, not_worse_on=("shifted",) if required else ())
    r = compute_report(load_project(root))[0]
    shifted = next(s for s in r["slices"] if s["slice"] == "shifted")
    assert shifted["worse"] is True and shifted["required"] is required
    claim = r["claim"]["rewritten"]
    assert claim.count("'shifted'") == 1, claim
    assert "net is worse on slice 'shifted'" in claim or "worse on slice 'shifted'" in claim
    assert "net worse on 'shifted'" in r["ladder"][4]["summary"]
    if not required:  # rung 5 is reached: the claim's "each slice" leaves the worse one out
        assert r["claim"]["supported_rung"] == 5
        assert "on each of the 2 slices with an interval where it is not worse" in claim


def test_an_interval_above_zero_without_the_seed_rule_says_the_interval_lies_above_zero(
    tmp_path,
):
    root = make_project(tmp_path, cand_strength=1.5, base_strength=2.0, seed_jitter=0.4)
    r = compute_report(load_project(root))[0]
    iv, seed = r["noise"]["interval"], r["noise"]["seed"]
    assert iv["low"] > 0 and not seed["passes"]
    assert r["claim"]["rewritten"].startswith(
        "Under a fair comparison, the test interval of net's log loss gap over base lies above "
        "zero, but the gap is not shown to be larger than retraining noise: "
    )
    assert "gap over base excludes zero" not in r["claim"]["rewritten"]
