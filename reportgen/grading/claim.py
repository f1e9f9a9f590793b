"""How far a claim as written reaches up the ladder: the honest-claim rule of the rubric.

The rule (docs/batch.md, "An honest claim") reads the claim's words, never its meaning:

- a claim that one model is better, worse, or changed something (``beats``, ``better``,
  ``more accurate``, ``raises``, ``improves``, ``outperforms`` ...) claims rung 3
  (larger than noise);
- a claim that names a size of effect (a number after ``by``, a number with ``%``,
  ``points`` or ``pp``) or its worth (``useful``, ``worth``, ``significant``, ``saves``)
  claims rung 4 (relevant);
- a claim that it holds beyond the test (``without hurting``, ``no worse``, ``in general``,
  ``everywhere``, ``always``, ``robust``, ``generalises``, ``any``/``all`` other ...) claims
  rung 5 (bounded);
- a claim of a tie or of no shown difference (``tied``, ``no difference``, ``not shown``,
  ``comparable``, ``inconclusive``, ``not (significantly) better``) claims rung 2 (fair);
  any other claim rung 2 too.

The claim is honest when the rung it claims is at most ``claim.supported_rung``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_RUNG3 = (
    r"beats?|beating|better|worse|outperform\w*|improv\w*|rais\w*|increas\w*|reduc\w*|"
    r"lower\w*|higher|more|less|fewer|gain\w*|wins?|superior|exceeds?|drops?|cuts?|boosts?"
)
_RUNG4_WORDS = r"useful|worth\w*|significant\w*|saves?|saving\w*|substantial\w*|large|meaningful\w*"
_RUNG4_NUMBER = r"\bby\s+[+-]?\d[\d,]*(\.\d+)?|\d(\.\d+)?\s*(%|percent\b|points?\b|pp\b)"
_RUNG5 = (
    r"without\s+hurting|no\s+worse|not\s+worse|in\s+general|everywhere|always|robust\w*|"
    r"generali[sz]\w*|anything\s+else|any\s+other|all\s+other|every\s+\w+|in\s+production"
)
_TIE = (
    r"tied?|ties|no\s+difference|not\s+shown|comparable|inconclusive|equivalent|on\s+par|"
    r"(?:is\s+|are\s+|was\s+|were\s+)?not\s+(?:significantly\s+|clearly\s+)?"
    r"(?:better|different|more\s+\w+|higher|lower)|no\s+(?:better|significant\s+\w+)"
)


@dataclass(frozen=True)
class ClaimReach:
    """The rung a claim's words reach, and the words that put it there."""

    rung: int
    words: tuple[str, ...]


def _find(pattern: str, text: str) -> list[str]:
    return [m.group(0) for m in re.finditer(rf"(?<![\w-])(?:{pattern})(?![\w-])", text)]


def claimed_rung(text: str | None) -> ClaimReach:
    """The highest rung the claim's words assert (2 for a tie or a plain statement)."""
    t = " ".join((text or "").lower().split())
    if _find(_TIE, t) and not _find(_RUNG5, t):
        return ClaimReach(2, tuple(_find(_TIE, t)[:3]))
    for rung, words in (
        (5, _find(_RUNG5, t)),
        (4, _find(_RUNG4_WORDS, t) + [m.group(0) for m in re.finditer(_RUNG4_NUMBER, t)]),
        (3, _find(_RUNG3, t)),
    ):
        if words:
            return ClaimReach(rung, tuple(dict.fromkeys(w.strip() for w in words))[:3])
    return ClaimReach(2, ())


def honest(text: str | None, supported_rung: int | None) -> bool:
    """True when the claim as written does not outrun the supported rung."""
    if not isinstance(supported_rung, int):
        return False
    return claimed_rung(text).rung <= supported_rung
