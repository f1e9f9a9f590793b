"""Rungs 1, 3, 4 and 5 of one model against its own earlier version (rung 2: ladder.fair_rung)."""

from __future__ import annotations

from reportgen.checks.before_after.general import (
    drop_numbers,
    general_failure,
    general_scores,
    unpaired,
)
from reportgen.checks.before_after.slices import failing_slices, slice_check, slice_failure
from reportgen.checks.fairness import BEFORE_AFTER_FACTS
from reportgen.checks.ids import CheckId
from reportgen.checks.ladder import RungResult, logged_check, rung
from reportgen.checks.types import Check, Interval
from reportgen.model.before_after import BeforeAfter, General
from reportgen.model.data import Comparison
from reportgen.model.relevance import Relevance, Slice
from reportgen.project import Project
from reportgen.project.checkfiles import verdicts
from reportgen.words import confidence, count, count_noun, given, p_text
from reportgen.words.i18n import _, n_, p_

#: rung-2 facts that apply to one model against its own earlier version on a frozen question set
BA_FACTS = BEFORE_AFTER_FACTS
#: the check ids this module writes: one per evaluation-harness check and model (rung 1), the
#: interval above zero (rung 3), the broken questions (rung 4), the general set held (rung 5)
HARNESS = CheckId("rung1-*-*", 1)
INTERVAL_ABOVE_ZERO = CheckId("interval-above-zero", 3)
BROKEN_QUESTIONS = CheckId("broken-questions", 4)
GENERAL_SET_HELD = CheckId("general-set-held", 5)


def harness_rung(project: Project, comparisons: list[Comparison]) -> RungResult:
    """Rung 1: the evaluation harness's own checks and logged-versus-recomputed values."""
    harness = [
        (model, v)
        for model in dict.fromkeys(c.model for c in project.checks)
        for v in verdicts(project.checks, model).values()
    ]
    harness.sort(key=lambda mv: mv[1].paths[0])
    checks = [
        Check(HARNESS.of(v.kind, model), 1, v.passed, None, None, v.paths, v.detail)
        for model, v in harness
    ]
    logged, bad = logged_check(comparisons)
    checks.append(logged)
    arts = (
        sorted(c.path for c in project.checks)
        + [c.cite for c in comparisons]
        + project.evidence.get("correct", [])
    )
    failed = [v for _, v in harness if v.passed is False]
    if failed:
        return rung(
            1,
            "not shown",
            arts,
            _("{kind} check fails: {detail}", kind=failed[0].kind, detail=failed[0].detail),
            _("an evaluation-harness check fails"),
        ), checks
    if harness and all(v.passed for _, v in harness) and comparisons and not bad:
        return rung(
            1,
            "shown",
            arts,
            None,
            p_(
                "harness rung",
                "{checks} and {values}",
                checks=n_(
                    "{n} evaluation-harness check passes",
                    "{n} evaluation-harness checks pass",
                    len(harness),
                ),
                values=n_(
                    "{n} logged value matches its predictions",
                    "{n} logged values match their predictions",
                    len(comparisons),
                ),
            ),
        ), checks
    if not harness and not comparisons:
        return rung(
            1,
            "not shown",
            arts,
            _(
                "no evaluation-harness checks (e.g. answer parsing verified on a sample) in "
                "artefacts/checks/"
            ),
            _("the harness is unchecked"),
        ), checks
    unjudged = [(model, v) for model, v in harness if v.passed is None]
    missing = (
        _("logged value disagrees with its predictions at {cite}", cite=bad[0].cite)
        if bad
        else _("no evaluation-harness check files in artefacts/checks/")
        if not harness
        else _(
            "the {kind} check of {model} has no verdict: {detail}",
            kind=unjudged[0][1].kind,
            model=unjudged[0][0],
            detail=unjudged[0][1].detail,
        )
        if unjudged
        else _("no predictions to recompute the logged values from")
    )
    return rung(1, "partly", arts, missing, _("the harness is partly checked")), checks


