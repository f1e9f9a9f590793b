"""Seed spread and paired-block evaluation noise (methods.md sections 2 and 3)."""

import json
import math

import numpy as np
import pytest
from scipy import stats as st

from reportgen.checks.jsonsafe import jsonable
from reportgen.checks.noise import no_pairs, seed_noise
from reportgen.checks.noise_block import block_model, primary_reason
from reportgen.model.common import IntPair, MaybeBounds
from reportgen.model.seed import SeedValues
from reportgen.stats.blocks import block_noise
from reportgen.stats.bootstrap import block_bootstrap, per_seed_intervals, two_level_bootstrap
from reportgen.stats.results import Bounds, Reason, Sides
from reportgen.stats.seeds import paired_seeds, seed_rule
from reportgen.stats.ttests import ratio_t, welch

# ----------------------------------------------------------------- seed rule


def test_seed_rule_hand_worked_lower_is_better():
    # candidate log loss 0.30, 0.33, 0.36: mean 0.33, sd 0.03
    # baseline 0.34, 0.36: mean 0.35, sd sqrt(0.0002) = 0.014142...
    # gap = 0.35 - 0.33 = 0.02; larger sd 0.03 -> 0.667 sd; fails at 2
    r = seed_rule([0.30, 0.33, 0.36], [0.34, 0.36], higher_is_better=False)
    assert r.n == Sides(3, 2)
    assert r.sd.candidate == pytest.approx(0.03, rel=1e-12)
    assert r.sd.baseline == pytest.approx(math.sqrt(0.0002), rel=1e-12)
    assert (r.mean.candidate, r.mean.baseline) == pytest.approx((0.33, 0.35))
    assert r.sd_used == pytest.approx(0.03, rel=1e-12)
    assert r.validation_gap == pytest.approx(0.02, rel=1e-12)
    assert r.gap_in_sd == pytest.approx(2 / 3, rel=1e-12)
    assert r.multiple == 2.0
    assert r.passes is False
    assert r.seeds_beating_baseline == 2  # 0.30 and 0.33 beat 0.35; 0.36 does not
    assert r.reason is None


def test_seed_rule_higher_is_better_mirror():
    r = seed_rule([0.70, 0.67, 0.64], [0.66, 0.64], higher_is_better=True)
    assert r.validation_gap == pytest.approx(0.02, rel=1e-9)
    assert r.gap_in_sd == pytest.approx(2 / 3, rel=1e-9)
    assert r.seeds_beating_baseline == 2
    worse = seed_rule([0.60, 0.62], [0.66, 0.64], higher_is_better=True)
    assert worse.validation_gap < 0 and worse.seeds_beating_baseline == 0


@pytest.mark.parametrize(
    ("sd_from", "sd", "passes"),
    [("baseline", math.sqrt(0.0002), False), ("candidate", 0.03, False), ("larger", 0.03, False)],
)
def test_seed_rule_sd_from(sd_from, sd, passes):
    r = seed_rule([0.30, 0.33, 0.36], [0.34, 0.36], higher_is_better=False, sd_from=sd_from)
    assert r.sd_used == pytest.approx(sd, rel=1e-12)
    assert r.gap_in_sd == pytest.approx(0.02 / sd, rel=1e-9)
    assert r.passes is passes


def test_seed_rule_passes_strictly_greater():
    r = seed_rule([0.30, 0.33, 0.36], [0.34, 0.36], higher_is_better=False, sd_from="baseline")
    assert r.gap_in_sd == pytest.approx(1.41421356, rel=1e-8)
    assert seed_rule(
        [0.30, 0.33, 0.36], [0.34, 0.36], higher_is_better=False, sd_from="baseline", multiple=1.4
    ).passes
    at_bar = seed_rule(
        [0.30, 0.33, 0.36],
        [0.34, 0.36],
        higher_is_better=False,
        sd_from="baseline",
        multiple=r.gap_in_sd,
    )
    assert at_bar.passes is False


def test_seed_rule_unmeasured():
    r = seed_rule([0.30], [0.34, 0.36], higher_is_better=False)
    assert r.sd.candidate is None and r.sd_used is None and r.gap_in_sd is None
    assert r.passes is False and r.reason is Reason.TOO_FEW_SEEDS and r.short == ("candidate",)
    assert r.validation_gap == pytest.approx(0.05)
    # the baseline's sd alone is measured
    b = seed_rule([0.30], [0.34, 0.36], higher_is_better=False, sd_from="baseline")
    assert b.gap_in_sd == pytest.approx(0.05 / math.sqrt(0.0002)) and b.passes is True
    both = seed_rule([0.3], [0.4], higher_is_better=False)
    assert both.reason is Reason.TOO_FEW_SEEDS and both.short == ("candidate", "baseline")


