"""Every number and yes/no of the report as text: fixed decimals, typographic minus, dashes."""

from __future__ import annotations

DASH = "—"
MINUS = "\u2212"


def num(x: float | int | None, digits: int = 4) -> str:
    """A number with a fixed count of decimals and a typographic minus; None is a dash."""
    if x is None:
        return DASH
    text = f"{x:,.{digits}f}"
    if text.startswith("-"):
        text = MINUS + text[1:]
        if text.strip(MINUS + "0.,") == "":
            text = text[1:]  # "−0.0000" reads as a sign that is not there
    return text


def signed(x: float | None, digits: int = 4) -> str:
    """A gap with an explicit sign (+0.0085, −0.0060)."""
    if x is None:
        return DASH
    text = num(x, digits)
    return text if text.startswith(MINUS) or float(x) == 0 else "+" + text


def count(n: int | None) -> str:
    return DASH if n is None else f"{n:,}"


def pct(x: float | None, digits: int = 0) -> str:
    return DASH if x is None else f"{x * 100:.{digits}f}%"


def pvalue(p: float | None) -> str:
    if p is None:
        return DASH
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3f}"


def interval(low: float | None, high: float | None, digits: int = 4) -> str:
    if low is None or high is None:
        return DASH
    return f"{signed(low, digits)} to {signed(high, digits)}"


def passed_word(passed: bool | None) -> tuple[str, str]:
    """(word, css class) for a check result; None means it could not be checked."""
    if passed is True:
        return "pass", "shown"
    if passed is False:
        return "fail", "not-shown"
    return "not checked", "neutral"


def yes_no(x: bool | None) -> str:
    return DASH if x is None else ("yes" if x else "no")
