"""The figures of generated layouts against independent computations.

Expectations come from the generator's truth (tests/layouts/gen.py) with numpy, scipy and
brute force, never from reportgen. Letters name the figures: (a) the block estimand,
(b) intervals contain their estimates, (c) the seed line, (d) seeds paired by label,
(e) one-class test, (f) before-after without category, (g) harms need evidence,
(h) honest tie words, (i) validation/test sign disagreement, (j) block kind "group",
(k) the primary interval is the wider one. The rules on every cell and items
(l) to (p) are in test_figures_items.py.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.layouts import cells as C
from tests.layouts.conftest import (
    build,
    built_ok,
    built_report,
    cell_params,
    expected_test_gap,
    keys,
    strings,
    useful_band,
)
from tests.layouts.gen import BASE, CAND

TOL = 1e-12


GAP_CELLS = [
    C.CANONICAL,
    C.UNEQUAL_FLIP,
    {"id": "gap-accuracy-both", "metric": "accuracy"},
    {"id": "gap-brier-partly", "metric": "brier", "layout": "partly"},
    {"id": "gap-error-rate-test-only-weekly52", "metric": "error_rate", "layout": "test-only",
     "blocks": "weekly52"},
    {"id": "gap-cost-fixed-threshold", "metric": "cost", "threshold": 0.3},
    {"id": "gap-custom-high-unequal", "metric": "custom_high", "blocks": "unequal"},
    {"id": "gap-custom-low-parquet", "metric": "custom_low", "fmt": "parquet"},
    {"id": "gap-log-loss-no-block", "blocks": "none"},
]  # fmt: skip


@pytest.mark.parametrize("cell", cell_params(GAP_CELLS))
def test_a_block_gap_is_the_row_weighted_test_metric(cell, built_cells):
    b = built_ok(built_cells, cell)
    gen = b.gen
    block = b.report["noise"]["block"]
    assert block is not None, "no noise.block although both models have test predictions"
    want = expected_test_gap(gen)
    assert block["gap"] == pytest.approx(want, abs=TOL), (block["gap"], want)
    cand_t = gen.seeds(CAND, "test", predictions=True)
    base_t = gen.seeds(BASE, "test", predictions=True)
    if len(cand_t) == 1 and len(base_t) == 1:
        logged = gen.sign(
            gen.logged[(CAND, cand_t[0], "test")], gen.logged[(BASE, base_t[0], "test")]
        )
        assert block["gap"] == pytest.approx(logged, abs=TOL)


def test_a_unequal_blocks_flip_the_unweighted_mean(built_cells):
    """The unequal-blocks cell really separates the two estimands, and the report takes the right one."""
    b = built_ok(built_cells, C.UNEQUAL_FLIP)
    gen = b.gen
    d = gen.seed_mean_rows(BASE, "test") - gen.seed_mean_rows(CAND, "test")
    weeks = gen.parts["test"]["week"].to_numpy()
    per_block = [float(np.mean(d[weeks == w])) for w in dict.fromkeys(weeks)]
    assert len(per_block) == 20 and np.sum(weeks == weeks[0]) == 2000
    unweighted, weighted = float(np.mean(per_block)), float(np.mean(d))
    assert unweighted < 0 < weighted  # the precondition: opposite signs
    gap = b.report["noise"]["block"]["gap"]
    assert gap > 0, f"gap {gap} has the sign of the unweighted mean {unweighted}"
    assert gap == pytest.approx(weighted, abs=TOL)


@settings(
    max_examples=15,
    deadline=None,
    database=None,
    phases=(Phase.explicit, Phase.generate),  # no shrinking: each example is a full build
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    sizes=st.lists(st.integers(min_value=1, max_value=60), min_size=2, max_size=12),
    metric=st.sampled_from(["log_loss", "brier", "custom_high"]),
    seed=st.integers(min_value=0, max_value=2**16),
)
def test_a_random_unequal_blocks_gap_is_row_weighted(sizes, metric, seed):
    with tempfile.TemporaryDirectory() as tmp:
        cell = {"id": "hyp", "blocks": sizes, "metric": metric, "seed": seed, "seeds": 2,
                "slices": "none"}  # fmt: skip
        b = build(Path(tmp), cell)
        assert b.traceback is None, b.crash()
        assert b.exit_code == 0, b.describe()
        gap = b.report["noise"]["block"]["gap"]
        assert gap == pytest.approx(expected_test_gap(b.gen), abs=TOL)


# --------------------------------------------------------------------------- (b) intervals hold their estimates


def _contains(where: str, low, point, high, out: list) -> None:
    if low is None or high is None or point is None:
        return
    if not (low - TOL <= point <= high + TOL):
        out.append(f"{where}: {point} not in [{low}, {high}]")


def interval_violations(report: dict) -> list[str]:
    bad: list[str] = []
    noise = report.get("noise") or {}
    block = noise.get("block")
    if block:
        g = block.get("gap")
        _contains("noise.block", block.get("low"), g, block.get("high"), bad)
        for name in ("t", "bootstrap"):
            sub = block.get(name) or {}
            _contains(f"noise.block.{name}", sub.get("low"), g, sub.get("high"), bad)
        two = block.get("two_level") or {}
        _contains("noise.block.two_level", two.get("low"), two.get("gap", g), two.get("high"), bad)
        for i, ps in enumerate(block.get("per_seed") or []):
            _contains(
                f"noise.block.per_seed[{i}]", ps.get("low"), ps.get("gap"), ps.get("high"), bad
            )
    paired = (noise.get("seed") or {}).get("paired") or {}
    _contains("noise.seed.paired", paired.get("low"), paired.get("mean"), paired.get("high"), bad)
    iv = noise.get("interval") or {}
    _contains("noise.interval", iv.get("low"), iv.get("gap"), iv.get("high"), bad)
    rel = report.get("relevance") or {}
    _contains("relevance", rel.get("low"), rel.get("gap"), rel.get("high"), bad)
    for s in report.get("slices") or []:
        _contains(f"slices[{s.get('slice')}]", s.get("low"), s.get("gap"), s.get("high"), bad)
    ba = report.get("before_after") or {}
    d = ba.get("difference")
    _contains("before_after", ba.get("low"), d, ba.get("high"), bad)
    t = ba.get("t") or {}
    _contains("before_after.t", t.get("low"), d, t.get("high"), bad)
    gen_ = report.get("general") or {}
    _contains("general", gen_.get("low"), gen_.get("drop"), gen_.get("high"), bad)
    return bad


@pytest.mark.parametrize("cell", cell_params(C.all_cells()))
def test_b_every_interval_contains_its_point_estimate(cell, built_cells):
    report = built_report(built_cells, cell)
    bad = interval_violations(report)
    assert not bad, "; ".join(bad)


# --------------------------------------------------------------------------- (c) the seed line


def _assert_seed_sds(gen, seed: dict, part: str) -> None:
    """The seed line counts 5 networks a side and its sds are theirs, logged on ``part``."""
    assert seed["n"] == {"candidate": 5, "baseline": 5}
    for role, model in (("candidate", CAND), ("baseline", BASE)):
        vals = [gen.logged[(model, s, part)] for s in gen.seeds(model, part)]
        assert len(vals) == 5
        assert seed["sd"][role] == pytest.approx(np.std(vals, ddof=1), rel=1e-9)


def test_c_canonical_seed_line_uses_every_validation_seed(built_cells):
    b = built_ok(built_cells, C.CANONICAL)
    seed = b.report["noise"]["seed"]
    _assert_seed_sds(b.gen, seed, "validation")
    incomplete = [x for x in seed.get("left_out") or [] if re.search(r"incomplete|no test row", x)]
    assert not incomplete, incomplete


def test_c_canonical_block_line_uses_the_test_networks(built_cells):
    b = built_ok(built_cells, C.CANONICAL)
    block = b.report["noise"]["block"]
    assert block is not None and block["blocks"] == 52
    gen = b.gen
    want = gen.sign(gen.logged[(CAND, 1, "test")], gen.logged[(BASE, 1, "test")])
    assert block["gap"] == pytest.approx(want, abs=TOL)


def test_c_seed_line_shows_the_test_gap_in_seed_sd(built_cells):
    """The test gap in the seed line's sd, said in the seed line (never in the block line)."""
    b = built_ok(built_cells, C.CANONICAL)
    noise = b.report["noise"]
    gen = b.gen
    sds = [
        np.std([gen.logged[(m, s, "validation")] for s in gen.seeds(m, "validation")], ddof=1)
        for m in (CAND, BASE)
    ]
    want = expected_test_gap(gen) / max(sds)  # seed_sd_from = "larger"
    found = [v for _, k, v in keys(noise.get("block") or {}) if "sd" in k and isinstance(v, float)]
    said = re.search(r"The test gap is ([+\u2212]?\d+\.\d+) seed sd\.", noise["lines"][0])
    assert said, noise["lines"][0]
    found.append(float(said.group(1).replace("\u2212", "-")))
    assert any(x == pytest.approx(want, rel=0.01) for x in found), (want, found, noise["lines"][0])
    assert float(said.group(1).replace("\u2212", "-")) == pytest.approx(want, abs=0.005)
    assert "seed sd" not in noise["lines"][1]