def test_seed_rule_zero_sd_and_bad_option():
    # both deterministic: the rule is trivially met when the gap is positive (0.1 > 0)
    r = seed_rule([0.3, 0.3], [0.4, 0.4], higher_is_better=False)
    assert r.sd_used == 0.0 and r.gap_in_sd is None and r.passes is True
    assert r.trivial is True and r.reason is Reason.BOTH_DETERMINISTIC
    worse = seed_rule([0.5, 0.5], [0.4, 0.4], higher_is_better=False)
    assert worse.trivial is True and worse.passes is False
    # a deterministic baseline is normal: the candidate's sd is used, and the note says so
    det = seed_rule([0.30, 0.32, 0.34], [0.4, 0.4, 0.4], higher_is_better=False, sd_from="baseline")
    assert det.sd_used == pytest.approx(0.02) and det.gap_in_sd == pytest.approx(4.0)
    assert det.note is Reason.CHOSEN_SIDE_DETERMINISTIC and det.substituted == (
        "baseline",
        "candidate",
    )
    assert det.deterministic == ("baseline",)
    larger = seed_rule([0.30, 0.32, 0.34], [0.4, 0.4, 0.4], higher_is_better=False)
    assert larger.sd_used == pytest.approx(0.02) and larger.note is Reason.ONE_SIDE_DETERMINISTIC
    with pytest.raises(ValueError, match="sd_from='max'"):
        seed_rule([0.3], [0.4], higher_is_better=False, sd_from="max")


def test_seed_rule_json_ready(json_ready):
    for cand, base, hib in (([0.3, 0.31], [0.4], False), ([0.3, 0.31], [0.4, 0.42], True)):
        rule = seed_rule(np.array(cand), base, higher_is_better=hib)
        json_ready(jsonable(_seed(rule)))


# ----------------------------------------------------------------- paired seeds / t / welch


def test_paired_seeds_against_scipy_both_directions():
    c = np.array([0.30, 0.32, 0.35, 0.31, 0.33])
    b = np.array([0.34, 0.33, 0.36, 0.35, 0.33])
    r = paired_seeds(c, b, higher_is_better=False)
    d = b - c
    ref = st.ttest_rel(b, c)
    ci = ref.confidence_interval(0.95)
    assert r.n == 5
    assert r.mean == pytest.approx(d.mean(), rel=1e-12)
    assert r.sd == pytest.approx(d.std(ddof=1), rel=1e-12)
    assert (r.low, r.high) == pytest.approx((ci.low, ci.high), rel=1e-12)
    assert r.p == pytest.approx(ref.pvalue, rel=1e-12)
    # hand check of the interval: mean +- t_{0.975, 4} sd / sqrt(5)
    half = st.t.ppf(0.975, 4) * d.std(ddof=1) / math.sqrt(5)
    assert r.low == pytest.approx(d.mean() - half, rel=1e-9)
    assert r.mean > 0  # candidate lower loss: positive gap
    up = paired_seeds(1 - c, 1 - b, higher_is_better=True)
    assert up.mean == pytest.approx(r.mean, rel=1e-9)
    assert up.low == pytest.approx(r.low, rel=1e-9)
    assert up.p == pytest.approx(r.p, rel=1e-9)


def test_paired_seeds_degenerate():
    r = paired_seeds([0.3], [0.4], higher_is_better=False)
    assert r.n == 1 and r.low is None and r.p is None and r.sd is None
    assert r.mean == pytest.approx(0.1) and r.reason is Reason.TOO_FEW_FOR_T
    z = paired_seeds([0.3, 0.4], [0.4, 0.5], higher_is_better=False)
    # d = [0.10000000000000003, 0.09999999999999998]: spread is float rounding only
    assert 0 < z.sd < 1e-15 and z.low is None and z.p is None
    with pytest.raises(ValueError, match="one baseline seed per candidate seed"):
        paired_seeds([0.3, 0.4], [0.4], higher_is_better=False)


def test_paired_seeds_zero_spread_is_none():
    r = paired_seeds([1.0, 2.0, 3.0], [0.0, 1.0, 2.0], higher_is_better=True)
    assert r.sd == 0.0 and r.low is None and r.p is None and r.reason is Reason.ZERO_SPREAD


