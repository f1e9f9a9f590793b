"""report.json `budget`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Missing, Model, key
from reportgen.model.common import Bounds, IntPair


@dataclass(frozen=True, slots=True)
class BothNeeded(Model):
    """report.noise.budget.planning.both_needed"""

    S: int
    B: int
    scale: float


@dataclass(frozen=True, slots=True)
class GridPoint(Model):
    """report.noise.budget.planning.grid[]"""

    S: int
    B: int
    half_width: float


@dataclass(frozen=True, slots=True)
class Planning(Model):
    """report.noise.budget.planning"""

    gap: float
    seeds_needed: int | None
    blocks_needed: int | None
    both_needed: BothNeeded | None
    reason: str | None
    seeds_needed_useful: int | None
    blocks_needed_useful: int | None
    reason_useful: str | None
    grid: tuple[GridPoint, ...]
    both_needed_useful: BothNeeded | None | Missing = key(
        "the seeds and blocks both scaled to reach the useful effect; absent without one"
    )
    impractical_text: str | None
    impractical: bool


@dataclass(frozen=True, slots=True)
class Budget(Model):
    """report.noise.budget"""

    seed_term: float
    block_term: float
    total: float
    seed_share: float
    S: int
    B: int
    seed_sd: float
    block_sd: float
    z: float
    half_width: float
    combined: Bounds
    planning: Planning
    seed_part: str
    seed_sd_interval: Bounds
    two_level_half_width: float
    test_networks: int
    line: str


@dataclass(frozen=True, slots=True)
class Clipping(Model):
    """report.noise.clipping"""

    eps: float
    clipped_loss: float
    rows: IntPair
    rows_total: int
    rows_without: int
    gap: float
    gap_without: float | None
    change: float | None
    interval_width: float | None
    matters: bool
    text: str | None
