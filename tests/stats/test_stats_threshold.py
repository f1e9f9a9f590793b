"""Threshold choice (methods.md section 4): worked example, ties, and brute force."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from reportgen.stats.threshold import (
    PREDICT_NONE,
    at_threshold,
    choose_threshold,
    cost_curve,
    select_from_curve,
    theoretical_cutoff,
)

EPS = np.finfo(np.float64).eps


# ----------------------------------------------------------------- naive reference


def naive_costs(p, y, c_fp, c_fn):
    """One pass per candidate; plain Python."""
    cands = sorted(set(float(v) for v in p) | {0.5, PREDICT_NONE})
    out = []
    for t in cands:
        fp = sum(1 for pi, yi in zip(p, y, strict=True) if pi >= t and not yi)
        fn = sum(1 for pi, yi in zip(p, y, strict=True) if pi < t and yi)
        out.append((c_fp * fp + c_fn * fn) / len(p))
    return cands, out


def naive_choose(p, y, c_fp, c_fn):
    cands, costs = naive_costs(p, y, c_fp, c_fn)
    cmin = min(costs)
    tied = [t for t, c in zip(cands, costs, strict=True) if c - cmin <= 8 * EPS * abs(cmin)]
    dmin = min(abs(t - 0.5) for t in tied)
    close = [t for t in tied if abs(t - 0.5) - dmin <= 8 * EPS * dmin]
    return max(close)


scores = hs.one_of(
    hs.sampled_from([0.0, 0.1, 0.2, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8, 0.9, 1.0]),
    hs.floats(0.0, 1.0).map(lambda v: round(v, 2)),
)
rows = hs.lists(hs.tuples(scores, hs.booleans()), min_size=1, max_size=25)
costs = hs.one_of(hs.sampled_from([0.1, 0.2, 0.3, 1.0, 2.5, 3.0]), hs.floats(0.01, 10.0))


# ----------------------------------------------------------------- worked example


def test_worked_example_equal_costs(example):
    p, y = example
    t, c = cost_curve(p, y, 1.0, 1.0)
    assert t.tolist() == [0.1, 0.4, 0.5, 0.9, PREDICT_NONE]
    assert c.tolist() == [0.5, 0.25, 0.25, 0.25, 0.5]
    assert choose_threshold(p, y, 1.0, 1.0) == 0.5


def test_worked_example_fn_costs_three(example):
    p, y = example
    t, c = cost_curve(p, y, 1.0, 3.0)
    assert c.tolist() == [0.5, 0.25, 0.75, 0.75, 1.5]
    assert choose_threshold(p, y, 1.0, 3.0) == 0.4


def test_predict_none_wins():
    # two expensive negatives above the lone positive: predicting nothing is cheapest
    p, y = [0.9, 0.95, 0.8], [0, 0, 1]
    t, c = cost_curve(p, y, 10.0, 1.0)
    assert t[-1] == PREDICT_NONE and PREDICT_NONE > 1.0
    assert c[-1] == pytest.approx(1 / 3)
    assert choose_threshold(p, y, 10.0, 1.0) == PREDICT_NONE
    r = at_threshold(p, y, PREDICT_NONE, 10.0, 1.0)
    assert r["predicted_positive"] == 0 and r["precision"] == 0.0 and r["recall"] == 0.0


def test_score_of_one_is_predicted_positive_below_sentinel():
    p, y = [1.0, 0.2], [1, 0]
    assert choose_threshold(p, y, 1.0, 1.0) == 0.5
    t, c = cost_curve(p, y, 1.0, 1.0)
    assert t.tolist() == [0.2, 0.5, 1.0, PREDICT_NONE]
    assert c.tolist() == [0.5, 0.0, 0.0, 0.5]


# ----------------------------------------------------------------- tie rules


def test_costs_differing_by_rounding_tie():
    # t = 0.2 costs 3 FP = 0.1 * 3 = 0.30000000000000004; t = 0.9 costs 1 FN = 0.3.
    # Within 8 eps relative they tie, and 0.2 is closer to 0.5.
    p, y = [0.2, 0.6, 0.6, 0.6, 0.9], [1, 0, 0, 0, 1]
    t, c = cost_curve(p, y, 0.1, 0.3)
    by_t = dict(zip(t.tolist(), c.tolist(), strict=True))
    assert by_t[0.2] != by_t[0.9]  # they really differ in the last bit
    assert by_t[0.2] > by_t[0.9]
    assert choose_threshold(p, y, 0.1, 0.3) == 0.2


def test_distances_differing_by_rounding_tie_then_higher():
    # cost(0.45) == cost(0.55) == 1/3; |0.45 - 0.5| < |0.55 - 0.5| only by rounding,
    # so the distances tie and the higher threshold wins
    assert abs(0.45 - 0.5) < abs(0.55 - 0.5)
    p, y = [0.45, 0.52, 0.55], [1, 0, 1]
    t, c = cost_curve(p, y, 1.0, 1.0)
    assert c.tolist() == [1 / 3, 2 / 3, 2 / 3, 1 / 3, 2 / 3]
    assert choose_threshold(p, y, 1.0, 1.0) == 0.55
    # a real difference in distance: the closer one wins
    p2 = [0.45, 0.52, 0.56]
    assert choose_threshold(p2, y, 1.0, 1.0) == 0.45


def test_relative_tolerance_edges():
    th = np.array([0.2, 0.5])
    assert select_from_curve(th, np.array([1.0, 1.0 + 8 * EPS])) == 0.5  # tie -> closest
    assert select_from_curve(th, np.array([1.0, 1.0 + 9 * EPS])) == 0.2  # strictly lower
    # no absolute tolerance: zero beats the tiniest positive cost
    assert select_from_curve(th, np.array([0.0, 1e-300])) == 0.2
    assert select_from_curve(th, np.array([0.0, 0.0])) == 0.5
    assert select_from_curve(np.array([0.3, 0.7]), np.array([1.0, 1.0])) == 0.7  # equal distance


# ----------------------------------------------------------------- brute force


@settings(max_examples=300, deadline=None, database=None)
@given(rows, costs, costs)
def test_cost_curve_equals_brute_force(data, c_fp, c_fn):
    p = [r[0] for r in data]
    y = [r[1] for r in data]
    t, c = cost_curve(p, y, c_fp, c_fn)
    nt, nc = naive_costs(p, y, c_fp, c_fn)
    assert t.tolist() == nt
    assert c.tolist() == nc  # same formula, same floats: exact


@settings(max_examples=300, deadline=None, database=None)
@given(rows, costs, costs)
def test_choose_threshold_equals_brute_force(data, c_fp, c_fn):
    p = [r[0] for r in data]
    y = [r[1] for r in data]
    assert choose_threshold(p, y, c_fp, c_fn) == naive_choose(p, y, c_fp, c_fn)


def test_large_random_equals_brute_force_on_subsample():
    rng = np.random.default_rng(3)
    p = np.round(rng.random(300), 2)
    y = rng.random(300) < p
    assert choose_threshold(p, y, 1.0, 4.0) == naive_choose(p.tolist(), y.tolist(), 1.0, 4.0)


# ----------------------------------------------------------------- reporting


def test_at_threshold_example(example):
    p, y = example
    r = at_threshold(p, y, 0.4, 1.0, 3.0)
    assert r == {
        "threshold": 0.4,
        "confusion": [[1, 1], [0, 2]],
        "cost": 0.25,
        "precision": 2 / 3,
        "recall": 1.0,
        "false_positive_rate": 0.5,
        "predicted_positive": 3,
        "actual_positive": 2,
        "rows": 4,
    }
    r = at_threshold(p, y, 0.5, 1.0, 3.0)
    assert r["confusion"] == [[2, 0], [1, 1]]
    assert r["cost"] == 0.75 and r["precision"] == 1.0 and r["recall"] == 0.5
    assert r["false_positive_rate"] == 0.0
    assert at_threshold([0.2, 0.9], [1, 1], 0.5, 1.0, 1.0)["false_positive_rate"] is None
    assert all(type(v) is int for row in r["confusion"] for v in row)


def test_at_threshold_cost_matches_curve():
    rng = np.random.default_rng(0)
    p = np.round(rng.random(200), 1)
    y = rng.random(200) < p
    t, c = cost_curve(p, y, 2.0, 5.0)
    for ti, ci in zip(t[::3], c[::3], strict=True):
        assert at_threshold(p, y, ti, 2.0, 5.0)["cost"] == ci


def test_no_positives_zero_recall():
    r = at_threshold([0.2, 0.7], [0, 0], 0.5, 1.0, 1.0)
    assert r["recall"] == 0.0 and r["actual_positive"] == 0 and r["precision"] == 0.0


def test_empty_is_none():
    assert choose_threshold([], [], 1.0, 1.0) is None
    assert at_threshold([], [], 0.5, 1.0, 1.0)["cost"] is None


def test_theoretical_cutoff():
    assert theoretical_cutoff(1.0, 3.0) == 0.25
    assert theoretical_cutoff(1.0, 1.0) == 0.5
    assert theoretical_cutoff(0.0, 0.0) is None


def test_cost_axis_cuts_a_spike_and_keeps_the_chosen_costs_inside():
    from reportgen.stats.threshold import cost_axis

    ts = [i / 100 for i in range(101)]
    flat = [0.5 - 0.4 * min(t, 1 - t) for t in ts]  # 0.5 at the ends, 0.1 at 0.5
    whole = cost_axis([(ts, flat, 0.5)])
    assert whole is not None and not whole.cut and whole.top == whole.peak == 0.5
    spike = [0.05] * 98 + [0.5, 1.0, 2.0]  # no positives predicted near threshold 1
    cut = cost_axis([(ts, spike, 0.3)])
    assert cut is not None and cut.cut and (cut.peak, cut.peak_at) == (2.0, 1.0)
    assert 0.05 < cut.top <= 0.1  # 1.25 x the 90 % quantile (0.05), made a nice number
    # a chosen threshold's cost above that stays inside: the axis makes room for it
    high = cost_axis([(ts, spike, 0.985)])
    assert high is not None and high.cut and high.top >= 1.5 * 0.5 and high.top == 1.0
    assert cost_axis([([], [], 0.5)]) is None
