"""The variance budget of the gap: hand-worked terms, planning counts, chi-square sd."""

import math

import numpy as np
import pytest
from scipy import stats as st

from reportgen.stats import budget as bd
from reportgen.stats.results import Bounds, Reason


def test_worked_example_from_the_course_material():
    # seed sd 0.0053 over 5 seeds: 5.6e-6; per-week gap sd 0.02 over 52 weeks: 7.7e-6
    b = bd.budget(
        seed_sd=0.0053,
        n_seeds=5,
        block_var_of_gap=0.02**2 / 52,
        n_blocks=52,
        gap=0.0039,
        confidence=0.95,
    )
    assert b.seed_term == pytest.approx(0.0053**2 / 5, rel=1e-12)  # 5.618e-6
    assert b.block_term == pytest.approx(7.6923e-6, rel=1e-4)
    assert b.total == pytest.approx(13.31e-6, rel=1e-3)
    assert b.block_sd == pytest.approx(0.02, rel=1e-12)
    assert b.seed_share == pytest.approx(b.seed_term / b.total)
    assert b.z == pytest.approx(st.norm.ppf(0.975), rel=1e-12)
    assert b.half_width == pytest.approx(b.z * math.sqrt(b.total), rel=1e-12)


def _brute(var_this, other_term, target, z):
    for n in range(2, 100_000):
        if z * math.sqrt(var_this / n + other_term) < target:
            return n
    return None


@pytest.mark.parametrize("gap", [0.004, 0.006, 0.01, 0.03])
def test_needed_counts_match_a_brute_force_search(gap):
    sd, S, bsd, B = 0.005, 5, 0.02, 30
    b = bd.budget(
        seed_sd=sd, n_seeds=S, block_var_of_gap=bsd**2 / B, n_blocks=B, gap=gap, confidence=0.95
    )
    z, p = b.z, b.plan
    assert p.seeds_needed == _brute(sd**2, bsd**2 / B, gap, z)
    assert p.blocks_needed == _brute(bsd**2, sd**2 / S, gap, z)
    if p.seeds_needed is None:
        assert Reason.SEEDS_ALONE_CANNOT in p.reasons
    both = p.both_needed
    assert bd.half_width(sd**2, both.S, bsd**2, both.B, z) < gap or (both == bd.Both(S, B, 1.0))
    grid = {(g.S, g.B): g.half_width for g in b.grid}
    assert set(grid) == {(S * ks, B * kb) for ks in (1, 2, 4, 10) for kb in (1, 2, 4)}
    assert grid[(S, B)] == pytest.approx(b.half_width, rel=1e-12)


def test_useful_effect_plan_and_non_positive_gap():
    b = bd.budget(
        seed_sd=0.005,
        n_seeds=5,
        block_var_of_gap=1e-6,
        n_blocks=40,
        gap=0.02,
        confidence=0.95,
        min_useful_effect=0.01,
    )
    assert b.plan_useful.seeds_needed == _brute(0.005**2, 1e-6, 0.01, b.z)
    zero = bd.budget(
        seed_sd=0.005, n_seeds=5, block_var_of_gap=1e-6, n_blocks=40, gap=0.0, confidence=0.95
    )
    assert zero.plan.seeds_needed is None and zero.plan.reasons == (Reason.GAP_NOT_ABOVE_TARGET,)
    assert zero.plan_useful is None


def test_a_negative_gap_is_planned_towards_the_baseline_shown_better():
    # the interval excludes zero on the gap's side: the plan for -g is the plan for +g, while
    # the useful gain stays out of reach
    kw = dict(seed_sd=0.005, n_seeds=5, block_var_of_gap=1e-6, n_blocks=40, confidence=0.95)
    neg = bd.budget(gap=-0.006, min_useful_effect=0.002, **kw)
    pos = bd.budget(gap=0.006, **kw)
    assert neg.plan.seeds_needed == pos.plan.seeds_needed == _brute(0.005**2, 1e-6, 0.006, neg.z)
    assert neg.plan.blocks_needed == pos.plan.blocks_needed
    assert neg.plan.both_needed == pos.plan.both_needed
    assert neg.plan_useful.seeds_needed is None
    assert neg.plan_useful.reasons == (Reason.GAP_NOT_ABOVE_TARGET,)


def test_seed_sd_chi_square_interval_against_scipy():
    sd, n = 0.00517, 5
    iv = bd.sd_interval(sd, n, 0.95)
    lo = sd * np.sqrt((n - 1) / st.chi2.ppf(0.975, n - 1))
    hi = sd * np.sqrt((n - 1) / st.chi2.ppf(0.025, n - 1))
    assert iv.low == pytest.approx(lo, rel=1e-10) and iv.high == pytest.approx(hi, rel=1e-10)
    assert bd.sd_interval(sd, 1, 0.95) == Bounds(None, None)


def test_the_tie_plan_brings_the_interval_inside_the_useful_effect():
    # a tie needs the half-width below m - |gap|: 0.01 - 0.004 = 0.006, whichever sign the gap has
    kw = dict(seed_sd=0.005, n_seeds=5, block_var_of_gap=1e-6, n_blocks=40, confidence=0.95)
    for g in (0.004, -0.004):
        b = bd.budget(gap=g, min_useful_effect=0.01, **kw)
        assert b.plan_tie.seeds_needed == _brute(0.005**2, 1e-6, 0.006, b.z)
        assert b.plan_tie.blocks_needed == _brute(1e-6 * 40, 0.005**2 / 5, 0.006, b.z)
    wide = bd.budget(gap=0.012, min_useful_effect=0.01, **kw)
    assert wide.plan_tie.reasons == (Reason.GAP_NOT_ABOVE_TARGET,)
    assert bd.budget(gap=0.004, **kw).plan_tie is None
    assert bd.budget(gap=0.004, min_useful_effect=0.0, **kw).plan_tie is None
