"""Regression figures: per-row errors, MSE/RMSE/MAE/R², residuals by group, thinned points
(methods.md, "Regression tasks"). A residual is ``y - y_pred`` (actual minus predicted, as
scikit-learn's ``PredictionErrorDisplay``): positive where the model predicts too low.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.stats._util import FloatArray, IntArray, check_metric
from reportgen.stats.metric_registry import METRICS, higher_is_better

#: the built-in regression metrics and their direction (from the registry)
HIGHER_IS_BETTER: dict[str, bool] = higher_is_better("regression")


def actual_predicted(y: Any, y_pred: Any) -> tuple[FloatArray, FloatArray]:
    """Validate actual and predicted values: 1-D, the same length, finite.

    Parameters
    ----------
    y, y_pred : array-like of float, shape (N,)

    Returns
    -------
    y, y_pred : ndarray of float64, shape (N,)
    """
    ya = np.asarray(y, dtype=np.float64)
    pa = np.asarray(y_pred, dtype=np.float64)
    if ya.ndim != 1 or pa.shape != ya.shape:
        raise ValueError(f"y and y_pred must be 1-D of one length, got {ya.shape} and {pa.shape}")
    if not (np.all(np.isfinite(ya)) and np.all(np.isfinite(pa))):
        raise ValueError("y and y_pred must be finite; found NaN or infinity")
    return ya, pa


def per_row_metric(name: str, y: Any, y_pred: Any) -> FloatArray:
    """Per-row values of a regression metric, whose mean is the metric.

    Parameters
    ----------
    name : {"squared_error", "absolute_error"}
        ``(y - y_pred) ** 2`` (its mean is the MSE, ``sklearn.metrics.mean_squared_error``)
        or ``|y - y_pred|`` (the MAE, ``sklearn.metrics.mean_absolute_error``).
    y, y_pred : array-like of float, shape (N,)

    Returns
    -------
    ndarray of float64, shape (N,)
    """
    check_metric(name, HIGHER_IS_BETTER, "regression")
    ya, pa = actual_predicted(y, y_pred)
    return METRICS[name].per_row["regression"](ya, pa)


@dataclass(frozen=True)
class RegressionFigures:
    """The regression figures of a set of rows: every figure None without rows."""

    rows: int
    mse: float | None = None
    rmse: float | None = None
    mae: float | None = None
    #: ``1 - SS_res / SS_tot`` (``sklearn.metrics.r2_score``); None when ``y`` is constant
    r2: float | None = None
    mean_residual: float | None = None


def summary(y: Any, y_pred: Any) -> RegressionFigures:
    """MSE, RMSE, MAE, R² and the mean residual of one set of predictions.

    Parameters
    ----------
    y, y_pred : array-like of float, shape (N,)

    Returns
    -------
    RegressionFigures
        ``r2`` None when ``y`` is constant; every figure None without rows.
    """
    ya, pa = actual_predicted(y, y_pred)
    if ya.size == 0:
        return RegressionFigures(rows=0)
    r = ya - pa
    mse = float(np.mean(r * r))
    ss_tot = float(np.sum((ya - ya.mean()) ** 2))
    return RegressionFigures(
        rows=int(ya.size),
        mse=mse,
        rmse=float(np.sqrt(mse)),
        mae=float(np.mean(np.abs(r))),
        r2=1.0 - float(np.sum(r * r)) / ss_tot if ss_tot > 0 else None,
        mean_residual=float(np.mean(r)),
    )


def by_group(codes: Any, y: Any, y_pred: Any, n_groups: int) -> list[RegressionFigures]:
    """``summary`` of the rows of each group.

    Parameters
    ----------
    codes : array-like of int, shape (N,)
        Group index of each row, ``0 .. n_groups - 1``.
    y, y_pred : array-like of float, shape (N,)
    n_groups : int

    Returns
    -------
    list of RegressionFigures, length n_groups
        ``summary`` per group (a group without rows has ``rows`` 0 and None for the rest).
    """
    c = np.asarray(codes, dtype=np.int64)
    ya, pa = actual_predicted(y, y_pred)
    r = ya - pa
    n = np.bincount(c, minlength=n_groups).astype(np.float64)
    sums = {
        "sq": np.bincount(c, weights=r * r, minlength=n_groups),
        "abs": np.bincount(c, weights=np.abs(r), minlength=n_groups),
        "res": np.bincount(c, weights=r, minlength=n_groups),
        "y": np.bincount(c, weights=ya, minlength=n_groups),
        "yy": np.bincount(c, weights=ya * ya, minlength=n_groups),
    }
    out = []
    for g in range(n_groups):
        if not n[g]:
            out.append(RegressionFigures(rows=0))
            continue
        mse = sums["sq"][g] / n[g]
        ss_tot = sums["yy"][g] - sums["y"][g] ** 2 / n[g]
        out.append(
            RegressionFigures(
                rows=int(n[g]),
                mse=float(mse),
                rmse=float(np.sqrt(mse)),
                mae=float(sums["abs"][g] / n[g]),
                r2=float(1.0 - sums["sq"][g] / ss_tot) if ss_tot > 1e-12 * sums["yy"][g] else None,
                mean_residual=float(sums["res"][g] / n[g]),
            )
        )
    return out


def r2_block_stats(codes: Any, y: Any, y_pred: Any, n_blocks: int) -> FloatArray:
    """Per block the sums R² is computed from: rows, sum y, sum y², sum of squared residuals.

    Returns
    -------
    ndarray of float64, shape (B, 4)
        Sums over any set of blocks give that set's R² through ``r2_from_sums``.
    """
    c = np.asarray(codes, dtype=np.int64)
    ya, pa = actual_predicted(y, y_pred)
    r = ya - pa
    return np.stack(
        [
            np.bincount(c, minlength=n_blocks).astype(np.float64),
            np.bincount(c, weights=ya, minlength=n_blocks),
            np.bincount(c, weights=ya * ya, minlength=n_blocks),
            np.bincount(c, weights=r * r, minlength=n_blocks),
        ],
        axis=1,
    )


def r2_from_sums(s: FloatArray) -> FloatArray:
    """R² from summed ``r2_block_stats`` (..., 4); NaN where y is constant."""
    s = np.asarray(s, dtype=np.float64)
    n, sy, syy, sres = s[..., 0], s[..., 1], s[..., 2], s[..., 3]
    ss_tot = syy - sy * sy / np.where(n > 0, n, 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ss_tot > 1e-12 * np.abs(syy), 1.0 - sres / ss_tot, np.nan)


def thin_points(y: Any, y_pred: Any, max_points: int = 500) -> IntArray:
    """Which rows a predicted-against-actual chart draws: all of them up to ``max_points``,
    else ``max_points`` rows evenly spaced in the order of ``y`` (the range stays covered).

    Returns
    -------
    ndarray of int64
        Row indices, in the order of ``y`` (stable for ties).
    """
    ya, _ = actual_predicted(y, y_pred)
    order = np.argsort(ya, kind="stable")
    if ya.size <= max_points:
        return order
    pick = np.unique(np.round(np.linspace(0, ya.size - 1, max_points)).astype(np.int64))
    return order[pick]
