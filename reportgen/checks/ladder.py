"""The claim ladder's shared machinery, the same in every mode: a rung, the logged-value check
of rung 1, rung 2 (fair) from the fairness facts, and the supported rung.

Each mode (model_vs_baseline/, before_after/) builds its own rungs from its evidence with
these; a rung function returns its rung and its checks, and never appends to a list it was given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from reportgen.checks.fairness import fair_status
from reportgen.checks.ids import CheckId
from reportgen.checks.recompute import REL_TOL, logged_words
from reportgen.checks.types import Check, Evidence, FactCheck, Rung
from reportgen.model.data import Comparison
from reportgen.model.enums import RungStatus
from reportgen.names import RUNG_NAMES
from reportgen.project import Project
from reportgen.words import count, full, power_of_ten
from reportgen.words.i18n import _, n_
from reportgen.words.rungs import rung_word, status_word

#: what a rung function returns: the rung and its checks, in report.json order
RungResult = tuple[Rung, list[Check]]
#: the check ids this module writes: logged values against recomputed ones (rung 1), and one
#: check per fairness fact (rung 2; each mode names its facts)
LOGGED = CheckId("logged-equals-recomputed", 1)
FAIR = CheckId("fair-*", 2)


def rung(n: int, status: str, artefacts: list[str], missing: str | None, summary: str) -> Rung:
    """Rung ``n`` with its artefacts once each, in order; nothing is missing from a shown rung."""
    return Rung(
        rung=n,
        name=RUNG_NAMES[n - 1],
        status=RungStatus(status),
        artefacts=tuple(dict.fromkeys(artefacts)),
        missing=None if status == RungStatus.SHOWN else missing,
        summary=summary,
    )


def rung_reason(r: Rung) -> str:
    """Why the rung holds the decision back, as a decision reason: "rung 3 (larger than noise)
    is not shown: ..." (Rung.reason's sentence, in the build's language)."""
    return _(
        "rung {n} ({name}) is {status}: {missing}",
        n=r.rung,
        name=rung_word(r.name),
        status=status_word(r.status),
        missing=r.missing,
    )


def climb(*results: RungResult) -> tuple[list[Rung], list[Check]]:
    """The ladder and every check, rung by rung, from the rung functions' results; each rung
    credited only when it and every rung below it are shown."""
    return credit([r for r, _ in results]), [c for _, checks in results for c in checks]


def credit(ladder: list[Rung]) -> list[Rung]:
    """The ladder with ``credited`` set: shown, and no unshown rung below it."""
    out, below_ok = [], True
    for r in ladder:
        below_ok = below_ok and r.shown
        out.append(replace(r, credited=below_ok))
    return out


def supported(ladder: list[Rung]) -> int:
    """The highest rung shown with every rung below it shown (0: not even rung 1)."""
    n = 0
    for r in ladder:
        if not r.shown:
            break
        n += 1
    return n


def logged_check(comparisons: Sequence[Comparison]) -> tuple[Check, list[Comparison]]:
    """The logged-equals-recomputed check (rung 1) and the comparisons that disagree."""
    every = list(comparisons)
    bad = [c for c in every if not c.agree]
    text = (
        n_(
            "{agree} of {n} logged value agrees with the values recomputed from predictions "
            "(within {tol} relative)",
            "{agree} of {n} logged values agree with the values recomputed from predictions "
            "(within {tol} relative)",
            len(every),
            agree=count(len(every) - len(bad)),
            tol=power_of_ten(REL_TOL, 1),
        )
        + (
            _(
                "; e.g. {cite}: logged {logged}, recomputed {recomputed}",
                cite=bad[0].cite,
                logged=logged_words(bad[0]),
                recomputed=full(bad[0].recomputed),
            )
            if bad
            else ""
        )
        if every
        else _("no predictions to recompute the logged values from")
    )
    check = Check(
        id=LOGGED.id,
        rung=1,
        passed=(not bad) if every else None,
        value=len(bad),
        bar=0,
        artefacts=tuple(c.cite for c in (bad or every)),
        text=text,
    )
    return check, bad


def fair_rung(project: Project, facts: list[Evidence]) -> RungResult:
    """Rung 2 from the fairness facts that apply to the mode, one check per fact."""
    status, missing = fair_status(facts)
    arts = [a for f in facts for a in f.artefacts] + project.evidence.get("fair", [])
    checks: list[Check] = [
        FactCheck(FAIR.of(f.id), 2, f.passed, None, None, f.artefacts, f.text) for f in facts
    ]
    n_ok = sum(1 for f in facts if f.passed)
    shown = _("{ok} of {n} fairness facts shown", ok=count(n_ok), n=count(len(facts)))
    return rung(2, status, arts, missing, shown), checks
