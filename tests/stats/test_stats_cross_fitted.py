"""The cross-fitted threshold of a cross-validation design (docs/methods.md, "Cross-validation:
cross-fitted threshold"): a hand-worked two-fold case, a brute-force reference on a random
layout, and the property that a fold's own rows never choose its threshold."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from reportgen.stats.threshold import PREDICT_NONE, choose_threshold, cross_fitted

EPS = np.finfo(np.float64).eps


def brute_threshold(p, y, c_fp, c_fn):
    """Loop over every candidate threshold (each score, 0.5, predict none); plain Python."""
    cands = sorted({float(v) for v in p} | {0.5, PREDICT_NONE})
    costs = []
    for t in cands:
        fp = sum(1 for pi, yi in zip(p, y, strict=True) if pi >= t and not yi)
        fn = sum(1 for pi, yi in zip(p, y, strict=True) if pi < t and yi)
        costs.append((c_fp * fp + c_fn * fn) / len(p))
    cmin = min(costs)
    tied = [t for t, c in zip(cands, costs, strict=True) if c - cmin <= 8 * EPS * abs(cmin)]
    dmin = min(abs(t - 0.5) for t in tied)
    return max(t for t in tied if abs(t - 0.5) - dmin <= 8 * EPS * dmin)


def brute_cross_fitted(p, y, fold, c_fp, c_fn):
    """Per fold: the brute-force threshold of the other folds' rows, counted on the fold's."""
    tn = fp = fn = tp = 0
    chosen = []
    for k in sorted(set(fold)):
        other = [i for i, f in enumerate(fold) if f != k]
        t = brute_threshold([p[i] for i in other], [y[i] for i in other], c_fp, c_fn)
        chosen.append(t)
        for i, f in enumerate(fold):
            if f != k:
                continue
            pos = p[i] >= t
            tp += pos and y[i] == 1
            fp += pos and y[i] == 0
            fn += (not pos) and y[i] == 1
            tn += (not pos) and y[i] == 0
    return tuple(chosen), ((tn, fp), (fn, tp)), (c_fp * fp + c_fn * fn) / len(p)


def test_two_folds_hand_worked_thresholds_confusion_and_cost():
    # fold 1: (0.3, 1), (0.6, 0), (0.7, 1); fold 2: (0.2, 0), (0.4, 1), (0.9, 1); FP 1, FN 2.
    # Fold 1's threshold on fold 2's rows: 0.2 costs 1/3, 0.4 costs 0, 0.5 costs 2/3 -> 0.4;
    #   on fold 1: 0.3 is a false negative, 0.6 a false positive, 0.7 a true positive.
    # Fold 2's threshold on fold 1's rows: 0.3 costs 1/3, 0.5 and 0.6 cost 1, 0.7 costs 2/3,
    #   none 4/3 -> 0.3; on fold 2: 0.2 a true negative, 0.4 and 0.9 true positives.
    # Pooled: TN 1, FP 1, FN 1, TP 3; cost (1 x 1 + 2 x 1) / 6 = 0.5.
    p = [0.3, 0.6, 0.7, 0.2, 0.4, 0.9]
    y = [1, 0, 1, 0, 1, 1]
    fold = [1, 1, 1, 2, 2, 2]
    r = cross_fitted(p, y, fold, 1.0, 2.0)
    assert r is not None
    assert r.folds == (1, 2)
    assert r.thresholds == (0.4, 0.3)
    assert r.confusion == ((1, 1), (1, 3))
    assert r.cost == pytest.approx(0.5, abs=1e-15)
    assert r.rows == 6
    # chosen and measured on the same six rows, 0.3 would cost only 1/6: the optimism it avoids
    t_in = choose_threshold(p, y, 1.0, 2.0)
    assert t_in == 0.3


def test_matches_brute_force_on_a_random_layout():
    rng = np.random.default_rng(31)
    n, k = 97, 5
    y = rng.integers(0, 2, n)
    p = np.clip(0.35 * y + rng.uniform(0, 0.65, n), 0, 1).round(2)  # ties on purpose
    fold = rng.permutation(np.arange(n) % k) + 1
    for c_fp, c_fn in ((1.0, 1.0), (1.0, 5.0), (4.0, 1.0), (0.0, 1.0)):
        r = cross_fitted(p, y, fold, c_fp, c_fn)
        assert r is not None
        want = brute_cross_fitted(p.tolist(), y.tolist(), fold.tolist(), c_fp, c_fn)
        assert (r.thresholds, r.confusion) == want[:2]
        assert r.cost == pytest.approx(want[2], rel=1e-12)


def test_one_fold_has_no_other_fold_to_choose_on():
    assert cross_fitted([0.1, 0.9], [0, 1], [3, 3], 1.0, 1.0) is None


def test_fold_labels_must_match_rows():
    with pytest.raises(ValueError, match="fold"):
        cross_fitted([0.1, 0.9], [0, 1], [1], 1.0, 1.0)


@settings(max_examples=60, deadline=None)
@given(
    hs.lists(
        hs.tuples(hs.integers(0, 10), hs.booleans(), hs.integers(1, 3)), min_size=4, max_size=30
    ),
    hs.integers(0, 2),
)
def test_a_folds_own_labels_never_move_its_threshold(rows, which):
    p = np.array([r[0] / 10 for r in rows])
    y = np.array([int(r[1]) for r in rows])
    fold = np.array([r[2] for r in rows])
    labels = sorted(set(fold.tolist()))
    if len(labels) < 2:
        return
    k = labels[which % len(labels)]
    flipped = y.copy()
    flipped[fold == k] = 1 - flipped[fold == k]
    a = cross_fitted(p, y, fold, 1.0, 3.0)
    b = cross_fitted(p, flipped, fold, 1.0, 3.0)
    assert a is not None and b is not None
    i = labels.index(k)
    assert a.thresholds[i] == b.thresholds[i]
    assert sum(map(sum, a.confusion)) == len(rows)
