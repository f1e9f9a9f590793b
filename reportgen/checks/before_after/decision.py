"""Adopt or roll back after tuning: the verdict, the claim rewritten, reconsider-when, the noise lines."""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.checks.before_after.coverage import coverage_words, on_questions
from reportgen.checks.before_after.general import drop_numbers, general_failure, unpaired
from reportgen.checks.before_after.rungs import harm_words, mcnemar_words, no_interval_words
from reportgen.checks.before_after.slices import failing_slices, slice_failure, slice_numbers
from reportgen.checks.fairness import MANIFEST_VERIFIED
from reportgen.checks.noise_lines import block_head
from reportgen.checks.present import required
from reportgen.checks.relevance import ruled_out_words
from reportgen.checks.types import Evidence, Interval, Rung
from reportgen.model.base import MISSING
from reportgen.model.before_after import BeforeAfter, General
from reportgen.model.enums import Verdict
from reportgen.model.ladder import Decision
from reportgen.model.noise import NoiseBeforeAfter
from reportgen.model.relevance import Relevance, Slice
from reportgen.project import Project
from reportgen.words import (
    confidence,
    count,
    count_noun,
    gap_decimals,
    given,
    interval,
    p_text,
    prob,
    with_sign,
)

#: what one tuning run on one frozen set never tests
NOT_TESTED = (
    "questions outside the frozen set's categories",
    "retraining noise of the tuning itself (one tuning run)",
)

#: the rung-2 fact that holds the comparison back, as the claim names it: (when it fails, when it
#: could not be checked)
FACT_LEADS = {
    "frozen-before-runs": (
        "the split was frozen after the first run",
        "the split is not shown to have been frozen before tuning",
    ),
    "rule-before-runs": (
        "the decision rule does not predate the runs",
        "the decision rule is not shown to predate the runs",
    ),
    "parts-disjoint": ("a question sits in two parts of the split",) * 2,
    "predictions-cover-parts": ("coverage fails", "coverage is not checked"),
    "same-rows-test": ("the two versions answered different frozen questions",) * 2,
    "same-metric": ("accuracy is not recomputed for both versions",) * 2,
}


def _lead(fact: Evidence) -> str:
    """The failing (or unchecked) fact in words."""
    leads = FACT_LEADS.get(fact.id, (f"{fact.id} fails", f"{fact.id} is not checked"))
    return leads[0] if fact.passed is False else leads[1]


def _bar(project: Project) -> float:
    """The gain the interval's lower end must exceed: the useful effect, else zero."""
    m = project.config.min_useful_effect
    return m if m is not None else 0.0


def _bar_words(project: Project) -> str:
    m = project.config.min_useful_effect
    return f"the useful effect {given(m)}" if m is not None else "zero"


def _failing_fact(ladder: list[Rung], facts: Sequence[Evidence]) -> Evidence | None:
    """The fairness fact rung 2 names as missing (the first that fails), if any."""
    return next((f for f in facts if f.text == ladder[1].missing), None)


def decide(
    project: Project,
    ladder: list[Rung],
    iv: Interval | None,
    section: BeforeAfter | None,
    general: General | None,
    slices: list[Slice] | None = None,
    rel: Relevance | None = None,
) -> Decision:
    """Adopt only when correct and fair are shown, the gain clears the bar, every required slice is
    shown no worse and the general set held; a difference below zero is said to be a harm."""
    cfg = project.config
    failed = [r.reason for r in ladder[:2] if not r.shown]
    cov = section.coverage if section else None
    if cov is not None and not cov.complete:
        failed.append(
            (
                f"the frozen-set accuracies are on the {count(cov.both)} of "
                f"{count_noun(cov.questions, 'question')} both versions answered: "
                if cov.both
                else "the two versions answered no frozen question in common: "
            )
            + coverage_words(cov, "frozen")
        )
    if iv is None:
        failed.append(
            no_interval_words(section)
            if section
            else "no per-question predictions before and after to form an interval"
        )
    elif iv.below_zero:
        failed.append(harm_words(iv, required(section, "the frozen-set section")))
    elif not iv.low > _bar(project):
        ruled_out = ruled_out_words(rel)
        failed.append(
            f"the interval {iv.ends} is not above "
            + _bar_words(project)
            + (f": {ruled_out}" if ruled_out else "")
        )
    failed += [slice_failure(s) for s in failing_slices(slices)]
    if general is None:
        failed.append(f"no general-abilities set (split {cfg.general_split!r}) to check forgetting")
    elif not general.held:
        failed.append(general_failure(general))
    if not failed:
        verdict, rec = Verdict.ADOPT, cfg.candidate
        g = drop_numbers(required(general, "the general set"))
        iv = required(iv, "the frozen-set interval")
        reasons = [
            f"the gain {iv.signed(iv.gap)} ({iv.ends}) is above "
            + _bar_words(project)
            + f" and the general set held (drop {g['drop']}, upper bound {g['high']} within "
            f"{g['allowed']})"
        ]
    else:
        verdict, rec, reasons = Verdict.ROLL_BACK, cfg.baseline, failed
    if section and section.category_sentence:
        reasons.append(section.category_sentence)
    return Decision(verdict, rec, tuple(reasons))


