"""report.json ``noise.seed``: retraining noise and the paired seed analysis."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from reportgen.model.base import Model, key
from reportgen.model.common import FloatPair, IntPair, MaybeFloatPair, SeedLists


@dataclass(frozen=True, slots=True)
class SeedValue(Model):
    """One seed's value of the metric and where it was read."""

    seed: int = key("the seed label")
    value: float = key("its metric value")
    source: str = key("where it was read (runs.csv:14), or how it was made")
    folds: int | None = key(
        "cv design: the folds it is a mean over; absent otherwise", omit_if_none=True
    )


@dataclass(frozen=True, slots=True)
class SeedValues(Model):
    """``noise.seed.values``: each model's analysed seed values."""

    candidate: tuple[SeedValue, ...] = key("the candidate's seed values")
    baseline: tuple[SeedValue, ...] = key("the baseline's seed values")


@dataclass(frozen=True, slots=True)
class Paired(Model):
    """``noise.seed.paired`` without the paired analysis (seeds_paired off): every figure null."""

    n: int | None = key("paired seeds, or null")
    mean: float | None = key("the mean paired gap, or null")
    sd: float | None = key("its sd, or null")
    low: float | None = key("the t interval's lower end, or null")
    high: float | None = key("its upper end, or null")
    p: float | None = key("its p value, or null")
    part: str | None = key("the part the pairs are on; null without the analysis")
    seeds: tuple[int, ...] = key("the shared seed labels (pairing is by label)")
    unpaired: SeedLists | None = key("the labels without a partner, or null")
    reason: str | None = key("why there is no interval, or null")


@dataclass(frozen=True, slots=True)
class PairedMeasured(Paired):
    """``noise.seed.paired`` when seeds_paired is set: report.json lists ``reason`` before
    ``part`` (its discriminator: ``part`` is not null)."""

    KEYS: ClassVar[tuple[str, ...] | None] = (
        "n",
        "mean",
        "sd",
        "low",
        "high",
        "p",
        "reason",
        "part",
        "seeds",
        "unpaired",
    )

    @classmethod
    def claims(cls, data: dict[str, Any]) -> bool:
        """The paired analysis ran: it names its part."""
        return data.get("part") is not None


@dataclass(frozen=True, slots=True)
class SeedNoise(Model):
    """``noise.seed``: retraining noise, the seed rule and the paired seed analysis."""

    n: IntPair = key("seeds per model")
    sd: MaybeFloatPair = key("the seed sd per model (null with fewer than 2 seeds)")
    mean: FloatPair = key("the mean over seeds per model")
    sd_used: float | None = key("the sd the rule uses, or null")
    validation_gap: float | None = key("the gap of the seed means (candidate better positive)")
    gap_in_sd: float | None = key("the gap over sd_used, or null")
    multiple: float = key("the rule's seed_sd_multiple")
    passes: bool = key("the gap exceeds multiple times the seed sd")
    trivial: bool = key(
        "both models are deterministic: the rule is trivially met when the gap is positive"
    )
    deterministic: tuple[str, ...] = key("the models with zero seed spread")
    note: str | None = key("which sd was used instead of a zero one, or null")
    seeds_beating_baseline: int = key("candidate seeds better than the baseline's mean")
    reason: str | None = key("why the rule cannot be measured, or null")
    part: str = key("where the spread was measured: validation, test or cross-validation")
    within_folds: bool | None = key(
        "cv design: the spread is measured within folds; absent in the split design",
        omit_if_none=True,
    )
    folds: int | None = key(
        "cv design: the folds each seed value is a mean over; absent otherwise", omit_if_none=True
    )
    sd_from: str | None = key("whose sd is used (candidate or baseline), or null")
    values: SeedValues = key("each model's seed values")
    left_out: tuple[str, ...] = key("run rows left out, with why")
    test_networks: IntPair | None = key(
        "networks with test predictions per model; null in a cv design"
    )
    paired: PairedMeasured | Paired = key("the paired seed analysis (seeds_paired)")
