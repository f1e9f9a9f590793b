"""Retraining noise: the seed rule and paired seeds (methods.md section 2).

Every gap is "candidate better" positive (section 0). Functions return frozen results
with None for what cannot be computed and a reason code saying why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.stats._util import (
    as_1d,
    check_confidence,
    mean_or_none,
    no_spread,
    sample_sd,
    t_unavailable,
    to_float,
)
from reportgen.stats.metrics import gap as signed_gap
from reportgen.stats.metrics import gaps as signed_gaps
from reportgen.stats.results import Reason, Sides
from reportgen.stats.ttests import t_test

SD_FROM = ("candidate", "baseline", "larger")
SIDES = ("candidate", "baseline")


@dataclass(frozen=True)
class SeedRule:
    """The seed rule's figures (section 2).

    Attributes
    ----------
    n, sd, mean : Sides
        Seeds, seed sd (ddof=1, None when n < 2) and seed mean per model.
    sd_used : float or None
        The sd the rule divides by.
    validation_gap : float or None
        The gap of the seed means (sign rule).
    gap_in_sd : float or None
        ``validation_gap / sd_used``; None when the sd is unmeasured or 0.
    multiple : float
    passes : bool
        ``gap_in_sd > multiple``, or a positive gap when ``trivial``; False when unmeasured.
    trivial : bool
        Both models have zero seed spread.
    deterministic : tuple of str
        The sides whose seeds agree up to float rounding.
    note : Reason or None
        ``CHOSEN_SIDE_DETERMINISTIC`` or ``ONE_SIDE_DETERMINISTIC``: another side's sd is used.
    substituted : tuple of (str, str) or None
        With ``note``: (the side with zero spread, the side whose sd is used).
    seeds_beating_baseline : int or None
        Candidate seeds strictly better than the baseline mean.
    reason : Reason or None
        Why ``gap_in_sd`` is None: ``TOO_FEW_SEEDS``, ``NO_GAP``, ``BOTH_DETERMINISTIC``.
    short : tuple of str
        With ``TOO_FEW_SEEDS``: the sides with fewer than 2 seeds.
    """

    n: Sides[int]
    sd: Sides[float | None]
    mean: Sides[float | None]
    sd_used: float | None
    validation_gap: float | None
    gap_in_sd: float | None
    multiple: float
    passes: bool
    trivial: bool
    deterministic: tuple[str, ...]
    note: Reason | None
    substituted: tuple[str, str] | None
    seeds_beating_baseline: int | None
    reason: Reason | None
    short: tuple[str, ...] = ()


@dataclass(frozen=True)
class PairedSeeds:
    """Per-seed differences with a Student t interval.

    Attributes
    ----------
    n : int
    mean, sd : float or None
        Of the differences (sd ddof=1, None when n < 2).
    low, high, p : float or None
        The t interval and its two-sided p; None with ``reason``.
    reason : Reason or None
        ``TOO_FEW_FOR_T`` or ``ZERO_SPREAD``.
    """

    n: int
    mean: float | None
    sd: float | None
    low: float | None = None
    high: float | None = None
    p: float | None = None
    reason: Reason | None = None


def seed_rule(
    candidate_values: Any,
    baseline_values: Any,
    *,
    higher_is_better: bool,
    multiple: float = 2.0,
    sd_from: str = "larger",
) -> SeedRule:
    """The seed rule: does the validation gap exceed ``multiple`` seed sds? (section 2)

    Parameters
    ----------
    candidate_values : array-like of shape (S_c,)
        Validation metric per candidate seed.
    baseline_values : array-like of shape (S_b,)
        Validation metric per baseline seed.
    higher_is_better : bool
        Direction of the metric.
    multiple : float, default 2.0
        ``seed_sd_multiple``; the rule passes when ``gap_in_sd > multiple`` (strictly).
    sd_from : {"larger", "candidate", "baseline"}, default "larger"
        Which sd is used. With "larger", both sides need at least 2 seeds.

    Returns
    -------
    SeedRule
        ``seeds_beating_baseline`` is None without baseline seeds.
    """
    if sd_from not in SD_FROM:
        raise ValueError(f"sd_from={sd_from!r} is not valid. It should be one of {list(SD_FROM)}")
    c = as_1d(candidate_values, "candidate_values")
    b = as_1d(baseline_values, "baseline_values")
    sd_c, sd_b = sample_sd(c), sample_sd(b)
    mean_c, mean_b = mean_or_none(c), mean_or_none(b)
    vgap = (
        float(signed_gap(mean_c, mean_b, higher_is_better))
        if mean_c is not None and mean_b is not None
        else None
    )
    beating = (
        int(np.count_nonzero(signed_gap(c, mean_b, higher_is_better) > 0))
        if mean_b is not None
        else None
    )

    zero = {
        name: s is not None and no_spread(x)
        for name, s, x in (("candidate", sd_c, c), ("baseline", sd_b, b))
    }
    return spread_rule(
        n={"candidate": int(c.size), "baseline": int(b.size)},
        sd={"candidate": sd_c, "baseline": sd_b},
        mean={"candidate": mean_c, "baseline": mean_b},
        zero=zero,
        gap=vgap,
        beating=beating,
        multiple=multiple,
        sd_from=sd_from,
    )


def spread_rule(
    *,
    n: dict[str, int],
    sd: dict[str, float | None],
    mean: dict[str, float | None],
    zero: dict[str, bool],
    gap: float | None,
    beating: int | None,
    multiple: float,
    sd_from: str,
) -> SeedRule:
    """The seed rule from each model's seed sd: the sd used, the gap in sd, pass or fail.

    Shared by the split design (one value per seed, ``seed_rule``) and cross-validation
    (the within-fold sd, ``stats.cv.within_fold_spread``).

    Parameters
    ----------
    n, sd, mean : dict {"candidate", "baseline"}
        Seeds, seed sd (None when unmeasured: fewer than 2 seeds) and mean per model.
    zero : dict {"candidate", "baseline"} of bool
        The model's seeds agree up to float rounding (deterministic training).
    gap : float or None
        The gap the rule weighs (sign rule); None when a model has no values.
    beating : int or None
        Candidate seeds strictly better than the baseline mean.
    multiple : float
    sd_from : {"larger", "candidate", "baseline"}

    Returns
    -------
    SeedRule
    """
    if sd_from not in SD_FROM:
        raise ValueError(f"sd_from={sd_from!r} is not valid. It should be one of {list(SD_FROM)}")
    sd_c, sd_b, vgap = sd["candidate"], sd["baseline"], gap
    sds = {"candidate": sd_c, "baseline": sd_b}
    reason: Reason | None = None
    short: tuple[str, ...] = ()
    if sd_from == "larger":
        short = tuple(name for name in SIDES if sds[name] is None)
        sd_used = None if short else max(sd_c, sd_b)  # type: ignore[type-var]
    else:
        sd_used = sds[sd_from]
        short = (sd_from,) if sd_used is None else ()
    if short:
        reason = Reason.TOO_FEW_SEEDS
    note, substituted, sd_used = _substitute(zero, sds, sd_used, sd_from, reason)
    gap_in_sd: float | None = None
    trivial = False
    if reason is None and vgap is None:
        reason = Reason.NO_GAP
    elif reason is None and (sd_used == 0.0 or (zero["candidate"] and zero["baseline"])):
        trivial = True
        reason = Reason.BOTH_DETERMINISTIC
    elif reason is None:
        gap_in_sd = to_float(vgap / sd_used)  # type: ignore[operator]
    return SeedRule(
        n=Sides(n["candidate"], n["baseline"]),
        sd=Sides(sd_c, sd_b),
        mean=Sides(mean["candidate"], mean["baseline"]),
        sd_used=sd_used,
        validation_gap=vgap,
        gap_in_sd=gap_in_sd,
        multiple=float(multiple),
        passes=bool(
            (gap_in_sd is not None and gap_in_sd > multiple)
            or (trivial and vgap is not None and vgap > 0)
        ),
        trivial=trivial,
        deterministic=tuple(k for k in SIDES if zero[k]),
        note=note,
        substituted=substituted,
        seeds_beating_baseline=beating,
        reason=reason,
        short=short,
    )


def _substitute(
    zero: dict[str, bool],
    sds: dict[str, float | None],
    sd_used: float | None,
    sd_from: str,
    reason: Reason | None,
) -> tuple[Reason | None, tuple[str, str] | None, float | None]:
    """A model with zero seed spread: the other model's sd stands in (note, sides, sd used)."""
    if reason is not None:
        return None, None, sd_used
    if sd_from != "larger":
        if not zero[sd_from]:
            return None, None, sd_used
        other = "baseline" if sd_from == "candidate" else "candidate"
        if sds[other] is not None and not zero[other]:
            return Reason.CHOSEN_SIDE_DETERMINISTIC, (sd_from, other), sds[other]
        return None, None, sd_used
    det = [k for k in SIDES if zero[k]]
    if len(det) == 1:
        other = "baseline" if det[0] == "candidate" else "candidate"
        return Reason.ONE_SIDE_DETERMINISTIC, (det[0], other), sd_used
    return None, None, sd_used


