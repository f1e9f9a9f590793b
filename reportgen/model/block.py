"""report.json `block`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model
from reportgen.model.common import IntPair, MaybeBounds, TTest


@dataclass(frozen=True, slots=True)
class Welch(Model):
    """report.noise.block.welch"""

    se: float | None
    p: float | None
    low: float | None
    high: float | None
    df: float | None


@dataclass(frozen=True, slots=True)
class SeedGap(Model):
    """report.noise.block.per_seed[]"""

    seed: int
    gap: float | None
    low: float | None
    high: float | None
    primary: str | None


@dataclass(frozen=True, slots=True)
class TwoLevel(Model):
    """report.noise.block.two_level"""

    low: float | None
    high: float | None
    paired: bool
    seeds: IntPair
    reason: str | None


@dataclass(frozen=True, slots=True)
class Distribution(Model):
    """report.noise.block.distribution"""

    edges: tuple[float, ...]
    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BlockNoise(Model):
    """report.noise.block"""

    blocks: int
    rows: int
    gap: float | None
    low: float | None
    high: float | None
    confidence: float
    resamples: int
    primary: str | None
    primary_reason: str | None
    bootstrap: MaybeBounds
    t: TTest
    welch: Welch
    per_seed: tuple[SeedGap, ...]
    two_level: TwoLevel
    excludes_zero: bool
    distribution: Distribution | None
    reason: str | None
    block_column: str | None
    block_kind: str
    networks: IntPair
    gap_in_seed_sd: float | None
