"""What the statistics return: frozen results with numbers and a reason code, never prose.

The codes say why a figure is None; checks/ turns a code and its numbers into the sentence
report.json shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

T = TypeVar("T")


class Reason(StrEnum):
    """Why a figure cannot be computed, or what was substituted (a note)."""

    #: a side has fewer than 2 seeds: its seed sd is unmeasured
    TOO_FEW_SEEDS = "too-few-seeds"
    #: a model has no seed values: there is no gap to weigh
    NO_GAP = "no-gap"
    #: both models' seeds agree: the seed rule is trivially met when the gap is positive
    BOTH_DETERMINISTIC = "both-deterministic"
    #: the chosen side has zero seed spread: the other side's sd is used
    CHOSEN_SIDE_DETERMINISTIC = "chosen-side-deterministic"
    #: one side has zero seed spread: the other side's (the larger) sd is used
    ONE_SIDE_DETERMINISTIC = "one-side-deterministic"
    #: fewer than 2 differences: no t interval
    TOO_FEW_FOR_T = "too-few-for-t"
    #: the differences are all equal: no t interval
    ZERO_SPREAD = "zero-spread"
    #: no blocks or no seeds
    NOTHING_TO_COMPARE = "nothing-to-compare"
    #: a block value is NaN or infinite
    BLOCK_NOT_FINITE = "block-not-finite"
    #: one block: an interval needs at least 2
    ONE_BLOCK = "one-block"
    #: every block gives the same row-weighted gap
    BLOCK_GAPS_ZERO_SPREAD = "block-gaps-zero-spread"
    #: seeds_paired, but fewer than 2 seed labels are shared: seeds resampled independently
    SEEDS_UNSHARED = "seeds-unshared"
    #: fewer than 5 seeds on a side: the two-level interval's seed level is coarse
    COARSE_SEED_LEVEL = "coarse-seed-level"
    #: fewer fold gaps than the corrected resampled t needs
    TOO_FEW_FOLD_GAPS = "too-few-fold-gaps"
    #: a fold gap is NaN or infinite
    FOLD_GAP_NOT_FINITE = "fold-gap-not-finite"
    #: a fold holds out no rows
    FOLD_WITHOUT_TEST_ROWS = "fold-without-test-rows"
    #: every fold holds out one row
    LEAVE_ONE_OUT = "leave-one-out"
    #: a fold trains on no rows
    FOLD_WITHOUT_TRAIN_ROWS = "fold-without-train-rows"
    #: fewer than 2 blocks: no interval
    TOO_FEW_BLOCKS = "too-few-blocks"
    #: the metric is undefined on these rows
    METRIC_UNDEFINED = "metric-undefined"
    #: the metric is undefined on almost every resample
    UNDEFINED_ON_RESAMPLES = "undefined-on-resamples"
    #: the gap is not above the plan's target: more seeds or blocks cannot show it is
    GAP_NOT_ABOVE_TARGET = "gap-not-above-target"
    #: the block term alone reaches the target: more seeds alone cannot settle it
    SEEDS_ALONE_CANNOT = "seeds-alone-cannot"
    #: the seed term alone reaches the target: more blocks alone cannot settle it
    BLOCKS_ALONE_CANNOT = "blocks-alone-cannot"


@dataclass(frozen=True)
class Sides(Generic[T]):
    """One figure for each model of a comparison."""

    candidate: T
    baseline: T


@dataclass(frozen=True)
class Bounds:
    """The ends of an interval; None when there is none."""

    low: float | None = None
    high: float | None = None

    @property
    def excludes_zero(self) -> bool:
        """Wholly above or wholly below zero (report.json's ``excludes_zero`` flags); False
        without both ends."""
        low, high = self.low, self.high
        return low is not None and high is not None and (low > 0 or high < 0)


@dataclass(frozen=True)
class TInterval:
    """A Student t interval on a mean: ends, two-sided p, standard error, degrees of freedom.

    Every field is None when no interval can be had.
    """

    low: float | None = None
    high: float | None = None
    p: float | None = None
    se: float | None = None
    #: an integer for a paired t, the Welch-Satterthwaite df for Welch's t
    df: float | None = None
