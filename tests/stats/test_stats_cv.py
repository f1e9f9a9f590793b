"""stats/cv.py: the corrected resampled t by hand, baycomp's correlated t, properties (section 9)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from baycomp import CorrelatedTTest
from baycomp.single import Posterior
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reportgen.stats.cv import (
    cv_noise,
    fold_gap,
    half_width,
    holdout_ratio,
    planning,
    resampled_t,
    within_fold_spread,
)
from reportgen.stats.results import Reason
from tests.compare import assert_cv_mirrored

#: (repeats, folds, rows): the fold layouts of these tests, equal folds (rows divisible by folds)
EQUAL_LAYOUTS = [(1, 3, 30), (1, 5, 100), (1, 10, 100), (3, 5, 200), (5, 2, 40), (10, 10, 500)]


def _gaps(J: int, seed: int = 0, mean: float = 0.004, sd: float = 0.01) -> np.ndarray:
    return np.random.default_rng(seed).normal(mean, sd, J)


def test_corrected_t_written_out_by_hand():
    d = np.array([0.012, -0.004, 0.020, 0.007, 0.001, 0.015, -0.002, 0.009, 0.011, 0.004])
    ratio = 1 / 9
    res = resampled_t(d, ratio, 0.95)
    J, mean, s = d.size, d.mean(), d.std(ddof=1)
    se = math.sqrt((1 / J + ratio) * s**2)
    q = stats.t.ppf(0.975, J - 1)
    assert res.gap == pytest.approx(mean, abs=1e-15)
    assert res.sd == pytest.approx(s, rel=1e-12)
    c = res.corrected
    assert c.se == pytest.approx(se, rel=1e-12)
    assert c.df == 9
    assert c.low == pytest.approx(mean - q * se, rel=1e-10)
    assert c.high == pytest.approx(mean + q * se, rel=1e-10)
    assert c.p == pytest.approx(2 * stats.t.sf(abs(mean) / se, J - 1), rel=1e-10)
    n = res.naive
    assert n.se == pytest.approx(s / math.sqrt(J), rel=1e-12)
    assert n.low == pytest.approx(mean - q * s / math.sqrt(J), rel=1e-10)
    # the naive t is scipy's one-sample t over the fold gaps
    t1 = stats.ttest_1samp(d, 0.0)
    assert n.p == pytest.approx(t1.pvalue, rel=1e-10)
    ci = t1.confidence_interval(0.95)
    assert (n.low, n.high) == (
        pytest.approx(ci.low, rel=1e-10),
        pytest.approx(ci.high, rel=1e-10),
    )


def test_the_correction_at_ten_by_ten_is_more_than_three_times_the_naive_se():
    """J = 100, ratio 1/9: sqrt((1/100 + 1/9) / (1/100)) = 3.48."""
    res = resampled_t(_gaps(100), 1 / 9)
    assert res.corrected.se / res.naive.se == pytest.approx(
        math.sqrt((0.01 + 1 / 9) / 0.01), rel=1e-12
    )


@pytest.mark.parametrize("repeats, folds, rows", EQUAL_LAYOUTS)
@pytest.mark.parametrize("rope", [0.0, 0.003, 0.01])
def test_baycomp_agrees_on_equal_folds(repeats, folds, rows, rope):
    """CorrelatedTTest(x, y, rope, runs): diff = y - x, rho = 1/K, var x (1/J + rho/(1-rho)):
    with x the baseline's scores and y the candidate's (higher is better) it is our gap."""
    J = repeats * folds
    rng = np.random.default_rng(J)
    x = rng.normal(0.9, 0.02, J)
    y = x + rng.normal(0.003, 0.01, J)
    n_test = np.full(J, rows // folds)
    n_train = rows - n_test
    gaps = [fold_gap([yi], [xi], higher_is_better=True) for xi, yi in zip(x, y, strict=True)]
    ours = cv_noise(gaps, n_test, n_train, rope=rope)
    assert ours.test_train_ratio == pytest.approx(1 / (folds - 1), rel=1e-12)
    theirs = CorrelatedTTest.probs(x, y, rope=rope, runs=repeats)
    b = ours.bayes
    if rope == 0:
        assert b.p_worse == pytest.approx(theirs[0], abs=1e-9)
        assert b.p_better == pytest.approx(theirs[1], abs=1e-9)
        assert b.p_equivalent == pytest.approx(0.0, abs=1e-12)
    else:
        got = (b.p_worse, b.p_equivalent, b.p_better)
        assert got == pytest.approx(theirs, abs=1e-9)
    assert sum(got if rope else (b.p_worse, b.p_better)) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("higher", [True, False])
def test_baycomp_sign_convention_for_a_loss(higher):
    """For a loss the gap is baseline - candidate: baycomp's x is then the candidate."""
    rng = np.random.default_rng(3)
    cand = rng.normal(0.3, 0.02, 50)
    base = cand + rng.normal(0.004, 0.01, 50)
    if higher:
        cand, base = base, cand
    gaps = [fold_gap([c], [b], higher_is_better=higher) for c, b in zip(cand, base, strict=True)]
    ours = cv_noise(gaps, np.full(50, 20), np.full(50, 80), rope=0.002).bayes
    x, y = (base, cand) if higher else (cand, base)
    theirs = CorrelatedTTest.probs(x, y, rope=0.002, runs=10)
    assert (ours.p_worse, ours.p_equivalent, ours.p_better) == pytest.approx(theirs, abs=1e-9)
    assert ours.p_better > ours.p_worse


