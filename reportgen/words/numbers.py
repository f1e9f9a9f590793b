"""Numbers as a reader sees them: one rule per quantity, for sentences and tables alike.

Every formatter here refuses a missing value (None or NaN) with `MissingNumber`: a sentence
says what is missing instead of printing a placeholder. Tables print a dash for a missing
value through `reportgen.words.cells`, which wraps these same functions.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import TypeGuard

from reportgen.words.i18n import _, current, local_number, n_, p_

MINUS = "\u2212"
#: a gap's decimals stop here: a gap smaller than 10⁻⁶ prints as a rounded zero
MAX_DECIMALS = 6
#: below this magnitude, and from HUGE on, a number that is not a gap is a power of ten
TINY = 1e-4
HUGE = 1e15
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


class MissingNumber(ValueError):
    """A formatter got None or NaN: the caller must say what is missing instead."""


def value(x: float | int | None, what: str = "number") -> float:
    """``x`` as a float; None, NaN and booleans are refused (a sentence never prints them)."""
    if isinstance(x, bool):
        raise TypeError(f"a {what} to print is {x!r}, a boolean, not a number")
    if x is None:
        raise MissingNumber(f"a {what} to print is missing (None): say what is missing instead")
    v = float(x)
    if math.isnan(v):
        raise MissingNumber(f"a {what} to print is NaN: say what is missing instead")
    return v


def _minus(text: str) -> str:
    """Python's "-1.5" with a typographic minus, and no sign on a rounded zero ("-0.00")."""
    if not text.startswith("-"):
        return text
    text = text[1:]
    return text if text.strip("0.,") == "" else MINUS + text


def fixed(x: float | int | None, digits: int) -> str:
    """``x`` with ``digits`` decimals, thousands separated, typographic minus: −1,234.50."""
    v = value(x)
    if math.isinf(v):
        return "∞" if v > 0 else MINUS + "∞"
    return local_number(_minus(f"{v:,.{digits}f}"))


def decimals(*values: float | int | None, sig: int = 3, cap: int | None = MAX_DECIMALS) -> int:
    """Decimals that show ``sig`` significant figures of the largest of ``values`` (0 to ``cap``).

    Missing and infinite values are ignored; a rounding that carries into the next power of
    ten takes one decimal less (0.99995 at 4 significant figures is 1.000, not 1.0000).
    """
    finite = [abs(float(v)) for v in values if _finite(v)]
    largest = max(finite, default=0.0)
    top = sig - 1 if cap is None else min(sig - 1, cap)
    if largest == 0:
        return top
    magnitude = math.floor(math.log10(largest))
    d = sig - 1 - magnitude
    if (
        d >= 0
        and (cap is None or d <= cap)
        and float(f"{largest:.{d}f}") >= 10.0 ** (magnitude + 1)
    ):
        d -= 1
    return max(0, d if cap is None else min(cap, d))


def _finite(v: object) -> TypeGuard[float | int]:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def power_of_ten(x: float | int | None, figures: int = 2) -> str:
    """``x`` as a readable power of ten with ``figures`` significant figures: 5.4 × 10⁻⁶."""
    v = value(x)
    if v == 0 or not math.isfinite(v):
        return fixed(v, 0)
    mantissa, exponent = f"{v:.{figures - 1}e}".split("e")
    return f"{local_number(_minus(mantissa))} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def sig(x: float | int | None, figures: int = 3) -> str:
    """``x`` to ``figures`` significant figures, in fixed notation for everyday magnitudes.

    A value below 10⁻⁴ (0.0000123) or from 10¹⁵ on is written as a power of ten instead
    (1.23 × 10⁻⁵), so no digit is lost and none is invented; an exact zero is "0".
    """
    v = value(x)
    a = abs(v)
    if a == 0:
        return "0"  # an exact zero (a deterministic model's sd) has no figures to show
    if math.isfinite(a) and not TINY <= a < HUGE:
        return power_of_ten(v, figures)
    return fixed(v, decimals(v, sig=figures, cap=None))


def metric(x: float | int | None) -> str:
    """A metric value (score or loss): 4 significant figures."""
    return sig(x, 4)


def cost(x: float | int | None) -> str:
    """A cost (per case or per period): 3 significant figures."""
    return sig(x, 3)


def spread(x: float | int | None) -> str:
    """A standard deviation (seed sd, sd of differences): 3 significant figures."""
    return sig(x, 3)


def prob(x: float | int | None) -> str:
    """A probability, threshold or rate in [0, 1]: 3 decimals."""
    return fixed(x, 3)


def ratio(x: float | int | None, signed: bool = False) -> str:
    """A ratio such as the gap in seed sd: 3 significant figures, at most 2 decimals (0.88,
    1.45, 49.9, 523); ``signed`` for a gap in sd, which is negative when the candidate is worse
    (+49.9, −0.42)."""
    d = decimals(value(x), sig=3, cap=2)
    return with_sign(x, d) if signed else fixed(x, d)


