"""report.json ``threshold``: the decision threshold and its costs per model."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key


@dataclass(frozen=True, slots=True)
class ThresholdSeed(Model):
    """One seed's threshold and costs (``threshold.<model>.per_seed``)."""

    seed: int = key("the seed")
    threshold: float = key("its threshold")
    validation_cost: float | None = key("its validation cost, or null")
    test_cost: float | None = key("its test cost, or null with no rows")
    roc_auc: float | None = key("its test ROC AUC, or null")


@dataclass(frozen=True, slots=True)
class CostCurve(Model):
    """The validation cost against the threshold, at most 500 points, for the chart."""

    threshold: tuple[float, ...] = key("thresholds")
    cost: tuple[float, ...] = key("the validation cost at each")


@dataclass(frozen=True, slots=True)
class OverRepeats(Model):
    """One figure of a cross-validation design over its out-of-fold prediction sets: the mean
    over repeats (each repeat's figure the mean over its networks per fold), the spread across
    repeats, and the lowest and highest repeat."""

    mean: float | None = key("mean over repeats, or null")
    sd: float | None = key("sd across repeats (ddof 1), or null with fewer than two")
    low: float | None = key("the lowest repeat, or null")
    high: float | None = key("the highest repeat, or null")
    repeats: int = key("repeats it averages")


@dataclass(frozen=True, slots=True)
class CvThreshold(Model):
    """``threshold.<model>.cv``: the cross-fitted threshold of a cross-validation design."""

    basis: str = key("how the threshold was chosen and measured, in words")
    cost: OverRepeats = key("cost per case pooled over each repeat's rows, over repeats")
    thresholds: OverRepeats = key("the median fold threshold of each repeat, over repeats")
    confusion: tuple[tuple[float, ...], ...] = key(
        "the pooled confusion [[TN, FP], [FN, TP]], mean over repeats (rows per repeat)"
    )
    sets: int = key("out-of-fold prediction sets (repeats x networks per fold)")


@dataclass(frozen=True, slots=True)
class ThresholdModel(Model):
    """One model's representative network at its threshold (``threshold.<model>``)."""

    seed: int = key("the representative seed (median validation metric)")
    threshold: float = key("its threshold")
    threshold_reason: str | None = key("why the threshold is 0.5, or null")
    predicts_none: bool = key("it predicts no positive on test")
    validation_cost: float | None = key("its validation cost per case, or null")
    test_cost: float | None = key("its test cost per case, or null with no rows")
    confusion: tuple[tuple[int, ...], ...] = key("the test confusion matrix [[TN, FP], [FN, TP]]")
    precision: float = key("test precision")
    recall: float = key("test recall")
    false_positive_rate: float | None = key("test false positive rate, or null")
    predicted_positive: int = key("rows predicted positive")
    actual_positive: int = key("rows actually positive")
    rows: int = key("test rows")
    validation_confusion: tuple[tuple[int, ...], ...] | None = key(
        "the validation confusion matrix, or null"
    )
    validation_precision: float | None = key("validation precision, or null")
    validation_recall: float | None = key("validation recall, or null")
    mean_test_cost: float = key("the mean test cost over every seed")
    per_seed: tuple[ThresholdSeed, ...] = key("every seed")
    curve: CostCurve | None = key("the validation cost curve, or null")
    cv: CvThreshold | None = key(
        "cross-validation design: the cross-fitted threshold over repeats; absent otherwise",
        omit_if_none=True,
        default=None,
    )


@dataclass(frozen=True, slots=True)
class Costs(Model):
    """``threshold.costs``: the cost of each error, from evreport.toml ``[costs]``."""

    false_positive: float = key("cost of a false positive")
    false_negative: float = key("cost of a false negative")
    unit: str = key("what costs are counted in")
    cases_per_period: float | None = key("cases per period, or null")
    period: str | None = key("the period, or null")


@dataclass(frozen=True, slots=True)
class Threshold(Model):
    """``threshold``: the cost-minimising decision threshold per model."""

    candidate: ThresholdModel = key("the candidate's figures")
    baseline: ThresholdModel = key("the baseline's figures")
    theoretical_cutoff: float | None = key(
        "the cost-optimal cutoff of calibrated probabilities, or null"
    )
    costs: Costs = key("the cost of each error")
    rule: str | float = key("validation-cost, or a fixed threshold")
