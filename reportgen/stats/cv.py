"""Resampled evaluation: k-fold and repeated k-fold cross-validation (methods.md section 9).

Fold gaps are correlated (the folds share most of their training rows), so the naive
variance s^2 / J of their mean is far too small. The corrected resampled t (Nadeau and
Bengio 2003; for repeated k-fold, Bouckaert and Frank 2004) uses
``(1/J + n_test/n_train) s^2`` with J - 1 degrees of freedom; the Bayesian correlated t
(Corani and Benavoli 2015) is the Student t posterior with the same location, scale and df.

Every gap is "candidate better" positive (section 0). scipy.special supplies the t
distribution (stdtr, stdtrit), as in ``stats.ttests``. Functions return plain floats or
frozen results, with None (and a reason code) for what cannot be computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special

from reportgen.stats._util import (
    FloatArray,
    as_1d,
    check_confidence,
    no_spread,
    t_unavailable,
    z_value,
)
from reportgen.stats.metrics import gap as signed_gap
from reportgen.stats.results import Reason, TInterval

#: fewer fold gaps than this: the corrected t is refused
MIN_FOLD_GAPS = 3
#: fewer fold gaps than this: the sd of the fold gaps is coarsely estimated (said)
FEW_FOLD_GAPS = 10
#: the planning search stops at this many repeats
MAX_REPEATS = 1000


@dataclass(frozen=True)
class Bayes:
    """Posterior probabilities of the Bayesian correlated t; the three sum to 1.

    Attributes
    ----------
    rope : float
        The region of practical equivalence is [-rope, rope].
    p_worse, p_equivalent, p_better : float
        P(gap < -rope), P(-rope <= gap <= rope), P(gap > rope).
    """

    rope: float
    p_worse: float
    p_equivalent: float
    p_better: float


@dataclass(frozen=True)
class ResampledT:
    """The corrected resampled t and the naive paired t on the mean fold gap.

    Attributes
    ----------
    J : int
        Fold gaps.
    gap, sd : float or None
        Mean and sd (ddof 1) of the fold gaps.
    corrected, naive : TInterval
        ``se = sqrt((1/J + ratio) s^2)`` and ``se = s / sqrt(J)``, df J - 1.
    reason : Reason or None
        ``TOO_FEW_FOR_T`` or ``ZERO_SPREAD`` when the intervals are None.
    """

    J: int
    gap: float | None
    sd: float | None
    corrected: TInterval
    naive: TInterval
    reason: Reason | None


@dataclass(frozen=True)
class CvNoise:
    """The resampling figures of noise.cv.

    Attributes
    ----------
    J : int
    gap, sd : float or None
    test_train_ratio : float or None
        The correction's n_test / n_train; None when refused before it.
    corrected, naive : TInterval
    bayes : Bayes or None
        None without a rope or an interval.
    few_folds : bool
        J < FEW_FOLD_GAPS.
    reason : Reason or None
        Why the intervals are None: ``TOO_FEW_FOLD_GAPS``, ``FOLD_GAP_NOT_FINITE``,
        ``FOLD_WITHOUT_TEST_ROWS``, ``LEAVE_ONE_OUT``, ``FOLD_WITHOUT_TRAIN_ROWS``,
        ``TOO_FEW_FOR_T``, ``ZERO_SPREAD``.
    """

    J: int
    gap: float | None
    sd: float | None
    test_train_ratio: float | None = None
    corrected: TInterval = TInterval()
    naive: TInterval = TInterval()
    bayes: Bayes | None = None
    few_folds: bool = False
    reason: Reason | None = None


@dataclass(frozen=True)
class Planning:
    """What more repeats can do.

    Attributes
    ----------
    half_width : float
        Today's corrected half-width.
    floor_half_width : float
        z x sqrt(ratio) x sd: no number of repeats goes below it.
    repeats_needed : int or None
        The fewest repeats whose interval would exclude zero, up to MAX_REPEATS.
    settled : bool
        The interval excludes zero today.
    repeats_cannot : bool
        No number of repeats would exclude zero.
    floor_exceeds_useful : bool or None
        None without ``useful``.
    """

    half_width: float
    floor_half_width: float
    repeats_needed: int | None
    settled: bool
    repeats_cannot: bool
    floor_exceeds_useful: bool | None


@dataclass(frozen=True)
class Spread:
    """One model's seed spread within folds.

    Attributes
    ----------
    n : int
        The fewest seeds in a fold.
    sd : float or None
        sqrt of the mean over folds of the ddof-1 variance; None when a fold has one seed.
    mean : float
        The mean over folds of the seed-averaged fold metric.
    zero : bool
        Every fold's seeds agree up to float rounding.
    folds : int
    """

    n: int
    sd: float | None
    mean: float
    zero: bool
    folds: int


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


def _t(mean: float, se: float, df: int, confidence: float) -> TInterval:
    q = float(special.stdtrit(df, 1.0 - (1.0 - confidence) / 2.0))
    p = min(float(2.0 * special.stdtr(df, -abs(mean / se))), 1.0)
    return TInterval(mean - q * se, mean + q * se, p, se, df)


def resampled_t(gaps: Any, ratio: float, confidence: float = 0.95) -> ResampledT:
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
    ResampledT
        The intervals are None (with the reason) with fewer than 2 gaps or zero spread
        (up to float rounding).
    """
    check_confidence(confidence)
    d = as_1d(gaps, "gaps")
    if not (ratio >= 0 and math.isfinite(ratio)):
        raise ValueError(f"ratio={ratio!r} must be a finite number >= 0")
    gap = float(np.mean(d)) if d.size else None
    s = float(np.std(d, ddof=1)) if d.size >= 2 else None
    reason = t_unavailable(d)
    if reason or gap is None or s is None:
        return ResampledT(int(d.size), gap, s, TInterval(), TInterval(), reason)
    J = d.size
    corrected = _t(gap, math.sqrt(1.0 / J + ratio) * s, J - 1, confidence)
    naive = _t(gap, s / math.sqrt(J), J - 1, confidence)
    return ResampledT(int(J), gap, s, corrected, naive, None)