def test_ratio_t_on_per_block_gaps_against_scipy():
    # without counts every block weighs the same: the one-sample t on the block gaps
    rng = np.random.default_rng(0)
    d = rng.normal(0.01, 0.02, 30)
    r = ratio_t(d, None, 0.9)
    ref = st.ttest_1samp(d, 0.0)
    ci = ref.confidence_interval(0.9)
    assert (r.low, r.high, r.p) == pytest.approx((ci.low, ci.high, ref.pvalue), rel=1e-12)
    assert r.se == pytest.approx(d.std(ddof=1) / math.sqrt(30), rel=1e-12)
    assert r.df == 29
    # ttest_rel on the two models is the same test
    base = rng.normal(0.5, 0.05, 30)
    cand = base - d  # lower is better: gap = base - cand = d
    rel = st.ttest_rel(base, cand)
    assert r.p == pytest.approx(rel.pvalue, rel=1e-9)
    assert ratio_t([0.1], None, 0.95).low is None


def test_welch_against_scipy():
    rng = np.random.default_rng(1)
    c = rng.normal(0.30, 0.02, 40)
    b = rng.normal(0.31, 0.05, 40)
    r = welch(c, b, higher_is_better=False, confidence=0.95)
    ref = st.ttest_ind(b, c, equal_var=False)
    ci = ref.confidence_interval(0.95)
    assert (r.low, r.high, r.p) == pytest.approx((ci.low, ci.high, ref.pvalue), rel=1e-12)
    assert r.se == pytest.approx(math.sqrt(c.var(ddof=1) / 40 + b.var(ddof=1) / 40), rel=1e-12)
    assert r.low < 0.31 - 0.30 < r.high or r.low > 0
    h = welch(1 - c, 1 - b, higher_is_better=True, confidence=0.95)
    assert h.low == pytest.approx(r.low, rel=1e-9) and h.p == pytest.approx(r.p, rel=1e-9)
    assert welch([0.1], [0.2, 0.3], higher_is_better=True, confidence=0.95).se is None


# ----------------------------------------------------------------- bootstraps


def test_block_bootstrap_equals_python_loop():
    rng_d = np.random.default_rng(5)
    d = rng_d.normal(0.01, 0.02, 52)
    r = block_bootstrap(d, resamples=500, confidence=0.9, rng=np.random.default_rng(7))
    g = np.random.default_rng(7)
    loop = np.array([d[g.integers(0, 52, size=52)].mean() for _ in range(500)])
    np.testing.assert_allclose(r["means"], loop, rtol=1e-12)
    assert (r["low"], r["high"]) == pytest.approx(tuple(np.percentile(loop, [5, 95])), rel=1e-12)
    assert r["gap"] == pytest.approx(d.mean(), rel=1e-12)
    assert r["low"] <= r["gap"] <= r["high"]


def _two_level(C, Bm, higher_is_better, paired, resamples, confidence, rng):
    """two_level_bootstrap, its options in order."""
    kw = dict(higher_is_better=higher_is_better, resamples=resamples, confidence=confidence)
    return two_level_bootstrap(C, Bm, paired=paired, rng=rng, **kw)


def _naive_two_level(C, Bm, higher_is_better, paired, resamples, g):
    """The two-level bootstrap as a Python loop: blocks, candidate seeds, baseline seeds."""
    bi = g.integers(0, C.shape[1], size=(resamples, C.shape[1]))
    sc = g.integers(0, C.shape[0], size=(resamples, C.shape[0]))
    sb = sc if paired else g.integers(0, Bm.shape[0], size=(resamples, Bm.shape[0]))
    sign = 1.0 if higher_is_better else -1.0
    return np.array(
        [sign * (C[sc[k]][:, bi[k]].mean() - Bm[sb[k]][:, bi[k]].mean()) for k in range(resamples)]
    )


