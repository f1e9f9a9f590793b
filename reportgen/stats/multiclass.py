"""Multi-class figures: per-row metrics, the confusion matrix, per-class recall, top-label and
classwise calibration, macro F1 (methods.md, "Multi-class tasks").

Labels are class indices ``0 .. K-1`` into the columns of the probability matrix (the
project's class order); the predicted class is the column with the highest probability,
ties going to the first such column (``numpy.argmax``, as scikit-learn's ``predict``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.stats._util import FloatArray, IntArray, check_metric
from reportgen.stats.calibration import ReliabilityBin, ece, reliability_bins
from reportgen.stats.metric_registry import METRICS, higher_is_better

#: the built-in multi-class metrics and their direction (from the registry)
HIGHER_IS_BETTER: dict[str, bool] = higher_is_better("multiclass")


def labels_proba(y: Any, proba: Any) -> tuple[IntArray, FloatArray]:
    """Validate class indices and a probability matrix of the same length.

    Parameters
    ----------
    y : array-like of int, shape (N,)
        Class indices in ``0 .. K-1``.
    proba : array-like of float, shape (N, K)
        Class probabilities, ``K >= 2``, finite.

    Returns
    -------
    y : ndarray of int64, shape (N,)
    proba : ndarray of float64, shape (N, K)
    """
    pa = np.asarray(proba, dtype=np.float64)
    if pa.ndim != 2 or pa.shape[1] < 2:
        raise ValueError(f"proba must have shape (N, K) with K >= 2, got {pa.shape}")
    ya = np.asarray(y)
    if ya.ndim != 1 or ya.shape[0] != pa.shape[0]:
        raise ValueError(f"y has shape {ya.shape} but proba has {pa.shape[0]} rows")
    if not np.all(np.isfinite(pa)):
        raise ValueError("proba must be finite; found NaN or infinity")
    yi = ya.astype(np.int64)
    if ya.size and (np.any(yi != ya) or yi.min() < 0 or yi.max() >= pa.shape[1]):
        raise ValueError(f"y must hold class indices 0 to {pa.shape[1] - 1}")
    return yi, pa


def per_row_metric(name: str, y: Any, proba: Any) -> FloatArray:
    """Per-row values of a multi-class metric, whose mean is the metric.

    Parameters
    ----------
    name : {"log_loss", "brier", "accuracy", "error_rate"}
        ``log_loss`` is ``-ln p_y`` with ``p_y`` clipped to ``[eps, 1 - eps]``
        (``sklearn.metrics.log_loss``); ``brier`` is ``sum_k (p_k - [y = k]) ** 2``, in
        ``[0, 2]``, halved when ``K == 2`` so that it equals the binary ``(p - y) ** 2``
        (``sklearn.metrics.brier_score_loss`` with ``scale_by_half="auto"``); ``accuracy``
        is 1.0 where the predicted class is ``y``; ``error_rate`` is ``1 - accuracy``.
    y : array-like of int, shape (N,)
        Class indices.
    proba : array-like of float, shape (N, K)
        Class probabilities.

    Returns
    -------
    ndarray of float64, shape (N,)
    """
    check_metric(name, HIGHER_IS_BETTER, "multi-class")
    yi, pa = labels_proba(y, proba)
    return METRICS[name].per_row["multiclass"](yi, pa)


def confusion(y: Any, predicted: Any, k: int) -> IntArray:
    """Confusion counts, rows the actual class and columns the predicted one.

    Parameters
    ----------
    y, predicted : array-like of int, shape (N,)
        Class indices.
    k : int
        Number of classes.

    Returns
    -------
    ndarray of int64, shape (K, K)
        ``sklearn.metrics.confusion_matrix(y, predicted, labels=range(k))``.
    """
    yi = np.asarray(y, dtype=np.int64)
    pi = np.asarray(predicted, dtype=np.int64)
    return np.bincount(yi * k + pi, minlength=k * k).reshape(k, k)


def row_normalised(conf: IntArray) -> list[list[float] | None]:
    """Each row of a confusion matrix divided by its count; None for a class with no rows."""
    out: list[list[float] | None] = []
    for row in np.asarray(conf, dtype=np.float64):
        n = row.sum()
        out.append([float(v) for v in row / n] if n else None)
    return out


@dataclass(frozen=True)
class ClassFigures:
    """One class's rows, predictions, right predictions, recall, precision and F1 (None where
    the denominator is 0)."""

    rows: int
    predicted: int
    correct: int
    recall: float | None
    precision: float | None
    f1: float | None


@dataclass(frozen=True)
class TopLabelFigures:
    """Top-label calibration: its ECE (None without rows) and its reliability bins."""

    ece: float | None
    bins: tuple[ReliabilityBin, ...]


@dataclass(frozen=True)
class ClasswiseFigures:
    """Classwise ECE: per class (None for a class it cannot be computed on), and the mean."""

    mean: float | None
    per_class: tuple[float | None, ...]


def per_class(conf: IntArray) -> list[ClassFigures]:
    """Per class: rows, predicted, recall and precision (None where the denominator is 0) and F1.

    Parameters
    ----------
    conf : ndarray of int, shape (K, K)
        Rows actual, columns predicted.

    Returns
    -------
    list of ClassFigures, length K
        ``f1`` is ``2 TP / (2 TP + FP + FN)``, None when the class is neither present nor
        predicted.
    """
    c = np.asarray(conf, dtype=np.int64)
    tp = np.diag(c)
    rows, predicted = c.sum(axis=1), c.sum(axis=0)
    out = []
    for k in range(c.shape[0]):
        denom = 2 * tp[k] + (predicted[k] - tp[k]) + (rows[k] - tp[k])
        out.append(
            ClassFigures(
                rows=int(rows[k]),
                predicted=int(predicted[k]),
                correct=int(tp[k]),
                recall=float(tp[k] / rows[k]) if rows[k] else None,
                precision=float(tp[k] / predicted[k]) if predicted[k] else None,
                f1=float(2 * tp[k] / denom) if denom else None,
            )
        )
    return out


def macro_f1(conf: IntArray) -> float | None:
    """Mean F1 over the classes present in the labels or the predictions (as
    ``sklearn.metrics.f1_score(average="macro")``); None without rows."""
    f1 = [c.f1 for c in per_class(conf) if c.f1 is not None]
    return float(np.mean(f1)) if f1 else None


def macro_f1_batch(conf: FloatArray | IntArray) -> FloatArray:
    """Macro F1 of many confusion matrices at once.

    Parameters
    ----------
    conf : ndarray, shape (R, K, K)
        Confusion counts (float or int), rows actual.

    Returns
    -------
    ndarray of float64, shape (R,)
        NaN where no class is present or predicted.
    """
    c = np.asarray(conf, dtype=np.float64)
    tp = np.diagonal(c, axis1=1, axis2=2)
    denom = c.sum(axis=2) + c.sum(axis=1)  # 2 TP + FP + FN
    f1 = np.where(denom > 0, 2 * tp / np.where(denom > 0, denom, 1.0), 0.0)
    present = (denom > 0).sum(axis=1)
    with np.errstate(invalid="ignore"):
        return np.where(present > 0, f1.sum(axis=1) / np.maximum(present, 1), np.nan)


def top_label(y: Any, proba: Any, bins: int = 10, *, confidence: float = 0.95) -> TopLabelFigures:
    """Top-label (confidence) calibration: the predicted class's probability against whether
    the prediction was right.

    Parameters
    ----------
    y : array-like of int, shape (N,)
    proba : array-like, shape (N, K)
    bins : int, default 10
        Equal-width bins on ``[0, 1]`` (``calibration.reliability_bins``).
    confidence : float, default 0.95
        Of the per-bin Wilson interval.

    Returns
    -------
    TopLabelFigures
        ``ece`` is the count-weighted mean of ``|mean top probability - accuracy|`` over the
        bins (Guo et al. 2017), ``bins`` as ``reliability_bins``, ``fraction_positive``
        being the bin's accuracy.
    """
    yi, pa = labels_proba(y, proba)
    top = pa.max(axis=1)
    right = pa.argmax(axis=1) == yi
    return TopLabelFigures(
        ece=ece(top, right, bins),
        bins=tuple(reliability_bins(top, right, bins, confidence=confidence)),
    )


def classwise_ece(y: Any, proba: Any, bins: int = 10) -> ClasswiseFigures:
    """Classwise ECE: per class ``k``, the ECE of ``p_k`` against ``[y = k]``, and their mean
    (Kull et al. 2019).

    Parameters
    ----------
    y : array-like of int, shape (N,)
    proba : array-like, shape (N, K)
    bins : int, default 10

    Returns
    -------
    ClasswiseFigures
        ``per_class`` of length K.
    """
    yi, pa = labels_proba(y, proba)
    per = [ece(pa[:, k], yi == k, bins) for k in range(pa.shape[1])]
    vals = [v for v in per if v is not None]
    return ClasswiseFigures(mean=float(np.mean(vals)) if vals else None, per_class=tuple(per))
