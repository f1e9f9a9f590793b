"""ROC and precision-recall curves with tied scores grouped; AUC and average precision (methods.md 5)."""

from __future__ import annotations

from typing import Any

import numpy as np

from reportgen.stats._util import FloatArray, IntArray, scores_labels

#: what descending_counts returns: cumulative TP and FP per distinct score, n_pos, n_neg
Counts = tuple[IntArray, IntArray, int, int]


def descending_counts(p: Any, y: Any) -> Counts:
    """Cumulative TP and FP at each distinct score, highest score first (one sort).

    Pass the result as ``counts=`` to :func:`roc_points`, :func:`roc_auc`,
    :func:`pr_points` and :func:`average_precision` of the same ``p`` and ``y`` to
    sort a network's scores once for all four.

    Returns
    -------
    tp, fp : ndarray of int64, shape (K,)
        Counts when predicting 1 for ``p >= s_k``, ``s_k`` the k-th distinct score
        from the top (tied rows enter together).
    n_pos, n_neg : int
    """
    pa, ya = scores_labels(p, y)
    order = np.argsort(-pa, kind="stable")
    ps = pa[order]
    ys = ya[order]
    # last index of each run of tied scores
    ends = np.flatnonzero(np.concatenate((ps[1:] != ps[:-1], [True]))) if ps.size else ps
    tp = np.cumsum(ys, dtype=np.int64)[ends.astype(np.intp)]
    fp = (ends.astype(np.int64) + 1) - tp
    n_pos = int(ya.sum())
    return tp, fp, n_pos, int(ya.size) - n_pos


def _rate(num: IntArray, den: int) -> FloatArray:
    """``num / den`` as float64; NaN everywhere when ``den == 0`` (as sklearn's curves)."""
    if den == 0:
        return np.full(num.shape, np.nan)
    return num / den


def roc_points(p: Any, y: Any, counts: Counts | None = None) -> tuple[FloatArray, FloatArray]:
    """ROC curve from "predict none" (0, 0) to "predict all" (1, 1), one point per distinct score.

    Parameters
    ----------
    p, y : array-like of shape (N,)
        Scores, and labels in {0, 1}.
    counts : tuple, optional
        :func:`descending_counts` of ``p`` and ``y``, to reuse one sort.

    Returns
    -------
    fpr, tpr : ndarray of float64, shape (K + 1,)
        ``K`` distinct scores plus the leading (0, 0). With one class only, the
        undefined rate is NaN throughout (as ``sklearn.metrics.roc_curve``) and
        :func:`roc_auc` is None: do not draw it. Empty input gives empty arrays.
    """
    tp, fp, n_pos, n_neg = counts or descending_counts(p, y)
    if tp.size == 0:
        return np.empty(0), np.empty(0)
    tp = np.concatenate(([0], tp))
    fp = np.concatenate(([0], fp))
    return _rate(fp, n_neg), _rate(tp, n_pos)


def roc_auc(p: Any, y: Any, counts: Counts | None = None) -> float | None:
    """Area under the ROC curve by the trapezoid over grouped ties.

    Equals the rate of (positive, negative) pairs ranked correctly, ties counting 1/2.

    Parameters
    ----------
    p, y, counts
        As for :func:`roc_points`.

    Returns
    -------
    float or None
        The area in [0, 1]; None when either class is absent.
    """
    tp, fp, n_pos, n_neg = counts or descending_counts(p, y)
    if n_pos == 0 or n_neg == 0:
        return None
    tp = np.concatenate(([0], tp)).astype(np.float64)
    fp = np.concatenate(([0], fp)).astype(np.float64)
    # trapezoid in counts, normalised once: exact for integer counts up to 2**53
    area = float(np.sum(np.diff(fp) * (tp[1:] + tp[:-1])) / 2.0)
    return area / (n_pos * n_neg)


def pr_points(p: Any, y: Any, counts: Counts | None = None) -> tuple[FloatArray, FloatArray]:
    """Precision-recall points, one per distinct score, highest score first (recall ascending).

    Parameters
    ----------
    p, y, counts
        As for :func:`roc_points`: scores, labels, and optionally their sorted counts.

    Returns
    -------
    recall, precision : ndarray of float64, shape (K,)
        Recall is NaN throughout when there are no positives. No artificial
        (recall 0, precision 1) point is added.
    """
    tp, fp, n_pos, _ = counts or descending_counts(p, y)
    return _rate(tp, n_pos), tp / np.maximum(tp + fp, 1)


def average_precision(p: Any, y: Any, counts: Counts | None = None) -> float | None:
    """Average precision: the step sum ``sum_k (R_k - R_{k-1}) P_k`` over distinct scores.

    Not a trapezoid. Equals ``sklearn.metrics.average_precision_score``.

    Parameters
    ----------
    p, y, counts
        Scores, labels in {0, 1} and, to reuse one sort, their :func:`descending_counts`.

    Returns
    -------
    float or None
        In [0, 1]; None without positives (recall is undefined).
    """
    tp, fp, n_pos, _ = counts or descending_counts(p, y)
    if n_pos == 0:
        return None
    precision = tp / (tp + fp)
    d_recall = np.diff(np.concatenate(([0], tp))) / n_pos
    return float(np.sum(d_recall * precision))


