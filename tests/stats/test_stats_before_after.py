"""Before/after on a question set: fixed, broken, McNemar (methods.md section 8)."""

import math

import numpy as np
import pytest
from scipy import stats as st

from reportgen.stats import before_after as ba
from reportgen.stats.before_after import (
    BrokenQuestion,
    Dominant,
    dominant_category,
    fixed_broken,
    mcnemar_exact,
)
from reportgen.stats.bootstrap import block_bootstrap


def _binom_two_sided(k, n):
    # symmetric p = 0.5: twice the smaller tail, capped at 1
    tail = sum(math.comb(n, i) for i in range(min(k, n - k) + 1)) / 2**n
    return min(1.0, 2 * tail)


@pytest.mark.parametrize(("fixed", "broken"), [(22, 9), (5, 0), (0, 5), (3, 3), (1, 2), (40, 25)])
def test_mcnemar_hand(fixed, broken):
    p = mcnemar_exact(fixed, broken)
    assert p == pytest.approx(_binom_two_sided(fixed, fixed + broken), rel=1e-10)
    assert p == pytest.approx(st.binomtest(fixed, fixed + broken, 0.5).pvalue, rel=1e-12)
    assert type(p) is float


def test_mcnemar_values():
    assert mcnemar_exact(5, 0) == pytest.approx(0.0625)  # 2 / 2**5
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(3, 3) == 1.0
    with pytest.raises(ValueError, match="non-negative"):
        mcnemar_exact(-1, 2)


def test_fixed_broken_hand():
    ids = ["q1", "q2", "q3", "q4", "q5", "q6"]
    before = [1, 1, 0, 1, 0, 1]
    after = [0, 1, 1, 0, 0, 0]
    cat = ["dates", "math", "math", "names", None, "dates"]
    text = ["t1", "t2", "t3", "t4", "t5", "t6"]
    r = fixed_broken(ids, before, after, category=cat, text=text)
    assert r.fixed == 1 and r.fixed_ids == ("q3",)
    assert r.broken == 3 and r.broken_ids == ("q1", "q4", "q6")
    assert r.broken_by_category == {"dates": 2, "names": 1}
    assert list(r.broken_by_category) == ["dates", "names"]
    assert r.broken_rows == (
        BrokenQuestion("q1", "dates", "t1"),
        BrokenQuestion("q4", "names", "t4"),
        BrokenQuestion("q6", "dates", "t6"),
    )


def test_fixed_broken_ordering_and_missing_category():
    ids = np.array([10, 11, 12, 13, 14])
    r = fixed_broken(ids, [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], category=["b", "a", None, "b", "a"])
    assert r.broken_ids == (10, 11, 12, 13, 14) and all(type(i) is int for i in r.broken_ids)
    # count desc, then name
    assert list(r.broken_by_category.items()) == [("a", 2), ("b", 2), ("(missing)", 1)]
    r2 = fixed_broken(["x"], [True], [False])
    assert r2.broken_by_category is None
    assert r2.broken_rows == (BrokenQuestion("x", None, None),)
    with pytest.raises(ValueError, match="one length"):
        fixed_broken(["x", "y"], [True], [False])


def test_dominant_category():
    assert dominant_category({"dates": 7, "math": 2}, 9) == Dominant("dates", 7, 9)
    assert dominant_category({"a": 2, "b": 1, "c": 1}, 4) is None  # exactly half: not most
    assert dominant_category({"a": 3, "b": 2}, 5) == Dominant("a", 3, 5)
    assert dominant_category({"a": 1, "b": 1}, 2) is None
    assert dominant_category({}, 0) is None and dominant_category(None, 3) is None


def test_before_after_bootstrap_over_questions_and_blocks():
    """The before/after interval's engine: the ratio bootstrap of after - before, by question
    (each weighs 1) or by block (per-block sums over the rows per block)."""
    before = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    after = np.array([1, 1, 1, 0, 1, 1, 1, 1])
    d = (after - before).astype(float)
    r = block_bootstrap(d, resamples=400, confidence=0.9, rng=np.random.default_rng(0))
    assert r["gap"] == 0.375 and r["low"] <= r["gap"] <= r["high"]
    g = np.random.default_rng(0)
    idx = g.integers(0, 8, size=(400, 8))
    ref = np.percentile((after - before)[idx].mean(axis=1), [5, 95])
    assert (r["low"], r["high"]) == pytest.approx(tuple(ref), rel=1e-12)
    block_diff = np.array([1.0, -1.0, 2.0, 1.0])  # per-block sums of after - before (2 rows each)
    rb = block_bootstrap(
        block_diff,
        counts=[2, 2, 2, 2],
        resamples=400,
        confidence=0.9,
        rng=np.random.default_rng(0),
    )
    assert rb["gap"] == 0.375
    bidx = np.random.default_rng(0).integers(0, 4, size=(400, 4))
    ref_b = np.percentile(block_diff[bidx].sum(axis=1) / 8, [5, 95])
    assert (rb["low"], rb["high"]) == pytest.approx(tuple(ref_b), rel=1e-12)
    with pytest.raises(ValueError, match="at least one block"):
        block_bootstrap([], resamples=10, confidence=0.9, rng=np.random.default_rng(0))


def test_a_dominant_category_is_weighed_against_its_share_of_the_questions():
    # 4 of 6 broken in a quarter of the questions: P(X >= 4 | 6, 0.25), summed by hand
    d = ba.dominant_category({"dates": 4, "units": 2}, 6, {"dates": 25, "units": 75}, {"dates": 1})
    assert d.p_share == pytest.approx(0.03759765625, rel=1e-12)
    assert d.specific and (d.questions, d.total, d.fixed) == (25, 100, 1)
    # the same 4 of 6 in a category holding 60 % of the questions is its share
    wide = ba.dominant_category({"dates": 4, "units": 2}, 6, {"dates": 60, "units": 40}, {})
    assert wide.p_share == pytest.approx(st.binomtest(4, 6, 0.6, alternative="greater").pvalue)
    assert not wide.specific
    # as many fixed as broken: not specific whatever the share
    both = ba.dominant_category(
        {"dates": 4, "units": 2}, 6, {"dates": 25, "units": 75}, {"dates": 4}
    )
    assert not both.specific
    # without the shares the plain majority reading stays
    assert ba.dominant_category({"dates": 4, "units": 2}, 6).specific


def test_fixed_broken_on_means_over_epochs_crossed_one_half():
    """Per-question means over repeated evaluations: fixed when the mean goes from below one
    half to above it, broken the reverse; a mean of exactly one half is neither right nor wrong."""
    ids = ["a", "b", "c", "d", "e", "f"]
    before = [0.5, 0.4, 0.6, 0.2, 0.8, 0.4]
    after = [0.8, 0.5, 0.4, 0.7, 0.5, 0.45]
    r = fixed_broken(ids, before, after)
    assert r.fixed_ids == ("d",)
    assert r.broken_ids == ("c",)
    # 0/1 input gives the same as the boolean reading it always had
    assert fixed_broken(ids[:2], [0, 1], [1, 0]).fixed_ids == ("a",)
