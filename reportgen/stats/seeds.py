"""Retraining noise: the seed rule and paired seeds (methods.md section 2).

Every gap is "candidate better" positive (section 0). Functions return plain
floats/ints/dicts with None for what cannot be computed.
"""

from __future__ import annotations

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
from reportgen.stats.ttests import t_test

SD_FROM = ("candidate", "baseline", "larger")


def seed_rule(
    candidate_values: Any,
    baseline_values: Any,
    *,
    higher_is_better: bool,
    multiple: float = 2.0,
    sd_from: str = "larger",
) -> dict[str, Any]:
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
    dict
        ``n`` {candidate, baseline}; ``sd`` {candidate, baseline} (ddof=1, None when
        n < 2); ``mean`` {candidate, baseline}; ``sd_used``; ``validation_gap`` (gap
        of the seed means, sign rule); ``gap_in_sd`` (None when the sd is unmeasured
        or 0); ``multiple``; ``passes`` (False when unmeasured);
        ``seeds_beating_baseline`` (candidate seeds strictly better than the baseline
        mean; None without baseline seeds); ``reason`` (why ``gap_in_sd`` is None).
    """
    if sd_from not in SD_FROM:
        raise ValueError(f"sd_from={sd_from!r} is not valid. It should be one of {list(SD_FROM)}")
    c = as_1d(candidate_values, "candidate_values")
    b = as_1d(baseline_values, "baseline_values")
    sd_c, sd_b = sample_sd(c), sample_sd(b)
    mean_c, mean_b = mean_or_none(c), mean_or_none(b)
    vgap = (
        signed_gap(mean_c, mean_b, higher_is_better)
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
) -> dict[str, Any]:
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
    dict
        The keys of ``seed_rule``.
    """
    if sd_from not in SD_FROM:
        raise ValueError(f"sd_from={sd_from!r} is not valid. It should be one of {list(SD_FROM)}")
    sd_c, sd_b, vgap = sd["candidate"], sd["baseline"], gap
    reason: str | None = None
    if sd_from == "larger":
        short = [name for name, s in (("candidate", sd_c), ("baseline", sd_b)) if s is None]
        sd_used = None if short else max(sd_c, sd_b)  # type: ignore[type-var]
        if short:
            reason = (
                f"retraining noise unmeasured: fewer than 2 seeds for the {' and '.join(short)}"
            )
    else:
        sd_used = sd_c if sd_from == "candidate" else sd_b
        if sd_used is None:
            reason = f"retraining noise unmeasured: fewer than 2 seeds for the {sd_from}"

    note: str | None = None
    trivial = False
    if reason is None and sd_from != "larger" and zero[sd_from]:
        other = "baseline" if sd_from == "candidate" else "candidate"
        other_sd = sd_b if other == "baseline" else sd_c
        if other_sd is not None and not zero[other]:
            sd_used = other_sd
            note = (
                f"the {sd_from} has zero seed spread (deterministic, e.g. logistic regression): "
                f"the {other}'s sd is used"
            )
    elif reason is None and sd_from == "larger":
        det = [k for k, z in zero.items() if z]
        if len(det) == 1:
            note = (
                f"the {det[0]} has zero seed spread (deterministic, e.g. logistic regression, which "
                f"is normal): the {'baseline' if det[0] == 'candidate' else 'candidate'}'s sd is used"
            )
    gap_in_sd: float | None = None
    if reason is None and vgap is None:
        reason = "no validation gap: a model has no seeds"
    elif reason is None and (sd_used == 0.0 or (zero["candidate"] and zero["baseline"])):
        trivial = True
        reason = (
            "both models have zero seed spread (deterministic training): the seed rule is "
            "trivially met when the gap is positive, and the evaluation line carries the decision"
        )
    elif reason is None:
        gap_in_sd = to_float(vgap / sd_used)  # type: ignore[operator]

    return {
        "n": dict(n),
        "sd": {"candidate": sd_c, "baseline": sd_b},
        "mean": dict(mean),
        "sd_used": sd_used,
        "validation_gap": vgap,
        "gap_in_sd": gap_in_sd,
        "multiple": float(multiple),
        "passes": bool(
            (gap_in_sd is not None and gap_in_sd > multiple)
            or (trivial and vgap is not None and vgap > 0)
        ),
        "trivial": trivial,
        "deterministic": [k for k, z in zero.items() if z],
        "note": note,
        "seeds_beating_baseline": beating,
        "reason": reason,
    }


def paired_seeds(
    candidate_values: Any,
    baseline_values: Any,
    *,
    higher_is_better: bool,
    confidence: float = 0.95,
) -> dict[str, Any]:
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
    dict
        ``n``, ``mean``, ``sd`` (ddof=1), ``low``, ``high``, ``p`` (two-sided),
        ``reason``. All but ``n`` None when n < 2 (``mean`` is kept when n == 1);
        interval and p None when the differences have zero spread (up to float
        rounding, see ``SPREAD_RTOL``).
    """
    check_confidence(confidence)
    c = as_1d(candidate_values, "candidate_values")
    b = as_1d(baseline_values, "baseline_values")
    if c.size != b.size:
        raise ValueError(
            f"paired seeds need one baseline seed per candidate seed, got {c.size} and {b.size}"
        )
    d = signed_gap(c, b, higher_is_better)
    out: dict[str, Any] = {
        "n": int(c.size),
        "mean": mean_or_none(d),
        "sd": sample_sd(d),
        "low": None,
        "high": None,
        "p": None,
        "reason": None,
    }
    out["reason"] = t_unavailable(d, "paired seed", "per-seed differences")
    if out["reason"]:
        return out
    # equals scipy.stats.ttest_rel(first, second) with first = the better-direction side
    low, high, p = t_test(
        float(np.mean(d)), float(np.std(d, ddof=1)) / np.sqrt(d.size), d.size - 1, confidence
    )
    out.update(low=low, high=high, p=p)
    return out