def no_interval_words(section: BeforeAfter | None) -> str:
    """Why the frozen-set difference has no interval: no predictions, or too little to resample."""
    if section is None:
        return _("no per-question predictions before and after")
    return _("no interval on the difference ({reason})", reason=section.interval_reason)


def noise_rung(project: Project, section: BeforeAfter | None, iv: Interval | None) -> RungResult:
    """Rung 3: the interval of the accuracy difference over the frozen set lies above zero."""
    arts = list(section.artefacts) if section else []
    check = Check(
        id=INTERVAL_ABOVE_ZERO.id,
        rung=3,
        passed=iv.above_zero if iv else None,
        value=iv.low if iv else None,
        bar=0.0,
        artefacts=tuple(arts),
        text=_(
            "{confidence} interval of the accuracy difference {ends}",
            confidence=confidence(project.config.confidence),
            ends=iv.ends,
        )
        if iv
        else no_interval_words(section),
    )
    if iv is None or section is None:
        return rung(3, "not shown", [], no_interval_words(section), _("unmeasured")), [check]
    if iv.above_zero:
        return rung(
            3,
            "shown",
            arts,
            None,
            _(
                "the difference {gap} has interval {ends}, above zero; {mcnemar}",
                gap=iv.signed(iv.gap),
                ends=iv.ends,
                mcnemar=mcnemar_words(section),
            ),
        ), [check]
    if iv.below_zero:
        return rung(3, "not shown", arts, harm_words(iv, section), _("tuning made it worse")), [
            check
        ]
    return rung(
        3,
        "not shown",
        arts,
        _("the interval {ends} includes zero", ends=iv.ends),
        _("within noise"),
    ), [check]


def mcnemar_words(section: BeforeAfter, long: bool = False) -> str:
    """McNemar's exact test in words, "McNemar p = 0.037"; with repeated evaluations, why there
    is none: "no McNemar test (scores are means over 5 epochs)" (``long``: and what fixed and
    broken then are)."""
    if section.mcnemar_p is not None:
        return _("McNemar {p}", p=p_text(section.mcnemar_p))
    n = max((section.repeats or {}).values(), default=1)
    if not long:
        return _("no McNemar test (scores are means over up to {n} epochs)", n=n)
    return _(
        "no McNemar test (each question's score is a mean over up to {n} epochs; fixed and "
        "broken are the questions whose mean crossed one half)",
        n=n,
    )


def harm_words(iv: Interval, section: BeforeAfter) -> str:
    """A difference whose interval lies below zero, with its numbers: tuning made it worse."""
    return _(
        "tuning made it worse: the difference {gap} has interval {ends}, below zero ({counts}; "
        "{mcnemar})",
        gap=iv.signed(iv.gap),
        ends=iv.ends,
        counts=_(
            "{fixed} fixed, {broken} broken",
            fixed=count(section.fixed),
            broken=count(section.broken),
        ),
        mcnemar=mcnemar_words(section),
    )


#: the relevance findings whose own words say more than "no gain shown" (``finding_summary``)
FINDING_SUMMARY = ("no-useful-gain", "equivalent")


def finding_summary(finding: str) -> str:
    """Rung 4's summary for a relevance finding of FINDING_SUMMARY."""
    if finding == "no-useful-gain":
        return _("a useful gain is ruled out")
    return _("practically equivalent")