def _unfair(ladder: list[Rung], facts: Sequence[Evidence]) -> str:
    """The claim's opening when rung 2 is not shown, naming the fact that fails."""
    fact = _failing_fact(ladder, facts)
    missing = ladder[1].missing
    if fact is None or fact.id == MANIFEST_VERIFIED:
        return f"The frozen set is not shown to be untouched ({missing})"
    return f"The comparison is not shown to be fair: {_lead(fact)} ({missing})"


def rewrite_claim(
    project: Project,
    ladder: list[Rung],
    sup: int,
    section: BeforeAfter | None,
    general: General | None,
    slices: list[Slice] | None = None,
    facts: Sequence[Evidence] = (),
    rel: Relevance | None = None,
) -> str:
    """One sentence with numbers, never above the supported rung. Every slice that holds the
    decision back (a required slice not shown no worse) or that tuning made worse is named, in
    every branch that speaks of the change."""
    claim = _claim(project, ladder, sup, section, general, slices, facts, rel)
    if sup < 2:
        return claim
    named = [
        s
        for s in slices or []
        if (s.worse or s in failing_slices(slices)) and repr(s.slice) not in claim
    ]
    if not named:
        return claim
    return claim.removesuffix(".") + "; but " + "; ".join(slice_failure(s) for s in named) + "."


def _claim(
    project: Project,
    ladder: list[Rung],
    sup: int,
    section: BeforeAfter | None,
    general: General | None,
    slices: list[Slice] | None,
    facts: Sequence[Evidence],
    rel: Relevance | None,
) -> str:
    """The rewritten claim before the slices it has not named yet are added."""
    cfg = project.config
    if section is None:
        return "Nothing is established: there are no per-question results before and after."
    if not section.questions:
        return (
            "Nothing is established: the two versions answered no frozen question in common ("
            + coverage_words(section.coverage, "frozen")
            + ")."
        )
    acc = cfg.metric.replace("_", " ")
    d = gap_decimals(section.difference, section.low, section.high)
    change = (
        f"{with_sign(section.difference, d)}, {confidence(cfg.confidence)} interval "
        f"{interval(section.low, section.high, digits=d)}"
        if section.low is not None and section.high is not None
        else f"{with_sign(section.difference, d)}, no interval"
    )
    counts = f"{count(section.fixed)} fixed, {count(section.broken)} broken"
    scores = f"from {prob(section.before)} to {prob(section.after)}"
    scores += on_questions(section.coverage)
    moved = f"{scores} ({change}; {counts})"
    meas = f"frozen-set {acc} went {moved}"
    bad = failing_slices(slices)
    if sup == 0:
        return f"Nothing is established yet ({ladder[0].missing}); measured: {meas}."
    if sup == 1:
        return f"{_unfair(ladder, facts)}; measured: {meas}."
    if sup == 2:
        if section.high is not None and section.high < 0:
            return (
                f"Tuning made the model worse: frozen-set {acc} fell {scores} ({change}; {counts}; "
                f"{mcnemar_words(section)})."
            )
        ruled_out = ruled_out_words(rel)
        return f"Tuning did not clearly change the model: {meas}" + (
            f"; {ruled_out}." if ruled_out else "."
        )
    if sup == 3:
        if bad:
            return f"Tuning raised frozen-set {acc} {moved}, but {slice_failure(bad[0], 'it')}."
        return f"Tuning raised frozen-set {acc} {moved}, but a useful gain is not shown: {ladder[3].missing}."
    if sup == 4:
        return f"Tuning raised frozen-set {acc} {moved}, a useful margin, but {ladder[4].missing}."
    g = drop_numbers(required(general, "the general set"))
    return (
        f"Tuning raised frozen-set {acc} {moved}, a useful margin, and the general set held: a drop "
        f"of {g['drop']} whose upper bound {g['high']} is within the allowed {g['allowed']}."
    )


