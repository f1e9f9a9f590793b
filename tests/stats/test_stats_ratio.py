"""The row-weighted block estimand (methods.md section 3): ratio bootstrap and ratio t."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from scipy import stats as st

from reportgen.stats.blocks import block_noise
from reportgen.stats.bootstrap import block_bootstrap
from reportgen.stats.ttests import ratio_t, welch


def _rows_to_blocks(d_rows, codes):
    g = np.bincount(codes, weights=d_rows)
    n = np.bincount(codes).astype(float)
    return g, n


def test_unequal_blocks_sign_flip_hand_worked():
    # one 2,000-row block where the candidate is slightly better (+0.01 per row) and 19 blocks
    # of 5 rows where it is much worse (-0.1 per row): the unweighted mean of block gaps is
    # negative, the test metric over all rows is positive
    d_rows = np.concatenate([np.full(2000, 0.01), np.full(19 * 5, -0.1)])
    codes = np.concatenate([np.zeros(2000, int), np.repeat(np.arange(1, 20), 5)])
    g, n = _rows_to_blocks(d_rows, codes)
    unweighted = float(np.mean(g / n))
    assert unweighted == pytest.approx((0.01 - 19 * 0.1) / 20)  # -0.0945
    C = np.zeros((1, 20))
    B = g[None, :]  # lower is better: gap = baseline - candidate = g
    r = block_noise(
        C,
        B,
        candidate_seeds=[1],
        higher_is_better=False,
        counts=n,
        resamples=500,
        rng=np.random.default_rng(0),
    )
    assert r.gap == pytest.approx(d_rows.mean(), rel=1e-12)  # (20 - 9.5) / 2095 > 0
    assert r.gap > 0 > unweighted
    assert r.rows == 2095 and r.blocks == 20
    assert r.low <= r.gap <= r.high
    assert r.t.low <= r.gap <= r.t.high


def test_ratio_t_equal_blocks_is_scipy_one_sample_t():
    rng = np.random.default_rng(0)
    means = rng.normal(0.01, 0.02, 30)
    m = 7.0
    r = ratio_t(means * m, np.full(30, m), 0.95)
    ref = st.ttest_1samp(means, 0.0)
    ci = ref.confidence_interval(0.95)
    assert r.gap == pytest.approx(means.mean(), rel=1e-12)
    assert (r.low, r.high) == (
        pytest.approx(ci.low, rel=1e-10),
        pytest.approx(ci.high, rel=1e-10),
    )
    assert r.p == pytest.approx(ref.pvalue, rel=1e-9)


def test_ratio_t_hand_worked():
    # g = (2, 1, 6), n = (2, 1, 3): R = 9/6 = 1.5; residuals g - R n = (-1, -0.5, 1.5)
    r = ratio_t([2.0, 1.0, 6.0], [2.0, 1.0, 3.0], 0.95)
    var = 3 / 2 * (1 + 0.25 + 2.25) / 36
    assert r.gap == 1.5
    assert r.se == pytest.approx(np.sqrt(var), rel=1e-12)
    q = st.t.ppf(0.975, 2)
    assert r.low == pytest.approx(1.5 - q * np.sqrt(var), rel=1e-12)
    assert r.df == 2


def test_ratio_t_zero_spread_and_one_block():
    assert ratio_t([2.0, 4.0], [1.0, 2.0], 0.95).low is None  # every block gives gap 2
    one = ratio_t([2.0], [4.0], 0.95)
    assert one.gap == 0.5 and one.low is None


def test_ratio_bootstrap_equals_python_loop():
    rng = np.random.default_rng(3)
    g, n = rng.normal(size=12), rng.integers(1, 50, 12).astype(float)
    r = block_bootstrap(g, counts=n, resamples=300, confidence=0.9, rng=np.random.default_rng(8))
    loop_rng = np.random.default_rng(8)
    idx = loop_rng.integers(0, 12, size=(300, 12))
    est = np.array([g[i].sum() / n[i].sum() for i in idx])
    np.testing.assert_allclose(r["means"], est, rtol=1e-12)
    lo, hi = np.percentile(est, [5, 95])
    assert (r["low"], r["high"]) == (pytest.approx(lo, rel=1e-12), pytest.approx(hi, rel=1e-12))


def test_welch_ratio_equal_blocks_is_scipy_welch():
    rng = np.random.default_rng(5)
    c, b = rng.normal(0.3, 0.02, 25), rng.normal(0.31, 0.03, 25)
    m = 4.0
    r = welch(c * m, b * m, higher_is_better=False, confidence=0.95, counts=np.full(25, m))
    ref = st.ttest_ind(b, c, equal_var=False)
    assert r.p == pytest.approx(ref.pvalue, rel=1e-9)
    assert r.df == pytest.approx(float(ref.df), rel=1e-9)


@settings(max_examples=25, deadline=None)
@given(
    sizes=hs.lists(hs.integers(1, 40), min_size=2, max_size=15),
    seed=hs.integers(0, 2**16),
    hib=hs.booleans(),
)
def test_block_gap_is_the_row_weighted_metric(sizes, seed, hib):
    rng = np.random.default_rng(seed)
    codes = np.repeat(np.arange(len(sizes)), sizes)
    cand = rng.random((2, codes.size))  # 2 candidate networks, per-row metric
    base = rng.random((3, codes.size))
    C = np.stack([np.bincount(codes, weights=v) for v in cand])
    B = np.stack([np.bincount(codes, weights=v) for v in base])
    n = np.bincount(codes).astype(float)
    r = block_noise(
        C,
        B,
        candidate_seeds=[1, 2],
        higher_is_better=hib,
        counts=n,
        resamples=200,
        rng=np.random.default_rng(0),
    )
    want = cand.mean(0).mean() - base.mean(0).mean()
    assert r.gap == pytest.approx(want if hib else -want, rel=1e-9, abs=1e-12)
    for lo, hi, pt in [
        (r.low, r.high, r.gap),
        (r.t.low, r.t.high, r.gap),
    ] + [(s.low, s.high, s.gap) for s in r.per_seed]:
        if lo is not None:
            assert lo <= pt + 1e-12 and pt <= hi + 1e-12
