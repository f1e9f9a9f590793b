"""The shapes that travel between the checks and into report.json: an interval, a fact, a check, a rung."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from reportgen.words import fixed, gap_decimals, interval, with_sign


class Shape:
    """A frozen dataclass that report.json carries as one object (checks.jsonsafe converts it)."""

    def as_dict(self) -> dict:
        """The report.json object: the fields in declaration order."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Interval(Shape):
    """The evaluation interval of the gap (candidate better positive) that rung 3 and relevance rest on.

    report.json ``noise.interval``: ``gap``, ``low``, ``high``, ``source``, ``part``, ``what``.
    """

    gap: float
    low: float
    high: float
    #: how it was measured: "block" (test blocks), "paired-seeds", "questions" (before-after)
    source: str
    #: the part it is on ("test", "validation"); None in before-after, whose interval has no "part"
    part: str | None
    #: what it is over, in words: "30 weeks", "5 seed pairs (validation)", "40 questions"
    what: str

    @property
    def digits(self) -> int:
        """The decimals its gap and both ends print with: one count for the three."""
        return gap_decimals(self.gap, self.low, self.high)

    @property
    def ends(self) -> str:
        """Both ends as printed: "−0.0039 to +0.0120"."""
        return interval(self.low, self.high, digits=self.digits)

    def size(self, x: float) -> str:
        """``x`` without its sign, with this interval's decimals, for "beats ... by 0.0039"."""
        return fixed(abs(x), self.digits)

    def signed(self, x: float) -> str:
        """``x`` (its gap, an end) signed, with this interval's decimals: +0.0039."""
        return with_sign(x, self.digits)

    @property
    def above_zero(self) -> bool:
        """The whole interval favours the candidate."""
        return self.low > 0

    @property
    def below_zero(self) -> bool:
        """The whole interval favours the baseline."""
        return self.high < 0

    def as_dict(self) -> dict:
        out = {"gap": self.gap, "low": self.low, "high": self.high, "source": self.source}
        if self.part is not None:
            out["part"] = self.part
        out["what"] = self.what
        return out


@dataclass(frozen=True)
class Evidence(Shape):
    """One fact a rung rests on and where it was read (report.json ``fairness``; passed None: unknown)."""

    id: str
    passed: bool | None
    text: str
    artefacts: tuple[str, ...]


@dataclass(frozen=True)
class Check(Shape):
    """One entry of report.json ``checks``: a test on one rung, its value against its bar, in words.

    ``passed`` is None when it could not be measured; ``value`` and ``bar`` are None when the
    check is not a number against a bar.
    """

    id: str
    rung: int
    passed: bool | None
    value: float | None
    bar: float | None
    artefacts: tuple[str, ...]
    text: str

    #: report.json's key order (fact checks list the text before the artefacts)
    KEYS: ClassVar[tuple[str, ...]] = ("id", "rung", "passed", "value", "bar", "artefacts", "text")

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.KEYS}


@dataclass(frozen=True)
class FactCheck(Check):
    """The check of one fairness fact (``fair-<id>``): report.json lists its text before its artefacts."""

    KEYS: ClassVar[tuple[str, ...]] = ("id", "rung", "passed", "value", "bar", "text", "artefacts")


@dataclass(frozen=True)
class Rung(Shape):
    """One rung of the claim ladder (report.json ``ladder``): its status and the one thing missing."""

    rung: int
    name: str
    #: "shown", "partly" or "not shown"
    status: str
    artefacts: tuple[str, ...]
    #: None when shown
    missing: str | None
    summary: str
    #: shown with every rung below it shown: a shown rung above an unshown one keeps its status
    #: but is "shown, not credited" (methods.md section 1, revised turn 3)
    credited: bool = False

    @property
    def shown(self) -> bool:
        return self.status == "shown"

    @property
    def reason(self) -> str:
        """Why the rung holds the decision back, as a decision reason."""
        return f"rung {self.rung} ({self.name}) is {self.status}: {self.missing}"
