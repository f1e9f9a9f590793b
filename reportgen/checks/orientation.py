"""One orientation policy for every sentence, flag, rung label and reconsider-when item.

Every gap and interval is candidate minus baseline, signed so that positive means the candidate
is better (for a lower-is-better metric the difference is taken the other way round before it
gets here), and is printed with that sign everywhere. Which model a figure favours is computed
here, once, from the numbers. A direction is *shown* only when both noise lines agree on it: the
seed rule cleared on that side and the evaluation interval wholly on that side. A harm needs the
same evidence as a gain, so "the baseline is better" is said on the same two conditions that
"the candidate is better" is.
"""

from __future__ import annotations

from enum import StrEnum

from reportgen.model.noise import Interval
from reportgen.model.seed import SeedNoise
from reportgen.words.i18n import _, p_


class Side(StrEnum):
    """Which model a figure favours."""

    CANDIDATE = "candidate"
    BASELINE = "baseline"
    NEITHER = "neither"


def interval_side(iv: Interval | None) -> Side | None:
    """The side the whole interval lies on; NEITHER when it holds zero; None without one."""
    if iv is None:
        return None
    if iv.above_zero:
        return Side.CANDIDATE
    if iv.below_zero:
        return Side.BASELINE
    return Side.NEITHER


def seed_side(seed: SeedNoise) -> Side | None:
    """The side whose seed rule is cleared: the gap beyond ``multiple`` seed sd one way or the
    other (for deterministic models: the sign of the gap); None when the spread is unmeasured."""
    if seed.trivial:
        g = seed.validation_gap
        if g is None or g == 0:
            return Side.NEITHER
        return Side.CANDIDATE if g > 0 else Side.BASELINE
    if seed.gap_in_sd is None:
        return None
    if seed.gap_in_sd > seed.multiple:
        return Side.CANDIDATE
    if seed.gap_in_sd < -seed.multiple:
        return Side.BASELINE
    return Side.NEITHER


def shown_side(seed: SeedNoise, iv: Interval | None) -> Side | None:
    """The model shown better beyond both noise lines, or None when neither is shown."""
    side = interval_side(iv)
    if side in (Side.CANDIDATE, Side.BASELINE) and seed_side(seed) == side:
        return side
    return None


def zero_words(iv: Interval) -> str:
    """Where the interval lies against zero: "lies above zero", "lies below zero",
    "includes zero"."""
    side = interval_side(iv) or Side.NEITHER
    # TRANSLATORS: the predicate of a sentence whose subject is an interval ("the interval ... lies above zero")
    if side == Side.CANDIDATE:
        return _("lies above zero")
    # TRANSLATORS: the predicate of a sentence whose subject is an interval
    if side == Side.BASELINE:
        return _("lies below zero")
    # TRANSLATORS: the predicate of a sentence whose subject is an interval
    return _("includes zero")


def side_words(iv: Interval) -> str:
    """The interval against zero with whom it favours: "excludes zero in the candidate's
    favour", "lies below zero, in the baseline's favour", "includes zero"."""
    side = interval_side(iv) or Side.NEITHER
    # TRANSLATORS: the predicate of a check's text whose subject is an interval
    if side == Side.CANDIDATE:
        return _("excludes zero in the candidate's favour")
    # TRANSLATORS: the predicate of a check's text whose subject is an interval
    if side == Side.BASELINE:
        return _("lies below zero, in the baseline's favour")
    return _("includes zero")


def part_at(part: str | None) -> str:
    """The part a gap or interval is measured on, as a sentence names it beside the noun:
    "test", "validation", "cross-validation" in English (the id as written: "the test gap");
    in Ukrainian a phrase after the noun ("різниця на тестовій вибірці"). An unknown part
    is printed as it is."""
    # TRANSLATORS: the part a gap or interval is measured on; English puts it before the noun ("the test gap"), Ukrainian after it ("різниця на тестовій вибірці")
    if part == "test":
        return p_("the part a gap is measured on", "test")
    if part == "validation":
        return p_("the part a gap is measured on", "validation")
    if part == "cross-validation":
        return p_("the part a gap is measured on", "cross-validation")
    return part or ""


def part_name(part: str | None) -> str:
    """The part as a name in parentheses or after a colon: "(validation)", "(test)"."""
    if part == "test":
        return p_("a part's name, in parentheses", "test")
    if part == "validation":
        return p_("a part's name, in parentheses", "validation")
    if part == "cross-validation":
        return p_("a part's name, in parentheses", "cross-validation")
    return part or ""


def noise_label(seed: SeedNoise, iv: Interval | None, interval_name: str) -> str:
    """Rung 3's label, computed for the case: how the seed rule and the interval came out.
    ``interval_name``: the interval as printed, "test interval", "corrected interval"."""
    side = seed_side(seed)
    if seed.passes:
        rule = _("seed rule passes")
    elif side is None:
        rule = _("seed rule unmeasured")
    elif seed.trivial:
        rule = _("seed rule fails (deterministic models; the gap is not positive)")
    elif side == Side.BASELINE:
        # the gap in seed sd is the rung's missing text or its check's number, said once
        rule = _("seed rule fails (on the baseline's side)")
    else:
        rule = _("seed rule fails")
    where = (
        f"{interval_name} {zero_words(iv)}" if iv else _("no {interval}", interval=interval_name)
    )
    return f"{rule}; {where}"
