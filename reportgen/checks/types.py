"""The shapes that travel between the checks and into report.json: an interval, a fact, a check,
a rung. They are the report model's classes (reportgen.model); the interval adds the printing
helpers the checks' sentences use, which need words (the model may not import it)."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.ladder import Check, Evidence, FactCheck, Rung
from reportgen.model.noise import Interval as IntervalShape
from reportgen.words import fixed, gap_decimals, interval, with_sign

__all__ = ["Check", "Evidence", "FactCheck", "Interval", "Rung"]


@dataclass(frozen=True, slots=True)
class Interval(IntervalShape):
    """report.json ``noise.interval`` with the decimals and ends its sentences print."""

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
