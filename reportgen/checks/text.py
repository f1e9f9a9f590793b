"""Numbers in sentences: formatted once, the same way everywhere."""

from __future__ import annotations

import math


def num(x: float | None, sig: int = 3) -> str:
    """A number with ``sig`` significant digits, without exponent for everyday magnitudes."""
    if x is None:
        return "n/a"
    if x == 0:
        return "0"
    a = abs(x)
    if 1e-4 <= a < 1e6:
        s = f"{x:.{sig}g}"
        if "e" in s:
            s = f"{x:.{max(sig - 1, 0)}f}"
        return s
    return f"{x:.{sig - 1}e}"


def interval(low: float | None, high: float | None, sig: int = 3) -> str:
    """Both ends with the same decimals: ``sig`` significant digits on the larger end (-0.0039 to 0.0120)."""
    if low is None or high is None:
        return f"{num(low)} to {num(high)}"
    big = max(abs(low), abs(high))
    if big == 0 or not 1e-4 <= big < 1e6:
        return f"{num(low)} to {num(high)}"
    decimals = max(0, sig - 1 - math.floor(math.log10(big)))
    return f"{low:.{decimals}f} to {high:.{decimals}f}"


def pct(c: float) -> str:
    return f"{c * 100:.4g}%"


def plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"
