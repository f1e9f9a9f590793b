"""Metrics that are not a mean of per-row values (macro F1, R²): a block bootstrap that
recomputes the metric on each resample (methods.md, "Descriptions").

Such a metric has no row-weighted estimand, so neither the ratio t interval nor the
seed rule applies to it; it is shown as a description beside the claim's metric, never as
the claim's metric. Its per-block sufficient statistics (a confusion matrix, or the sums
R² needs) are summed over the drawn blocks and the metric recomputed from the sums.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.stats._util import FloatArray, check_confidence, percentile_interval, row_counts
from reportgen.stats.bootstrap import resample_index
from reportgen.stats.results import Reason

#: bytes the drawn sums of one batch of resamples may take, with the metric's temporaries
#: (a multi-class macro F1 sums K x K confusion cells per network and resample)
MEMORY_BYTES = 256 * 2**20
#: arrays of the batch's size alive at once: both models' drawn sums and the metric's
#: temporaries
LIVE_COPIES = 6


def resamples_per_batch(networks: int, statistics: int) -> int:
    """Resamples drawn into sums at once, so that they take at most MEMORY_BYTES; at least 1.
    Batching never changes the result: the index draws stay the same, in the same order."""
    per_resample = 8 * LIVE_COPIES * max(1, networks) * max(1, statistics)
    return max(1, MEMORY_BYTES // per_resample)


@dataclass(frozen=True)
class StatisticGap:
    """Each model's metric, the gap and its percentile interval over the block resamples.

    Attributes
    ----------
    candidate, baseline : float or None
        The metric (mean over the model's networks); None where undefined.
    gap : float or None
        Sign rule: positive when the candidate is better.
    low, high : float or None
        Percentile interval of the gap over the draws where it is defined.
    blocks, resamples : int
    undefined_draws : int
        Draws where the gap is undefined.
    reason : Reason or None
        ``TOO_FEW_BLOCKS``, ``METRIC_UNDEFINED`` or ``UNDEFINED_ON_RESAMPLES``.
    """

    candidate: float | None
    baseline: float | None
    gap: float | None
    low: float | None
    high: float | None
    blocks: int
    resamples: int
    undefined_draws: int
    reason: Reason | None


def block_statistic_gap(
    candidate: Any,
    baseline: Any,
    statistic: Callable[[FloatArray], FloatArray],
    *,
    higher_is_better: bool,
    resamples: int,
    confidence: float,
    rng: np.random.Generator,
) -> StatisticGap:
    """Each model's metric (the mean over its networks) and the gap, with a block bootstrap.

    Parameters
    ----------
    candidate, baseline : array-like, shape (S, B, m)
        Per network and block, the ``m`` sufficient statistics of the metric; the two
        models share the ``B`` blocks.
    statistic : callable
        ``(..., m) -> (...)``: the metric from summed statistics (NaN where undefined).
    higher_is_better : bool
        The gap's sign: positive when the candidate is better.
    resamples : int
        ``R``: draws of the ``B`` blocks with replacement (``bootstrap.resample_index``).
    confidence : float
    rng : numpy.random.Generator
        One ``integers`` matrix per chunk, shared by both models (paired blocks).

    Returns
    -------
    StatisticGap
        No interval with fewer than 2 blocks (``reason`` says so).
    """
    check_confidence(confidence)
    c = np.asarray(candidate, dtype=np.float64)
    b = np.asarray(baseline, dtype=np.float64)
    if c.ndim != 3 or b.ndim != 3 or c.shape[1:] != b.shape[1:]:
        raise ValueError(
            f"candidate and baseline must be (S, B, m) alike, got {c.shape}, {b.shape}"
        )
    sign = 1.0 if higher_is_better else -1.0

    def value(stats: FloatArray) -> float | None:
        v = float(np.mean(statistic(stats.sum(axis=1))))
        return v if np.isfinite(v) else None

    cv, bv = value(c), value(b)
    gap = sign * (cv - bv) if cv is not None and bv is not None else None
    n_blocks = c.shape[1]
    base: dict[str, Any] = {"candidate": cv, "baseline": bv, "gap": gap}
    counts_of = {"blocks": int(n_blocks), "resamples": int(resamples)}
    if n_blocks < 2 or gap is None:
        reason = Reason.TOO_FEW_BLOCKS if n_blocks < 2 else Reason.METRIC_UNDEFINED
        return StatisticGap(
            **base, low=None, high=None, **counts_of, undefined_draws=0, reason=reason
        )
    draws = []
    per_batch = resamples_per_batch(max(c.shape[0], b.shape[0]), c.shape[2])
    for idx in resample_index(rng, resamples, n_blocks):
        counts = row_counts(idx, n_blocks)  # (r, B)
        for lo in range(0, counts.shape[0], per_batch):
            part = counts[None, lo : lo + per_batch]
            cs = np.matmul(part, c)  # (S, r, m): each network's drawn sums
            bs = np.matmul(part, b)
            draws.append(sign * (statistic(cs).mean(axis=0) - statistic(bs).mean(axis=0)))
    d = np.concatenate(draws)
    ok = np.isfinite(d)
    undefined = int((~ok).sum())
    if ok.sum() < 2:
        return StatisticGap(
            **base,
            low=None,
            high=None,
            **counts_of,
            undefined_draws=undefined,
            reason=Reason.UNDEFINED_ON_RESAMPLES,
        )
    low, high = percentile_interval(d[ok], confidence)
    return StatisticGap(
        **base, low=low, high=high, **counts_of, undefined_draws=undefined, reason=None
    )
