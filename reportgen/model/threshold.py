"""report.json `threshold`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key


@dataclass(frozen=True, slots=True)
class ThresholdSeed(Model):
    """report.threshold.role.per_seed[]"""

    seed: int
    threshold: float
    validation_cost: float | None
    test_cost: float
    roc_auc: float | None


@dataclass(frozen=True, slots=True)
class CostCurve(Model):
    """report.threshold.role.curve"""

    threshold: tuple[float, ...]
    cost: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class ThresholdModel(Model):
    """report.threshold.role"""

    seed: int
    threshold: float
    threshold_reason: str | None
    predicts_none: bool
    validation_cost: float | None
    test_cost: float
    confusion: tuple[tuple[int, ...], ...]
    precision: float
    recall: float
    false_positive_rate: float | None
    predicted_positive: int
    actual_positive: int
    rows: int
    validation_confusion: tuple[tuple[int, ...], ...] | None
    validation_precision: float | None
    validation_recall: float | None
    mean_test_cost: float
    per_seed: tuple[ThresholdSeed, ...]
    curve: CostCurve | None


@dataclass(frozen=True, slots=True)
class Costs(Model):
    """report.threshold.costs"""

    false_positive: float
    false_negative: float
    unit: str
    cases_per_period: float | None
    period: str | None


@dataclass(frozen=True, slots=True)
class Threshold(Model):
    """report.threshold"""

    candidate: ThresholdModel = key("the candidate's figures")
    baseline: ThresholdModel = key("the baseline's figures")
    theoretical_cutoff: float | None
    costs: Costs
    rule: str
