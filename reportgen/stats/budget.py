"""The variance budget of the gap: Var(gap) ~ s_seed^2 / S + s_block^2 / B (a planning model).

The two noise sources are taken as independent and the gap as staying where it is; the
combined half-width ``z * sqrt(total)`` uses the normal quantile at the report's
confidence. It is a planning aid for "how many seeds and blocks would settle this", not
evidence: the measured intervals (block bootstrap, t, two-level bootstrap) are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from scipy import special

from reportgen.stats._util import to_float, z_value
from reportgen.stats.results import Bounds, Reason

GRID_SEEDS = (1, 2, 4, 10)  # multiples of the current seed count
GRID_BLOCKS = (1, 2, 4)  # multiples of the current block count
MAX_PLAN = 10_000_000  # above this "needed" count the plan is reported as out of reach


def sd_interval(sd: float | None, n: int, confidence: float) -> Bounds:
    """Chi-square interval for a normal sample sd with n values (n - 1 df).

    ``sd * sqrt((n-1) / chi2_{1-a/2})`` to ``sd * sqrt((n-1) / chi2_{a/2})``, with the
    chi-square quantiles from ``scipy.special.chdtri`` (inverse survival function).
    Both ends None with fewer than 2 values.
    """
    if sd is None or n < 2:
        return Bounds()
    df = n - 1
    a = (1.0 - confidence) / 2.0
    upper_q = float(special.chdtri(df, a))  # P(X > q) = a
    lower_q = float(special.chdtri(df, 1.0 - a))
    return Bounds(
        to_float(sd * math.sqrt(df / upper_q)),
        to_float(sd * math.sqrt(df / lower_q)) if lower_q > 0 else None,
    )


def half_width(seed_var: float, s: float, block_var: float, b: float, z: float) -> float:
    """Predicted half-width ``z * sqrt(seed_var / s + block_var / b)``."""
    return z * math.sqrt(seed_var / s + block_var / b)


def _needed(var_this: float, other_term: float, target: float, z: float, now: int) -> int | None:
    """Smallest count n >= 2 with z * sqrt(var_this / n + other_term) < target; None when the
    other term alone reaches the target (no count of this kind can settle it)."""
    room = (target / z) ** 2 - other_term
    if room <= 0:
        return None
    if var_this == 0:
        return 2
    n = math.floor(var_this / room) + 1
    n = max(n, 2)
    return n if n <= MAX_PLAN else None


@dataclass(frozen=True)
class Both:
    """Both counts scaled together by ``scale``: ``S`` seeds and ``B`` blocks."""

    S: int
    B: int
    scale: float


@dataclass(frozen=True)
class GridPoint:
    """The predicted half-width with ``S`` seeds and ``B`` blocks."""

    S: int
    B: int
    half_width: float


@dataclass(frozen=True)
class Plan:
    """Seeds alone, blocks alone and both scaled together that bring the half-width below a target.

    Attributes
    ----------
    seeds_needed, blocks_needed : int or None
        None when that count alone cannot (or the gap is not above the target).
    both_needed : Both or None
        None when out of reach (above MAX_PLAN) or the gap is not above the target.
    reasons : tuple of Reason
        ``GAP_NOT_ABOVE_TARGET``, or ``SEEDS_ALONE_CANNOT`` and/or ``BLOCKS_ALONE_CANNOT``.
    block_alone, seed_alone : float
        The half-width the block term alone, and the seed term alone, gives.
    """

    seeds_needed: int | None
    blocks_needed: int | None
    both_needed: Both | None
    reasons: tuple[Reason, ...]
    block_alone: float
    seed_alone: float


@dataclass(frozen=True)
class Budget:
    """The variance budget of the gap and its planning figures (noise.budget).

    Attributes
    ----------
    seed_term, block_term, total : float
        ``s_seed^2 / S``, the block term, their sum.
    seed_share : float or None
        ``seed_term / total``; None when the total is 0.
    S, B : int
    seed_sd, block_sd : float
        ``block_sd = sqrt(block_term * B)``.
    z, half_width : float
        The normal quantile and ``z * sqrt(total)``.
    combined : Bounds
        gap plus or minus the half-width.
    gap : float
    plan : Plan
        Against zero on the gap's side (half-width below ``|gap|``): the interval would
        exclude zero whichever model the gap favours.
    plan_useful : Plan or None
        Against min_useful_effect; None without it.
    plan_tie : Plan or None
        Towards a tie: the half-width below ``m - |gap|``, so the interval would lie inside
        plus or minus ``m``; None without a positive min_useful_effect.
    grid : tuple of GridPoint
        Multiples GRID_SEEDS x GRID_BLOCKS of today's counts.
    """

    seed_term: float
    block_term: float
    total: float
    seed_share: float | None
    S: int
    B: int
    seed_sd: float
    block_sd: float
    z: float
    half_width: float
    combined: Bounds
    gap: float
    plan: Plan
    plan_useful: Plan | None
    grid: tuple[GridPoint, ...]
    plan_tie: Plan | None = None


def _plan(
    target: float,
    *,
    seed_var: float,
    block_var: float,
    seed_term: float,
    block_term: float,
    S: int,
    B: int,
    z: float,
) -> Plan:
    """Seeds alone, blocks alone and both scaled together that bring the half-width below
    ``target`` (see ``budget``)."""
    total = seed_term + block_term
    hw = z * math.sqrt(total)
    alone = {"block_alone": z * math.sqrt(block_term), "seed_alone": z * math.sqrt(seed_term)}
    if target <= 0:
        return Plan(None, None, None, (Reason.GAP_NOT_ABOVE_TARGET,), **alone)
    s_n = _needed(seed_var, block_term, target, z, S)
    b_n = _needed(block_var, seed_term, target, z, B)
    k = (z * z * total) / (target * target)  # scale both counts by k (> 1 when short)
    scaled = (
        Both(S, B, 1.0)
        if hw < target
        else Both(max(2, math.ceil(k * S)), max(2, math.ceil(k * B)), k)
    )
    both = None if scaled.S > MAX_PLAN or scaled.B > MAX_PLAN else scaled
    reasons = []
    if s_n is None:
        reasons.append(Reason.SEEDS_ALONE_CANNOT)
    if b_n is None:
        reasons.append(Reason.BLOCKS_ALONE_CANNOT)
    return Plan(s_n, b_n, both, tuple(reasons), **alone)


def budget(
    *,
    seed_sd: float,
    n_seeds: int,
    block_var_of_gap: float,
    n_blocks: int,
    gap: float,
    confidence: float,
    min_useful_effect: float | None = None,
) -> Budget:
    """The variance budget and the planning figures (noise.budget).

    Parameters
    ----------
    seed_sd : float
        The seed rule's sd (``s_seed``).
    n_seeds : int
        ``S``: seeds averaged in the gap (the smaller of the two models' seed counts).
    block_var_of_gap : float
        The block term ``s_block^2 / B`` as measured: the ratio (delta-method) variance of
        the row-weighted gap of the seed-averaged networks (with equal blocks,
        ``var(per-block gaps, ddof=1) / B``).
    n_blocks : int
        ``B``.
    gap : float
        The current gap (sign rule: candidate better is positive).
    confidence : float
    min_useful_effect : float, optional

    Returns
    -------
    Budget
    """
    S, B = int(n_seeds), int(n_blocks)
    seed_var = float(seed_sd) ** 2
    seed_term = seed_var / S
    block_term = float(block_var_of_gap)
    block_var = block_term * B
    total = seed_term + block_term
    z = z_value(confidence)
    hw = z * math.sqrt(total)
    now: dict[str, Any] = dict(
        seed_var=seed_var,
        block_var=block_var,
        seed_term=seed_term,
        block_term=block_term,
        S=S,
        B=B,
        z=z,
    )
    return Budget(
        seed_term=seed_term,
        block_term=block_term,
        total=total,
        seed_share=seed_term / total if total > 0 else None,
        S=S,
        B=B,
        seed_sd=float(seed_sd),
        block_sd=math.sqrt(block_var),
        z=z,
        half_width=hw,
        combined=Bounds(gap - hw, gap + hw),
        gap=gap,
        # the interval excludes zero on the gap's side: either model shown better
        plan=_plan(abs(gap), **now),
        plan_useful=None if min_useful_effect is None else _plan(gap - min_useful_effect, **now),
        plan_tie=None
        if min_useful_effect is None or min_useful_effect <= 0
        else _plan(min_useful_effect - abs(gap), **now),
        grid=tuple(
            GridPoint(S * ks, B * kb, half_width(seed_var, S * ks, block_var, B * kb, z))
            for ks in GRID_SEEDS
            for kb in GRID_BLOCKS
        ),
    )
