"""report.json `noise`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from reportgen.model.base import Missing, Model, key
from reportgen.model.block import BlockNoise
from reportgen.model.budget import Budget, Clipping
from reportgen.model.cv import CrossValidation
from reportgen.model.enums import IntervalSource
from reportgen.model.seed import SeedNoise


@dataclass(frozen=True, slots=True)
class Interval(Model):
    """report.noise.interval"""

    gap: float
    low: float
    high: float
    source: IntervalSource
    part: str | None = key("", omit_if_none=True)
    what: str

    @property
    def above_zero(self) -> bool:
        """The whole interval favours the candidate."""
        return self.low > 0

    @property
    def below_zero(self) -> bool:
        """The whole interval favours the baseline."""
        return self.high < 0


@dataclass(frozen=True, slots=True)
class SignDisagreement(Model):
    """report.noise.sign_disagreement"""

    validation_gap: float
    test_gap: float
    text: str


@dataclass(frozen=True, slots=True)
class Noise(Model):
    """report.noise"""

    seed: SeedNoise | None
    block: BlockNoise | None
    lines: tuple[str, ...]
    covers: tuple[str, ...]
    interval: Interval | None
    sign_disagreement: SignDisagreement | None | Missing
    budget: Budget | None | Missing
    budget_reason: str | None | Missing
    clipping: Clipping | None | Missing
    cv: CrossValidation | None


@dataclass(frozen=True, slots=True)
class NoiseWithCv(Noise):
    """``noise`` of a cross-validated comparison: report.json lists ``cv`` third (its
    discriminator: ``cv`` is not null)."""

    KEYS: ClassVar[tuple[str, ...] | None] = (
        "seed",
        "block",
        "cv",
        "lines",
        "covers",
        "interval",
        "sign_disagreement",
        "budget",
        "budget_reason",
        "clipping",
    )

    @classmethod
    def claims(cls, data: dict) -> bool:
        """A cross-validated comparison's noise: ``cv`` holds its figures."""
        return data.get("cv") is not None


@dataclass(frozen=True, slots=True)
class NoiseBeforeAfter(Noise):
    """``noise`` of a before-after project: no budget, clipping or sign disagreement, and the
    interval before the lines (its discriminator: no ``budget`` key)."""

    KEYS: ClassVar[tuple[str, ...] | None] = (
        "seed",
        "block",
        "interval",
        "lines",
        "covers",
        "sign_disagreement",
        "budget",
        "budget_reason",
        "clipping",
        "cv",
    )

    @classmethod
    def claims(cls, data: dict) -> bool:
        """A before-after project's noise: it has no ``budget`` key."""
        return "budget" not in data
