"""Every check id each evaluation design can write into report.json ``checks[]``, collected
from the rung modules that declare and write them: what a grading rubric line may name.

The designs are a model against its baseline on a split ("split") or by cross-validation
("cv"), and a model against its own earlier version ("before-after").
"""

from __future__ import annotations

from reportgen.checks import fairness, ladder
from reportgen.checks.before_after import rungs as before_after
from reportgen.checks.before_after import slices as before_after_slices
from reportgen.checks.cv import rungs as cv
from reportgen.checks.ids import CheckId
from reportgen.checks.model_vs_baseline import correct
from reportgen.checks.model_vs_baseline import rungs as split
from reportgen.model import Report
from reportgen.model.enums import Kind


def _fair(facts: tuple[str, ...], rare: dict[str, str] | None = None) -> tuple[CheckId, ...]:
    """The rung-2 check of each fairness fact, marked rare where ``rare`` gives a reason."""
    return tuple(ladder.FAIR.member(f, rare=(rare or {}).get(f)) for f in facts)


#: each design's fairness facts (report.json ``fairness[].id``), in report order
FACTS = {
    "split": fairness.SPLIT_FACTS,
    "cv": cv.CV_FACTS,
    # same-features last: before-after lists it only when the run log records features
    "before-after": (*fairness.BEFORE_AFTER_FACTS, fairness.SAME_COLUMN["features"]),
}
_CV_VALIDATION = (
    "listed only when both models of a cross-validated project also score a validation part, "
    "which no shipped project does"
)

#: each design's check ids, in report.json order (a ``*`` family: one per slice or check file)
DESIGNS: dict[str, tuple[CheckId, ...]] = {
    "split": (
        *correct.RUNG1,
        ladder.LOGGED,
        *_fair(FACTS["split"]),
        split.SEED_RULE,
        split.TEST_INTERVAL,
        split.NOT_WORSE,
        split.USEFUL_EFFECT,
    ),
    "cv": (
        *correct.RUNG1[:2],
        correct.SENSITIVITY.seldom(
            "listed only when a cross-validated project's candidate has an input-sensitivity "
            "file, which no shipped project has"
        ),
        *correct.RUNG1[3:],
        ladder.LOGGED,
        *_fair(FACTS["cv"], {fairness.SAME_ROWS["validation"]: _CV_VALIDATION}),
        split.SEED_RULE,
        cv.CV_INTERVAL,
        split.NOT_WORSE.seldom(
            "listed only for a required slice of a cross-validated project's test part, "
            "which no shipped project has"
        ),
        split.USEFUL_EFFECT,
    ),
    "before-after": (
        before_after.HARNESS,
        ladder.LOGGED,
        *_fair(FACTS["before-after"]),
        before_after.INTERVAL_ABOVE_ZERO,
        before_after.BROKEN_QUESTIONS,
        before_after_slices.NOT_WORSE,
        before_after.GENERAL_SET_HELD,
    ),
}


def all_ids() -> tuple[str, ...]:
    """Every declared id and family of every design, each once, by rung (then as declared)."""
    first = {c.id: c.rung for checks in DESIGNS.values() for c in checks}
    return tuple(sorted(first, key=lambda i: first[i]))


#: the cv design's checks that are listed only when they measured something (a held-out
#: test part): a report without one never has them, so a rubric line naming them does not apply
CV_ONLY_WHEN_MEASURED = frozenset(ladder.FAIR.of(f) for f in cv.ONLY_WHEN_MEASURED)


def design_of(report: Report) -> str:
    """The design of a typed report: before-after by its kind, cv when ``noise.cv`` is set,
    split otherwise."""
    if report.project.kind == Kind.BEFORE_AFTER:
        return "before-after"
    return "cv" if report.noise.cv is not None else "split"


def declared(design: str, check_id: str) -> CheckId | None:
    """The declaration of the design's that ``check_id`` is, or is a member of, or None."""
    return next((c for c in DESIGNS[design] if c.matches(check_id)), None)
