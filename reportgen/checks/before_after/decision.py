"""Adopt or roll back after tuning: the verdict, the claim rewritten, reconsider-when, the noise lines."""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.checks.before_after.coverage import coverage_words, on_questions
from reportgen.checks.before_after.general import drop_numbers, general_failure, unpaired
from reportgen.checks.before_after.rungs import harm_words, mcnemar_words, no_interval_words
from reportgen.checks.before_after.slices import failing_slices, slice_failure, slice_numbers
from reportgen.checks.fairness import (
    FROZEN_BEFORE_RUNS,
    MANIFEST_VERIFIED,
    PARTS_DISJOINT,
    PREDICTIONS_COVER_PARTS,
    RULE_BEFORE_RUNS,
    SAME_METRIC,
    SAME_ROWS,
)
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
from reportgen.words.i18n import _, n_
from reportgen.words.rungs import quoted, status_word


def not_tested() -> list[str]:
    """What one tuning run on one frozen set never tests (report.json ``not_tested``)."""
    return [
        _("questions outside the frozen set's categories"),
        _("retraining noise of the tuning itself (one tuning run)"),
    ]


def fact_leads(fact_id: str) -> tuple[str, str]:
    """The rung-2 fact that holds the comparison back, as the claim names it: (when it fails,
    when it could not be checked)."""
    if fact_id == FROZEN_BEFORE_RUNS:
        return (
            _("the split was frozen after the first run"),
            _("the split is not shown to have been frozen before tuning"),
        )
    if fact_id == RULE_BEFORE_RUNS:
        return (
            _("the decision rule does not predate the runs"),
            _("the decision rule is not shown to predate the runs"),
        )
    if fact_id == PARTS_DISJOINT:
        return (_("a question sits in two parts of the split"),) * 2
    if fact_id == PREDICTIONS_COVER_PARTS:
        return (_("coverage fails"), _("coverage is not checked"))
    if fact_id == SAME_ROWS["test"]:
        return (_("the two versions answered different frozen questions"),) * 2
    if fact_id == SAME_METRIC:
        return (_("accuracy is not recomputed for both versions"),) * 2
    return (_("{fact} fails", fact=fact_id), _("{fact} is not checked", fact=fact_id))


def _lead(fact: Evidence) -> str:
    """The failing (or unchecked) fact in words."""
    leads = fact_leads(fact.id)
    return leads[0] if fact.passed is False else leads[1]


def _bar(project: Project) -> float:
    """The gain the interval's lower end must exceed: the useful effect, else zero."""
    m = project.config.min_useful_effect
    return m if m is not None else 0.0