def paired_seeds(
    candidate_values: Any,
    baseline_values: Any,
    *,
    higher_is_better: bool,
    confidence: float = 0.95,
) -> PairedSeeds:
    """Per-seed differences ``d_i`` (seed i against seed i) with a Student t interval.

    Uses ``scipy.stats.ttest_rel(candidate, baseline)`` for higher-is-better and
    ``ttest_rel(baseline, candidate)`` otherwise, so the interval is on the gap.

    Parameters
    ----------
    candidate_values, baseline_values : array-like of shape (n,)
        Metric per seed, aligned by seed.
    higher_is_better : bool
    confidence : float, default 0.95

    Returns
    -------
    PairedSeeds
        All but ``n`` None when n < 2 (``mean`` is kept when n == 1); interval and p
        None when the differences have zero spread (up to float rounding, see
        ``SPREAD_RTOL``).
    """
    check_confidence(confidence)
    c = as_1d(candidate_values, "candidate_values")
    b = as_1d(baseline_values, "baseline_values")
    if c.size != b.size:
        raise ValueError(
            f"paired seeds need one baseline seed per candidate seed, got {c.size} and {b.size}"
        )
    d = signed_gaps(c, b, higher_is_better)
    mean, sd = mean_or_none(d), sample_sd(d)
    reason = t_unavailable(d)
    if reason:
        return PairedSeeds(int(c.size), mean, sd, reason=reason)
    # equals scipy.stats.ttest_rel(first, second) with first = the better-direction side
    low, high, p = t_test(
        float(np.mean(d)), float(np.std(d, ddof=1)) / np.sqrt(d.size), d.size - 1, confidence
    )
    return PairedSeeds(int(c.size), mean, sd, low, high, p)
