"""The variance budget of the gap: Var(gap) ~ s_seed^2 / S + s_block^2 / B (a planning model).

The two noise sources are taken as independent and the gap as staying where it is; the
combined half-width ``z * sqrt(total)`` uses the normal quantile at the report's
confidence. It is a planning aid for "how many seeds and blocks would settle this", not
evidence: the measured intervals (block bootstrap, t, two-level bootstrap) are.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from scipy import special

from reportgen.stats._util import to_float, z_value

GRID_SEEDS = (1, 2, 4, 10)  # multiples of the current seed count
GRID_BLOCKS = (1, 2, 4)  # multiples of the current block count
MAX_PLAN = 10_000_000  # above this "needed" count the plan is reported as out of reach


def sd_interval(sd: float | None, n: int, confidence: float) -> dict[str, float | None]:
    """Chi-square interval for a normal sample sd with n values (n - 1 df).

    ``sd * sqrt((n-1) / chi2_{1-a/2})`` to ``sd * sqrt((n-1) / chi2_{a/2})``, with the
    chi-square quantiles from ``scipy.special.chdtri`` (inverse survival function).
    None with fewer than 2 values.
    """
    if sd is None or n < 2:
        return {"low": None, "high": None}
    df = n - 1
    a = (1.0 - confidence) / 2.0
    upper_q = float(special.chdtri(df, a))  # P(X > q) = a
    lower_q = float(special.chdtri(df, 1.0 - a))
    return {
        "low": to_float(sd * math.sqrt(df / upper_q)),
        "high": to_float(sd * math.sqrt(df / lower_q)) if lower_q > 0 else None,
    }


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


def _plan(
    target: float,
    what: str,
    *,
    seed_var: float,
    block_var: float,
    seed_term: float,
    block_term: float,
    S: int,
    B: int,
    z: float,
    number: Callable[[float], str],
) -> tuple[int | None, int | None, dict | None, str | None]:
    """Seeds alone, blocks alone and both scaled together that bring the half-width below
    ``target``: ``(seeds_needed, blocks_needed, both_needed, reason)`` (see ``budget``);
    ``number`` prints a half-width in the reason."""
    total = seed_term + block_term
    hw = z * math.sqrt(total)
    if target <= 0:
        return (
            None,
            None,
            None,
            f"the gap is not above {what}: more seeds or blocks cannot show it is",
        )
    s_n = _needed(seed_var, block_term, target, z, S)
    b_n = _needed(block_var, seed_term, target, z, B)
    k = (z * z * total) / (target * target)  # scale both counts by k (> 1 when short)
    both = (
        {"S": S, "B": B, "scale": 1.0}
        if hw < target
        else {"S": max(2, math.ceil(k * S)), "B": max(2, math.ceil(k * B)), "scale": k}
    )
    if both["S"] > MAX_PLAN or both["B"] > MAX_PLAN:
        both = None
    reasons = []
    if s_n is None:
        reasons.append(
            "more seeds alone cannot settle this: the block term alone gives plus or minus "
            + number(z * math.sqrt(block_term))
        )
    if b_n is None:
        reasons.append(
            "more blocks alone cannot settle this: the seed term alone gives plus or minus "
            + number(z * math.sqrt(seed_term))
        )
    return s_n, b_n, both, "; ".join(reasons) or None


def budget(
    *,
    seed_sd: float,
    n_seeds: int,
    block_var_of_gap: float,
    n_blocks: int,
    gap: float,
    confidence: float,
    min_useful_effect: float | None = None,
    number: Callable[[float], str] | None = None,
) -> dict[str, Any]:
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
    number : callable, optional
        Prints a half-width in the planning reasons (the caller's words policy: the
        interval's decimals); default 2 significant figures.

    Returns
    -------
    dict
        ``seed_term``, ``block_term``, ``total``, ``seed_share``, ``S``, ``B``,
        ``seed_sd``, ``block_sd`` (``sqrt(block_term * B)``), ``z``, ``half_width``,
        ``combined`` {low, high}, ``planning`` {gap, seeds_needed, blocks_needed,
        both_needed {S, B, scale: the factor both counts grow by}, reason, seeds_needed_useful, blocks_needed_useful,
        reason_useful, grid [{S, B, half_width}]}.
    """
    S, B = int(n_seeds), int(n_blocks)
    seed_var = float(seed_sd) ** 2
    seed_term = seed_var / S
    block_term = float(block_var_of_gap)
    block_var = block_term * B
    total = seed_term + block_term
    z = z_value(confidence)
    hw = z * math.sqrt(total)
    out: dict[str, Any] = {
        "seed_term": seed_term,
        "block_term": block_term,
        "total": total,
        "seed_share": seed_term / total if total > 0 else None,
        "S": S,
        "B": B,
        "seed_sd": float(seed_sd),
        "block_sd": math.sqrt(block_var),
        "z": z,
        "half_width": hw,
        "combined": {"low": gap - hw, "high": gap + hw},
    }
    plan: dict[str, Any] = {
        "gap": gap,
        "seeds_needed": None,
        "blocks_needed": None,
        "both_needed": None,
        "reason": None,
        "seeds_needed_useful": None,
        "blocks_needed_useful": None,
        "reason_useful": None,
        "grid": [
            {
                "S": S * ks,
                "B": B * kb,
                "half_width": half_width(seed_var, S * ks, block_var, B * kb, z),
            }
            for ks in GRID_SEEDS
            for kb in GRID_BLOCKS
        ],
    }

    now = dict(
        seed_var=seed_var,
        block_var=block_var,
        seed_term=seed_term,
        block_term=block_term,
        S=S,
        B=B,
        z=z,
        number=number or (lambda v: f"{v:.2g}"),
    )
    s_n, b_n, both, reason = _plan(gap, "zero", **now)
    plan.update(seeds_needed=s_n, blocks_needed=b_n, both_needed=both, reason=reason)
    if min_useful_effect is not None:
        s_u, b_u, both_u, reason_u = _plan(gap - min_useful_effect, "the useful effect", **now)
        plan.update(
            seeds_needed_useful=s_u,
            blocks_needed_useful=b_u,
            both_needed_useful=both_u,
            reason_useful=reason_u,
        )
    out["planning"] = plan
    return out