def _above_bar(project: Project, iv: Interval) -> str:
    """The interval that does not clear the bar: "the interval ... is not above zero"."""
    m = project.config.min_useful_effect
    if m is None:
        return _("the interval {ends} is not above zero", ends=iv.ends)
    return _(
        "the interval {ends} is not above the useful effect {effect}", ends=iv.ends, effect=given(m)
    )


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
        why = coverage_words(cov, "frozen")
        failed.append(
            n_(
                "the frozen-set accuracies are on the {both} of {n} question both versions "
                "answered: {why}",
                "the frozen-set accuracies are on the {both} of {n} questions both versions "
                "answered: {why}",
                cov.questions,
                both=count(cov.both),
                why=why,
            )
            if cov.both
            else _("the two versions answered no frozen question in common: {why}", why=why)
        )
    if iv is None:
        failed.append(
            no_interval_words(section)
            if section
            else _("no per-question predictions before and after to form an interval")
        )
    elif iv.below_zero:
        failed.append(harm_words(iv, required(section, "the frozen-set section")))
    elif not iv.low > _bar(project):
        ruled_out = ruled_out_words(rel)
        failed.append(_above_bar(project, iv) + (f": {ruled_out}" if ruled_out else ""))
    failed += [slice_failure(s) for s in failing_slices(slices)]
    if general is None:
        failed.append(
            _(
                "no general-abilities set (split {split}) to check forgetting",
                split=quoted(cfg.general_split),
            )
        )
    elif not general.held:
        failed.append(general_failure(general))
    if not failed:
        verdict, rec = Verdict.ADOPT, cfg.candidate
        g = drop_numbers(required(general, "the general set"))
        iv = required(iv, "the frozen-set interval")
        m = cfg.min_useful_effect
        fields = dict(gain=iv.signed(iv.gap), ends=iv.ends, drop=g["drop"], high=g["high"])
        reasons = [
            _(
                "the gain {gain} ({ends}) is above the useful effect {effect} and the general "
                "set held (drop {drop}, upper bound {high} within {allowed})",
                effect=given(m),
                allowed=g["allowed"],
                **fields,
            )
            if m is not None
            else _(
                "the gain {gain} ({ends}) is above zero and the general set held (drop {drop}, "
                "upper bound {high} within {allowed})",
                allowed=g["allowed"],
                **fields,
            )
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
        return _("The frozen set is not shown to be untouched ({missing})", missing=missing)
    return _(
        "The comparison is not shown to be fair: {lead} ({missing})",
        lead=_lead(fact),
        missing=missing,
    )


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
        if (s.worse or s in failing_slices(slices)) and quoted(s.slice) not in claim
    ]
    if not named:
        return claim
    return _(
        "{claim}; but {slices}.",
        claim=claim.removesuffix("."),
        slices="; ".join(slice_failure(s) for s in named),
    )


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
        return _("Nothing is established: there are no per-question results before and after.")
    if not section.questions:
        return _(
            "Nothing is established: the two versions answered no frozen question in common "
            "({why}).",
            why=coverage_words(section.coverage, "frozen"),
        )
    acc = cfg.metric.replace("_", " ")
    d = gap_decimals(section.difference, section.low, section.high)
    gap = with_sign(section.difference, d)
    change = (
        _(
            "{gap}, {confidence} interval {ends}",
            gap=gap,
            confidence=confidence(cfg.confidence),
            ends=interval(section.low, section.high, digits=d),
        )
        if section.low is not None and section.high is not None
        else _("{gap}, no interval", gap=gap)
    )
    counts = _(
        "{fixed} fixed, {broken} broken", fixed=count(section.fixed), broken=count(section.broken)
    )
    scores = _("from {before} to {after}", before=prob(section.before), after=prob(section.after))
    scores += on_questions(section.coverage)
    moved = f"{scores} ({change}; {counts})"
    meas = _("frozen-set {metric} went {moved}", metric=acc, moved=moved)
    bad = failing_slices(slices)
    if sup == 0:
        return _(
            "Nothing is established yet ({missing}); measured: {measured}.",
            missing=ladder[0].missing,
            measured=meas,
        )
    if sup == 1:
        return _("{unfair}; measured: {measured}.", unfair=_unfair(ladder, facts), measured=meas)
    if sup == 2:
        if section.high is not None and section.high < 0:
            return _(
                "Tuning made the model worse: frozen-set {metric} fell {scores} ({change}; "
                "{counts}; {mcnemar}).",
                metric=acc,
                scores=scores,
                change=change,
                counts=counts,
                mcnemar=mcnemar_words(section),
            )
        ruled_out = ruled_out_words(rel)
        return _("Tuning did not clearly change the model: {measured}", measured=meas) + (
            f"; {ruled_out}." if ruled_out else "."
        )
    if sup == 3:
        if bad:
            return _(
                "Tuning raised frozen-set {metric} {moved}, but {why}.",
                metric=acc,
                moved=moved,
                why=slice_failure(bad[0], "it"),
            )
        return _(
            "Tuning raised frozen-set {metric} {moved}, but a useful gain is not shown: {missing}.",
            metric=acc,
            moved=moved,
            missing=ladder[3].missing,
        )
    if sup == 4:
        return _(
            "Tuning raised frozen-set {metric} {moved}, a useful margin, but {missing}.",
            metric=acc,
            moved=moved,
            missing=ladder[4].missing,
        )
    g = drop_numbers(required(general, "the general set"))
    return _(
        "Tuning raised frozen-set {metric} {moved}, a useful margin, and the general set held: "
        "a drop of {drop} whose upper bound {high} is within the allowed {allowed}.",
        metric=acc,
        moved=moved,
        drop=g["drop"],
        high=g["high"],
        allowed=g["allowed"],
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
            _(
                "the interval's lower end exceeds {bar} (now {low})",
                bar=given(_bar(project)),
                low=iv.signed(iv.low),
            )
        )
    for s in failing_slices(slices):
        bar = given(-s.margin) if s.margin is not None else _("a fixed not_worse_margin")
        now = (
            _("now {low}: {moved}", **slice_numbers(s))
            if s.low is not None
            else n_(
                "now the two versions label {differ} of its {n} question differently",
                "now the two versions label {differ} of its {n} questions differently",
                s.rows,
                differ=count(s.labels_disagree),
            )
            if s.labels_disagree
            else n_("now {n} question, no interval", "now {n} questions, no interval", s.rows)
        )
        items.append(
            _(
                "slice {name} is shown no worse after tuning: its interval's worse end stays "
                "above {bar} ({now})",
                name=quoted(s.slice),
                bar=bar,
                now=now,
            )
        )
    if general is not None and not general.held and unpaired(general):
        items.append(
            _(
                "both versions answer the same general questions, so the drop can be measured "
                "(now {why})",
                why=coverage_words(required(general.coverage, "the general coverage"), "general"),
            )
        )
    elif general is not None and not general.held:
        g = drop_numbers(general)
        now = (
            _("now {drop}, interval {ends}", drop=g["drop"], ends=g["interval"])
            if g["interval"]
            else _("now {drop}, no interval", drop=g["drop"])
        )
        items.append(
            _(
                "the general set's drop is shown to be at most {allowed}: its interval's upper "
                "end within it ({now}), e.g. by tuning with replay of general examples",
                allowed=g["allowed"],
                now=now,
            )
        )
    if general is None:
        items.append(
            _(
                "a general-abilities set (split {split}) is scored before and after",
                split=quoted(cfg.general_split),
            )
        )
    if section and section.broken:
        top = next(iter(section.broken_by_category or {}), None)
        items.append(
            n_(
                "the {n} broken question is fixed or explained (most are {category})",
                "the {n} broken questions are fixed or explained (most are {category})",
                section.broken,
                category=quoted(top),
            )
            if section.category_sentence
            else n_(
                "the {n} broken question is fixed or explained",
                "the {n} broken questions are fixed or explained",
                section.broken,
            )
        )
    if not ladder[1].shown:
        fact = _failing_fact(ladder, facts)
        if fact is None or fact.id == MANIFEST_VERIFIED:
            items.append(
                _(
                    "the frozen set is shown untouched (now {status}: {missing})",
                    status=status_word(str(ladder[1].status)),
                    missing=ladder[1].missing,
                )
            )
        else:
            items.append(
                _(
                    "the comparison is shown fair (now {lead}: {missing})",
                    lead=_lead(fact),
                    missing=ladder[1].missing,
                )
            )
    return items + cfg.reconsider_when


