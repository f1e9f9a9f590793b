"""report.json ``noise.cv``: the cross-validated comparison."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Missing, Model, key
from reportgen.model.common import TTest


@dataclass(frozen=True, slots=True)
class Bayes(Model):
    """``noise.cv.bayes``: the Bayesian correlated t posterior against the useful effect (rope)."""

    rope: float = key("the region of practical equivalence (min_useful_effect)")
    p_worse: float = key("posterior probability the candidate is worse")
    p_equivalent: float = key("posterior probability they are equivalent")
    p_better: float = key("posterior probability the candidate is better")


@dataclass(frozen=True, slots=True)
class CvPlanning(Model):
    """``noise.cv.planning``: whether more repeats could settle the comparison."""

    repeats_needed: int | None = key("repeats needed to settle it, or null")
    floor_half_width: float | None = key("the half-width more repeats cannot go below, or null")
    reason: str | None = key("what more repeats can do, in words")
    half_width: float | None = key(
        "today's half-width; absent without an interval", omit_if_none=True
    )
    settled: bool | None = key(
        "the interval already excludes zero; absent without one", omit_if_none=True
    )
    repeats_cannot: bool | None = key(
        "no count of repeats can settle it; absent without an interval", omit_if_none=True
    )
    floor_exceeds_useful: bool | None | Missing = key(
        "the floor exceeds the useful effect; null without one; absent without an interval"
    )
    text: str | None = key("the planning note the report prints, or null")


@dataclass(frozen=True, slots=True)
class FoldGap(Model):
    """One fold's gap (``noise.cv.fold_gaps``)."""

    repeat: int = key("the repeat")
    fold: int = key("the fold")
    gap: float | None = key("its gap, or null")
    rows: int | None = key("its test rows, or null")
    n_test: int | None = key("test rows for the ratio, or null")
    n_train: float | None = key("train rows for the ratio, or null")
    source: str = key("predictions or run log")


@dataclass(frozen=True, slots=True)
class CrossValidation(Model):
    """``noise.cv``: the cross-validated comparison: fold gaps and the corrected resampled t."""

    repeats: int = key("repeats R")
    folds: int = key("folds K")
    J: int = key("fold gaps R x K")
    gap: float | None = key("the mean fold gap, or null")
    sd: float | None = key("the fold gaps' sd, or null")
    test_train_ratio: float | None = key("test rows over train rows, or null")
    confidence: float = key("the confidence level")
    ratio_from: str = key("where the ratio came from: folds.csv, train rows or the fold count")
    corrected: TTest = key("the corrected resampled t (the evidence of rung 3)")
    naive: TTest = key("the naive paired t beside it")
    t: float | None = key(
        "the corrected t statistic: the mean fold gap over the corrected standard error "
        "(corrected.p is its two-sided p); null without an interval"
    )
    bayes: Bayes | None = key("the Bayesian posterior; null without min_useful_effect")
    planning: CvPlanning = key("what more repeats can do")
    reason: str | None = key("why there is no interval, or null")
    few_folds: bool = key("too few fold gaps for a trustworthy interval")
    excludes_zero: bool | None = key("the corrected interval excludes zero; null without one")
    source: str | None = key(
        "where the fold gaps came from: predictions, run log or mixed; null without any"
    )
    complete: bool = key("every repeat has every fold")
    train_rows_logged: bool = key("the run log gives train rows")
    fold_gaps: tuple[FoldGap, ...] = key("every fold's gap")
    left_out: tuple[str, ...] = key("folds one model had no analysed network on")
