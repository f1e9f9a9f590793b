"""Every number, date and yes/no of the report as text: one policy, here and nowhere else.

The policy, by quantity:

    metric values (score, loss)   4 significant figures            0.4474, 12.35
    gaps with their interval      one decimal count for the triple: 3 significant figures
                                  of the widest of the three       +0.0039 (−0.0039 to +0.0120)
    costs                         3 significant figures            0.457, 85.8
    probabilities, thresholds     3 decimals                       0.315
    p-values                      3 decimals, "< 0.001" below      0.103
    counts                        integers, thousands separated    2,844 (never 25.0000, 200.0)
    percentages                   whole percent                    95%
    timestamps                    ISO 8601 in UTC with "Z"         2026-03-03T09:00:00Z

A typographic minus everywhere, no sign on a rounded zero, a dash for a missing value.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime

DASH = "—"
MINUS = "\u2212"
#: decimals are never more than this: beyond it the digits are noise in every quantity we print
MAX_DECIMALS = 6


def num(x: float | int | None, digits: int = 4) -> str:
    """A number with a fixed count of decimals and a typographic minus; None is a dash."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return DASH
    text = f"{x:,.{digits}f}"
    if text.startswith("-"):
        text = MINUS + text[1:]
        if text.strip(MINUS + "0.,") == "":
            text = text[1:]  # "−0.0000" reads as a sign that is not there
    return text


def decimals(*values: float | int | None, sig: int = 3) -> int:
    """Decimals that show `sig` significant figures of the largest of `values` (0 to 6)."""
    finite = [abs(float(v)) for v in values if v is not None and math.isfinite(float(v))]
    largest = max(finite, default=0.0)
    if largest == 0:
        return min(sig - 1, MAX_DECIMALS)
    magnitude = math.floor(math.log10(largest))
    return max(0, min(MAX_DECIMALS, sig - 1 - magnitude))


def sig(x: float | int | None, figures: int = 3) -> str:
    """A number to `figures` significant figures (no exponent, no trailing zeros dropped)."""
    if x is None:
        return DASH
    return num(x, decimals(x, sig=figures))


def metric(x: float | int | None) -> str:
    """A metric value (score or loss): 4 significant figures."""
    return sig(x, 4)


def cost(x: float | int | None) -> str:
    """A cost (per case or per period): 3 significant figures."""
    return sig(x, 3)


def prob(x: float | None) -> str:
    """A probability, threshold or rate in [0, 1]: 3 decimals."""
    return num(x, 3)


def signed(x: float | None, digits: int = 4) -> str:
    """A gap with an explicit sign (+0.0085, −0.0060)."""
    if x is None:
        return DASH
    text = num(x, digits)
    return text if text.startswith(MINUS) or text.strip("0.,") == "" else "+" + text


def interval(low: float | None, high: float | None, digits: int = 4) -> str:
    """An interval, both ends signed: "−0.0039 to +0.0120"."""
    if low is None or high is None:
        return DASH
    return f"{signed(low, digits)} to {signed(high, digits)}"


def gap_decimals(gap: float | None, low: float | None = None, high: float | None = None) -> int:
    """The one decimal count a gap and its interval share: 3 significant figures of the widest."""
    return decimals(gap, low, high, sig=3)


def gap(x: float | None, low: float | None = None, high: float | None = None) -> str:
    """A gap, signed, with as many decimals as its interval (when given) gets."""
    return signed(x, gap_decimals(x, low, high))


def gap_interval(low: float | None, high: float | None, point: float | None = None) -> str:
    """An interval with the decimals its point gets."""
    return interval(low, high, gap_decimals(point, low, high))


def gap_with_interval(x: float | None, low: float | None, high: float | None) -> str:
    """ "+0.0039 (−0.0039 to +0.0120)": one decimal count for all three."""
    if low is None or high is None:
        return gap(x)
    return f"{gap(x, low, high)} ({gap_interval(low, high, x)})"


def count(n: int | float | None) -> str:
    """A count: an integer with thousands separators, even when it arrives as 200.0."""
    if n is None:
        return DASH
    if isinstance(n, float):
        if not math.isfinite(n):
            return DASH
        if not n.is_integer():
            return num(n, 1)
    return f"{int(n):,}"


def quantity(x: float | int | None) -> str:
    """A value whose kind is not known (a check's value): counts as integers, else 3 s.f."""
    if x is None:
        return DASH
    if isinstance(x, bool):
        return yes_no(x)
    if isinstance(x, int) or (isinstance(x, float) and x.is_integer() and abs(x) >= 1):
        return count(x)
    return sig(x, 3) if x != 0 else "0"


def pct(x: float | None, digits: int = 0) -> str:
    return DASH if x is None else f"{x * 100:.{digits}f}%"


def pvalue(p: float | None) -> str:
    if p is None:
        return DASH
    if p < 0.001:
        return "<\u00a00.001"  # no line break between the sign and the number
    return f"{p:.3f}"


def plural(n: int | float | None, word: str, many: str | None = None) -> str:
    """ "1 empty bin", "3 empty bins", "2 batches": the count and the noun agreeing with it."""
    if n is not None and float(n) == 1:
        return f"{count(n)} {word}"
    if many is None:
        many = word + ("es" if re.search(r"(s|x|z|ch|sh)$", word) else "s")
    return f"{count(n)} {many}"


_ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:?\d{2}|Z)?")


def timestamp(text: str | None) -> str:
    """An ISO 8601 time in UTC with "Z"; a date alone stays a date; anything else unchanged."""
    if not text:
        return DASH
    text = str(text)
    if not _ISO.fullmatch(text):
        return text
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return text
    if t.tzinfo is None:
        return t.isoformat(timespec="seconds")
    return t.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"


def timestamps_in(text: str) -> str:
    """Every ISO 8601 time inside a sentence written the same way (UTC, "Z")."""
    return _ISO.sub(lambda m: timestamp(m.group(0)), text)


def passed_word(passed: bool | None) -> tuple[str, str]:
    """(word, css class) for a check result; None means it could not be checked."""
    if passed is True:
        return "pass", "shown"
    if passed is False:
        return "fail", "not-shown"
    return "not checked", "neutral"


def yes_no(x: bool | None) -> str:
    return DASH if x is None else ("yes" if x else "no")


def given(x: float | int | None) -> str:
    """A number the user wrote in the config (a bar, a useful effect): as written, 0.005, 2."""
    if x is None:
        return DASH
    text = f"{x:g}" if isinstance(x, float) else f"{x:,}"
    return MINUS + text[1:] if text.startswith("-") else text
