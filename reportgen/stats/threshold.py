"""Cost-minimising decision threshold, exact over the validation decision patterns (methods.md 4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.stats._util import REL_TOL, BoolArray, FloatArray, IntArray, scores_labels

PREDICT_NONE: float = float(np.nextafter(1.0, np.inf))
"""Sentinel threshold just above 1.0: no score reaches it, so nothing is predicted positive."""


def _sorted_counts(p: FloatArray, y: BoolArray) -> tuple[FloatArray, IntArray]:
    """Sort once: return sorted scores (N,) and cumulative positives (N + 1,) in that order."""
    order = np.argsort(p, kind="stable")
    ps = p[order]
    cum_pos = np.zeros(p.size + 1, dtype=np.int64)
    np.cumsum(y[order], out=cum_pos[1:])
    return ps, cum_pos


def _candidates(ps: FloatArray) -> FloatArray:
    """Distinct sorted scores plus 0.5 and PREDICT_NONE, ascending, without duplicates."""
    if ps.size:
        distinct = ps[np.concatenate(([True], ps[1:] != ps[:-1]))]
    else:
        distinct = ps
    extra = np.array([0.5, PREDICT_NONE])
    pos = np.searchsorted(distinct, extra, side="left")
    if distinct.size == 0:
        return extra
    present = (pos < distinct.size) & (distinct[np.minimum(pos, distinct.size - 1)] == extra)
    return np.insert(distinct, pos[~present], extra[~present])


def _fp_fn(ps: FloatArray, cum_pos: IntArray, t: FloatArray) -> tuple[IntArray, IntArray]:
    """FP and FN counts at thresholds ``t`` (predict 1 when p >= t); tied rows enter together."""
    below = np.searchsorted(ps, t, side="left")  # rows with p < t: predicted 0
    n_pos = cum_pos[-1]
    n_neg = ps.size - n_pos
    fn = cum_pos[below]
    fp = n_neg - (below - fn)
    return fp, fn


def cost_curve(p: Any, y: Any, c_fp: float, c_fn: float) -> tuple[FloatArray, FloatArray]:
    """Mean cost per row at every candidate threshold.

    Candidates are every distinct score, 0.5 and :data:`PREDICT_NONE`. Cost at ``t``
    is ``(c_fp * FP + c_fn * FN) / N`` predicting 1 when ``p >= t``. Sorts once and
    uses cumulative counts: O(N log N).

    Parameters
    ----------
    p : array-like of shape (N,)
        Validation scores.
    y : array-like of shape (N,)
        Labels in {0, 1}.
    c_fp, c_fn : float
        Cost of one false positive / false negative.

    Returns
    -------
    thresholds : ndarray of float64, shape (M,)
        Ascending candidates, ``M <= N + 2``.
    costs : ndarray of float64, shape (M,)
        Mean cost per row at each; empty when ``N == 0``.
    """
    pa, ya = scores_labels(p, y)
    ps, cum_pos = _sorted_counts(pa, ya)
    t = _candidates(ps)
    if pa.size == 0:
        return t, np.full(t.shape, np.nan)[:0]
    fp, fn = _fp_fn(ps, cum_pos, t)
    return t, (float(c_fp) * fp + float(c_fn) * fn) / pa.size


def select_from_curve(thresholds: FloatArray, costs: FloatArray) -> float | None:
    """Apply the section-4 selection rule to a cost curve.

    Minimum cost, costs within ``8 * eps`` relative of the smallest tying; among
    ties the threshold closest to 0.5 (same relative tolerance on the distance),
    then the higher threshold.

    Parameters
    ----------
    thresholds, costs : ndarray of shape (M,)
        As returned by :func:`cost_curve`.

    Returns
    -------
    float or None
        The chosen threshold; None when there are no costs (no rows).
    """
    if costs.size == 0:
        return None
    cmin = costs.min()
    tied = (costs - cmin) <= REL_TOL * abs(cmin)
    dist = np.abs(thresholds - 0.5)
    dmin = dist[tied].min()
    closest = tied & ((dist - dmin) <= REL_TOL * dmin)
    return float(thresholds[closest].max())


def choose_threshold(p: Any, y: Any, c_fp: float, c_fn: float) -> float | None:
    """The validation-cost threshold of methods.md section 4.

    Parameters
    ----------
    p : array-like of shape (N,)
        Validation scores.
    y : array-like of shape (N,)
        Validation labels in {0, 1}.
    c_fp, c_fn : float
        Cost of one false positive / false negative.

    Returns
    -------
    float or None
        The chosen threshold (may be :data:`PREDICT_NONE`); None when ``N == 0``.

    Examples
    --------
    >>> p, y = [0.1, 0.4, 0.4, 0.9], [0, 0, 1, 1]
    >>> choose_threshold(p, y, 1.0, 1.0), choose_threshold(p, y, 1.0, 3.0)
    (0.5, 0.4)
    """
    t, costs = cost_curve(p, y, c_fp, c_fn)
    return select_from_curve(t, costs)


def at_threshold(p: Any, y: Any, t: float, c_fp: float, c_fn: float) -> dict[str, Any]:
    """Confusion matrix, cost, precision and recall at threshold ``t`` (predict 1 when p >= t).

    Parameters
    ----------
    p : array-like of shape (N,)
        Scores.
    y : array-like of shape (N,)
        Labels in {0, 1}.
    t : float
        Threshold (e.g. from :func:`choose_threshold` on validation).
    c_fp, c_fn : float
        Cost of one false positive / false negative.

    Returns
    -------
    dict
        ``threshold``; ``confusion`` ``[[TN, FP], [FN, TP]]`` (ints); ``cost`` mean
        cost per row (None when N == 0); ``precision`` and ``recall`` (0.0 when the
        denominator is 0); ``false_positive_rate`` FP / (FP + TN) (None without
        negatives); ``predicted_positive`` (TP + FP); ``actual_positive`` (TP + FN);
        ``rows`` (N).
    """
    pa, ya = scores_labels(p, y)
    pred = pa >= t
    tp = int(np.count_nonzero(pred & ya))
    fp = int(np.count_nonzero(pred & ~ya))
    fn = int(np.count_nonzero(~pred & ya))
    tn = int(pa.size - tp - fp - fn)
    n = int(pa.size)
    return {
        "threshold": float(t),
        "confusion": [[tn, fp], [fn, tp]],
        "cost": (float(c_fp) * fp + float(c_fn) * fn) / n if n else None,
        "precision": tp / (tp + fp) if tp + fp else 0.0,
        "recall": tp / (tp + fn) if tp + fn else 0.0,
        "false_positive_rate": fp / (fp + tn) if fp + tn else None,
        "predicted_positive": tp + fp,
        "actual_positive": tp + fn,
        "rows": n,
    }


def theoretical_cutoff(c_fp: float, c_fn: float) -> float | None:
    """The Bayes cutoff ``c_fp / (c_fp + c_fn)`` for calibrated scores; None when both are 0."""
    s = float(c_fp) + float(c_fn)
    return float(c_fp) / s if s > 0 else None


@dataclass(frozen=True, slots=True)
class CrossFitted:
    """A cross-fitted threshold on one out-of-fold prediction set (methods.md, "Cross-validation:
    cross-fitted threshold"): each fold's threshold was chosen on the other folds' rows."""

    #: the fold labels, ascending, and the threshold chosen for each on the other folds
    folds: tuple[int, ...]
    thresholds: tuple[float, ...]
    #: ``[[TN, FP], [FN, TP]]`` pooled over every fold's rows at that fold's threshold
    confusion: tuple[tuple[int, int], tuple[int, int]]
    #: mean cost per row of the pooled confusion, None without rows
    cost: float | None
    rows: int


def cross_fitted(p: Any, y: Any, fold: Any, c_fp: float, c_fn: float) -> CrossFitted | None:
    """Choose each fold's threshold on the other folds' rows and apply it to the fold's rows.

    Every row of ``p`` is scored once (an out-of-fold prediction set of one repeat). For
    fold k the threshold is :func:`choose_threshold` (the section-4 rule and tie-break,
    O(N log N)) on the rows of every other fold; it is applied to fold k's rows only, so no
    row both chooses and measures a threshold. The confusion and cost are pooled over every
    fold's rows.

    Parameters
    ----------
    p : array-like of shape (N,)
        Out-of-fold scores.
    y : array-like of shape (N,)
        Labels in {0, 1}.
    fold : array-like of int, shape (N,)
        The fold of each row.
    c_fp, c_fn : float
        Cost of one false positive / false negative.

    Returns
    -------
    CrossFitted or None
        None with fewer than two folds (no other fold to choose on).

    Examples
    --------
    >>> r = cross_fitted([0.2, 0.6, 0.4, 0.8], [0, 1, 0, 1], [1, 1, 2, 2], 1.0, 1.0)
    >>> r.thresholds, r.confusion, r.cost
    ((0.5, 0.5), ((2, 0), (0, 2)), 0.0)
    """
    pa, ya = scores_labels(p, y)
    fa = np.asarray(fold)
    if fa.shape != pa.shape:
        raise ValueError("fold must have one label per row")
    labels = np.unique(fa)
    if labels.size < 2:
        return None
    tn = fp = fn = tp = 0
    chosen = []
    for k in labels:
        held = fa == k
        t = choose_threshold(pa[~held], ya[~held], c_fp, c_fn)
        if t is None:  # pragma: no cover - another fold always has rows
            return None
        chosen.append(t)
        pred = pa[held] >= t
        yk = ya[held]
        tp += int(np.count_nonzero(pred & yk))
        fp += int(np.count_nonzero(pred & ~yk))
        fn += int(np.count_nonzero(~pred & yk))
        tn += int(np.count_nonzero(~pred & ~yk))
    n = int(pa.size)
    return CrossFitted(
        folds=tuple(int(k) for k in labels),
        thresholds=tuple(chosen),
        confusion=((tn, fp), (fn, tp)),
        cost=(float(c_fp) * fp + float(c_fn) * fn) / n if n else None,
        rows=n,
    )


@dataclass(frozen=True, slots=True)
class CostAxis:
    """Where the cost chart's vertical axis stops (docs/report.md, the threshold section).

    ``cut`` when the curves spike (predicting no positives at threshold 1 costs every missed
    positive): the axis then stops at ``top`` so the region round the minimum, where the
    chosen thresholds sit, fills the plot; ``peak`` is the highest cost, at ``peak_at``.
    """

    top: float
    cut: bool
    peak: float
    peak_at: float


#: the curves spike when their highest cost is more than SPIKE times the COST_QUANTILE of
#: their costs over thresholds 0 to 1; the cut axis then stops at the nice number at or
#: above ROOM times that quantile (and at least MARK_ROOM times the chosen thresholds' costs)
SPIKE = 2.0
COST_QUANTILE = 0.9
ROOM = 1.25
MARK_ROOM = 1.5


def _nice_ceiling(x: float) -> float:
    """The smallest of 1, 2, 2.5 and 5 times a power of ten at or above ``x`` (> 0)."""
    power = 10.0 ** np.floor(np.log10(x))
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if step * power >= x * (1 - 1e-12):
            return float(step * power)
    return float(10 * power)  # pragma: no cover - the loop ends at 10


def cost_at(thresholds: Sequence[float], costs: Sequence[float], t: float) -> float:
    """The step curve's cost at threshold ``t``: the cost of its last threshold at or below
    ``t``, or its first cost when ``t`` is below them all."""
    at = [c for x, c in zip(thresholds, costs, strict=True) if x <= t]
    return at[-1] if at else costs[0]


def cost_axis(curves: Sequence[tuple[Sequence[float], Sequence[float], float]]) -> CostAxis | None:
    """The cost chart's vertical axis for ``curves``: each model's thresholds (ascending), the
    cost at each (a step function) and its chosen threshold, whose cost stays inside the
    axis; None without a point to draw.

    Each curve is read on a grid of thresholds 0 to 1, so a spike over the last few
    thresholds, however many points it has, weighs as little as the thresholds it spans.
    """
    grid = np.linspace(0.0, 1.0, 201)
    read: list[FloatArray] = []
    marks: list[float] = []
    peak, peak_at = -np.inf, 0.0
    for ts, cs, chosen in curves:
        if not len(ts):
            continue
        t, c = np.asarray(ts, dtype=float), np.asarray(cs, dtype=float)
        at = np.clip(np.searchsorted(t, grid, side="right") - 1, 0, len(t) - 1)
        read.append(c[at])
        marks.append(cost_at(ts, cs, chosen))
        i = int(np.argmax(c))
        if c[i] > peak:
            peak, peak_at = float(c[i]), float(t[i])
    if not read:
        return None
    level = float(np.quantile(np.concatenate(read), COST_QUANTILE))
    whole = CostAxis(peak, False, peak, peak_at)
    if level <= 0 or peak <= SPIKE * level:
        return whole
    top = _nice_ceiling(max(ROOM * level, MARK_ROOM * max(marks)))
    return whole if top >= peak else CostAxis(top, True, peak, peak_at)
