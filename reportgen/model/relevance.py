"""report.json `relevance`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Missing, Model, key
from reportgen.model.common import IntPair
from reportgen.model.enums import Finding


@dataclass(frozen=True, slots=True)
class CostPerCase(Model):
    """report.relevance.cost_per_case"""

    candidate: float
    baseline: float
    difference: float


@dataclass(frozen=True, slots=True)
class Relevance(Model):
    """report.relevance"""

    min_useful_effect: float | None
    finding: Finding | None
    gap: float
    low: float
    high: float
    per_period: float | None
    cases_per_period: float | None
    period: str | None
    unit: str | None
    metric_unit: str
    cost_per_case: CostPerCase | None
    cost_per_period: float | None
    finding_text: str
    text: str


@dataclass(frozen=True, slots=True)
class Description(Model):
    """report.descriptions[]"""

    name: str
    label: str
    higher_is_better: bool
    candidate: float | None
    baseline: float | None
    gap: float | None
    low: float | None
    high: float | None
    blocks: int
    resamples: int
    undefined_draws: int
    reason: str | None
    confidence: float
    networks: IntPair
    rows: int
    block_column: str | None
    why: str


@dataclass(frozen=True, slots=True)
class Slice(Model):
    """report.slices[]"""

    slice: str
    rows: int
    blocks: int
    gap: float | None
    low: float | None
    high: float | None
    primary: str | None
    worse: bool | None
    required: bool
    margin: float | None
    not_worse: bool
    not_worse_reason: str | None
    labels_disagree: int | None = key(
        "before-after: how many of its questions the two versions label differently (then the "
        "slice is not measured); absent when they agree",
        omit_if_none=True,
    )
    before: float | None | Missing = key(
        "before-after: the before version's share correct; null when not measured"
    )
    after: float | None | Missing = key(
        "before-after: the after version's share correct; null when not measured"
    )
    fixed: int | None | Missing = key("before-after: questions wrong before and right after")
    broken: int | None | Missing = key("before-after: questions right before and wrong after")