@pytest.mark.parametrize(
    ("data", "means", "seeds", "blocks", "higher", "paired", "resamples", "conf", "draws"),
    [
        (2, (0.30, 0.31), (4, 3), 13, False, False, 300, 0.95, 11),
        (3, (0.70, 0.69), (3, 3), 10, True, True, 200, 0.8, 4),  # the same seed indices
    ],
    ids=["unpaired", "paired"],
)
def test_two_level_equals_naive_loop(
    data, means, seeds, blocks, higher, paired, resamples, conf, draws
):
    rng = np.random.default_rng(data)
    C = rng.normal(means[0], 0.02, (seeds[0], blocks))
    Bm = rng.normal(means[1], 0.02, (seeds[1], blocks))
    r = _two_level(C, Bm, higher, paired, resamples, conf, np.random.default_rng(draws))
    naive = _naive_two_level(C, Bm, higher, paired, resamples, np.random.default_rng(draws))
    pct = [50 * (1 - conf), 50 * (1 + conf)]
    assert (r["low"], r["high"]) == pytest.approx(tuple(np.percentile(naive, pct)), rel=1e-10)
    sign = 1.0 if higher else -1.0
    assert r["gap"] == pytest.approx(sign * (C.mean() - Bm.mean()), rel=1e-12)


def test_two_level_paired_needs_equal_seed_counts():
    C, Bm = np.full((3, 10), 0.7), np.full((2, 10), 0.69)
    with pytest.raises(ValueError, match="S_c == S_b"):
        _two_level(C, Bm, True, True, 10, 0.9, np.random.default_rng(0))


def _per_seed(C, base, seeds, rng, primary="wider", resamples=400, confidence=0.95):
    """per_seed_intervals of a lower-is-better metric."""
    kw = dict(resamples=resamples, confidence=confidence, rng=rng, primary=primary)
    return per_seed_intervals(C, base, seeds=seeds, higher_is_better=False, **kw)


def test_per_seed_intervals_match_loop_and_count():
    rng = np.random.default_rng(8)
    C = rng.normal(0.3, 0.02, (5, 30))
    base = rng.normal(0.31, 0.02, 30)
    seeds = np.array([11, 12, 13, 14, 15])
    out = _per_seed(C, base, seeds, np.random.default_rng(9), primary="bootstrap")
    assert len(out) == 5 and [o.seed for o in out] == [11, 12, 13, 14, 15]
    assert all(type(o.seed) is int for o in out)
    idx = np.random.default_rng(9).integers(0, 30, size=(400, 30))
    for s, o in enumerate(out):
        d = base - C[s]
        means = d[idx].mean(axis=1)
        assert o.gap == pytest.approx(d.mean(), rel=1e-12)
        assert (o.low, o.high) == pytest.approx(tuple(np.percentile(means, [2.5, 97.5])), rel=1e-10)
    t_out = _per_seed(C, base, ["a", "b", "c", "d", "e"], np.random.default_rng(9), primary="t")
    ref = st.ttest_1samp(base - C[2], 0.0).confidence_interval(0.95)
    assert (t_out[2].low, t_out[2].high) == pytest.approx((ref.low, ref.high), rel=1e-12)


# ----------------------------------------------------------------- block_noise


def _models(seed, blocks=52, s_c=5, s_b=5, shift=0.005, seed_sd=0.0, block_sd=0.02):
    rng = np.random.default_rng(seed)
    week = rng.normal(0.3, 0.05, blocks)  # shared block difficulty: pairing removes it
    C = week + rng.normal(0, block_sd, (s_c, blocks)) + rng.normal(0, seed_sd, (s_c, 1)) - shift
    Bm = week + rng.normal(0, block_sd, (s_b, blocks)) + rng.normal(0, seed_sd, (s_b, 1))
    return C, Bm


def _noise(C, Bm, resamples=2000, *, seed=0, seeds=range(5), higher_is_better=False, **kw):
    """block_noise with its own generator, ``default_rng(seed)``; a lower-is-better metric."""
    rng = np.random.default_rng(seed)
    return block_noise(
        C,
        Bm,
        candidate_seeds=seeds,
        higher_is_better=higher_is_better,
        resamples=resamples,
        rng=rng,
        **kw,
    )


def _seed(rule):
    """noise.seed of ``rule`` on validation, with no values, rows left out or pairs."""
    none = SeedValues(candidate=(), baseline=())
    return seed_noise(
        rule,
        sd_from="larger",
        part="validation",
        values=none,
        left_out=(),
        test_networks=None,
        paired=no_pairs(),
    )


def _block(r):
    """noise.block of the statistics ``r``, 5 networks per model on row blocks."""
    return block_model(
        r,
        rows=r.rows or r.blocks,
        block_column=None,
        block_kind="period",
        networks=IntPair(candidate=5, baseline=5),
        gap_in_seed_sd=None,
    )


