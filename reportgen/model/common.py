"""report.json `common`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model


@dataclass(frozen=True, slots=True)
class IntPair(Model):
    """report.noise.seed.n"""

    candidate: int
    baseline: int


@dataclass(frozen=True, slots=True)
class MaybeFloatPair(Model):
    """report.noise.seed.sd"""

    candidate: float | None
    baseline: float | None


@dataclass(frozen=True, slots=True)
class FloatPair(Model):
    """report.noise.seed.mean"""

    candidate: float
    baseline: float


@dataclass(frozen=True, slots=True)
class SeedLists(Model):
    """report.noise.seed.paired.unpaired"""

    candidate: tuple[int, ...]
    baseline: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MaybeBounds(Model):
    """report.noise.block.bootstrap"""

    low: float | None
    high: float | None


@dataclass(frozen=True, slots=True)
class TTest(Model):
    """report.noise.block.t"""

    low: float | None
    high: float | None
    p: float | None
    se: float | None
    df: int | None


@dataclass(frozen=True, slots=True)
class Bounds(Model):
    """report.noise.budget.combined"""

    low: float
    high: float


@dataclass(frozen=True, slots=True)
class StrPair(Model):
    """report.data.cv.configs"""

    candidate: str
    baseline: str