def correlated_bayes(gap: float, se: float, df: int, rope: float) -> Bayes:
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
    Bayes
    """
    if not se > 0 or df < 1 or rope < 0:
        raise ValueError(f"need se > 0, df >= 1 and rope >= 0, got {se!r}, {df!r}, {rope!r}")
    p_worse = float(special.stdtr(df, (-rope - gap) / se))
    p_better = float(special.stdtr(df, -(rope - gap) / se))
    return Bayes(float(rope), p_worse, 1.0 - p_worse - p_better, p_better)


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
    J: int | None = None,
) -> Planning:
    """What more repeats can do: they shrink only the 1/J part of the corrected variance.

    Parameters
    ----------
    gap, sd : float
        The mean fold gap and the sd of the fold gaps (assumed to stay as they are).
    repeats, folds : int
        R and K today; each more repeat adds K fold gaps.
    ratio : float
        n_test / n_train.
    confidence : float, default 0.95
    useful : float, optional
        min_useful_effect: also say whether the floor is wider than it.
    J : int, optional
        The fold gaps today's interval was computed from (df J - 1); default R K, fewer when
        a fold was left out.

    Returns
    -------
    Planning
        ``repeats_needed`` is the fewest repeats R' >= R whose interval would exclude zero
        if the gap and sd stay, up to MAX_REPEATS; None when it already does or none would.
    """
    check_confidence(confidence)
    J = repeats * folds if J is None else J
    now = half_width(sd, J, ratio, confidence)
    floor = z_value(confidence) * math.sqrt(ratio) * sd
    settled = abs(gap) > now
    cannot = abs(gap) <= floor
    needed = None
    if not settled and not cannot:
        for r in range(repeats + 1, MAX_REPEATS + 1):
            if half_width(sd, J + (r - repeats) * folds, ratio, confidence) < abs(gap):
                needed = r
                break
    return Planning(
        half_width=now,
        floor_half_width=floor,
        repeats_needed=needed,
        settled=settled,
        repeats_cannot=cannot,
        floor_exceeds_useful=None if useful is None else bool(floor >= useful),
    )


def within_fold_spread(values: Sequence[Any]) -> Spread:
    """One model's seed spread within folds: the mean over folds of the per-fold seed variance.

    Parameters
    ----------
    values : sequence of array-like, one per fold
        The fold metric of each network (seed) trained on that fold.

    Returns
    -------
    Spread
    """
    arrays = [as_1d(v, "values") for v in values]
    if not arrays or any(a.size == 0 for a in arrays):
        raise ValueError("every fold needs at least one network")
    n = min(a.size for a in arrays)
    mean = float(np.mean([a.mean() for a in arrays]))
    if n < 2:
        return Spread(int(n), None, mean, False, len(arrays))
    sd = float(math.sqrt(np.mean([np.var(a, ddof=1) for a in arrays])))
    return Spread(int(n), sd, mean, all(no_spread(a) for a in arrays), len(arrays))


def cv_noise(
    gaps: Any,
    n_test: Any = None,
    n_train: Any = None,
    *,
    ratio: float | None = None,
    confidence: float = 0.95,
    rope: float | None = None,
) -> CvNoise:
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
    CvNoise
    """
    d = as_1d(gaps, "gaps")
    if (ratio is None) == (n_test is None or n_train is None):
        raise ValueError("give either ratio or both n_test and n_train")
    J = int(d.size)
    gap = float(np.mean(d)) if d.size else None
    sd = float(np.std(d, ddof=1)) if d.size >= 2 else None
    few = bool(d.size < FEW_FOLD_GAPS)
    if d.size < MIN_FOLD_GAPS:
        return CvNoise(J, gap, sd, few_folds=few, reason=Reason.TOO_FEW_FOLD_GAPS)
    if not np.all(np.isfinite(d)):
        return CvNoise(J, None, None, few_folds=few, reason=Reason.FOLD_GAP_NOT_FINITE)
    if ratio is None:
        refused = _refusal(d, as_1d(n_test, "n_test"), as_1d(n_train, "n_train"))
        if refused is not None:
            return CvNoise(J, gap, sd, few_folds=few, reason=refused)
        ratio = holdout_ratio(n_test, n_train)
    res = resampled_t(d, float(ratio), confidence)
    se = res.corrected.se
    bayes = None
    if rope is not None and se is not None and gap is not None:
        bayes = correlated_bayes(gap, se, d.size - 1, rope)
    return CvNoise(J, gap, sd, float(ratio), res.corrected, res.naive, bayes, few, res.reason)


def _refusal(d: FloatArray, t: FloatArray, n: FloatArray) -> Reason | None:
    """Why the fold sizes rule the corrected t out, or None."""
    if not (d.size == t.size == n.size):
        raise ValueError(f"one gap, n_test and n_train per fold, got {d.size}, {t.size}, {n.size}")
    if np.any(t <= 0):
        return Reason.FOLD_WITHOUT_TEST_ROWS
    if np.all(t == 1):
        return Reason.LEAVE_ONE_OUT
    if np.any(n <= 0):
        return Reason.FOLD_WITHOUT_TRAIN_ROWS
    return None