#: the keys of noise.block the statistics give (the evaluation data gives the rest)
REPORT_KEYS = {
    "blocks",
    "rows",
    "gap",
    "low",
    "high",
    "confidence",
    "resamples",
    "primary",
    "primary_reason",
    "bootstrap",
    "t",
    "welch",
    "per_seed",
    "two_level",
    "excludes_zero",
    "distribution",
    "reason",
}


def test_block_noise_contract(json_ready):
    C, Bm = _models(0)
    r = _noise(C, Bm, 300, seeds=[1, 2, 3, 4, 5])
    block = _block(r)
    data_keys = {"block_column", "block_kind", "networks", "gap_in_seed_sd"}
    assert {k for k, _ in block.json_items()} == REPORT_KEYS | data_keys
    json_ready(jsonable(block))
    json.dumps(jsonable(block), allow_nan=False)
    assert r.blocks == 52 and r.resamples == 300 and r.confidence == 0.95
    # the primary interval is the wider of bootstrap and t
    widths = {k: getattr(r, k).high - getattr(r, k).low for k in ("bootstrap", "t")}
    assert r.primary == max(widths, key=widths.get)
    assert block.primary_reason.startswith("the wider of the two: bootstrap width ")
    assert (r.low, r.high) == (getattr(r, r.primary).low, getattr(r, r.primary).high)
    assert r.low <= r.gap <= r.high
    assert r.t.low <= r.gap <= r.t.high
    d = Bm.mean(0) - C.mean(0)
    assert r.gap == pytest.approx(d.mean(), rel=1e-12)
    assert r.t.p == pytest.approx(st.ttest_rel(Bm.mean(0), C.mean(0)).pvalue, rel=1e-9)
    assert len(r.per_seed) == 5
    assert r.two_level.low <= r.gap <= r.two_level.high
    assert len(r.distribution.edges) == 41 and len(r.distribution.counts) == 40
    assert sum(r.distribution.counts) == 300
    assert r.excludes_zero is (r.low > 0 or r.high < 0)
    # pairing buys precision: shared block difficulty inflates the unpaired se
    assert r.welch.se > 2 * r.t.se


def test_block_noise_reproducible_and_seed_dependent():
    C, Bm = _models(1)
    a = _noise(C, Bm, 200, seed=3)
    b = _noise(C, Bm, 200, seed=3)
    c = _noise(C, Bm, 200, seed=4)
    assert a == b
    assert a.bootstrap != c.bootstrap
    assert a.two_level != c.two_level
    assert a.t == c.t  # no randomness in t


def test_narrower_with_more_blocks():
    widths = []
    for blocks in (25, 400):
        C, Bm = _models(2, blocks=blocks)
        r = _noise(C, Bm, 500)
        widths.append(r.high - r.low)
    assert widths[1] < widths[0] / 2  # ~ 1/sqrt(16) = 1/4 expected


def test_two_level_wider_when_seed_spread_large():
    C, Bm = _models(3, seed_sd=0.03, block_sd=0.002)
    r = _noise(C, Bm, 1000)
    block_w = r.bootstrap.high - r.bootstrap.low
    two_w = r.two_level.high - r.two_level.low
    assert two_w > 3 * block_w
    gaps = [s.gap for s in r.per_seed]
    assert max(gaps) - min(gaps) > block_w  # retraining moves the centre


@pytest.mark.parametrize("blocks", [5, 19, 30, 200])
def test_primary_is_the_wider_and_contains_the_gap(blocks):
    C, Bm = _models(4, blocks=blocks)
    r = _noise(C, Bm, 400)
    w = {k: getattr(r, k).high - getattr(r, k).low for k in ("bootstrap", "t")}
    assert r.high - r.low == pytest.approx(max(w.values()), rel=1e-12)
    assert r.low <= r.gap <= r.high
    reason = _block(r).primary_reason  # the sentence noise.block holds
    assert reason.startswith("the wider of the two: bootstrap width ")
    assert (f"({blocks} blocks: the percentile bootstrap undercovers)" in reason) == (blocks < 30)
    # per-seed intervals: the wider of the two, each containing its own gap; t against scipy
    d0 = Bm.mean(0) - C[0]
    ref = st.ttest_1samp(d0, 0.0).confidence_interval(0.95)
    p0 = r.per_seed[0]
    assert p0.low <= p0.gap <= p0.high
    assert p0.high - p0.low >= ref.high - ref.low - 1e-12
    if p0.primary == "t":
        assert p0.low == pytest.approx(ref.low, rel=1e-12)