#: points of the grid the seeds' curves are read on for their band (0 to 1 inclusive)
BAND_POINTS = 51


def band_grid(points: int = BAND_POINTS) -> FloatArray:
    """The common grid, 0 to 1 in equal steps, that each seed's curve is read on."""
    return np.linspace(0.0, 1.0, points)


def roc_on_grid(counts: Counts, grid: FloatArray) -> FloatArray | None:
    """The ROC curve's true positive rate at each false positive rate of ``grid``.

    The highest TPR any threshold reaches at FPR at most ``g`` (the step curve as drawn).

    Parameters
    ----------
    counts : tuple
        :func:`descending_counts` of one network's scores and labels.
    grid : ndarray of shape (G,)
        False positive rates in [0, 1], ascending.

    Returns
    -------
    ndarray of shape (G,), or None when either class is absent
    """
    tp, fp, n_pos, n_neg = counts
    if n_pos == 0 or n_neg == 0:
        return None
    fpr = np.concatenate(([0], fp)) / n_neg
    tpr = np.maximum.accumulate(np.concatenate(([0], tp)) / n_pos)
    idx = np.searchsorted(fpr, grid, side="right") - 1
    return tpr[np.clip(idx, 0, tpr.size - 1)]


def pr_on_grid(counts: Counts, grid: FloatArray) -> FloatArray | None:
    """Interpolated precision at each recall of ``grid``: the highest precision any
    threshold reaches at a recall of at least ``r`` (the usual interpolated PR curve).

    Parameters
    ----------
    counts : tuple
        :func:`descending_counts` of one network's scores and labels.
    grid : ndarray of shape (G,)
        Recalls in [0, 1], ascending.

    Returns
    -------
    ndarray of shape (G,), or None without positives
    """
    tp, fp, n_pos, _ = counts
    if n_pos == 0 or tp.size == 0:
        return None
    recall = tp / n_pos
    precision = tp / np.maximum(tp + fp, 1)
    best_after = np.maximum.accumulate(precision[::-1])[::-1]
    idx = np.searchsorted(recall, grid, side="left")
    out = np.zeros(grid.shape)
    inside = idx < recall.size
    out[inside] = best_after[idx[inside]]
    return out


def curve_band(curves: list[FloatArray]) -> tuple[FloatArray, FloatArray] | None:
    """The lowest and highest of several curves read on one grid: the spread of the seeds.

    Parameters
    ----------
    curves : list of ndarray of shape (G,)
        One per trained network (None entries are left out).

    Returns
    -------
    (low, high) : ndarrays of shape (G,), or None with fewer than two curves
    """
    kept = [c for c in curves if c is not None]
    if len(kept) < 2:
        return None
    stack = np.vstack(kept)
    return stack.min(axis=0), stack.max(axis=0)


def thin(x: Any, y: Any, max_points: int = 500) -> tuple[FloatArray, FloatArray]:
    """Keep at most ``max_points`` points of a curve, first and last included, shape kept.

    Half the budget goes to points evenly spaced by index, half to points evenly
    spaced by arc length (on the curve scaled to its bounding box), so both dense
    and sparse stretches stay drawn. Order is preserved.

    Parameters
    ----------
    x, y : array-like of shape (K,)
        Curve coordinates, in drawing order. NaN counts as 0 for arc length.
    max_points : int, default 500
        At least 2.

    Returns
    -------
    x, y : ndarray of shape (min(K, max_points),) at most
    """
    xa = np.asarray(x, dtype=np.float64)
    ya = np.asarray(y, dtype=np.float64)
    if xa.shape != ya.shape or xa.ndim != 1:
        raise ValueError(f"x and y must be 1-D of one length, got {xa.shape} and {ya.shape}")
    if max_points < 2:
        raise ValueError(f"max_points={max_points} is too small. It should be at least 2")
    k = xa.size
    if k <= max_points:
        return xa, ya
    half = max_points // 2
    by_index = np.rint(np.linspace(0, k - 1, half)).astype(np.intp)
    xs, ys = np.nan_to_num(xa), np.nan_to_num(ya)
    span_x = np.ptp(xs) or 1.0
    span_y = np.ptp(ys) or 1.0
    seg = np.hypot(np.diff(xs) / span_x, np.diff(ys) / span_y)
    arc = np.concatenate(([0.0], np.cumsum(seg)))
    targets = np.linspace(0.0, arc[-1], max_points - half)
    by_arc = np.minimum(np.searchsorted(arc, targets, side="left"), k - 1)
    keep = np.union1d(by_index, by_arc)
    keep = np.union1d(keep, [0, k - 1])
    if keep.size > max_points:  # duplicates removed, so this only trims rare overshoot
        inner = keep[1:-1]
        sel = np.rint(np.linspace(0, inner.size - 1, max_points - 2)).astype(np.intp)
        keep = np.concatenate(([0], inner[sel], [k - 1]))
    return xa[keep], ya[keep]
