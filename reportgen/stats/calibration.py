"""Reliability bins, expected calibration error and Brier score (methods.md section 6)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.stats._util import FloatArray, IntArray, scores_labels
from reportgen.stats.proportions import wilson

#: bins with fewer rows than this are drawn hollow and not joined to the reliability curve:
#: their observed fraction is too uncertain to read as a point on a line
MIN_JOINED = 20


def _bin_stats(p: Any, y: Any, bins: int) -> tuple[FloatArray, IntArray, FloatArray, FloatArray]:
    """Edges (B + 1,), counts (B,), score sums (B,) and positive counts (B,) per bin."""
    if int(bins) != bins or bins < 1:
        raise ValueError(f"bins={bins!r} is not valid. It should be a positive integer")
    pa, ya = scores_labels(p, y)
    edges = np.arange(bins + 1) / bins  # edges[b] == b / B exactly as printed
    # bin b holds edges[b] <= p < edges[b + 1]; the last bin also holds p == 1
    idx = np.clip(np.searchsorted(edges, pa, side="right") - 1, 0, bins - 1)
    counts = np.bincount(idx, minlength=bins)
    sums = np.bincount(idx, weights=pa, minlength=bins).astype(np.float64, copy=False)
    pos = np.bincount(idx, weights=ya.astype(np.float64), minlength=bins).astype(
        np.float64, copy=False
    )
    return edges, counts, sums, pos


@dataclass(frozen=True)
class ReliabilityBin:
    """One equal-width bin: its edges, its rows, their mean score and the observed positive
    fraction with its Wilson interval (None for an empty bin)."""

    low: float
    high: float
    count: int
    mean_p: float | None
    fraction_positive: float | None
    fraction_low: float | None
    fraction_high: float | None


def reliability_bins(
    p: Any, y: Any, bins: int = 10, *, confidence: float = 0.95
) -> list[ReliabilityBin]:
    """Per-bin count, mean score and observed positive fraction with its interval.

    Bin ``b`` is ``[b/B, (b+1)/B)``; the last bin includes 1. The interval on the
    observed fraction is Wilson's (``proportions.wilson``) on the bin's positives.

    Parameters
    ----------
    p : array-like of shape (N,)
        Class-1 probabilities in [0, 1].
    y : array-like of shape (N,)
        Labels in {0, 1}.
    bins : int, default 10
        Number of equal-width bins ``B``.
    confidence : float, default 0.95
        Of the per-bin interval: the project's ``rule.confidence``.

    Returns
    -------
    list of ReliabilityBin, length B
        ``low`` and ``high`` are the bin's edges,
        ``fraction_low`` and ``fraction_high`` the interval on ``fraction_positive``.
        An empty bin has count 0 and None for the rest (not drawn).
    """
    edges, counts, sums, pos = _bin_stats(p, y, bins)
    out = []
    for b in range(int(bins)):  # one result per bin for the report, not a numeric loop
        n = int(counts[b])
        low, high = wilson(float(pos[b]), n, confidence) if n else (None, None)
        out.append(
            ReliabilityBin(
                low=float(edges[b]),
                high=float(edges[b + 1]),
                count=n,
                mean_p=float(sums[b] / n) if n else None,
                fraction_positive=float(pos[b] / n) if n else None,
                fraction_low=low,
                fraction_high=high,
            )
        )
    return out


def ece(p: Any, y: Any, bins: int = 10) -> float | None:
    """Expected calibration error, class-1 variant.

    The count-weighted mean of ``|mean_p - fraction_positive|`` over non-empty bins
    (not the ``max(p, 1 - p)`` confidence variant).

    Parameters
    ----------
    p : array-like of shape (N,)
    y : array-like of shape (N,)
    bins : int, default 10

    Returns
    -------
    float or None
        None when ``N == 0``.
    """
    _, counts, sums, pos = _bin_stats(p, y, bins)
    n = counts.sum()
    if n == 0:
        return None
    # count * |mean_p - frac| == |sum_p - positives| per bin
    return float(np.sum(np.abs(sums - pos)) / n)


def brier(p: Any, y: Any) -> float | None:
    """Brier score ``mean((p - y) ** 2)``; None when ``N == 0``.

    Parameters
    ----------
    p : array-like of shape (N,)
    y : array-like of shape (N,)

    Returns
    -------
    float or None
    """
    pa, ya = scores_labels(p, y)
    if pa.size == 0:
        return None
    return float(np.mean((pa - ya) ** 2))
