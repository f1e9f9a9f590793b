"""A check id a rung module can write into report.json ``checks[]``, declared beside the code
that writes it, so that checks/registry.py and the grading rubric know every one."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class CheckId:
    """One check id, or a family of them with a ``*`` per project-specific part
    (``not-worse-on-*``: one per slice), and the rung it belongs to."""

    id: str
    rung: int
    #: why no example, fixture or layout cell lists it (None: some report does)
    rare: str | None = None

    @property
    def family(self) -> bool:
        """True for a pattern standing for many ids (``rung1-*-*``)."""
        return "*" in self.id

    def of(self, *parts: str) -> str:
        """The id of one member of the family, each ``*`` filled by a part in order."""
        pieces = self.id.split("*")
        if len(parts) != len(pieces) - 1:
            raise ValueError(f"{self.id!r} takes {len(pieces) - 1} parts, not {len(parts)}")
        return pieces[0] + "".join(str(p) + rest for p, rest in zip(parts, pieces[1:], strict=True))

    def member(self, *parts: str, rare: str | None = None) -> CheckId:
        """One member of the family declared as an exact id of the same rung."""
        return CheckId(self.of(*parts), self.rung, rare)

    def seldom(self, reason: str) -> CheckId:
        """The same declaration marked rare: no shipped report lists it, for ``reason``."""
        return replace(self, rare=reason)

    def matches(self, check_id: str) -> bool:
        """Whether ``check_id`` is this id, or a member of this family (each part non-empty)."""
        if not self.family:
            return check_id == self.id
        parts = (re.escape(p) for p in self.id.split("*"))
        return re.fullmatch(".+".join(parts), check_id, flags=re.DOTALL) is not None
