"""ROC, AUC, PR and average precision (methods.md section 5) against scikit-learn on tied data."""

import numpy as np
import pytest
from sklearn.metrics import (
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)

from reportgen.stats.ranking import (
    average_precision,
    band_grid,
    curve_band,
    descending_counts,
    pr_on_grid,
    pr_points,
    roc_auc,
    roc_on_grid,
    roc_points,
    thin,
)


def _tied(seed, n=400, decimals=1):
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(n), decimals)
    y = (rng.random(n) < 0.3 + 0.4 * p).astype(int)
    return p, y


def _pairwise_auc(p, y):
    pos, neg = p[y == 1], p[y == 0]
    diff = pos[:, None] - neg[None, :]
    return ((diff > 0).sum() + 0.5 * (diff == 0).sum()) / diff.size


def test_worked_example(example):
    p, y = example
    fpr, tpr = roc_points(p, y)
    assert fpr.tolist() == [0.0, 0.0, 0.5, 1.0]
    assert tpr.tolist() == [0.0, 0.5, 1.0, 1.0]
    assert roc_auc(p, y) == 0.875
    recall, precision = pr_points(p, y)
    assert recall.tolist() == [0.5, 1.0, 1.0]
    assert precision.tolist() == pytest.approx([1.0, 2 / 3, 0.5], rel=1e-15)
    assert average_precision(p, y) == pytest.approx(5 / 6, rel=1e-15)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("decimals", [1, 2])
def test_against_sklearn_with_ties(seed, decimals):
    p, y = _tied(seed, decimals=decimals)
    assert roc_auc(p, y) == pytest.approx(roc_auc_score(y, p), rel=1e-12)
    assert roc_auc(p, y) == pytest.approx(_pairwise_auc(p, y), rel=1e-12)
    assert average_precision(p, y) == pytest.approx(average_precision_score(y, p), rel=1e-12)
    fpr, tpr = roc_points(p, y)
    sk_fpr, sk_tpr, _ = roc_curve(y, p, drop_intermediate=False)
    np.testing.assert_allclose(fpr, sk_fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(tpr, sk_tpr, rtol=0, atol=1e-15)
    recall, precision = pr_points(p, y)
    sk_prec, sk_rec, _ = precision_recall_curve(y, p, drop_intermediate=False)
    np.testing.assert_allclose(recall, sk_rec[:-1][::-1], atol=1e-15)
    np.testing.assert_allclose(precision, sk_prec[:-1][::-1], atol=1e-15)


def test_all_tied_scores():
    p, y = np.full(6, 0.3), np.array([0, 1, 0, 1, 1, 0])
    assert roc_auc(p, y) == 0.5
    assert average_precision(p, y) == 0.5
    assert roc_points(p, y)[0].tolist() == [0.0, 1.0]


def test_one_class():
    fpr, tpr = roc_points([0.1, 0.2, 0.2], [1, 1, 1])
    assert np.isnan(fpr).all() and tpr.tolist() == [0.0, 2 / 3, 1.0]
    assert roc_auc([0.1, 0.2], [1, 1]) is None
    assert roc_auc([0.1, 0.2], [0, 0]) is None
    assert average_precision([0.1, 0.2], [0, 0]) is None
    assert average_precision([0.1, 0.2], [1, 1]) == 1.0
    assert roc_points([], [])[0].size == 0


def test_thin_keeps_ends_and_budget():
    x = np.linspace(0, 1, 100_001)
    y = np.sqrt(x)
    tx, ty = thin(x, y, max_points=500)
    assert 400 <= tx.size <= 500
    assert tx[0] == 0.0 and tx[-1] == 1.0 and ty[-1] == 1.0
    assert np.all(np.diff(tx) > 0)  # order kept
    # shape kept: interpolating the thinned curve back stays close
    assert np.max(np.abs(np.interp(x, tx, ty) - y)) < 0.01


def test_thin_roc_shape():
    rng = np.random.default_rng(1)
    n = 50_000
    y = rng.random(n) < 0.3
    p = rng.normal(y * 1.0, 1.0)
    fpr, tpr = roc_points(p, y)
    tx, ty = thin(fpr, tpr)
    assert tx.size <= 500 and (tx[0], ty[0]) == (0.0, 0.0) and (tx[-1], ty[-1]) == (1.0, 1.0)
    area = float(np.sum(np.diff(tx) * (ty[1:] + ty[:-1]) / 2))
    assert area == pytest.approx(roc_auc(p, y), abs=2e-3)


def test_thin_short_curve_unchanged():
    tx, ty = thin([0, 1, 2], [3, 4, 5], max_points=500)
    assert tx.tolist() == [0, 1, 2] and ty.tolist() == [3, 4, 5]
    with pytest.raises(ValueError, match="max_points=1"):
        thin([0, 1, 2], [0, 1, 2], max_points=1)


# ---------------------------------------------------------------- seed bands on a grid


def test_curves_on_a_grid_worked_example():
    """Four rows: ROC points (0, 0) (0, .5) (.5, .5) (.5, 1) (1, 1); PR points at recall
    .5, .5, 1, 1 with precision 1, .5, 2/3, .5."""
    counts = descending_counts([0.9, 0.8, 0.7, 0.6], [1, 0, 1, 0])
    grid = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    np.testing.assert_allclose(roc_on_grid(counts, grid), [0.5, 0.5, 1.0, 1.0, 1.0])
    np.testing.assert_allclose(pr_on_grid(counts, grid), [1.0, 1.0, 1.0, 2 / 3, 2 / 3])


@pytest.mark.parametrize("seed", range(4))
def test_curves_on_a_grid_match_brute_force(seed):
    """ROC: the highest TPR at FPR at most g; PR: the highest precision at recall at least r."""
    p, y = _tied(seed, n=120)
    grid = band_grid(21)
    thresholds = np.concatenate(([np.inf], np.unique(p)))
    pred = p[None, :] >= thresholds[:, None]
    tp = (pred & (y == 1)).sum(axis=1)
    fp = (pred & (y == 0)).sum(axis=1)
    tpr, fpr = tp / (y == 1).sum(), fp / (y == 0).sum()
    roc = [tpr[fpr <= g + 1e-12].max() for g in grid]
    kept = tp + fp > 0
    rec, prec = tpr[kept], tp[kept] / (tp + fp)[kept]
    pr = [prec[rec >= r - 1e-12].max() if (rec >= r - 1e-12).any() else 0.0 for r in grid]
    counts = descending_counts(p, y)
    np.testing.assert_allclose(roc_on_grid(counts, grid), roc)
    np.testing.assert_allclose(pr_on_grid(counts, grid), pr)


def test_curves_on_a_grid_need_both_classes():
    counts = descending_counts([0.2, 0.4], [0, 0])
    assert roc_on_grid(counts, band_grid()) is None
    assert pr_on_grid(counts, band_grid()) is None


def test_curve_band_is_lowest_and_highest_curve():
    low, high = curve_band([np.array([0.2, 0.9]), None, np.array([0.4, 0.5]), np.array([0.3, 0.7])])
    np.testing.assert_array_equal(low, [0.2, 0.5])
    np.testing.assert_array_equal(high, [0.4, 0.9])
    assert curve_band([np.array([0.2, 0.9]), None]) is None
    assert band_grid(51)[[0, 25, 50]].tolist() == [0.0, 0.5, 1.0]