def relevant_rung(
    project: Project,
    section: BeforeAfter | None,
    iv: Interval | None,
    slices: list[Slice] | None,
    rel: Relevance | None = None,
) -> RungResult:
    """Rung 4: the interval's lower end above the useful effect and every ``not_worse_on`` slice
    shown no worse (section 7's rule); the broken questions beside it. ``rel``: report.json
    ``relevance``, whose finding words an interval that rules a useful gain out or is a tie."""
    m = project.config.min_useful_effect
    checks = []
    if section:
        checks.append(
            Check(
                id=BROKEN_QUESTIONS.id,
                rung=4,
                passed=None,
                value=section.broken,
                bar=None,
                artefacts=section.artefacts,
                text=_(
                    "{fixed} fixed, {broken} broken",
                    fixed=count_noun(section.fixed, "question"),
                    broken=count_noun(section.broken, "question"),
                )
                + (f"; {section.category_sentence}" if section.category_sentence else ""),
            )
        )
    scored = section.artefacts if section else ()
    checks += [slice_check(s, scored) for s in slices or [] if s.required]
    bad = failing_slices(slices)
    n_required = sum(1 for s in slices or [] if s.required)
    arts = list(project.evidence.get("relevant", []))
    if iv is None:
        return rung(4, "not shown", arts, _("no interval"), _("unmeasured")), checks
    if m is not None and iv.low > m and not bad:
        return rung(
            4,
            "shown",
            arts + list(section.artefacts) if section else arts,
            None,
            n_(
                "the interval's lower end {low} is above the useful effect {effect}; {n} "
                "required slice no worse",
                "the interval's lower end {low} is above the useful effect {effect}; {n} "
                "required slices no worse",
                n_required,
                low=iv.signed(iv.low),
                effect=given(m),
            )
            if n_required
            else _(
                "the interval's lower end {low} is above the useful effect {effect}",
                low=iv.signed(iv.low),
                effect=given(m),
            ),
        ), checks
    if iv.above_zero:
        return rung(
            4,
            "partly",
            arts,
            slice_failure(bad[0])
            if bad
            else _(
                "the lower end {low} does not reach the useful effect {effect}",
                low=iv.signed(iv.low),
                effect=given(m),
            )
            if m is not None
            else _("no min_useful_effect fixed"),
            _("a required slice is not shown no worse")
            if bad
            else _("positive, usefulness not established"),
        ), checks
    if rel is not None and rel.finding in FINDING_SUMMARY:
        return rung(
            4, "not shown", arts, rel.finding_text, finding_summary(str(rel.finding))
        ), checks
    return rung(4, "not shown", arts, _("no gain shown"), _("no gain shown")), checks


def _general_text(project: Project, general: General) -> str:
    """The general-set check in words: before and after, the drop, its interval, the allowance."""
    if unpaired(general):
        return _(
            "general set {scores}: {why}",
            scores=general_scores(general),
            why=general_failure(general),
        )
    g = drop_numbers(general)
    iv = (
        _(
            "{confidence} interval {ends}",
            confidence=confidence(project.config.confidence),
            ends=g["interval"],
        )
        if g["interval"]
        else _("no interval")
    )
    return _(
        "general set {before} -> {after}, drop {drop}, {interval} (allowed {allowed}): {outcome}",
        before=g["before"],
        after=g["after"],
        drop=g["drop"],
        interval=iv,
        allowed=g["allowed"],
        outcome=p_("general set", "held") if general.held else general_failure(general),
    )


def general_rung(project: Project, general: General | None) -> RungResult:
    """Rung 5: the general-abilities set held (no forgetting beyond max_drop)."""
    arts = list(project.evidence.get("bounded", []))
    if general is None:
        return rung(
            5,
            "not shown",
            arts,
            _("no general-abilities set: forgetting was never tested"),
            _("forgetting untested"),
        ), []
    check = Check(
        id=GENERAL_SET_HELD.id,
        rung=5,
        passed=general.held,
        value=general.drop,
        bar=general.max_drop,
        artefacts=general.artefacts,
        text=_general_text(project, general),
    )
    arts += general.artefacts
    if not general.held:
        return rung(
            5,
            "not shown",
            arts,
            general_failure(general),
            _("the general set did not hold")
            if general.status == "dropped"
            else _("holding the general set is not shown"),
        ), [check]
    return rung(
        5,
        "shown",
        arts,
        None,
        _(
            "the general set held (drop {drop}, upper bound {high} within {allowed})",
            **drop_numbers(general),
        ),
    ), [check]