def variance(x: float | int | None) -> str:
    """A variance term: 2 significant figures; below 0.001 (where fixed notation would show
    mostly zeros) as a power of ten, 5.4 × 10⁻⁶, never Python's 5.4e-06."""
    v = value(x)
    if v != 0 and abs(v) < 1e-3:
        return power_of_ten(v, 2)
    return sig(v, 2)


def with_sign(x: float | int | None, digits: int) -> str:
    """A signed number with ``digits`` decimals: +0.0085, −0.0060, and a bare rounded zero."""
    text = fixed(x, digits)
    return text if text.startswith(MINUS) or text.strip("0.,") == "" else "+" + text


def change(x: float | int | None, digits: int) -> str:
    """A drop printed without a sign (a drop of 0.012): ``digits`` decimals, and an exact zero
    (no change at all) as "0", never "0.00000"."""
    return "0" if value(x) == 0 else fixed(x, digits)


def gap_decimals(*values: float | int | None) -> int:
    """The one decimal count a gap and its interval share: 3 significant figures of the widest."""
    return decimals(*values, sig=3)


def gap(x: float | int | None, low: float | None = None, high: float | None = None) -> str:
    """A gap, signed, with the decimals its interval (when given) gets: +0.0039."""
    return with_sign(x, gap_decimals(x, low, high))


def interval(
    low: float | int | None,
    high: float | int | None,
    point: float | int | None = None,
    digits: int | None = None,
) -> str:
    """An interval, both ends signed, with its point's decimals: "−0.0039 to +0.0120"."""
    d = gap_decimals(point, low, high) if digits is None else digits
    return _("{low} to {high}", low=with_sign(low, d), high=with_sign(high, d))


def gap_with_interval(x: float | int | None, low: float | None, high: float | None) -> str:
    """ "+0.0039 (−0.0039 to +0.0120)": one decimal count for all three."""
    return f"{gap(x, low, high)} ({interval(low, high, x)})"


def metric_interval(low: float | int | None, high: float | int | None, point: float | int) -> str:
    """A model's own interval (report.json ``results``), unsigned, with the decimals its value
    prints with at 4 significant figures: "0.4466 to 0.4859" beside 0.4662; an end clipped to
    the metric's range is that bound: "0.9691 to 1"."""
    d = decimals(point, sig=4, cap=None)

    def end(x: float | int | None) -> str:
        v = value(x)  # an end clipped to the metric's range (0, 1) prints as that bound
        return fixed(v, 0) if float(v).is_integer() else fixed(v, d)

    return _("{low} to {high}", low=end(low), high=end(high))


def half_width(
    hw: float | int | None, low: float | None, high: float | None, point: float | None = None
) -> str:
    """The half-width of an interval with the interval's own decimals (0.0092 beside ±0.0092)."""
    return fixed(hw, gap_decimals(point, low, high))


def count(n: float | int | None) -> str:
    """A count: an integer with thousands separators, even when it arrives as 200.0."""
    v = value(n, "count")
    if not v.is_integer():
        raise ValueError(f"a count to print is {n!r}, not a whole number")
    return local_number(_minus(f"{int(v):,}"))


def file_size(n: float | int | None) -> str:
    """A size in bytes in decimal units, 3 significant figures from a kilobyte on: "812 bytes",
    "4.10 kB", "12.4 MB", "1.23 GB"."""
    v = value(n, "file size")
    if v < 1000:
        return n_("{n} byte", "{n} bytes", int(v))
    units = (
        (p_("unit of size", "kB"), 1e3),
        (p_("unit of size", "MB"), 1e6),
        (p_("unit of size", "GB"), 1e9),
        (p_("unit of size", "TB"), 1e12),
    )
    for unit, scale in units:
        x = v / scale
        if x < 999.5 or scale == 1e12:
            digits = 2 if x < 9.995 else 1 if x < 99.95 else 0
            return local_number(f"{x:.{digits}f}") + " " + unit
    raise AssertionError("unreachable")


def pct(x: float | int | None) -> str:
    """A share as a whole percentage: 0.355 -> 36%."""
    return fixed(value(x) * 100, 0) + "%"


def confidence(c: float | int | None) -> str:
    """A configured confidence level as written, in percent: 95%, 97.5%."""
    return local_number(f"{round(value(c, 'confidence') * 100, 6):g}") + "%"


def pvalue(p: float | int | None, space: str = " ") -> str:
    """A p-value, 3 decimals: "0.037", "< 0.001" (``space`` between the sign and the number)."""
    v = value(p, "p-value")
    return local_number(f"<{space}0.001" if v < 0.001 else f"{v:.3f}")


