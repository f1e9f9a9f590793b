"""report.json ``relevance``, ``slices`` and ``descriptions``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reportgen.model.base import Missing, Model, key
from reportgen.model.common import IntPair
from reportgen.model.enums import Finding

#: a slice's reading (Slice.reading): the one rule the table, its colours and the chart share
SliceReading = Literal["worse", "not_worse", "unshown", "better", "unmeasured", "unclear"]


@dataclass(frozen=True, slots=True)
class CostPerCase(Model):
    """Cost per case of each model and their difference (baseline minus candidate)."""

    candidate: float = key("the candidate's cost per case")
    baseline: float = key("the baseline's cost per case")
    difference: float = key("baseline minus candidate")


@dataclass(frozen=True, slots=True)
class Relevance(Model):
    """``relevance``: the evaluation interval against the useful effect, in cases and cost."""

    min_useful_effect: float | None = key("the useful effect, or null")
    finding: Finding | None = key("the interval against the useful effect, or null")
    gap: float = key("the gap")
    low: float = key("the interval's lower end")
    high: float = key("its upper end")
    per_period: float | None = key("the gap in cases per period, or null")
    cases_per_period: float | None = key("cases per period, or null")
    period: str | None = key("the period, or null")
    unit: str | None = key("what the cost is counted in")
    metric_unit: str = key("what the metric is counted in")
    cost_per_case: CostPerCase | None = key("cost per case per model, or null")
    cost_per_period: float | None = key("the cost difference per period, or null")
    finding_text: str = key("the finding in words")
    text: str = key("one sentence")


@dataclass(frozen=True, slots=True)
class Description(Model):
    """One entry of ``descriptions``: a metric that is not a mean of per-row values, with a block bootstrap."""

    name: str = key("the metric")
    label: str = key("its name as printed")
    higher_is_better: bool = key("a larger value is better")
    candidate: float | None = key("the candidate's value, or null")
    baseline: float | None = key("the baseline's value, or null")
    gap: float | None = key("candidate better positive, or null")
    low: float | None = key("the block bootstrap's lower end, or null")
    high: float | None = key("its upper end, or null")
    blocks: int = key("blocks resampled")
    resamples: int = key("bootstrap resamples")
    undefined_draws: int = key("draws where the metric is undefined")
    reason: str | None = key("why there is no interval, or null")
    confidence: float = key("the confidence level")
    networks: IntPair = key("test networks per model")
    rows: int = key("the rows every network shares")
    block_column: str | None = key("the block column, or null")
    why: str = key("why it is a description, not a claim")


@dataclass(frozen=True, slots=True)
class Slice(Model):
    """One entry of ``slices``: the gap on one slice and whether it is shown not worse."""

    slice: str = key("the slice label")
    rows: int = key("its test rows")
    blocks: int = key("its blocks")
    gap: float | None = key("its gap, or null")
    low: float | None = key("the interval's lower end, or null")
    high: float | None = key("its upper end, or null")
    primary: str | None = key("bootstrap, t or exact, or null")
    worse: bool | None = key("the interval lies wholly below zero; null without an interval")
    required: bool = key("listed in not_worse_on")
    margin: float | None = key("not_worse_margin (default min_useful_effect), or null")
    not_worse: bool = key("the interval's worse end is at least -margin")
    not_worse_reason: str | None = key("why not, or null")
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

    def reading(self) -> SliceReading:
        """Worse (interval wholly below zero), no worse within the margin, no worse not shown
        (a required slice whose worse end lies beyond the margin), better (interval above
        zero), not measured (no interval) or no clear difference."""
        if self.worse:
            return "worse"
        if self.required:
            return "not_worse" if self.not_worse else "unshown"
        if self.low is None:
            return "unmeasured"
        return "better" if self.low > 0 else "unclear"
