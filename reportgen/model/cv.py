"""report.json `cv`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Missing, Model, key
from reportgen.model.common import TTest


@dataclass(frozen=True, slots=True)
class Bayes(Model):
    """report.noise.cv.bayes"""

    rope: float
    p_worse: float
    p_equivalent: float
    p_better: float


@dataclass(frozen=True, slots=True)
class CvPlanning(Model):
    """report.noise.cv.planning"""

    repeats_needed: int | None
    floor_half_width: float | None
    reason: str | None
    half_width: float | None = key("", omit_if_none=True)
    settled: bool | None = key("", omit_if_none=True)
    repeats_cannot: bool | None = key("", omit_if_none=True)
    floor_exceeds_useful: bool | None | Missing
    text: str | None


@dataclass(frozen=True, slots=True)
class FoldGap(Model):
    """report.noise.cv.fold_gaps[]"""

    repeat: int
    fold: int
    gap: float | None
    rows: int | None
    n_test: int | None
    n_train: float | None
    source: str


@dataclass(frozen=True, slots=True)
class CrossValidation(Model):
    """report.noise.cv"""

    repeats: int
    folds: int
    J: int
    gap: float | None
    sd: float | None
    test_train_ratio: float | None
    confidence: float
    ratio_from: str
    corrected: TTest
    naive: TTest
    bayes: Bayes | None
    planning: CvPlanning
    reason: str | None
    few_folds: bool
    excludes_zero: bool | None
    source: str
    complete: bool
    train_rows_logged: bool
    fold_gaps: tuple[FoldGap, ...]
    left_out: tuple[str, ...]
