"""report.json ``ladder``, ``claim``, ``decision``, ``checks`` and ``fairness``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from reportgen.model.base import Model, key
from reportgen.model.enums import RungStatus, Verdict


@dataclass(frozen=True, slots=True)
class Rung(Model):
    """One rung of the claim ladder (``ladder``): its status and the one thing missing."""

    rung: int = key("its number, 1 to 5")
    name: str = key("correct, fair, larger than noise, relevant or bounded")
    status: RungStatus = key("shown, partly or not shown")
    artefacts: tuple[str, ...] = key("the files and lines it rests on")
    missing: str | None = key("the one thing missing; null when shown")
    summary: str = key("one sentence: what the artefacts show")
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
    """``claim``: the claim as written, as supported, and what would reopen the decision."""

    original: str = key("the claim as written")
    rewritten: str = key("the claim the evidence supports")
    supported_rung: int = key("the highest credited rung, 0 to 5")
    reconsider_when: str = key("what would reopen the decision, in one string")
    reconsider_items: tuple[str, ...] = key("the same as a list")


@dataclass(frozen=True, slots=True)
class Decision(Model):
    """``decision``: the verdict, the model recommended and why."""

    verdict: Verdict = key("the verdict")
    recommend: str = key("the model recommended")
    reasons: tuple[str, ...] = key("why, one sentence each")


@dataclass(frozen=True, slots=True)
class Check(Model):
    """One entry of ``checks``: a test on one rung, its value against its bar, in words."""

    id: str = key("its identifier (fairness facts: fair-<id>)")
    rung: int = key("the rung it belongs to")
    passed: bool | None = key("whether it passed; null when it could not be measured")
    value: float | None = key("the measured value; null when not a number against a bar")
    bar: float | None = key("the bar it is measured against; null likewise")
    artefacts: tuple[str, ...] = key("the files and lines it rests on")
    text: str = key("the check in words")


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
    def claims(cls, data: dict[str, Any]) -> bool:
        """A fairness fact's check: its id starts "fair-"."""
        return str(data.get("id", "")).startswith("fair-")


@dataclass(frozen=True, slots=True)
class Evidence(Model):
    """One fact a rung rests on and where it was read (``fairness``; passed None: unknown)."""

    id: str = key("the fact's identifier")
    passed: bool | None = key("whether it holds; null when unknown")
    text: str = key("the fact in words")
    artefacts: tuple[str, ...] = key("where it was read")