@pytest.mark.parametrize("sizes", [[57] * 9 + [56], [30, 30, 40], [100, 5, 5, 5, 5], [12, 13, 12]])
def test_baycomp_posterior_agrees_on_unequal_folds(sizes):
    """Unequal folds: baycomp's CorrelatedTTest assumes 1/(K-1); its Posterior with our
    variance (1/J + mean n_test/n_train) s^2 gives the same probabilities as ours."""
    n = sum(sizes)
    n_test = np.array(sizes * 2, dtype=float)
    n_train = n - n_test
    d = _gaps(len(n_test), seed=len(sizes))
    ours = cv_noise(d, n_test, n_train, rope=0.004)
    ratio = float(np.mean(n_test / n_train))
    assert ours.test_train_ratio == pytest.approx(ratio, rel=1e-12)
    var = (1 / d.size + ratio) * d.var(ddof=1)
    theirs = Posterior(d.mean(), var, d.size - 1, 0.004).probs()
    b = ours.bayes
    assert (b.p_worse, b.p_equivalent, b.p_better) == pytest.approx(theirs, abs=1e-9)


def test_holdout_ratio_is_the_mean_of_per_fold_ratios():
    assert holdout_ratio([10, 20], [90, 80]) == pytest.approx((10 / 90 + 20 / 80) / 2)
    with pytest.raises(ValueError):
        holdout_ratio([0, 10], [10, 0])


def test_fold_gap_averages_seeds_then_rows():
    cand = [[0.2, 0.4], [0.4, 0.6]]  # two networks, two rows: seed means 0.3, 0.5
    base = [[0.5, 0.5]]
    assert fold_gap(cand, base, higher_is_better=False) == pytest.approx(0.1)
    assert fold_gap(cand, base, higher_is_better=True) == pytest.approx(-0.1)
    with pytest.raises(ValueError):
        fold_gap([[0.1, 0.2]], [[0.1]], higher_is_better=True)


def test_within_fold_spread_is_the_mean_of_per_fold_variances():
    folds = [[1.0, 3.0], [2.0, 2.0, 5.0]]  # variances 2 and 3
    out = within_fold_spread(folds)
    assert out.sd == pytest.approx(math.sqrt(2.5))
    assert out.n == 2 and out.folds == 2 and out.zero is False
    assert out.mean == pytest.approx((2.0 + 3.0) / 2)
    one = within_fold_spread([[1.0], [2.0, 3.0]])
    assert one.sd is None and one.n == 1
    assert within_fold_spread([[0.5, 0.5], [0.7, 0.7]]).zero is True


@pytest.mark.parametrize(
    "gaps, n_test, reason",
    [
        ([0.1, 0.2], [5, 5], Reason.TOO_FEW_FOLD_GAPS),
        ([0.1, 0.2, 0.3], [1, 1, 1], Reason.LEAVE_ONE_OUT),
        ([0.1, 0.2, 0.3], [5, 0, 5], Reason.FOLD_WITHOUT_TEST_ROWS),
        ([0.1, 0.1, 0.1], [5, 5, 5], Reason.ZERO_SPREAD),
    ],
)
def test_refusals_are_null_with_a_reason(gaps, n_test, reason):
    out = cv_noise(gaps, n_test, [20] * len(n_test), rope=0.01)
    assert out.reason is reason
    assert out.corrected.low is None and out.naive.low is None
    assert out.bayes is None


def test_few_folds_is_said():
    assert cv_noise(_gaps(6), [10] * 6, [20] * 6).few_folds is True
    assert cv_noise(_gaps(10), [10] * 10, [90] * 10).few_folds is False


def test_run_log_only_ratio_is_one_over_k_minus_one():
    out = cv_noise(_gaps(20), ratio=1 / 4)
    assert out.test_train_ratio == 0.25
    with pytest.raises(ValueError):
        cv_noise(_gaps(20), [1] * 20)


