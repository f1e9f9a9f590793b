"""report.json ``ranking`` and ``calibration``: per model, the same representative seed."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key
from reportgen.model.threshold import OverRepeats


@dataclass(frozen=True, slots=True)
class Roc(Model):
    """The ROC curve, at most 500 points."""

    fpr: tuple[float, ...] = key("false positive rates")
    tpr: tuple[float, ...] = key("true positive rates")


@dataclass(frozen=True, slots=True)
class PrecisionRecall(Model):
    """The precision-recall curve, at most 500 points."""

    recall: tuple[float, ...] = key("recalls")
    precision: tuple[float, ...] = key("precisions")


@dataclass(frozen=True, slots=True)
class RocBand(Model):
    """The spread of every network's ROC curve: lowest and highest true positive rate at each false positive rate."""

    fpr: tuple[float, ...] = key("51 false positive rates, 0 to 1")
    low: tuple[float, ...] = key("the lowest true positive rate at each")
    high: tuple[float, ...] = key("the highest")
    seeds: int = key("the networks it spans")


@dataclass(frozen=True, slots=True)
class PrBand(Model):
    """The spread of every network's precision-recall curve: lowest and highest interpolated precision at each recall."""

    recall: tuple[float, ...] = key("recalls")
    low: tuple[float, ...] = key("the lowest interpolated precision at each")
    high: tuple[float, ...] = key("the highest")
    seeds: int = key("the networks it spans")


@dataclass(frozen=True, slots=True)
class CvRanking(Model):
    """``ranking.<model>.cv``: a cross-validation design's ranking over its repeats."""

    basis: str = key("what the figures are computed on, in words")
    roc_auc: OverRepeats = key("out-of-fold ROC AUC over repeats")
    average_precision: OverRepeats = key("out-of-fold average precision over repeats")


@dataclass(frozen=True, slots=True)
class RankingModel(Model):
    """One model's ranking figures on test (``ranking.<model>``)."""

    seed: int = key("the representative seed")
    roc_auc: float | None = key("test ROC AUC, or null")
    roc_auc_reason: str | None = key("why it is null, or null")
    average_precision: float | None = key("test average precision, or null")
    average_precision_reason: str | None = key("why it is null, or null")
    validation_roc_auc: float | None = key("validation ROC AUC, or null")
    mean_roc_auc: float | None = key("the mean test ROC AUC over seeds, or null")
    positives: int = key("positive test rows")
    negatives: int = key("negative test rows")
    roc: Roc | None = key("the ROC curve, or null when undefined")
    pr: PrecisionRecall | None = key("the precision-recall curve, or null when undefined")
    roc_band: RocBand | None = key(
        "every network's ROC spread; null with fewer than two networks with both classes"
    )
    pr_band: PrBand | None = key("every network's precision-recall spread; null likewise")
    cv: CvRanking | None = key(
        "cross-validation design: the figures over repeats; absent otherwise",
        omit_if_none=True,
        default=None,
    )


@dataclass(frozen=True, slots=True)
class Ranking(Model):
    """``ranking``: ROC and precision-recall figures per model."""

    candidate: RankingModel = key("the candidate's figures")
    baseline: RankingModel = key("the baseline's figures")


@dataclass(frozen=True, slots=True)
class CalibrationBin(Model):
    """One equal-width probability bin of a reliability diagram."""

    low: float = key("the bin's lower edge")
    high: float = key("its upper edge")
    count: int = key("rows in it")
    mean_p: float | None = key("their mean probability; null for an empty bin")
    fraction_positive: float | None = key(
        "the fraction positive (top label: right); null for an empty bin"
    )
    fraction_low: float | None = key(
        "lower end of the Wilson interval on fraction_positive at build.confidence; null for an empty bin"
    )
    fraction_high: float | None = key(
        "upper end of the Wilson interval on fraction_positive at build.confidence; null for an empty bin"
    )


@dataclass(frozen=True, slots=True)
class CvCalibration(Model):
    """``calibration.<model>.cv``: a cross-validation design's calibration over its repeats."""

    basis: str = key("what the figures are computed on, in words")
    ece: OverRepeats = key("out-of-fold ECE over repeats")
    brier: OverRepeats = key("out-of-fold Brier score over repeats")
    band_low: tuple[float | None, ...] = key(
        "per bin, the lowest fraction positive of any out-of-fold set; null where every set is empty"
    )
    band_high: tuple[float | None, ...] = key("per bin, the highest")


@dataclass(frozen=True, slots=True)
class CalibrationModel(Model):
    """One model's calibration on test (``calibration.<model>``)."""

    seed: int = key("the representative seed")
    ece: float | None = key("expected calibration error on test, or null")
    brier: float | None = key("Brier score on test, or null")
    validation_ece: float | None = key("validation ECE, or null")
    bins: tuple[CalibrationBin, ...] = key("the reliability diagram's bins")
    cv: CvCalibration | None = key(
        "cross-validation design: the figures over repeats; absent otherwise",
        omit_if_none=True,
        default=None,
    )


@dataclass(frozen=True, slots=True)
class Calibration(Model):
    """``calibration``: the reliability figures per model."""

    candidate: CalibrationModel = key("the candidate's figures")
    baseline: CalibrationModel = key("the baseline's figures")
    bins: int = key("bins per reliability diagram")