def test_sign_rule_excludes_zero_both_directions():
    C, Bm = _models(5, shift=0.03)  # candidate loss clearly lower
    lo = _noise(C, Bm, 300)
    assert lo.gap > 0 and lo.excludes_zero is True
    hi = _noise(1 - C, 1 - Bm, 300, higher_is_better=True)
    assert hi.gap == pytest.approx(lo.gap, rel=1e-9) and hi.excludes_zero is True
    worse = _noise(Bm, C, 300)  # the baseline clearly better: the interval lies below zero
    assert worse.gap < 0 and worse.high < 0 and worse.excludes_zero is True
    tied = _noise(*_models(5, shift=0.0), 300)
    assert tied.low <= 0 <= tied.high and tied.excludes_zero is False


def test_degenerate_blocks(json_ready):
    C, Bm = _models(6, blocks=1)
    r = _noise(C, Bm)
    json_ready(jsonable(_block(r)))
    assert r.low is None and r.high is None and r.reason is Reason.ONE_BLOCK
    assert r.gap == pytest.approx(float(Bm.mean() - C.mean()), rel=1e-12)
    assert len(r.per_seed) == 5 and r.per_seed[0].low is None
    nan = _noise([[0.1, np.nan]], [[0.2, 0.3]], seeds=[0])
    assert nan.low is None and nan.reason is Reason.BLOCK_NOT_FINITE


def test_seeds_paired_mismatch_reported():
    C, Bm = _models(7, s_c=5, s_b=3)
    r = _noise(C, Bm, 100, seeds_paired=True)
    # pairing is by label: with no pairs given and unequal counts nothing pairs, so the seeds are
    # resampled independently and the reason says so
    assert r.two_level.paired is False and r.two_level.reason is Reason.SEEDS_UNSHARED
    assert r.two_level.low is not None and r.low is not None
    # explicit label pairs: only those seeds enter the paired two-level bootstrap
    pr = _noise(C, Bm, 100, seeds_paired=True, pairs=[(0, 0), (2, 1), (4, 2)])
    assert pr.two_level.paired is True
    assert pr.two_level.seeds == Sides(3, 3)
    few = _noise(C, Bm, 100)
    assert few.two_level.reason is Reason.COARSE_SEED_LEVEL and few.two_level.fewest == 3
    assert few.two_level.low is not None


def test_block_noise_rng_order_and_parts():
    """One generator, fixed order: block bootstrap, per-seed bootstrap, two-level."""
    C, Bm = _models(9, s_c=4, s_b=3)
    r = _noise(C, Bm, 250, seed=12, seeds=range(4))
    d = Bm.mean(0) - C.mean(0)
    rng = np.random.default_rng(12)
    boot = block_bootstrap(d, resamples=250, confidence=0.95, rng=rng)
    per = _per_seed(C, Bm.mean(0), range(4), rng, resamples=250)
    two = _two_level(C, Bm, False, False, 250, 0.95, rng)
    assert r.bootstrap == Bounds(boot["low"], boot["high"])
    assert r.per_seed == per
    assert (r.two_level.low, r.two_level.high) == (two["low"], two["high"])
    counts, edges = np.histogram(boot["means"], bins=40)
    assert list(r.distribution.counts) == counts.tolist()
    assert list(r.distribution.edges) == pytest.approx(edges.tolist(), rel=1e-15)
    assert r.t.se == pytest.approx(d.std(ddof=1) / math.sqrt(52), rel=1e-12)
    ref = st.ttest_ind(Bm.mean(0), C.mean(0), equal_var=False)
    assert r.welch.p == pytest.approx(ref.pvalue, rel=1e-12)
    assert r.welch.df == pytest.approx(float(ref.df), rel=1e-12)


def test_primary_reason_widths_in_the_words_policy():
    """A regression target's widths are plain numbers with separators, never 1.42e+03."""
    bootstrap = MaybeBounds(low=-700.0, high=720.0)
    t = MaybeBounds(low=-0.000016, high=0.000016)
    assert primary_reason("t", 12, bootstrap, t) == (
        "the wider of the two: bootstrap width 1,420, t width 3.20 × 10⁻⁵ "
        "(12 blocks: the percentile bootstrap undercovers)"
    )
    assert primary_reason("t", 30, bootstrap, t).endswith("t width 3.20 × 10⁻⁵")
    assert primary_reason(None, 12, bootstrap, t) is None
