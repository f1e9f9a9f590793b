"""report.json `ladder`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from reportgen.model.base import Model, key
from reportgen.model.enums import RungStatus, Verdict


@dataclass(frozen=True, slots=True)
class Rung(Model):
    """report.ladder[]"""

    rung: int
    name: str
    status: RungStatus
    artefacts: tuple[str, ...]
    missing: str | None
    summary: str
    credited: bool = key(
        'shown, and every rung below it shown; a shown rung above an unshown one is "shown, not credited"',
        default=False,
    )

    @property
    def shown(self) -> bool:
        """Its status is "shown" (credited or not)."""
        return self.status == "shown"

    @property
    def reason(self) -> str:
        """Why the rung holds the decision back, as a decision reason."""
        return f"rung {self.rung} ({self.name}) is {self.status}: {self.missing}"


@dataclass(frozen=True, slots=True)
class Claim(Model):
    """report.claim"""

    original: str
    rewritten: str
    supported_rung: int
    reconsider_when: str
    reconsider_items: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Decision(Model):
    """report.decision"""

    verdict: Verdict
    recommend: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Check(Model):
    """report.checks[]"""

    id: str
    rung: int
    passed: bool | None
    value: float | None
    bar: float | None
    artefacts: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class FactCheck(Check):
    """The check of one fairness fact: its id starts "fair-" and report.json lists its text
    before its artefacts (the discriminator between FactCheck and Check in ``checks``)."""

    KEYS: ClassVar[tuple[str, ...] | None] = (
        "id",
        "rung",
        "passed",
        "value",
        "bar",
        "text",
        "artefacts",
    )

    @classmethod
    def claims(cls, data: dict) -> bool:
        """A fairness fact's check: its id starts "fair-"."""
        return str(data.get("id", "")).startswith("fair-")


@dataclass(frozen=True, slots=True)
class Evidence(Model):
    """report.fairness[]"""

    id: str
    passed: bool | None
    text: str
    artefacts: tuple[str, ...]
