"""The same numbers in table cells: a missing value is a dash, "< 0.001" never breaks.

Each formatter here is the one of `reportgen.words.numbers` of the same name, except that a
missing first argument (None, NaN) prints as a dash; times, yes/no and pass/fail are here
because only tables print them.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from reportgen.words import numbers as n
from reportgen.words.i18n import p_

DASH = "—"
NBSP = "\u00a0"


def _missing(x: object) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _dashed(fmt: Callable[..., str]) -> Callable[..., str]:
    """``fmt`` for a table cell: a dash when its first argument (or any end given) is missing."""

    @functools.wraps(fmt)
    def cell(x: Any, *args: Any, **kwargs: Any) -> str:
        return DASH if _missing(x) else fmt(x, *args, **kwargs)

    return cell


fixed = _dashed(n.fixed)
change = _dashed(n.change)
sig = _dashed(n.sig)
metric = _dashed(n.metric)
cost = _dashed(n.cost)
spread = _dashed(n.spread)
prob = _dashed(n.prob)
ratio = _dashed(n.ratio)
variance = _dashed(n.variance)
with_sign = _dashed(n.with_sign)
gap = _dashed(n.gap)
half_width = _dashed(n.half_width)
count = _dashed(n.count)
pct = _dashed(n.pct)
confidence = _dashed(n.confidence)
given = _dashed(n.given)
quantity = _dashed(n.quantity)
points = _dashed(n.points)
seconds = _dashed(n.seconds)
full = _dashed(n.full)
beside_logged = _dashed(n.beside_logged)
target = _dashed(n.target)


def interval(
    low: float | None, high: float | None, point: float | None = None, digits: int | None = None
) -> str:
    """An interval cell, both ends signed: "−0.0039 to +0.0120"; a dash without both ends."""
    if _missing(low) or _missing(high):
        return DASH
    return n.interval(low, high, None if _missing(point) else point, digits)


def gap_with_interval(x: float | None, low: float | None, high: float | None) -> str:
    """ "+0.0039 (−0.0039 to +0.0120)"; the gap alone without both ends; a dash without a gap."""
    if _missing(x):
        return DASH
    if _missing(low) or _missing(high):
        return n.gap(x)
    return n.gap_with_interval(x, low, high)


def metric_interval(low: float | None, high: float | None, point: float | None) -> str:
    """A model's own interval cell: "0.4466 to 0.4859"; a dash without both ends or a value."""
    if _missing(low) or _missing(high) or _missing(point):
        return DASH
    return n.metric_interval(low, high, point)  # type: ignore[arg-type]


def pvalue(p: float | None) -> str:
    """A p-value cell: "0.037", "< 0.001" with no line break inside."""
    return DASH if _missing(p) else n.pvalue(p, space=NBSP)


def posterior(x: float | None) -> str:
    """A posterior probability cell: "0.969", "< 0.001" with no line break inside."""
    return DASH if _missing(x) else n.posterior(x, space=NBSP)


def yes_no(x: bool | None) -> str:
    return DASH if x is None else (p_("answer", "yes") if x else p_("answer", "no"))


def passed_word(passed: bool | None) -> tuple[str, str]:
    """(word, css class) for a check result; None means it could not be checked."""
    if passed is True:
        return p_("check result", "pass"), "shown"
    if passed is False:
        return p_("check result", "fail"), "not-shown"
    return p_("check result", "not checked"), "neutral"


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
