"""report.json `ranking`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key


@dataclass(frozen=True, slots=True)
class Roc(Model):
    """report.ranking.role.roc"""

    fpr: tuple[float, ...]
    tpr: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class PrecisionRecall(Model):
    """report.ranking.role.pr"""

    recall: tuple[float, ...]
    precision: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class RocBand(Model):
    """report.ranking.role.roc_band"""

    fpr: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    seeds: int


@dataclass(frozen=True, slots=True)
class PrBand(Model):
    """report.ranking.role.pr_band"""

    recall: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    seeds: int


@dataclass(frozen=True, slots=True)
class RankingModel(Model):
    """report.ranking.role"""

    seed: int
    roc_auc: float | None
    roc_auc_reason: str | None
    average_precision: float | None
    average_precision_reason: str | None
    validation_roc_auc: float | None
    mean_roc_auc: float | None
    positives: int
    negatives: int
    roc: Roc | None
    pr: PrecisionRecall | None
    roc_band: RocBand | None
    pr_band: PrBand | None


@dataclass(frozen=True, slots=True)
class Ranking(Model):
    """report.ranking"""

    candidate: RankingModel = key("the candidate's figures")
    baseline: RankingModel = key("the baseline's figures")


@dataclass(frozen=True, slots=True)
class CalibrationBin(Model):
    """report.calibration.role.bins[]"""

    low: float
    high: float
    count: int
    mean_p: float | None
    fraction_positive: float | None
    fraction_low: float | None = key(
        "lower end of the Wilson interval on fraction_positive at build.confidence; null for an empty bin"
    )
    fraction_high: float | None = key(
        "upper end of the Wilson interval on fraction_positive at build.confidence; null for an empty bin"
    )


@dataclass(frozen=True, slots=True)
class CalibrationModel(Model):
    """report.calibration.role"""

    seed: int
    ece: float | None
    brier: float | None
    validation_ece: float | None
    bins: tuple[CalibrationBin, ...]


@dataclass(frozen=True, slots=True)
class Calibration(Model):
    """report.calibration"""

    candidate: CalibrationModel = key("the candidate's figures")
    baseline: CalibrationModel = key("the baseline's figures")
    bins: int