def test_planning_floor_and_repeats_needed():
    sd, K, ratio = 0.01, 10, 1 / 9
    floor = stats.norm.ppf(0.975) * math.sqrt(ratio) * sd
    # a gap inside the floor: no number of repeats settles it
    p = planning(0.5 * floor, sd, repeats=10, folds=K, ratio=ratio)
    assert p.floor_half_width == pytest.approx(floor, rel=1e-12)
    assert p.repeats_cannot and p.repeats_needed is None and not p.settled
    # a gap a little wider than the floor: the fewest repeats whose interval excludes zero
    g = 1.05 * floor
    p = planning(g, sd, repeats=1, folds=K, ratio=ratio)
    r = p.repeats_needed
    assert r is not None and r > 1
    assert half_width(sd, r * K, ratio, 0.95) < g <= half_width(sd, (r - 1) * K, ratio, 0.95)
    # already settled
    assert planning(10 * floor, sd, repeats=10, folds=K, ratio=ratio, useful=0.001).settled
    assert planning(g, sd, repeats=1, folds=K, ratio=ratio, useful=floor / 2).floor_exceeds_useful


def test_the_corrected_p_is_twice_scikit_learns_one_sided_p():
    """scikit-learn's model-comparison example computes the same corrected t but prints the
    right-tailed p; the report's p is two-sided: twice that for the same t."""
    d = _gaps(30)
    n_train, n_test = 90, 10
    std = math.sqrt(np.var(d, ddof=1) * (1 / d.size + n_test / n_train))
    t_stat = float(np.mean(d)) / std
    one_sided = stats.t.sf(abs(t_stat), d.size - 1)
    res = resampled_t(d, n_test / n_train)
    assert res.gap / res.corrected.se == pytest.approx(t_stat, rel=1e-12)
    assert res.corrected.p == pytest.approx(2 * one_sided, rel=1e-9)


def test_planning_uses_the_fold_gaps_of_todays_interval_when_a_fold_is_missing():
    sd, ratio = 0.05, 0.25
    p = planning(0.01, sd, repeats=3, folds=5, ratio=ratio, J=14)
    assert p.half_width == pytest.approx(half_width(sd, 14, ratio, 0.95), rel=1e-12)
    assert p.half_width > half_width(sd, 15, ratio, 0.95)
    r = planning(0.06, sd, repeats=3, folds=5, ratio=ratio, J=14).repeats_needed
    assert r is not None
    assert half_width(sd, 14 + (r - 3) * 5, ratio, 0.95) < 0.06
    assert half_width(sd, 14 + (r - 4) * 5, ratio, 0.95) >= 0.06


gap_lists = st.lists(
    st.floats(min_value=-1.0, max_value=1.0, allow_nan=False, width=64), min_size=3, max_size=60
)


@settings(max_examples=150, deadline=None)
@given(gaps=gap_lists, folds=st.integers(2, 20), rope=st.floats(0.0, 0.5))
def test_corrected_interval_contains_the_naive_one(gaps, folds, rope):
    out = cv_noise(gaps, ratio=1 / (folds - 1), rope=rope)
    c, n = out.corrected, out.naive
    if c.low is None:
        return
    assert c.low <= n.low <= out.gap <= n.high <= c.high
    assert c.p >= n.p - 1e-12
    b = out.bayes
    assert min(b.p_worse, b.p_equivalent, b.p_better) >= -1e-12
    assert b.p_worse + b.p_equivalent + b.p_better == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(gaps=gap_lists, folds=st.integers(2, 20), rope=st.floats(0.0, 0.5))
def test_swapping_the_models_mirrors_everything(gaps, folds, rope):
    """Candidate and baseline swapped: every gap changes sign, so the intervals mirror, the
    p-values stay and P(worse) and P(better) trade places."""
    a = cv_noise(gaps, ratio=1 / (folds - 1), rope=rope)
    b = cv_noise([-g for g in gaps], ratio=1 / (folds - 1), rope=rope)
    assert b.gap == pytest.approx(-a.gap, abs=1e-12)
    if a.corrected.low is None:
        assert b.corrected.low is None
        return

    def figures(res):
        return {part: vars_of(getattr(res, part)) for part in ("corrected", "naive")}

    assert_cv_mirrored(figures(a), figures(b), 1e-12, {"abs": 1e-12})
    assert b.bayes.p_worse == pytest.approx(a.bayes.p_better, abs=1e-12)
    assert b.bayes.p_equivalent == pytest.approx(a.bayes.p_equivalent, abs=1e-12)


def vars_of(t) -> dict:
    """A t interval's low, high and p, as assert_cv_mirrored reads them."""
    return {"low": t.low, "high": t.high, "p": t.p}
