"""report.json `seed`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from reportgen.model.base import Model, key
from reportgen.model.common import FloatPair, IntPair, MaybeFloatPair, SeedLists


@dataclass(frozen=True, slots=True)
class SeedValue(Model):
    """report.noise.seed.values.candidate[]"""

    seed: int
    value: float
    source: str
    folds: int | None = key("", omit_if_none=True)


@dataclass(frozen=True, slots=True)
class SeedValues(Model):
    """report.noise.seed.values"""

    candidate: tuple[SeedValue, ...]
    baseline: tuple[SeedValue, ...]


@dataclass(frozen=True, slots=True)
class Paired(Model):
    """report.noise.seed.paired"""

    n: int | None
    mean: float | None
    sd: float | None
    low: float | None
    high: float | None
    p: float | None
    part: str | None
    seeds: tuple[int, ...]
    unpaired: SeedLists | None
    reason: str | None


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
    def claims(cls, data: dict) -> bool:
        """The paired analysis ran: it names its part."""
        return data.get("part") is not None


@dataclass(frozen=True, slots=True)
class SeedNoise(Model):
    """report.noise.seed"""

    n: IntPair
    sd: MaybeFloatPair
    mean: FloatPair
    sd_used: float | None
    validation_gap: float | None
    gap_in_sd: float | None
    multiple: float
    passes: bool
    trivial: bool
    deterministic: tuple[str, ...]
    note: str | None
    seeds_beating_baseline: int
    reason: str | None
    part: str
    within_folds: bool | None = key("", omit_if_none=True)
    folds: int | None = key("", omit_if_none=True)
    sd_from: str | None
    values: SeedValues
    left_out: tuple[str, ...]
    test_networks: IntPair | None
    paired: PairedMeasured | Paired