def test_c_run_log_only_keeps_the_seed_line_and_the_paired_interval(built_cells):
    """Canonical layout, no predictions, seeds_paired: the paired seed interval is the evidence."""
    b = built_ok(built_cells, C.CANONICAL_RUNLOG)
    gen, noise = b.gen, b.report["noise"]
    assert noise["seed"]["n"] == {"candidate": 5, "baseline": 5}
    assert noise["block"] is None
    c = np.array([gen.logged[(CAND, s, "validation")] for s in range(1, 6)])
    base = np.array([gen.logged[(BASE, s, "validation")] for s in range(1, 6)])
    ci = scipy.stats.ttest_rel(base, c).confidence_interval(0.95)  # log loss: gap = base - cand
    p = noise["seed"]["paired"]
    assert p["mean"] == pytest.approx(float(np.mean(base - c)), abs=TOL)
    assert (p["low"], p["high"]) == pytest.approx((ci.low, ci.high), abs=1e-10)
    iv = noise.get("interval") or {}
    assert iv.get("source") == "paired-seeds"
    assert (iv.get("low"), iv.get("high")) == pytest.approx((ci.low, ci.high), abs=1e-10)


def test_c_test_only_seed_spread_is_a_test_level_number(built_cells):
    b = built_ok(built_cells, C.TEST_ONLY)
    seed = b.report["noise"]["seed"]
    _assert_seed_sds(b.gen, seed, "test")
    said = [t for _, t in strings(seed)] + [b.report["noise"]["lines"][0]]
    assert any(re.search(r"\btest\b", t) for t in said), "the seed line never says it is on test"


