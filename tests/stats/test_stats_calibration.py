"""Reliability bins, ECE and Brier (methods.md section 6)."""

from dataclasses import asdict

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss

from reportgen.stats.calibration import brier, ece, reliability_bins
from reportgen.stats.proportions import wilson


def naive_ece(p, y, bins):
    total = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        members = [
            (pi, yi)
            for pi, yi in zip(p, y, strict=True)
            if lo <= pi < hi or (b == bins - 1 and pi == 1.0)
        ]
        if members:
            mp = sum(m[0] for m in members) / len(members)
            fy = sum(m[1] for m in members) / len(members)
            total += len(members) * abs(mp - fy)
    return total / len(p)


def test_worked_example(example):
    p, y = example
    assert ece(p, y, 10) == pytest.approx(0.1, rel=1e-12)
    assert ece(p, y, 2) == pytest.approx(0.05, rel=1e-12)
    assert brier(p, y) == pytest.approx(0.135, rel=1e-12)


def test_bins_example(example):
    p, y = example
    b = [asdict(x) for x in reliability_bins(p, y, bins=2)]
    z2 = 1.959963984540054**2  # z at 0.95, the default confidence
    assert b == [
        {
            "low": 0.0,
            "high": 0.5,
            "count": 3,
            "mean_p": pytest.approx(0.3),
            "fraction_positive": pytest.approx(1 / 3),
            "fraction_low": pytest.approx(wilson(1, 3, 0.95)[0], rel=1e-15),
            "fraction_high": pytest.approx(wilson(1, 3, 0.95)[1], rel=1e-15),
        },
        {
            "low": 0.5,
            "high": 1.0,
            "count": 1,
            "mean_p": 0.9,
            "fraction_positive": 1.0,
            # 1 of 1: Wilson's interval is [n / (n + z^2), 1]
            "fraction_low": pytest.approx(1 / (1 + z2), rel=1e-12),
            "fraction_high": 1.0,
        },
    ]
    b10 = reliability_bins(p, y)
    assert [x.count for x in b10] == [0, 1, 0, 0, 2, 0, 0, 0, 0, 1]
    assert b10[0].mean_p is None and b10[0].fraction_positive is None
    assert b10[0].fraction_low is None and b10[0].fraction_high is None
    assert b10[4].fraction_positive == 0.5


def test_edges_left_closed_last_includes_one():
    b = reliability_bins([0.0, 0.3, 0.5, 1.0], [0, 0, 1, 1], bins=10)
    assert [x.count for x in b] == [1, 0, 0, 1, 0, 1, 0, 0, 0, 1]
    assert b[3].low == 0.3 and b[9].high == 1.0


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("bins", [2, 10, 15])
def test_ece_against_naive_and_brier_against_sklearn(seed, bins):
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(300), 2)
    y = (rng.random(300) < p).astype(int)
    assert ece(p, y, bins) == pytest.approx(naive_ece(p.tolist(), y.tolist(), bins), rel=1e-9)
    assert brier(p, y) == pytest.approx(brier_score_loss(y, p), rel=1e-12)
    assert sum(x.count for x in reliability_bins(p, y, bins)) == 300


def test_perfectly_calibrated_zero_and_empty_none():
    assert ece([0.0, 1.0, 1.0], [0, 1, 1]) == 0.0
    assert ece([], []) is None and brier([], []) is None
    with pytest.raises(ValueError, match="bins=0"):
        ece([0.5], [1], bins=0)


@pytest.mark.parametrize("confidence", [0.95, 0.8])
def test_bin_interval_is_wilson_at_the_confidence(confidence):
    rng = np.random.default_rng(3)
    p = rng.random(400)
    y = rng.random(400) < p
    for b in reliability_bins(p, y, bins=10, confidence=confidence):
        k = int(round(b.fraction_positive * b.count))
        assert (b.fraction_low, b.fraction_high) == wilson(k, b.count, confidence)
        assert b.fraction_low <= b.fraction_positive <= b.fraction_high
    narrow = reliability_bins(p, y, bins=10, confidence=0.8)
    wide = reliability_bins(p, y, bins=10, confidence=0.95)
    assert all(
        w.fraction_low < n.fraction_low and n.fraction_high < w.fraction_high
        for n, w in zip(narrow, wide, strict=True)
    )
