"""Per-row metric values and the "candidate better" sign rule (methods.md sections 0 and 2)."""

from __future__ import annotations

from typing import Any

import numpy as np

from reportgen.stats._util import FloatArray, check_metric, scores_labels
from reportgen.stats.metric_registry import CORRECT, METRICS, higher_is_better

#: the built-in binary metrics and their direction (from the registry)
HIGHER_IS_BETTER: dict[str, bool] = higher_is_better("binary")


def per_row_metric(
    name: str,
    *,
    y: Any = None,
    p: Any = None,
    correct: Any = None,
    threshold: float = 0.5,
    c_fp: float = 1.0,
    c_fn: float = 1.0,
) -> FloatArray:
    """Per-row values of a metric, whose mean is the metric.

    Parameters
    ----------
    name : {"log_loss", "brier", "accuracy", "error_rate", "cost"}
        The metric. ``log_loss`` is ``-(y log p + (1 - y) log(1 - p))`` with ``p``
        clipped to ``[eps, 1 - eps]``, ``eps`` the float64 machine epsilon (as
        ``sklearn.metrics.log_loss``); ``brier`` is ``(p - y) ** 2``; ``accuracy``
        is 1.0 where ``(p >= threshold) == y``; ``error_rate`` is ``1 - accuracy``;
        ``cost`` is ``c_fp * FP_row + c_fn * FN_row`` predicting 1 when ``p >= threshold``.
    y : array-like of shape (N,), optional
        Labels in {0, 1}. Required except for accuracy/error_rate given ``correct``.
    p : array-like of shape (N,), optional
        Class-1 probabilities. Required except for accuracy/error_rate given ``correct``.
    correct : array-like of bool, shape (N,), optional
        Per-row correctness (question sets); used for accuracy/error_rate when given.
    threshold : float, default 0.5
        Decision threshold for accuracy, error_rate and cost.
    c_fp, c_fn : float, default 1.0
        Cost of one false positive / false negative (``cost`` only).

    Returns
    -------
    ndarray of float64, shape (N,)
    """
    check_metric(name, HIGHER_IS_BETTER, "valid")
    metric = METRICS[name]
    if metric.from_correct and correct is not None:
        return metric.per_row[CORRECT](np.asarray(correct, dtype=bool))
    if p is None or y is None:
        raise ValueError(f"metric={name!r} needs both p and y")
    pa, ya = scores_labels(p, y)
    return metric.per_row["binary"](ya, pa, threshold, c_fp, c_fn)


def gap(candidate: Any, baseline: Any, higher_is_better: bool) -> float | FloatArray:
    """The gap with the sign rule: positive when the candidate is better.

    Parameters
    ----------
    candidate, baseline : float or array-like (broadcastable)
        Metric values in metric units.
    higher_is_better : bool
        Direction of the metric.

    Returns
    -------
    float or ndarray
        ``candidate - baseline`` when higher is better, else ``baseline - candidate``.
        A plain float when both inputs are scalars.
    """
    d = gaps(candidate, baseline, higher_is_better)
    return float(d) if d.ndim == 0 else d


def gaps(candidate: Any, baseline: Any, higher_is_better: bool) -> FloatArray:
    """:func:`gap` as a float64 array always (0-d for two scalars): for callers that index it."""
    c = np.asarray(candidate, dtype=np.float64)
    b = np.asarray(baseline, dtype=np.float64)
    return c - b if higher_is_better else b - c