def _seed_line(section: BeforeAfter | None) -> str:
    """No seed line for one tuning run; with repeated evaluations (epochs), where their sampling
    noise went: into each question's mean, so into the question interval."""
    if section is None or section.repeats is None:
        return _(
            "Seed spread (retraining): not applicable: one tuned model against its own earlier "
            "version; retraining noise of the tuning run is not measured."
        )
    reps = section.repeats
    return _(
        "Seed spread (repeated runs: sampling noise): each question's score is its mean over "
        "{before} epochs before and {after} after, so the sampling noise of repeated runs is "
        "inside the question interval below (questions as clusters); retraining noise of the "
        "tuning run is not measured.",
        before=count(reps.get("before", 1)),
        after=count(reps.get("after", 1)),
    )


def noise_section(
    project: Project, iv: Interval | None, section: BeforeAfter | None
) -> NoiseBeforeAfter:
    """report.json ``noise``: no seed line (one tuning run), the question (block) bootstrap line."""
    cfg = project.config
    head = block_head(cfg)
    block_line = (
        _(
            "{head} accuracy difference {gap}, {confidence} interval {ends} over {what} "
            "({resamples}); {mcnemar}.",
            head=head,
            gap=iv.signed(iv.gap),
            confidence=confidence(cfg.confidence),
            ends=iv.ends,
            what=iv.what,
            resamples=count_noun(cfg.resamples, "resample"),
            mcnemar=_("McNemar exact {p}", p=p_text(section.mcnemar_p))
            if section.mcnemar_p is not None
            else mcnemar_words(section, long=True),
        )
        if iv and section
        else _("{head} not computed.", head=head)
    )
    return NoiseBeforeAfter(
        seed=None,
        block=None,
        interval=iv,
        lines=(_seed_line(section), block_line),
        covers=(
            _("Retraining noise would need several tuning runs with different seeds."),
            _(
                "The bootstrap covers which questions happened to be in the frozen set, for the "
                "model as tuned."
            ),
        ),
        sign_disagreement=MISSING,
        budget=MISSING,
        budget_reason=MISSING,
        clipping=MISSING,
        cv=None,
    )
