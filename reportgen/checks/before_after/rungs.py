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
            f"{failed[0].kind} check fails: {failed[0].detail}",
            "an evaluation-harness check fails",
        ), checks
    if harness and all(v.passed for _, v in harness) and comparisons and not bad:
        return rung(
            1,
            "shown",
            arts,
            None,
            f"{count_noun(len(harness), 'evaluation-harness check')} "
            + ("passes" if len(harness) == 1 else "pass")
            + f" and {count_noun(len(comparisons), 'logged value')} "
            + ("matches its predictions" if len(comparisons) == 1 else "match their predictions"),
        ), checks
    if not harness and not comparisons:
        return rung(
            1,
            "not shown",
            arts,
            "no evaluation-harness checks (e.g. answer parsing verified on a "
            "sample) in artefacts/checks/",
            "the harness is unchecked",
        ), checks
    unjudged = [(model, v) for model, v in harness if v.passed is None]
    missing = (
        f"logged value disagrees with its predictions at {bad[0].cite}"
        if bad
        else "no evaluation-harness check files in artefacts/checks/"
        if not harness
        else f"the {unjudged[0][1].kind} check of {unjudged[0][0]} has no verdict: "
        f"{unjudged[0][1].detail}"
        if unjudged
        else "no predictions to recompute the logged values from"
    )
    return rung(1, "partly", arts, missing, "the harness is partly checked"), checks


def no_interval_words(section: BeforeAfter | None) -> str:
    """Why the frozen-set difference has no interval: no predictions, or too little to resample."""
    if section is None:
        return "no per-question predictions before and after"
    return f"no interval on the difference ({section.interval_reason})"


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
        text=f"{confidence(project.config.confidence)} interval of the accuracy difference "
        f"{iv.ends}"
        if iv
        else no_interval_words(section),
    )
    if iv is None or section is None:
        return rung(3, "not shown", [], no_interval_words(section), "unmeasured"), [check]
    if iv.above_zero:
        return rung(
            3,
            "shown",
            arts,
            None,
            f"the difference {iv.signed(iv.gap)} has interval {iv.ends}, "
            f"above zero; {mcnemar_words(section)}",
        ), [check]
    if iv.below_zero:
        return rung(3, "not shown", arts, harm_words(iv, section), "tuning made it worse"), [check]
    return rung(
        3,
        "not shown",
        arts,
        f"the interval {iv.ends} includes zero",
        "within noise",
    ), [check]


def mcnemar_words(section: BeforeAfter, long: bool = False) -> str:
    """McNemar's exact test in words, "McNemar p = 0.037"; with repeated evaluations, why there
    is none: "no McNemar test (scores are means over 5 epochs)" (``long``: and what fixed and
    broken then are)."""
    if section.mcnemar_p is not None:
        return f"McNemar {p_text(section.mcnemar_p)}"
    n = max((section.repeats or {}).values(), default=1)
    if not long:
        return f"no McNemar test (scores are means over up to {n} epochs)"
    return (
        f"no McNemar test (each question's score is a mean over up to {n} epochs; fixed and "
        "broken are the questions whose mean crossed one half)"
    )


def harm_words(iv: Interval, section: BeforeAfter) -> str:
    """A difference whose interval lies below zero, with its numbers: tuning made it worse."""
    return (
        f"tuning made it worse: the difference {iv.signed(iv.gap)} has interval {iv.ends}, below "
        f"zero ({count(section.fixed)} fixed, {count(section.broken)} broken; "
        f"{mcnemar_words(section)})"
    )


#: rung 4's summary for the relevance findings whose own words say more than "no gain shown"
FINDING_SUMMARY = {
    "no-useful-gain": "a useful gain is ruled out",
    "equivalent": "practically equivalent",
}


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
                text=f"{count_noun(section.fixed, 'question')} fixed, "
                f"{count_noun(section.broken, 'question')} broken"
                + (f"; {section.category_sentence}" if section.category_sentence else ""),
            )
        )
    scored = section.artefacts if section else ()
    checks += [slice_check(s, scored) for s in slices or [] if s.required]
    bad = failing_slices(slices)
    n_required = sum(1 for s in slices or [] if s.required)
    arts = list(project.evidence.get("relevant", []))
    if iv is None:
        return rung(4, "not shown", arts, "no interval", "unmeasured"), checks
    if m is not None and iv.low > m and not bad:
        return rung(
            4,
            "shown",
            arts + list(section.artefacts) if section else arts,
            None,
            f"the interval's lower end {iv.signed(iv.low)} is above the useful effect {given(m)}"
            + (f"; {count_noun(n_required, 'required slice')} no worse" if n_required else ""),
        ), checks
    if iv.above_zero:
        return rung(
            4,
            "partly",
            arts,
            slice_failure(bad[0])
            if bad
            else f"the lower end {iv.signed(iv.low)} does not reach the useful effect {given(m)}"
            if m is not None
            else "no min_useful_effect fixed",
            "a required slice is not shown no worse"
            if bad
            else "positive, usefulness not established",
        ), checks
    if rel is not None and rel.finding in FINDING_SUMMARY:
        return rung(4, "not shown", arts, rel.finding_text, FINDING_SUMMARY[rel.finding]), checks
    return rung(4, "not shown", arts, "no gain shown", "no gain shown"), checks


def _general_text(project: Project, general: General) -> str:
    """The general-set check in words: before and after, the drop, its interval, the allowance."""
    if unpaired(general):
        return f"general set {general_scores(general)}: {general_failure(general)}"
    g = drop_numbers(general)
    iv = (
        f"{confidence(project.config.confidence)} interval {g['interval']}"
        if g["interval"]
        else "no interval"
    )
    return (
        f"general set {g['before']} -> {g['after']}, drop {g['drop']}, {iv} (allowed "
        f"{g['allowed']}): " + ("held" if general.held else general_failure(general))
    )


def general_rung(project: Project, general: General | None) -> RungResult:
    """Rung 5: the general-abilities set held (no forgetting beyond max_drop)."""
    arts = list(project.evidence.get("bounded", []))
    if general is None:
        return rung(
            5,
            "not shown",
            arts,
            "no general-abilities set: forgetting was never tested",
            "forgetting untested",
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
            "the general set did not hold"
            if general.status == "dropped"
            else "holding the general set is not shown",
        ), [check]
    return rung(
        5,
        "shown",
        arts,
        None,
        "the general set held (drop {drop}, upper bound {high} <= {allowed})".format(
            **drop_numbers(general)
        ),
    ), [check]
