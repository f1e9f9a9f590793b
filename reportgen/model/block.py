"""report.json ``noise.block``: evaluation noise on the test part."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key
from reportgen.model.common import IntPair, MaybeBounds, TTest


@dataclass(frozen=True, slots=True)
class Welch(Model):
    """The Welch t interval on the per-network test gaps."""

    se: float | None = key("the standard error, or null")
    p: float | None = key("the p value, or null")
    low: float | None = key("the lower end, or null")
    high: float | None = key("the upper end, or null")
    df: float | None = key("the Welch degrees of freedom, or null")


@dataclass(frozen=True, slots=True)
class SeedGap(Model):
    """One seed's test gap and its interval (``noise.block.per_seed``)."""

    seed: int = key("the seed label")
    gap: float | None = key("its test gap")
    low: float | None = key("its interval's lower end, or null")
    high: float | None = key("its upper end, or null")
    primary: str | None = key("bootstrap or t, or null")


@dataclass(frozen=True, slots=True)
class TwoLevel(Model):
    """``noise.block.two_level``: the interval resampling seeds and blocks."""

    low: float | None = key("the lower end, or null")
    high: float | None = key("the upper end, or null")
    paired: bool = key("seeds resampled in pairs")
    seeds: IntPair = key("seeds per model")
    reason: str | None = key("what the seed level is worth, or null")


@dataclass(frozen=True, slots=True)
class Distribution(Model):
    """The histogram of the bootstrap gaps: bin edges and counts."""

    edges: tuple[float, ...] = key("the bin edges")
    counts: tuple[int, ...] = key("the gaps per bin")


@dataclass(frozen=True, slots=True)
class BlockNoise(Model):
    """``noise.block``: evaluation noise on the test part, by block bootstrap and ratio t."""

    blocks: int = key("test blocks")
    rows: int = key("test rows (the estimand is row-weighted)")
    gap: float | None = key("the row-weighted test gap")
    low: float | None = key("the primary interval's lower end, or null")
    high: float | None = key("its upper end, or null")
    confidence: float = key("the confidence level")
    resamples: int = key("bootstrap resamples")
    primary: str | None = key("bootstrap or t: the wider of the two; null with no interval")
    primary_reason: str | None = key("why that one, or null")
    bootstrap: MaybeBounds = key("the block bootstrap interval")
    t: TTest = key("the ratio t interval")
    welch: Welch = key("the Welch t interval on the per-network gaps")
    per_seed: tuple[SeedGap, ...] = key("each seed's test gap and interval")
    two_level: TwoLevel = key("the two-level (seeds and blocks) interval")
    excludes_zero: bool = key("the primary interval excludes zero: wholly above or wholly below it")
    distribution: Distribution | None = key("the bootstrap gaps' histogram, or null")
    reason: str | None = key("why there is no interval, or null")
    block_column: str | None = key("the block column, or null for row blocks")
    block_kind: str = key("period or group")
    networks: IntPair = key("test networks per model")
    gap_in_seed_sd: float | None = key("the test gap over the seed line's sd, or null")