def reconsider(
    project: Project,
    ladder: list[Rung],
    iv: Interval | None,
    section: BeforeAfter | None,
    general: General | None,
    slices: list[Slice] | None = None,
    facts: Sequence[Evidence] = (),
) -> list[str]:
    """Concrete evidence that would reopen the decision, with today's values, plus [reconsider] when."""
    cfg = project.config
    items = []
    if iv is not None and not iv.low > _bar(project):
        items.append(
            f"the interval's lower end exceeds {given(_bar(project))} (now {iv.signed(iv.low)})"
        )
    for s in failing_slices(slices):
        bar = given(-s.margin) if s.margin is not None else "a fixed not_worse_margin"
        now = (
            "now {low}: {moved}".format(**slice_numbers(s))
            if s.low is not None
            else f"now the two versions label {count(s.labels_disagree)} of its "
            f"{count_noun(s.rows, 'question')} differently"
            if s.labels_disagree
            else f"now {count_noun(s.rows, 'question')}, no interval"
        )
        items.append(
            f"slice {s.slice!r} is shown no worse after tuning: its interval's worse end stays "
            f"above {bar} ({now})"
        )
    if general is not None and not general.held and unpaired(general):
        items.append(
            "both versions answer the same general questions, so the drop can be measured (now "
            + coverage_words(required(general.coverage, "the general coverage"), "general")
            + ")"
        )
    elif general is not None and not general.held:
        g = drop_numbers(general)
        now = (
            f"now {g['drop']}, interval {g['interval']}"
            if g["interval"]
            else f"now {g['drop']}, no interval"
        )
        items.append(
            f"the general set's drop is shown to be at most {g['allowed']}: its interval's "
            f"upper end within it ({now}), e.g. by tuning with replay of general examples"
        )
    if general is None:
        items.append(
            f"a general-abilities set (split {cfg.general_split!r}) is scored before and after"
        )
    if section and section.broken:
        top = next(iter(section.broken_by_category or {}), None)
        items.append(
            f"the {count_noun(section.broken, 'broken question')} "
            + ("is fixed or explained" if section.broken == 1 else "are fixed or explained")
            + (f" (most are {top!r})" if section.category_sentence else "")
        )
    if not ladder[1].shown:
        fact = _failing_fact(ladder, facts)
        if fact is None or fact.id == MANIFEST_VERIFIED:
            items.append(
                f"the frozen set is shown untouched (now {ladder[1].status}: {ladder[1].missing})"
            )
        else:
            items.append(f"the comparison is shown fair (now {_lead(fact)}: {ladder[1].missing})")
    return items + cfg.reconsider_when


def _seed_line(section: BeforeAfter | None) -> str:
    """No seed line for one tuning run; with repeated evaluations (epochs), where their sampling
    noise went: into each question's mean, so into the question interval."""
    if section is None or section.repeats is None:
        return (
            "Seed spread (retraining): not applicable: one tuned model against its own earlier "
            "version; retraining noise of the tuning run is not measured."
        )
    reps = section.repeats
    return (
        f"Seed spread (repeated runs: sampling noise): each question's score is its mean over "
        f"{count(reps.get('before', 1))} epochs before and {count(reps.get('after', 1))} after, "
        "so the sampling noise of repeated runs is inside the question interval below "
        "(questions as clusters); retraining noise of the tuning run is not measured."
    )


def noise_section(
    project: Project, iv: Interval | None, section: BeforeAfter | None
) -> NoiseBeforeAfter:
    """report.json ``noise``: no seed line (one tuning run), the question (block) bootstrap line."""
    cfg = project.config
    head = block_head(cfg)
    block_line = (
        f"{head} accuracy difference "
        f"{iv.signed(iv.gap)}, {confidence(cfg.confidence)} interval {iv.ends} over "
        f"{iv.what} ({count_noun(cfg.resamples, 'resample')}); "
        + (
            f"McNemar exact {p_text(section.mcnemar_p)}."
            if section.mcnemar_p is not None
            else f"{mcnemar_words(section, long=True)}."
        )
        if iv and section
        else f"{head} not computed."
    )
    return NoiseBeforeAfter(
        seed=None,
        block=None,
        interval=iv,
        lines=(_seed_line(section), block_line),
        covers=(
            "Retraining noise would need several tuning runs with different seeds.",
            "The bootstrap covers which questions happened to be in the frozen set, for the model "
            "as tuned.",
        ),
        sign_disagreement=MISSING,
        budget=MISSING,
        budget_reason=MISSING,
        clipping=MISSING,
        cv=None,
    )
