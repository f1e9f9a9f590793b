"""Small report.json shapes many sections share: per-model pairs, bounds, a t interval."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key


@dataclass(frozen=True, slots=True)
class IntPair(Model):
    """A count per model: the candidate's and the baseline's."""

    candidate: int = key("the candidate's count")
    baseline: int = key("the baseline's count")


@dataclass(frozen=True, slots=True)
class MaybeFloatPair(Model):
    """A number per model, None where it cannot be computed."""

    candidate: float | None = key("the candidate's value, or null")
    baseline: float | None = key("the baseline's value, or null")


@dataclass(frozen=True, slots=True)
class FloatPair(Model):
    """A number per model."""

    candidate: float = key("the candidate's value")
    baseline: float = key("the baseline's value")


@dataclass(frozen=True, slots=True)
class SeedLists(Model):
    """Seed labels per model."""

    candidate: tuple[int, ...] = key("the candidate's seed labels")
    baseline: tuple[int, ...] = key("the baseline's seed labels")


@dataclass(frozen=True, slots=True)
class MaybeBounds(Model):
    """An interval's two ends, None where there is no interval."""

    low: float | None = key("the lower end, or null")
    high: float | None = key("the upper end, or null")


@dataclass(frozen=True, slots=True)
class TTest(Model):
    """A t interval: its ends, p value, standard error and degrees of freedom (None: none)."""

    low: float | None = key("the lower end, or null")
    high: float | None = key("the upper end, or null")
    p: float | None = key("the p value, or null")
    se: float | None = key("the standard error, or null")
    df: int | None = key("the degrees of freedom, or null")


@dataclass(frozen=True, slots=True)
class Bounds(Model):
    """An interval's two ends."""

    low: float = key("the lower end")
    high: float = key("the upper end")
