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


def noun_plural(word: str) -> str:
    """English plural of a block or slice name: week -> weeks, batch -> batches, city -> cities."""
    w = word.strip()
    low = w.lower()
    if not w:
        return w
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return w + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return w[:-1] + "ies"
    return w + "s"


def count_noun(n: int, word: str) -> str:
    """``n`` with the noun in the right number: 1 week, 30 weeks, 2 batches."""
    return f"{n} {word if n == 1 else noun_plural(word)}"


def blocks_phrase(n: int, block: str | None) -> str:
    """How many evaluation blocks, in words: "30 weeks", or "400 single-row blocks"."""
    if block:
        return count_noun(n, block)
    return f"{n} single-row {'block' if n == 1 else 'blocks'}"


def p_text(p: float | None) -> str:
    """A p-value in a sentence, as the tables print it: "p = 0.371", "p < 0.001", "p n/a"."""
    if p is None:
        return "p n/a"
    if p < 0.001:
        return "p < 0.001"
    return f"p = {p:.3g}"
