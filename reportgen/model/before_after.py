"""report.json `before_after`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Missing, Model, key
from reportgen.model.common import MaybeBounds
from reportgen.model.enums import GeneralStatus


@dataclass(frozen=True, slots=True)
class TInterval(Model):
    """report.before_after.t"""

    low: float | None
    high: float | None
    p: float | None


@dataclass(frozen=True, slots=True)
class BrokenRow(Model):
    """report.before_after.broken_rows[]"""

    id: str
    category: str | None
    text: str | None


@dataclass(frozen=True, slots=True)
class CoverageSide(Model):
    """report.before_after.coverage.before"""

    answered: int
    lacks: int
    outside: int


@dataclass(frozen=True, slots=True)
class Coverage(Model):
    """report.before_after.coverage"""

    questions: int
    source: str
    both: int
    before: CoverageSide
    after: CoverageSide
    complete: bool


@dataclass(frozen=True, slots=True)
class BeforeAfter(Model):
    """report.before_after"""

    questions: int
    before: float | None
    after: float | None
    difference: float | None
    low: float | None
    high: float | None
    primary: str | None
    interval_reason: str | None
    blocks: int
    confidence: float
    bootstrap: MaybeBounds
    t: TInterval
    fixed: int
    broken: int
    mcnemar_p: float | None
    fixed_ids: tuple[str, ...]
    broken_ids: tuple[str, ...]
    broken_by_category: dict[str, int] | None
    fixed_by_category: dict[str, int] | None
    broken_rows: tuple[BrokenRow, ...]
    category_sentence: str | None
    coverage: Coverage
    artefacts: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GeneralT(Model):
    """report.general.t"""

    low: float | None
    high: float | None
    p: float | None
    se: float | None
    df: int | None


@dataclass(frozen=True, slots=True)
class General(Model):
    """report.general"""

    split: str
    before: float | None
    after: float | None
    drop: float | None
    low: float | None
    high: float | None
    max_drop: float
    held: bool
    status: GeneralStatus
    reason: str | None
    questions: int | None
    coverage: Coverage | None
    artefacts: tuple[str, ...]
    primary: str | None | Missing = key(
        "the interval used (exact, t, bootstrap); absent without paired predictions on both"
    )
    bootstrap: MaybeBounds | Missing = key("the bootstrap interval on the drop; absent likewise")
    t: GeneralT | Missing = key("the t interval on the drop; absent likewise")
