"""Resampled evaluation: k-fold and repeated k-fold cross-validation (methods.md section 9).

Fold gaps are correlated (the folds share most of their training rows), so the naive
variance s^2 / J of their mean is far too small. The corrected resampled t (Nadeau and
Bengio 2003; for repeated k-fold, Bouckaert and Frank 2004) uses
``(1/J + n_test/n_train) s^2`` with J - 1 degrees of freedom; the Bayesian correlated t
(Corani and Benavoli 2015) is the Student t posterior with the same location, scale and df.

Every gap is "candidate better" positive (section 0). scipy.special supplies the t
distribution (stdtr, stdtrit), as in ``stats.ttests``. Functions return plain floats, ints
and dicts, with None (and a reason) for what cannot be computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import special

from reportgen.stats._util import as_1d, check_confidence, no_spread, t_unavailable, z_value
from reportgen.stats.metrics import gap as signed_gap

#: fewer fold gaps than this: the corrected t is refused
MIN_FOLD_GAPS = 3
#: fewer fold gaps than this: the sd of the fold gaps is coarsely estimated (said)
FEW_FOLD_GAPS = 10
#: the planning search stops at this many repeats
MAX_REPEATS = 1000


def fold_gap(candidate: Any, baseline: Any, *, higher_is_better: bool) -> float:
    """One fold's gap: the per-row metric averaged over each model's seeds, then over the rows.

    Parameters
    ----------
    candidate : array-like of shape (S_c, n)
        Per-row metric of each candidate network on the fold's n held-out rows.
    baseline : array-like of shape (S_b, n)
        The same for the baseline's networks, rows in the same order.
    higher_is_better : bool

    Returns
    -------
    float
        The row-weighted gap (sign rule) of the seed-averaged networks on the fold.
    """
    c = np.atleast_2d(np.asarray(candidate, dtype=np.float64))
    b = np.atleast_2d(np.asarray(baseline, dtype=np.float64))
    if c.shape[1] != b.shape[1] or c.shape[1] == 0:
        raise ValueError(
            f"both models need the same rows of the fold, got {c.shape[1]} and {b.shape[1]}"
        )
    return float(np.mean(signed_gap(c.mean(axis=0), b.mean(axis=0), higher_is_better)))


def holdout_ratio(n_test: Any, n_train: Any) -> float:
    """Mean over the folds of ``n_test / n_train`` (each fold's held-out rows over its training rows).

    Parameters
    ----------
    n_test, n_train : array-like of shape (J,)
        Rows held out by each fold and rows that trained its models (both > 0).

    Returns
    -------
    float
        With equal folds of a k-fold, ``1 / (k - 1)``.
    """
    t = as_1d(n_test, "n_test")
    n = as_1d(n_train, "n_train")
    if t.size != n.size or t.size == 0:
        raise ValueError(f"n_test and n_train need one value per fold, got {t.size} and {n.size}")
    if np.any(t <= 0) or np.any(n <= 0):
        raise ValueError("every fold needs held-out rows and training rows (counts > 0)")
    return float(np.mean(t / n))


def _t(mean: float, se: float, df: int, confidence: float) -> dict[str, float]:
    q = float(special.stdtrit(df, 1.0 - (1.0 - confidence) / 2.0))
    p = min(float(2.0 * special.stdtr(df, -abs(mean / se))), 1.0)
    return {"low": mean - q * se, "high": mean + q * se, "p": p, "se": se, "df": df}


def resampled_t(gaps: Any, ratio: float, confidence: float = 0.95) -> dict[str, Any]:
    """The corrected resampled t on the mean fold gap, and the naive paired t beside it.

    Parameters
    ----------
    gaps : array-like of shape (J,)
        Fold gaps d_rk (sign rule), J = repeats x folds.
    ratio : float
        ``n_test / n_train`` of the correction (``holdout_ratio``), >= 0.
    confidence : float, default 0.95

    Returns
    -------
    dict
        ``J``, ``gap`` (mean d), ``sd`` (s, ddof 1), ``corrected`` {low, high, p, se, df}
        with ``se = sqrt((1/J + ratio) s^2)`` and df J - 1, ``naive`` {low, high, p, se, df}
        with ``se = s / sqrt(J)``, and ``reason``. The intervals are None (with the reason)
        with fewer than 2 gaps or zero spread (up to float rounding).
    """
    check_confidence(confidence)
    d = as_1d(gaps, "gaps")
    if not (ratio >= 0 and math.isfinite(ratio)):
        raise ValueError(f"ratio={ratio!r} must be a finite number >= 0")
    none = {"low": None, "high": None, "p": None, "se": None, "df": None}
    out: dict[str, Any] = {
        "J": int(d.size),
        "gap": float(np.mean(d)) if d.size else None,
        "sd": float(np.std(d, ddof=1)) if d.size >= 2 else None,
        "corrected": dict(none),
        "naive": dict(none),
        "reason": None,
    }
    out["reason"] = t_unavailable(d, "fold gap", "fold gaps")
    if out["reason"]:
        return out
    J, s = d.size, out["sd"]
    out["corrected"] = _t(out["gap"], math.sqrt(1.0 / J + ratio) * s, J - 1, confidence)
    out["naive"] = _t(out["gap"], s / math.sqrt(J), J - 1, confidence)
    return out


def correlated_bayes(gap: float, se: float, df: int, rope: float) -> dict[str, float]:
    """Posterior probabilities of the Bayesian correlated t (Corani and Benavoli 2015).

    The posterior of the gap is Student t with ``df`` degrees of freedom, location ``gap``
    and scale ``se`` (the corrected resampled t's standard error); ``rope`` is the region of
    practical equivalence [-rope, rope] (min_useful_effect). Equals baycomp's
    ``CorrelatedTTest(x, y, rope, runs).probs()`` with y - x the gap, when the folds are equal.

    Parameters
    ----------
    gap : float
    se : float
        > 0.
    df : int
        J - 1, >= 1.
    rope : float
        >= 0.

    Returns
    -------
    dict
        ``rope``, ``p_worse`` = P(gap < -rope), ``p_equivalent`` = P(-rope <= gap <= rope),
        ``p_better`` = P(gap > rope); the three sum to 1.
    """
    if not se > 0 or df < 1 or rope < 0:
        raise ValueError(f"need se > 0, df >= 1 and rope >= 0, got {se!r}, {df!r}, {rope!r}")
    p_worse = float(special.stdtr(df, (-rope - gap) / se))
    p_better = float(special.stdtr(df, -(rope - gap) / se))
    return {
        "rope": float(rope),
        "p_worse": p_worse,
        "p_equivalent": 1.0 - p_worse - p_better,
        "p_better": p_better,
    }


def half_width(sd: float, J: int, ratio: float, confidence: float) -> float:
    """Half-width of the corrected interval: t(J - 1) x sqrt(1/J + ratio) x sd."""
    q = float(special.stdtrit(J - 1, 1.0 - (1.0 - confidence) / 2.0))
    return q * math.sqrt(1.0 / J + ratio) * sd


def planning(
    gap: float,
    sd: float,
    *,
    repeats: int,
    folds: int,
    ratio: float,
    confidence: float = 0.95,
    useful: float | None = None,
) -> dict[str, Any]:
    """What more repeats can do: they shrink only the 1/J part of the corrected variance.

    Parameters
    ----------
    gap, sd : float
        The mean fold gap and the sd of the fold gaps (assumed to stay as they are).
    repeats, folds : int
        R and K today (J = R K).
    ratio : float
        n_test / n_train.
    confidence : float, default 0.95
    useful : float, optional
        min_useful_effect: also say whether the floor is wider than it.

    Returns
    -------
    dict
        ``half_width`` (today), ``floor_half_width`` (z x sqrt(ratio) x sd: no number of
        repeats goes below it), ``repeats_needed`` (the fewest repeats R' >= R whose
        interval would exclude zero if the gap and sd stay, up to MAX_REPEATS; None when
        it already does or none would), ``settled`` (the interval excludes zero today),
        ``repeats_cannot`` (no number of repeats would exclude zero), ``floor_exceeds_useful``
        (None without ``useful``).
    """
    check_confidence(confidence)
    J = repeats * folds
    now = half_width(sd, J, ratio, confidence)
    floor = z_value(confidence) * math.sqrt(ratio) * sd
    out: dict[str, Any] = {
        "half_width": now,
        "floor_half_width": floor,
        "repeats_needed": None,
        "settled": abs(gap) > now,
        "repeats_cannot": abs(gap) <= floor,
        "floor_exceeds_useful": None if useful is None else bool(floor >= useful),
    }
    if not out["settled"] and not out["repeats_cannot"]:
        for r in range(repeats + 1, MAX_REPEATS + 1):
            if half_width(sd, r * folds, ratio, confidence) < abs(gap):
                out["repeats_needed"] = r
                break
    return out


def within_fold_spread(values: Sequence[Any]) -> dict[str, Any]:
    """One model's seed spread within folds: the mean over folds of the per-fold seed variance.

    Parameters
    ----------
    values : sequence of array-like, one per fold
        The fold metric of each network (seed) trained on that fold.

    Returns
    -------
    dict
        ``n`` (the fewest seeds in a fold), ``sd`` (sqrt of the mean over folds of the
        ddof-1 variance; None when a fold has fewer than 2 seeds), ``mean`` (the mean over
        folds of the seed-averaged fold metric), ``zero`` (every fold's seeds agree up to
        float rounding), ``folds``.
    """
    arrays = [as_1d(v, "values") for v in values]
    if not arrays or any(a.size == 0 for a in arrays):
        raise ValueError("every fold needs at least one network")
    n = min(a.size for a in arrays)
    out: dict[str, Any] = {
        "n": int(n),
        "sd": None,
        "mean": float(np.mean([a.mean() for a in arrays])),
        "zero": False,
        "folds": len(arrays),
    }
    if n >= 2:
        out["sd"] = float(math.sqrt(np.mean([np.var(a, ddof=1) for a in arrays])))
        out["zero"] = all(no_spread(a) for a in arrays)
    return out


def cv_noise(
    gaps: Any,
    n_test: Any = None,
    n_train: Any = None,
    *,
    ratio: float | None = None,
    confidence: float = 0.95,
    rope: float | None = None,
) -> dict[str, Any]:
    """The resampling figures of noise.cv: corrected and naive t, Bayes, or a refusal.

    Parameters
    ----------
    gaps : array-like of shape (J,)
        Fold gaps (sign rule).
    n_test, n_train : array-like of shape (J,), optional
        Held-out and training rows of each fold; the correction's ratio is
        ``holdout_ratio(n_test, n_train)``.
    ratio : float, optional
        The ratio when the fold sizes are unknown (a run-log-only project: 1 / (K - 1)).
        Give either ``ratio`` or both counts.
    confidence : float, default 0.95
    rope : float, optional
        min_useful_effect as the region of practical equivalence; None: no probabilities.

    Returns
    -------
    dict
        ``J``, ``gap``, ``sd``, ``test_train_ratio``, ``corrected``, ``naive``, ``bayes``
        (None without ``rope`` or an interval), ``few_folds`` (J < FEW_FOLD_GAPS) and
        ``reason`` (why the intervals are None: fewer than MIN_FOLD_GAPS gaps, a fold
        without rows, leave-one-out, zero spread).
    """
    d = as_1d(gaps, "gaps")
    if (ratio is None) == (n_test is None or n_train is None):
        raise ValueError("give either ratio or both n_test and n_train")
    none = {"low": None, "high": None, "p": None, "se": None, "df": None}
    out: dict[str, Any] = {
        "J": int(d.size),
        "gap": float(np.mean(d)) if d.size else None,
        "sd": float(np.std(d, ddof=1)) if d.size >= 2 else None,
        "test_train_ratio": None,
        "corrected": dict(none),
        "naive": dict(none),
        "bayes": None,
        "few_folds": bool(d.size < FEW_FOLD_GAPS),
        "reason": None,
    }
    if d.size < MIN_FOLD_GAPS:
        out["reason"] = (
            f"{d.size} fold gap(s): the corrected resampled t needs at least {MIN_FOLD_GAPS}"
        )
        return out
    if not np.all(np.isfinite(d)):
        out.update(gap=None, sd=None, reason="a fold gap is not a finite number")
        return out
    if ratio is None:
        out["reason"] = _refusal(d, as_1d(n_test, "n_test"), as_1d(n_train, "n_train"))
        if out["reason"] is not None:
            return out
        ratio = holdout_ratio(n_test, n_train)
    out["test_train_ratio"] = float(ratio)
    res = resampled_t(d, out["test_train_ratio"], confidence)
    out.update(corrected=res["corrected"], naive=res["naive"], reason=res["reason"])
    se = res["corrected"]["se"]
    if rope is not None and se is not None:
        out["bayes"] = correlated_bayes(out["gap"], se, d.size - 1, rope)
    return out


def _refusal(d: np.ndarray, t: np.ndarray, n: np.ndarray) -> str | None:
    """Why the fold sizes rule the corrected t out, or None."""
    if not (d.size == t.size == n.size):
        raise ValueError(f"one gap, n_test and n_train per fold, got {d.size}, {t.size}, {n.size}")
    if np.any(t <= 0):
        return "a fold has no held-out rows: its gap is undefined"
    if np.all(t == 1):
        return (
            "leave-one-out (every fold holds out one row): the corrected resampled t does not "
            "apply; use k-fold with k = 5 or 10, repeated"
        )
    if np.any(n <= 0):
        return "a fold has no training rows"
    return None