# --------------------------------------------------------------------------- (d) seeds paired by label

_NUM = re.compile(r"(?<![\d.])(\d+)(?:\s*(?:-|–|to)\s*(\d+))?(?![\d.])")
_UNPAIRED_WORDS = re.compile(
    r"unpaired|not paired|no pair|unmatched|no match|without a (match|pair|partner)|"
    r"do(es)? not match|only in|shared",
    re.I,
)


def numbers_named(text: str) -> set[int]:
    out: set[int] = set()
    for m in _NUM.finditer(text):
        a, b = int(m.group(1)), m.group(2)
        out |= set(range(a, int(b) + 1)) if b is not None and int(b) >= a else {a}
    return out


def unpaired_warning(report: dict, labels: set[int]) -> list[str]:
    """Strings that speak of unpaired seeds and name every label in ``labels``."""
    return [
        t
        for _, t in strings(report)
        if "seed" in t.lower() and _UNPAIRED_WORDS.search(t) and labels <= numbers_named(t)
    ]


@pytest.mark.parametrize("cell", cell_params(list(C.PAIRED.values())))
def test_d_seeds_paired_by_label(cell, built_cells):
    b = built_ok(built_cells, cell)
    gen, report = b.gen, b.report
    paired = report["noise"]["seed"]["paired"]
    shared_test = set(gen.seeds(CAND, "test")) & set(gen.seeds(BASE, "test"))
    part = "test" if len(shared_test) >= 2 else "validation"
    shared = sorted(set(gen.seeds(CAND, part)) & set(gen.seeds(BASE, part)))
    cand_all = set(gen.seeds(CAND, part))
    base_all = set(gen.seeds(BASE, part))
    unpaired = (cand_all | base_all) - set(shared)
    if len(shared) >= 2:
        assert paired.get("part") == part
        c = np.array([gen.logged[(CAND, s, part)] for s in shared])
        base = np.array([gen.logged[(BASE, s, part)] for s in shared])
        ci = scipy.stats.ttest_rel(base, c).confidence_interval(0.95)  # log loss
        assert paired["n"] == len(shared)
        assert paired["mean"] == pytest.approx(float(np.mean(base - c)), abs=TOL)
        assert (paired["low"], paired["high"]) == pytest.approx((ci.low, ci.high), abs=1e-10)
    else:
        assert paired.get("mean") is None and paired.get("low") is None, paired
    if unpaired:
        assert unpaired_warning(report, unpaired), (
            f"no warning names unpaired seeds {sorted(unpaired)}"
        )


