"""report.json ``noise``: its three variants by design and mode, and the evaluation interval."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from reportgen.model.base import Missing, Model, key
from reportgen.model.block import BlockNoise
from reportgen.model.budget import Budget, Clipping
from reportgen.model.cv import CrossValidation
from reportgen.model.enums import IntervalSource
from reportgen.model.seed import SeedNoise


@dataclass(frozen=True, slots=True)
class Interval(Model):
    """``noise.interval``: the evaluation interval of the gap (candidate better positive) that rung 3 and relevance rest on."""

    gap: float = key("the gap")
    low: float = key("the lower end")
    high: float = key("the upper end")
    source: IntervalSource = key("how it was measured")
    part: str | None = key(
        "the part it is on (test, validation, cross-validation); absent in before-after",
        omit_if_none=True,
    )
    what: str = key("what it is over, in words: 30 weeks, 5 seed pairs (validation), 40 questions")

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
    """``noise.sign_disagreement``: the validation and test gaps have opposite signs."""

    validation_gap: float = key("the validation gap")
    test_gap: float = key("the test gap")
    text: str = key("the disagreement in words")


@dataclass(frozen=True, slots=True)
class Noise(Model):
    """``noise`` of a model-vs-baseline split design: the seed and block lines and the interval."""

    seed: SeedNoise | None = key("retraining noise; null without seed values")
    block: BlockNoise | None = key(
        "evaluation noise on the test part; null without per-row predictions"
    )
    lines: tuple[str, ...] = key(
        "the noise section's lines: the seed line, then the block (or resampling) line"
    )
    covers: tuple[str, ...] = key("what each line covers and what it does not")
    interval: Interval | None = key("the interval rung 3 and relevance rest on, or null")
    sign_disagreement: SignDisagreement | None | Missing = key(
        "the validation and test gaps disagree in sign; null when not; absent in before-after"
    )
    budget: Budget | None | Missing = key(
        "the noise budget; null when it cannot be computed (budget_reason); absent in before-after"
    )
    budget_reason: str | None | Missing = key(
        "why there is no budget, or null; absent in before-after"
    )
    clipping: Clipping | None | Missing = key("log-loss clipping, or null; absent in before-after")
    cv: CrossValidation | None = key("the cross-validated comparison; null in the split design")


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
    def claims(cls, data: dict[str, Any]) -> bool:
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
    def claims(cls, data: dict[str, Any]) -> bool:
        """A before-after project's noise: it has no ``budget`` key."""
        return "budget" not in data
