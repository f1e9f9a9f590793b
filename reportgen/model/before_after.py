"""report.json ``before_after`` and ``general``: a tuned model against its earlier version."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Missing, Model, key
from reportgen.model.common import MaybeBounds
from reportgen.model.enums import GeneralStatus


@dataclass(frozen=True, slots=True)
class TInterval(Model):
    """A t interval's ends and p value."""

    low: float | None = key("the lower end, or null")
    high: float | None = key("the upper end, or null")
    p: float | None = key("the p value, or null")


@dataclass(frozen=True, slots=True)
class BrokenRow(Model):
    """A question right before tuning and wrong after."""

    id: str = key("the question id")
    category: str | None = key("its category, or null")
    text: str | None = key("its text, or null")


@dataclass(frozen=True, slots=True)
class CoverageSide(Model):
    """What one version answered of a set's questions."""

    answered: int = key("questions answered")
    lacks: int = key("questions of the set it lacks")
    outside: int = key("answers outside the set")


@dataclass(frozen=True, slots=True)
class Coverage(Model):
    """Which questions of a set each version answered."""

    questions: int = key("the set's questions")
    source: str = key("split (its split file's ids) or answers (every question either answered)")
    both: int = key("questions both versions answered")
    before: CoverageSide = key("what the before version answered")
    after: CoverageSide = key("what the after version answered")
    complete: bool = key("both answered every question")


@dataclass(frozen=True, slots=True)
class BeforeAfter(Model):
    """``before_after``: the tuned model against its earlier version, question by question."""

    questions: int = key("questions both versions answered")
    before: float | None = key("the before version's share correct, or null")
    after: float | None = key("the after version's share correct, or null")
    difference: float | None = key("after minus before, or null")
    low: float | None = key("the interval's lower end, or null")
    high: float | None = key("its upper end, or null")
    primary: str | None = key("bootstrap, t or exact: the wider; null without an interval")
    interval_reason: str | None = key("why there is no interval, or null")
    blocks: int = key("blocks (or questions) resampled")
    confidence: float = key("the confidence level")
    bootstrap: MaybeBounds = key("the ratio bootstrap interval")
    t: TInterval = key("the ratio t interval")
    fixed: int = key("questions wrong before and right after")
    broken: int = key("questions right before and wrong after")
    mcnemar_p: float | None = key("McNemar's exact p, or null")
    fixed_ids: tuple[str, ...] = key("the fixed questions' ids")
    broken_ids: tuple[str, ...] = key("the broken questions' ids")
    broken_by_category: dict[str, int] | None = key(
        "category -> broken questions, most first; null without a category column"
    )
    fixed_by_category: dict[str, int] | None = key(
        "category -> fixed questions, most first; null without a category column"
    )
    broken_rows: tuple[BrokenRow, ...] = key("the broken questions")
    category_sentence: str | None = key("what the broken categories say, or null")
    coverage: Coverage = key("which test questions each version answered")
    artefacts: tuple[str, ...] = key("the predictions files")
    repeats: dict[str, int] | None = key(
        "before/after -> how many repeated evaluations (epochs) each question's score is the "
        "mean of; absent when each version answered each question once",
        omit_if_none=True,
        default=None,
    )


@dataclass(frozen=True, slots=True)
class GeneralT(Model):
    """The t interval on the drop."""

    low: float | None = key("the lower end, or null")
    high: float | None = key("the upper end, or null")
    p: float | None = key("the p value, or null")
    se: float | None = key("the standard error, or null")
    df: int | None = key("the degrees of freedom, or null")


@dataclass(frozen=True, slots=True)
class General(Model):
    """``general``: whether the general set held after tuning (the drop against max_drop)."""

    split: str = key("the general set's split")
    before: float | None = key("the before version's score, or null")
    after: float | None = key("the after version's score, or null")
    drop: float | None = key("the drop, or null when not shown")
    low: float | None = key("the drop interval's lower end, or null")
    high: float | None = key("its upper end, or null")
    max_drop: float = key("the drop allowed")
    held: bool = key("true only for status held")
    status: GeneralStatus = key("held, dropped or not shown")
    reason: str | None = key("why not held, or null")
    questions: int | None = key("questions paired, or null")
    coverage: Coverage | None = key(
        "which general questions each version answered; null without per-question predictions"
    )
    artefacts: tuple[str, ...] = key("the files and lines it rests on")
    primary: str | None | Missing = key(
        "the interval used (exact, t, bootstrap); absent without paired predictions on both"
    )
    bootstrap: MaybeBounds | Missing = key("the bootstrap interval on the drop; absent likewise")
    t: GeneralT | Missing = key("the t interval on the drop; absent likewise")