# --------------------------------------------------------------------------- (e) one-class test


def test_e_one_class_test_ranking_is_null_with_a_reason(built_cells):
    b = built_ok(built_cells, C.ONE_CLASS)
    assert set(b.gen.parts["test"]["y"]) == {0}
    ranking = b.report["ranking"]
    assert ranking is not None
    for role in ("candidate", "baseline"):
        r = ranking[role]
        assert r["roc_auc"] is None and r["average_precision"] is None, r
        reasons = [v for _, k, v in keys(r) if "reason" in k and isinstance(v, str) and v.strip()]
        assert reasons, f"ranking.{role} gives no reason for the null AUC/AP"


# --------------------------------------------------------------------------- (f) before-after without category


def test_f_before_after_without_category_builds(built_cells):
    b = built_ok(built_cells, C.BA_NO_CATEGORY)
    gen, ba = b.gen, b.report["before_after"]
    assert ba is not None
    before = gen.per_row[("before", 0, "test")]
    after = gen.per_row[("after", 0, "test")]
    assert ba["before"] == pytest.approx(before.mean(), abs=TOL)
    assert ba["after"] == pytest.approx(after.mean(), abs=TOL)
    assert ba["difference"] == pytest.approx(after.mean() - before.mean(), abs=TOL)
    assert ba["fixed"] == int(np.sum((before == 0) & (after == 1)))
    assert ba["broken"] == int(np.sum((before == 1) & (after == 0)))
    assert not ba.get("broken_by_category")


# --------------------------------------------------------------------------- (g) harms need evidence


def test_g_one_row_required_slice_blocks_adopt(built_cells):
    control = built_ok(built_cells, C.ONE_ROW_CONTROL)
    assert control.report["decision"]["verdict"] == "adopt", "precondition: the control adopts"
    b = built_ok(built_cells, C.ONE_ROW_SLICE)
    gen, report = b.gen, b.report
    rare = [s for s in report["slices"] if s["slice"] == "rare"]
    assert len(rare) == 1 and rare[0]["rows"] == 1
    i = int(np.flatnonzero(gen.parts["test"]["route"].to_numpy() == "rare")[0])
    want = float(gen.seed_mean_rows(BASE)[i] - gen.seed_mean_rows(CAND)[i])
    assert want == pytest.approx(-6.8, abs=0.01)
    assert rare[0]["gap"] == pytest.approx(want, abs=1e-9)
    checks = [
        c
        for c in report["checks"]
        if "rare" in c["id"] or ("slice" in c["id"] and "rare" in c.get("text", ""))
    ]
    assert checks, "no check for the required slice 'rare'"
    assert all(c["passed"] is not True for c in checks), [(c["id"], c["passed"]) for c in checks]
    assert report["decision"]["verdict"] != "adopt", report["decision"]


def test_g_general_drop_with_a_wide_bound_is_not_held(built_cells):
    b = built_ok(built_cells, C.BA_GENERAL_DROP)
    gen, general = b.gen, b.report["general"]
    gb, ga = gen.per_row[("before", 0, "general")], gen.per_row[("after", 0, "general")]
    drop = float(gb.mean() - ga.mean())
    assert drop == pytest.approx(4 / 300) and drop < 0.02
    assert general["drop"] == pytest.approx(drop, abs=TOL)
    # independent 95% upper bound: the paired bootstrap over questions (numpy) and the t bound
    d = gb - ga
    rng = np.random.default_rng(0)
    boot = d[rng.integers(0, len(d), size=(4000, len(d)))].mean(axis=1)
    t_high = scipy.stats.ttest_1samp(d, 0).confidence_interval(0.95).high
    assert np.percentile(boot, 97.5) > 0.02 and t_high > 0.02  # precondition
    assert general["held"] is not True, general
    if general.get("high") is not None:
        assert general["high"] > 0.02
    assert b.report["decision"]["verdict"] != "adopt", b.report["decision"]


