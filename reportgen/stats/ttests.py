"""t intervals on paired blocks: Student t, the ratio (delta-method) t, and Welch (section 3).

Every gap is "candidate better" positive (section 0). scipy.special supplies the t
distribution (stdtrit, stdtr), the functions scipy.stats' t calls, without importing
scipy.stats (about half a second at start-up).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special

from reportgen.stats._util import (
    SPREAD_RTOL,
    FloatArray,
    as_1d,
    block_counts,
    check_confidence,
    no_spread,
)
from reportgen.stats.results import TInterval


def t_test(mean: float, se: float, df: float, confidence: float) -> tuple[float, float, float]:
    """Student t interval ``mean -/+ q * se`` and the two-sided p-value of ``mean / se``.

    Uses scipy.special (stdtrit, stdtr), the same functions scipy.stats' t distribution
    calls, without importing scipy.stats (about half a second at start-up).
    """
    q = float(special.stdtrit(df, 1.0 - (1.0 - confidence) / 2.0))
    p = float(2.0 * special.stdtr(df, -abs(mean / se)))
    return float(mean - q * se), float(mean + q * se), min(p, 1.0)


def ratio_var(g: FloatArray, n: FloatArray) -> float:
    """Delta-method (linearisation) variance of ``sum(g) / sum(n)`` over B sampled blocks.

    ``B / (B - 1) * sum((g_b - R n_b)^2) / sum(n)^2`` with ``R = sum(g) / sum(n)``: the
    cluster-sampling ratio variance. With equal blocks (n_b = m) it is exactly
    ``var(g / m, ddof=1) / B``, the one-sample t variance of the per-block means.
    """
    b = g.size
    r = g.sum() / n.sum()
    e = g - r * n
    return float(b / (b - 1) * np.sum(e * e) / n.sum() ** 2)


@dataclass(frozen=True)
class RatioT(TInterval):
    """The paired ratio t on the row-weighted gap: a TInterval with its point ``gap``."""

    gap: float | None = None


def ratio_t(g: Any, counts: Any, confidence: float) -> RatioT:
    """Paired t interval on the row-weighted gap ``sum(g) / sum(n)`` (ratio standard error).

    Parameters
    ----------
    g : array-like of shape (B,)
        Per-block sums of the per-row gap (sign rule applied).
    counts : array-like of shape (B,), optional
        Rows per block (all ones when None: ``g`` are then per-block gaps and this is
        the one-sample t on them, ``scipy.stats.ttest_1samp(g, 0)``).
    confidence : float

    Returns
    -------
    RatioT
        ``se`` is the delta-method ratio se, ``df`` B - 1. Interval and p None with fewer
        than 2 blocks or zero spread of the linearised residuals ``g_b - R n_b`` (up to
        float rounding). The interval is ``gap -/+ q se``, so it always contains its own
        point estimate.
    """
    check_confidence(confidence)
    ga = as_1d(g, "g")
    n = block_counts(counts, ga.size)
    if ga.size == 0:
        return RatioT()
    r = float(ga.sum() / n.sum())
    if ga.size < 2:
        return RatioT(gap=r)
    se = float(np.sqrt(ratio_var(ga, n)))
    df = int(ga.size - 1)
    resid = ga - r * n
    scale = max(float(np.max(np.abs(ga))), float(np.max(np.abs(r * n))), 1e-300)
    if float(np.max(np.abs(resid))) <= 1e3 * SPREAD_RTOL * scale or se == 0.0:
        return RatioT(se=se, df=df, gap=r)
    low, high, p = t_test(r, se, df, confidence)
    return RatioT(low, high, p, se, df, gap=r)


def welch(
    candidate_blocks: Any,
    baseline_blocks: Any,
    *,
    higher_is_better: bool,
    confidence: float,
    counts: Any = None,
) -> TInterval:
    """Unpaired contrast on the same estimand: what pairing buys.

    Each model's row-weighted metric ``sum / N`` gets its own ratio (delta-method)
    variance; ``se = sqrt(v_c + v_b)`` with Welch-Satterthwaite df. With equal blocks
    this is ``scipy.stats.ttest_ind(equal_var=False)`` on the block means.

    Parameters
    ----------
    candidate_blocks, baseline_blocks : array-like of shape (B,)
        Seed-averaged per-block sums of the per-row metric (per-block means when
        ``counts`` is None). Unequal lengths are allowed only without counts.
    higher_is_better : bool
    confidence : float
    counts : array-like of shape (B,), optional

    Returns
    -------
    TInterval
        Every field None with fewer than 2 blocks on a side; all but ``se`` None with
        zero spread on both. ``df`` is the Welch-Satterthwaite (non-integer) df.
    """
    check_confidence(confidence)
    c = as_1d(candidate_blocks, "candidate_blocks")
    b = as_1d(baseline_blocks, "baseline_blocks")
    if c.size < 2 or b.size < 2:
        return TInterval()
    nc = block_counts(counts, c.size)
    nb = block_counts(counts, b.size)
    v1, v2 = ratio_var(c, nc), ratio_var(b, nb)
    se = float(np.sqrt(v1 + v2))
    if se == 0.0 or (no_spread(c / nc) and no_spread(b / nb)):
        return TInterval(se=se)
    rc, rb = float(c.sum() / nc.sum()), float(b.sum() / nb.sum())
    first, second = (rc, rb) if higher_is_better else (rb, rc)
    df = float((v1 + v2) ** 2 / (v1**2 / (c.size - 1) + v2**2 / (b.size - 1)))
    low, high, p = t_test(first - second, se, df, confidence)
    return TInterval(low, high, p, se, df)
