"""Small helpers shared by the stats modules: JSON-ready conversion, input checks, quantiles."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from reportgen.stats.results import Reason

#: a float64 array, the type of every metric value and gap array in stats/
FloatArray = NDArray[np.float64]
#: a bool array (labels, correctness)
BoolArray = NDArray[np.bool_]
#: an integer array (indices, counts)
IntArray = NDArray[np.integer[Any]]

EPS = float(np.finfo(np.float64).eps)
REL_TOL = 8.0 * EPS
SPREAD_RTOL = 1e-12
"""Spread below this, relative to the largest |value|, is float rounding: no t interval."""


def check_confidence(confidence: float) -> None:
    """Raise ValueError unless ``0 < confidence < 1``."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence={confidence!r} is not valid. It should be in (0, 1)")


def check_metric(name: str, known: dict[str, bool], kind: str) -> None:
    """Raise ValueError unless ``name`` is one of ``known`` (a ``kind`` metric: "valid", "regression")."""
    if name not in known:
        raise ValueError(
            f"metric={name!r} is not a {kind} metric. It should be one of {sorted(known)}"
        )


def paired_blocks(C: Any, Bm: Any, confidence: float) -> tuple[FloatArray, FloatArray]:
    """Check ``confidence``; the two models' (S, B) block matrices as float64, one B for both."""
    check_confidence(confidence)
    Ca = np.atleast_2d(np.asarray(C, dtype=np.float64))
    Ba = np.atleast_2d(np.asarray(Bm, dtype=np.float64))
    if Ba.shape[1] != Ca.shape[1]:
        raise ValueError(f"C has {Ca.shape[1]} blocks but Bm has {Ba.shape[1]}")
    return Ca, Ba


def seed_labels(seeds: Any, n_seeds: int, name: str) -> list[Any]:
    """The seed labels as a list, one per candidate seed (ValueError naming ``name`` otherwise)."""
    labels = list(np.asarray(seeds, dtype=object).tolist())
    if len(labels) != n_seeds:
        raise ValueError(f"{name} has {len(labels)} labels for {n_seeds} candidate seeds")
    return labels


def t_unavailable(d: FloatArray) -> Reason | None:
    """Why a t interval on the differences ``d`` cannot be had, or None.

    Returns
    -------
    Reason or None
        ``TOO_FEW_FOR_T`` (fewer than 2), ``ZERO_SPREAD`` (all equal up to float rounding).
    """
    if d.size < 2:
        return Reason.TOO_FEW_FOR_T
    if no_spread(d):
        return Reason.ZERO_SPREAD
    return None


def z_value(confidence: float) -> float:
    """Two-sided normal quantile: 1.959964 at 0.95 (scipy.special.ndtri)."""
    from scipy import special  # here: the view reads stats.calibration and needs no scipy

    return float(special.ndtri(1.0 - (1.0 - confidence) / 2.0))


def plain(x: Any) -> Any:
    """numpy scalar -> Python scalar; other values unchanged."""
    return x.item() if isinstance(x, np.generic) else x


def sample_sd(x: FloatArray) -> float | None:
    """Sample sd (ddof=1), None when fewer than 2 values."""
    return float(np.std(x, ddof=1)) if x.size >= 2 else None


def mean_or_none(x: FloatArray) -> float | None:
    """Mean, None for an empty array."""
    return float(np.mean(x)) if x.size else None


def no_spread(x: FloatArray) -> bool:
    """True when the sd is 0 up to float rounding: sd <= 1e-12 * max|x| (ddof=1, n >= 2)."""
    return bool(np.std(x, ddof=1) <= SPREAD_RTOL * np.max(np.abs(x)))


def block_counts(counts: Any, n_blocks: int) -> FloatArray:
    """Rows per block as float64 (all ones when None); every count must be > 0."""
    if counts is None:
        return np.ones(n_blocks)
    n = as_1d(counts, "counts")
    if n.size != n_blocks:
        raise ValueError(f"counts has {n.size} blocks but the sums have {n_blocks}")
    if np.any(n <= 0) or not np.all(np.isfinite(n)):
        raise ValueError("counts must be positive and finite (an empty block has no rows)")
    return n


def to_float(x: Any) -> float | None:
    """Return ``x`` as a plain float, or None when it is None, NaN or infinite."""
    if x is None:
        return None
    v = float(x)
    return v if math.isfinite(v) else None


def as_1d(x: Any, name: str, dtype: Any = np.float64) -> FloatArray:
    """Return ``x`` as a 1-D array of ``dtype``; raise ValueError naming ``name`` otherwise."""
    a = np.asarray(x, dtype=dtype)
    if a.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got shape {a.shape}")
    return a


def scores_labels(p: Any, y: Any) -> tuple[FloatArray, BoolArray]:
    """Validate a score vector and a 0/1 label vector of the same length.

    Parameters
    ----------
    p : array-like of shape (N,)
        Finite scores (class-1 probabilities).
    y : array-like of shape (N,)
        Labels in {0, 1} (bool or numeric).

    Returns
    -------
    p : ndarray of float64, shape (N,)
    y : ndarray of bool, shape (N,)
    """
    pa = as_1d(p, "p")
    ya_raw = np.asarray(y)
    if ya_raw.ndim != 1:
        raise ValueError(f"y must be 1-D, got shape {ya_raw.shape}")
    if pa.shape != ya_raw.shape:
        raise ValueError(f"p and y must have the same length, got {pa.size} and {ya_raw.size}")
    if not np.all(np.isfinite(pa)):
        raise ValueError("p must be finite; found NaN or infinity")
    if ya_raw.dtype != bool:
        bad = ~np.isin(ya_raw, (0, 1))
        if np.any(bad):
            raise ValueError(
                f"y={ya_raw[bad][0].item()!r} is not a valid label. It should be one of [0, 1]"
            )
    return pa, ya_raw.astype(bool)


def percentile_interval(means: FloatArray, confidence: float) -> tuple[float, float]:
    """Percentile interval of bootstrap means: numpy.percentile (linear) at (1-c)/2, 1-(1-c)/2."""
    alpha = (1.0 - confidence) / 2.0
    low, high = np.percentile(means, [100.0 * alpha, 100.0 * (1.0 - alpha)], method="linear")
    return float(low), float(high)


def row_counts(idx: IntArray, k: int) -> FloatArray:
    """How often each of ``k`` values occurs in each row of ``idx``: (R, n) ints -> (R, k) float64."""
    r = idx.shape[0]
    flat = (idx + (np.arange(r, dtype=idx.dtype) * k)[:, None]).ravel()
    return np.bincount(flat, minlength=r * k).reshape(r, k).astype(np.float64)