def p_text(p: float | int | None) -> str:
    """A p-value in a sentence: "p = 0.037", "p < 0.001"."""
    text = pvalue(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def posterior(x: float | int | None, space: str = " ") -> str:
    """A posterior probability, 3 decimals: "0.969"; "< 0.001" and "> 0.999" where 3 decimals
    would round a probability that is not 0 or 1 to 0.000 or 1.000 (``space`` after the sign)."""
    v = value(x, "probability")
    if 0 < v < 0.0005:
        return local_number(f"<{space}0.001")
    if 0.9995 <= v < 1:
        return local_number(f">{space}0.999")
    return fixed(v, 3)


def posterior_text(name: str, x: float | int | None) -> str:
    """A posterior probability in a sentence: "P(better) = 0.031", "P(worse) < 0.001"."""
    text = posterior(x)
    return f"P({name}) {text}" if text[0] in "<>" else f"P({name}) = {text}"


def given(x: float | int | None, unit: str | None = None) -> str:
    """A number the user wrote in the config (a bar, a useful effect, a margin): 0.005, 2;
    with the ``unit`` of its values when there is one: 0.5 kWh²."""
    text = _shortest(value(x, "configured value"))
    return f"{text} {unit}" if unit else text


def _shortest(v: float) -> str:
    """The shortest decimal that reads back as ``v``, never in exponent form: 0.00001, 2, 1,500."""
    if not math.isfinite(v):
        return fixed(v, 0)
    if v.is_integer() and abs(v) < HUGE:
        return local_number(_minus(f"{int(v):,}"))
    return local_number(_minus(format(Decimal(repr(v)), "f")))


def quantity(x: float | int | None) -> str:
    """A value whose kind is not known (a check's value): counts as integers, else 3 s.f."""
    v = value(x)
    if isinstance(x, int) or (v.is_integer() and abs(v) >= 1):
        return count(v)
    return "0" if v == 0 else sig(v, 3)


def points(x: float | int | None) -> str:
    """Rubric points as printed in feedback: 2, 1.5, −2 (at most 4 decimals, never −0)."""
    return _shortest(float(points_value(x)))


def points_value(x: float | int | None) -> int | float:
    """Rubric points as a grade sheet cell holds them: 2 not 2.0, at most 4 decimals, never -0."""
    v = round(value(x, "points"), 4) + 0.0
    return int(v) if v.is_integer() else v


def full(x: float | int | None) -> str:
    """A logged or recomputed metric value: 7 significant figures, enough to show a relative
    difference beyond the 10⁻⁶ tolerance of rung 1."""
    return sig(x, 7)


def written_decimals(text: str | None) -> int | None:
    """The decimals a value was written with ("0.290": 3, "8.6e-05": 6, "12": 0); None for
    text that is no finite number."""
    try:
        exponent = Decimal((text or "").strip()).as_tuple().exponent
    except ArithmeticError:  # decimal.InvalidOperation: not a number
        return None
    return max(0, -exponent) if isinstance(exponent, int) else None


def beside_logged(x: float | int | None, logged_text: str | None, agree: bool | None) -> str:
    """A recomputed value beside the logged one as written: to the written value's own
    decimals, so values that agree read alike ("0.86" beside "0.86", not "0.8600000"); when
    they disagree, with the fewest decimals beyond those that show the difference ("0.2904"
    beside "0.290"). Without a written number, or not compared, 7 significant figures
    (`full`). Whether they agree is the comparison's tolerance (rung 1), not these digits."""
    v = value(x)
    digits = written_decimals(logged_text)
    if digits is None or agree is None or not math.isfinite(v):
        return full(v)
    if agree:
        return fixed(v, digits)
    logged = Decimal(str(logged_text).strip())
    for more in range(digits, digits + 16):
        if Decimal(f"{v:.{more}f}") != logged:
            return fixed(v, more)
    return full(v)


def target_decimals(scale: float | int | None, squared: bool = False) -> int:
    """The decimals of every value in the target's units (a regression's residuals, MAE,
    RMSE, predictions): 3 significant figures of the target's scale, its test sd; of the
    scale squared for a value in squared units (an MSE). One count for a whole table."""
    s = abs(value(scale, "target scale"))
    return decimals(s * s if squared else s, sig=3)


def target(x: float | int | None, scale: float | int | None, squared: bool = False) -> str:
    """A value in the target's units, with the decimals of its scale: 52.3, 2,913 (an MSE)."""
    return fixed(x, target_decimals(scale, squared))


def seconds(x: float | int | None) -> str:
    """A duration in seconds: 1 decimal (12.3)."""
    return fixed(x, 1)


def date_text(iso: str) -> str:
    """A calendar day (ISO 8601, "2026-12-03") as the language writes it: as given in English,
    Babel's long form elsewhere ("3 грудня 2026 р."); text that is not a day is returned as it is."""
    lang = current()
    if lang == "en":
        return iso
    from datetime import date

    try:
        day = date.fromisoformat(iso)
    except ValueError:
        return iso
    from babel.dates import format_date

    return format_date(day, "long", locale=lang)
