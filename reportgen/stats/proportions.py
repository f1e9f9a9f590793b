"""Intervals for a proportion: the Wilson score interval (methods.md section 6)."""

from __future__ import annotations

import math

from reportgen.stats._util import check_confidence, z_value


def wilson(successes: float, n: float, confidence: float) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n``.

    Inverts the normal score test, so it stays inside [0, 1] and keeps a width at
    ``successes`` 0 or ``n`` and at two or three rows, where the normal (Wald)
    interval collapses. The same interval as
    ``statsmodels.stats.proportion.proportion_confint(successes, n, 1 - confidence,
    method="wilson")``: with ``z`` the two-sided normal quantile at ``confidence`` and
    ``p = successes / n``, the centre is ``(p + z^2 / 2n) / (1 + z^2 / n)`` and the
    half-width ``z sqrt(p (1 - p) / n + z^2 / 4n^2) / (1 + z^2 / n)``.

    Parameters
    ----------
    successes : float
        Positives (or correct answers), ``0 <= successes <= n``; a float is accepted
        because it may come from ``fraction * n``.
    n : float
        Trials, ``n > 0``.
    confidence : float
        In (0, 1), e.g. the project's ``rule.confidence``.

    Returns
    -------
    low, high : float
        The interval ends, clipped to [0, 1] against float rounding.
    """
    check_confidence(confidence)
    if not n > 0:
        raise ValueError(f"n={n!r} is not valid. It should be positive")
    if not 0 <= successes <= n:
        raise ValueError(f"successes={successes!r} is not valid. It should be in [0, n={n!r}]")
    z = z_value(confidence)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / n + z2n / (4 * n)) / (1 + z2n)
    return max(0.0, centre - half), min(1.0, centre + half)