# --------------------------------------------------------------------------- (h) honest words

TIE_WORDS = re.compile(r"\btied\b|a tie is a finding", re.I)


def tie_texts(report: dict) -> list[str]:
    claim = report.get("claim") or {}
    texts = [claim.get("rewritten") or ""] + list(
        (report.get("decision") or {}).get("reasons") or []
    )
    return [t for t in texts if TIE_WORDS.search(t)]


@pytest.mark.parametrize("cell", cell_params(C.all_cells()))
def test_h_tie_words_only_when_equivalence_is_shown(cell, built_cells):
    report = built_report(built_cells, cell)
    said = tie_texts(report)
    if not said:
        return
    iv = (report.get("noise") or {}).get("interval") or {}
    m = useful_band(report, {**{"min_useful_effect": 0.005}, **cell})
    low, high = iv.get("low"), iv.get("high")
    shown = m is not None and low is not None and high is not None and -m < low and high < m
    assert shown, f"says {said[0]!r} but the interval {low} to {high} is not inside ±{m}"


def test_h_tie_cell_is_not_called_a_tie(built_cells):
    b = built_ok(built_cells, C.TIE)
    iv = b.report["noise"]["interval"]
    assert not (-0.005 < iv["low"] and iv["high"] < 0.005)  # precondition: too wide
    assert not tie_texts(b.report), tie_texts(b.report)


def test_h_equivalence_inside_a_wide_band_is_found(built_cells):
    b = built_ok(built_cells, C.TIE_WIDE_BAND)
    iv = b.report["noise"]["interval"]
    assert -0.5 < iv["low"] and iv["high"] < 0.5
    assert b.report["relevance"]["finding"] == "equivalent"


# --------------------------------------------------------------------------- (i) validation and test disagree


def _disagree_flags(report: dict) -> list[tuple[str, object]]:
    out = []
    for section in ("noise", "claim"):
        for path, k, v in keys(report.get(section) or {}, section):
            if re.search(r"sign|disagree", k, re.I):
                out.append((path, v))
    return out


def test_i_validation_test_sign_disagreement_is_flagged(built_cells):
    b = built_ok(built_cells, C.DISAGREE)
    gen = b.gen
    val = gen.sign(
        np.mean([gen.logged[(CAND, s, "validation")] for s in gen.seeds(CAND, "validation")]),
        np.mean([gen.logged[(BASE, s, "validation")] for s in gen.seeds(BASE, "validation")]),
    )
    test = expected_test_gap(gen)
    assert val < 0 < test  # precondition
    flags = _disagree_flags(b.report)
    assert any(v for _, v in flags), f"no truthy sign/disagree key under noise or claim: {flags}"
    dis = b.report["noise"]["sign_disagreement"]
    assert dis["validation_gap"] == pytest.approx(val, rel=1e-9)
    assert dis["test_gap"] == pytest.approx(test, rel=1e-9)
    assert dis["text"] in b.report["decision"]["reasons"]
    control = built_ok(built_cells, C.ONE_ROW_CONTROL)
    assert not any(v for _, v in _disagree_flags(control.report) if v is True)


# --------------------------------------------------------------------------- (j) groups are not weeks

PERIOD_WORDS = re.compile(r"weeks after|drift beyond the test period|\bbatchs\b", re.I)


def test_j_group_blocks_never_speak_of_periods(built_cells):
    b = built_ok(built_cells, C.GROUP)
    bad = [(p, t) for p, t in strings(b.report) if PERIOD_WORDS.search(t)]
    assert not bad, bad[:3]


# --------------------------------------------------------------------------- (k) the primary interval


@pytest.mark.parametrize("cell", cell_params([C.CANONICAL, C.UNEQUAL_FLIP, C.TIE]))
def test_k_primary_interval_is_the_wider_of_bootstrap_and_t(cell, built_cells):
    block = built_ok(built_cells, cell).report["noise"]["block"]
    boot, t = block["bootstrap"], block["t"]
    wider = max((boot, t), key=lambda iv: iv["high"] - iv["low"])
    assert (block["low"], block["high"]) == pytest.approx((wider["low"], wider["high"]), abs=TOL)
