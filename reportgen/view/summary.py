"""Page one: title block, claim, decision and the claim ladder."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.common import IntPair
from reportgen.model.enums import Kind, RungStatus, Task, Verdict
from reportgen.model.ladder import Rung
from reportgen.model.noise import SignDisagreement
from reportgen.model.results import ResultRow
from reportgen.names import RUNG_NAMES
from reportgen.view.appendix import measured, value_format
from reportgen.view.artefacts import ArtefactList, PathText, artefact_list, path_text
from reportgen.view.parts import (
    Status,
    check_label,
    cost_unit,
    ids,
    in_words,
    metric_name,
    names,
    rung_status,
    says_number,
)
from reportgen.view.results import metric_label
from reportgen.view.results import parts as result_parts
from reportgen.view.tasks import mean_over_networks
from reportgen.words import date_text, fixed, gap_decimals, interval
from reportgen.words.cells import DASH, cost, count, gap, gap_with_interval, metric, timestamp
from reportgen.words.i18n import _, current, n_, p_
from reportgen.words.rungs import rung_word, status_word

#: artefacts listed per rung on page one; the appendix lists them all
PAGE_ONE_ARTEFACTS = 2


def check_words(check_id: str, cv: bool = False) -> str:
    """The numbers behind a rung in words a reviewer reads at a glance; other checks by their
    label (view.parts.check_label: "not worse on shifted", "rung 1: initial loss"). ``cv``:
    a cross-validated report (the seed rule's gap is the cross-validation gap)."""
    if cv and check_id == "validation-gap-vs-seed-sd":
        return _("cross-validation gap in seed sd")
    words = {
        "validation-gap-vs-seed-sd": _("validation gap in seed sd"),
        "test-interval-excludes-zero": _("test interval's lower end"),
        "cv-interval-excludes-zero": _("corrected interval's lower end"),
        "useful-effect": _("interval's lower end"),
        "general-set-held": _("general-set drop"),
        "interval-above-zero": _("interval's lower end"),
    }
    if check_id.startswith("not-worse-on-"):
        # TRANSLATORS: a slice's interval end on the worse side, before its value and margin
        return _("worse end on {slice}", slice=check_id.removeprefix("not-worse-on-"))
    return words.get(check_id) or check_label(check_id, cv)


VERDICT_CLASS = {
    Verdict.ADOPT: "shown",
    Verdict.KEEP_BASELINE: "partly",
    Verdict.ROLL_BACK: "not-shown",
    Verdict.INCONCLUSIVE: "neutral",
}


@dataclass(frozen=True)
class LadderRow:
    """One rung of the ladder (partials/_ladder.html; decision-log.md lists every artefact)."""

    rung: int
    name: str
    status: Status
    #: every artefact the rung cites (decision-log.md); the page's full lists are the appendix's
    artefacts: list[PathText]
    #: the first few artefacts, grouped by folder, for page one; its ``more`` ("and 24 more")
    #: counts the rest, which the appendix lists (linked by `anchor`)
    artefacts_shown: ArtefactList
    #: the anchor of the rung's evidence in the appendix (where `artefacts_shown.more` links to)
    anchor: str
    missing: str
    #: ``missing`` as page one prints it: the primary interval's ends left to the claim and the
    #: reconsider-when line (page one says them at most twice)
    page_missing: str
    #: the numbers behind a rung that is not shown: each failed check's value and bar
    numbers: list[str]
    summary: str | None


@dataclass(frozen=True)
class Header:
    """partials/_title.html (and the page's <head>): title, byline, models, metric."""

    title: str
    author: str | None
    date: str
    version: str
    kind: str
    #: the models as the page names them (evreport.toml [models], else their ids)
    candidate: str
    baseline: str
    metric: str
    direction: str
    #: the page's language (<html lang>): "en", "uk"
    language: str = "en"


@dataclass(frozen=True)
class Reconsider:
    """One thing that would reopen the decision, and today's value when the report has one."""

    what: str
    #: "+0.88 sd, with 5 of mlp and 6 of gbm"; empty for a trigger given in evreport.toml
    now: str


@dataclass(frozen=True)
class ClaimView:
    """The claim half of partials/_claim.html: as written, as supported, reconsider when."""

    original: str
    rewritten: str
    supported: str
    #: report.json claim.reconsider_items, one item each, with today's value apart
    reconsider: list[Reconsider]


@dataclass(frozen=True)
class DecisionView:
    """The decision half of partials/_claim.html: verdict, recommended model, reasons."""

    verdict: str
    css: str
    recommend: str
    recommend_role: str
    reasons: list[str]
    #: the reasons page one prints: those the ladder below says already (a rung's missing)
    #: left out, the primary interval's ends left to the claim and the reconsider-when line
    page_reasons: list[str]
    alternatives: list[str]
    #: the decision in its units, when costs are known ("at the chosen thresholds ...")
    in_units: str | None
    #: validation and test disagree on which model is better, when no reason says so already
    sign_flip: str | None
    #: the two-level interval (seeds and blocks) holds zero while the primary one excludes it:
    #: the noise page says so, and page one says it too
    two_level: str | None = None
    #: a multi-class claim's companion figures (accuracy, macro F1) beside its metric: each
    #: model's mean over its networks, as Results at a glance prints them; with its label
    companions: str | None = None
    companions_label: str | None = None


def header_view(report: Report) -> Header:
    """The title block: the project's title, byline, models and metric."""
    p = report.project
    cand, base = names(report)
    return Header(
        title=p.title,
        author=p.author,
        date=date_text(timestamp(report.build.date)),
        version=report.tool.version or DASH,
        kind=_("before and after") if p.kind == Kind.BEFORE_AFTER else _("model against baseline"),
        candidate=cand,
        baseline=base,
        metric=metric_name(report),
        direction=_("higher is better") if p.higher_is_better else _("lower is better"),
        language=current(),
    )


#: "... (now +0.88 sd, with 5 of mlp and 6 of gbm)": today's value at the end of a reconsider
#: item, after the language's word for "now"
_NOW = r"^(?P<what>.+?) \({now} (?P<now>[^()]*(?:\([^()]*\)[^()]*)*)\)$"


def reconsider_item(text: str) -> Reconsider:
    """A reconsider-when item with its "(now ...)" (checks/ writes today's value there) apart."""
    # TRANSLATORS: the word that opens today's value in a reconsider-when item: "(now +0.88 sd)"
    now = re.escape(p_("reconsider item", "now"))
    m = re.match(_NOW.format(now=now), text)
    if m:
        return Reconsider(m.group("what"), m.group("now"))
    return Reconsider(text, "")


def claim_view(report: Report) -> ClaimView:
    """The claim as written, as the evidence supports it, and what would reopen it."""
    c = report.claim
    rung = c.supported_rung
    if rung <= 0:
        supported = _("The evidence supports no rung of the ladder: not even rung 1 (correct).")
    else:
        supported = _(
            "The evidence supports the claim up to rung {rung} ({name}); "
            "the rewritten claim says no more than that.",
            rung=count(rung),
            name=rung_word(RUNG_NAMES[rung - 1]),
        )
    return ClaimView(
        original=c.original or report.project.claim or DASH,
        rewritten=in_words(c.rewritten or DASH, report),
        supported=supported,
        reconsider=[reconsider_item(in_words(x, report)) for x in c.reconsider_items],
    )


def decision_view(report: Report) -> DecisionView:
    """The verdict in the models' names, the model recommended, the reasons and alternatives."""
    d = report.decision
    cand_id, base_id = ids(report)
    cand, base = names(report)
    verdict = d.verdict
    words = {
        Verdict.ADOPT: _("Adopt {model}", model=cand),
        Verdict.KEEP_BASELINE: _("Keep {model}", model=base),
        Verdict.ROLL_BACK: _("Roll back to {model}", model=base),
        Verdict.INCONCLUSIVE: _("Inconclusive"),
    }
    recommend_id = d.recommend or base_id
    role = (
        p_("role", "candidate")
        if recommend_id == cand_id
        else p_("role", "baseline")
        if recommend_id == base_id
        else p_("role", "model")
    )
    recommend = {cand_id: cand, base_id: base}.get(recommend_id, recommend_id)
    other = base if recommend_id == cand_id else cand
    if verdict == Verdict.ADOPT:
        alternatives = [
            _(
                "Keep {model}: the baseline stays if the evidence is judged insufficient.",
                model=base,
            )
        ]
    else:
        alternatives = [
            _(
                "Adopt {model}: not supported by this evidence; see the reconsider-when line "
                "for what would change that.",
                model=other,
            )
        ]
    reasons = list(d.reasons)
    shown = [in_words(r, report) for r in reasons]
    sign_flip, two_level = _sign_flip(report, reasons), _two_level_conflict(report)
    return DecisionView(
        verdict=words[verdict],
        css=VERDICT_CLASS[verdict],
        recommend=recommend,
        recommend_role=role,
        reasons=shown,
        page_reasons=[
            _ladder_said(unsaid(r, report), report) for r in _page_reasons(shown, report)
        ],
        alternatives=alternatives,
        in_units=_in_units(report),
        sign_flip=sign_flip,
        two_level=two_level,
        **_companions(report),
    )


def _companions(report: Report) -> dict[str, str | None]:
    """A multi-class claim's companions of its metric (accuracy, macro F1), each model's figure
    on the primary interval's part from report.json ``results`` (the mean over its networks,
    as Results at a glance prints it); nothing for other tasks."""
    none: dict[str, str | None] = {"companions": None, "companions_label": None}
    if report.project.task != Task.MULTICLASS or not report.results:
        return none
    iv = report.noise.interval
    part = {"cross-validation": "cv"}.get(iv.part or "", iv.part or "test") if iv else "test"
    cand_id, base_id = ids(report)
    cand, base = names(report)
    rows: dict[str, dict[str, ResultRow]] = {}
    for r in report.results:
        if r.part == part and r.metric != report.project.metric and r.mean is not None:
            rows.setdefault(r.metric, {})[r.model] = r
    both = [(m, by) for m, by in rows.items() if cand_id in by and base_id in by]
    if not both:
        return none
    figures = "; ".join(
        _(
            "{metric}: {candidate} {candidate_value}, {baseline} {baseline_value}",
            metric=metric_label(report, m),
            candidate=cand,
            candidate_value=metric(by[cand_id].mean),
            baseline=base,
            baseline_value=metric(by[base_id].mean),
        )
        for m, by in both
    )
    first = both[0][1]
    nets = IntPair(candidate=first[cand_id].networks, baseline=first[base_id].networks)
    label = p_("page one label", "On test") if part == "test" else result_parts().get(part, part)
    return {
        "companions": _(
            "{figures} ({networks}, as in Results at a glance).",
            figures=figures,
            networks=mean_over_networks(nets),
        ),
        "companions_label": label,
    }


def primary_interval_text(report: Report) -> str | None:
    """The gap's primary interval as every sentence prints it: "−0.0051 to +0.0116"."""
    iv = report.noise.interval
    if iv is None:
        return None
    return interval(iv.low, iv.high, digits=gap_decimals(iv.gap, iv.low, iv.high))


def unsaid(text: str, report: Report) -> str:
    """``text`` without the primary interval's ends (and what it is over), for page one: the
    claim and the reconsider-when line say them, and page one says each number at most twice
    ("the interval −0.0051 to +0.0116 is too wide" -> "the interval is too wide")."""
    said = primary_interval_text(report)
    iv = report.noise.interval
    if said is None or iv is None or said not in text:
        return text
    ends, what = re.escape(said), re.escape(iv.what)
    text = re.sub(rf" \({ends}\)", "", text)
    # "{ends} over {what}" in English, "{ends} ({what})" in Ukrainian
    return re.sub(rf" {ends}(?: over {what}| \({what}\))?", "", text)


def _ladder_said(text: str, report: Report) -> str:
    """``text`` without a parenthesis a shown rung's summary on the same page prints word for
    word ("the general set held (drop 0.0107, upper bound 0.0180 within 0.02)" in rung 5:
    the decision's reason keeps "the general set held")."""
    for r in report.ladder:
        if r.status != RungStatus.SHOWN or not r.summary:
            continue
        for said in re.findall(r" \([^()]+\)", in_words(r.summary, report)):
            text = text.replace(said, "")
    return text


def _page_reasons(reasons: list[str], report: Report) -> list[str]:
    """The reasons the ladder does not say already; all of them when it says every one."""
    left = [r for r in reasons if not _said_by_ladder(r, report)]
    return left or reasons


def _said_by_ladder(reason: str, report: Report) -> bool:
    """A decision reason that is a rung's "one thing missing" ("rung 3 (larger than noise) is
    not shown: ..."), which the ladder on the same page prints."""
    for r in report.ladder:
        if r.status != RungStatus.SHOWN and r.missing:
            # checks.ladder.rung_reason's sentence, in the report's language
            head = _(
                "rung {n} ({name}) is {status}: {missing}",
                n=r.rung,
                name=rung_word(r.name),
                status=status_word(r.status),
                missing="",
            )
            if reason == head + in_words(r.missing, report):
                return True
    return False


def _two_level_conflict(report: Report) -> str | None:
    """The primary interval lies wholly on one side of zero while the two-level interval, which
    resamples the seeds too, holds zero; None otherwise or without a seed level."""
    block = report.noise.block
    if block is None or block.low is None or block.high is None:
        return None
    two = block.two_level
    if two.low is None or two.high is None:
        return None
    if block.networks.candidate == 1 and block.networks.baseline == 1:
        return None  # one network per model: the two-level interval has no seed level
    excludes = block.excludes_zero
    if not excludes or two.low > 0 or two.high < 0:
        return None
    d = gap_decimals(block.gap, block.low, block.high)
    test, both = interval(block.low, block.high, digits=d), interval(two.low, two.high, digits=d)
    # epochs of one model (repeats = "samples") are not retrained networks
    if report.project.repeats == "samples":
        return _(
            "The test interval {test} excludes zero, but the two-level interval over repeated "
            "runs and blocks, {both}, includes it: with the sampling noise of repeated runs "
            "added to that of the blocks, zero is not ruled out.",
            test=test,
            both=both,
        )
    return _(
        "The test interval {test} excludes zero, but the two-level interval over seeds and "
        "blocks, {both}, includes it: with retraining noise added to the sampling noise, zero "
        "is not ruled out.",
        test=test,
        both=both,
    )


def _in_units(report: Report) -> str | None:
    """The test cost difference at the chosen thresholds, per period when a volume is set,
    in the costs' unit ([costs] unit) right after the amount."""
    rel = report.relevance
    if rel is None or rel.cost_per_case is None:
        return None
    cand = names(report)[0]
    unit = cost_unit(rel.unit)
    per_period = rel.cost_per_period
    if per_period is not None:
        amount, where = per_period, _period_words(rel.period, rel.cases_per_period)
    else:
        # TRANSLATORS: after an amount of cost: "saves 0.0060 EUR per case on test"
        amount, where = rel.cost_per_case.difference, _("per case")
    th = report.threshold
    cv = th is not None and th.candidate.cv is not None
    # TRANSLATORS: the start of the decision in units, before ", mlp saves ..."
    at = (
        _("At each model's cross-fitted threshold (each fold's chosen on the other folds)")
        if cv
        else _("At each run's chosen threshold")
    )
    # TRANSLATORS: where a cost was measured, at the end of "..., mlp saves 0.0060 EUR per case on test"
    # relevance.cost_per_case is each model's mean over its runs (threshold.*.mean_test_cost)
    on = _("out of fold, mean over repeats") if cv else _("on test, mean over each model's runs")
    if amount == 0:
        return _("{at}, {model} and the baseline cost the same {on}.", at=at, model=cand, on=on)
    # with costs 1 and 1 on an error metric the saving per case is the test gap itself: one
    # number, printed with the gap's digits (0.0060, never 0.0060 and 0.00600 on one page)
    block = report.noise.block
    digits = None
    if per_period is None and block is not None and block.gap is not None:
        if math.isclose(abs(amount), abs(block.gap), rel_tol=1e-9, abs_tol=1e-15):
            digits = gap_decimals(block.gap, block.low, block.high)
    amount_text = fixed(abs(amount), digits) if digits is not None else cost(abs(amount))
    fields = {"at": at, "model": cand, "amount": amount_text, "unit": unit}
    if amount > 0:
        return _(
            "{at}, {model} saves {amount} {unit} {where} {on}; a point estimate, without an "
            "interval.",
            where=where,
            on=on,
            **fields,
        )
    return _(
        "{at}, {model} costs {amount} {unit} more {where} {on}; a point estimate, without an "
        "interval.",
        where=where,
        on=on,
        **fields,
    )


def _period_words(period: str | None, cases: float | None) -> str:
    """ "per week of 2,000 cases", "per week", "per period": after an amount of cost."""
    if cases is None:
        # TRANSLATORS: after an amount of cost; {period} is the user's word ([costs] period)
        return _("per {period}", period=period) if period else _("per period")
    n = int(cases) if float(cases).is_integer() else cases
    if period:
        return n_(
            "per {period} of {cases} cases",
            "per {period} of {cases} cases",
            n if isinstance(n, int) else 2,
            period=period,
            cases=count(cases),
        )
    return n_(
        "per period of {cases} cases",
        "per period of {cases} cases",
        n if isinstance(n, int) else 2,
        cases=count(cases),
    )


def _sign_flip(report: Report, reasons: list[str]) -> str | None:
    """noise.sign_disagreement (validation and test gaps of opposite sign), in the view's
    numbers; None when a decision reason says it already (page one says it once)."""
    dis = report.noise.sign_disagreement
    if not isinstance(dis, SignDisagreement) or (dis.text and dis.text in reasons):
        return None
    val, test = dis.validation_gap, dis.test_gap
    block = report.noise.block
    low, high = (None, None) if block is None else (block.low, block.high)
    cand, base = names(report)
    better = {True: cand, False: base}
    return _(
        "Validation and test disagree: on validation {first} is better (gap {gap}), on test "
        "{second} (gap {test_gap}).",
        first=better[val > 0],
        gap=gap(val),
        second=better[test > 0],
        test_gap=gap_with_interval(test, low, high),
    )


def _page_one_artefacts(listed: list[str], links: str | None) -> ArtefactList:
    """The first PAGE_ONE_ARTEFACTS of a rung's artefacts, grouped, and "and 24 more"."""
    first = artefact_list(listed[:PAGE_ONE_ARTEFACTS], links)
    left = len(listed) - min(len(listed), PAGE_ONE_ARTEFACTS)
    return ArtefactList(first.groups, n_("and {n} more", "and {n} more", left) if left > 0 else "")


def _not_credited(r: Rung, lowest: Rung | None) -> str | None:
    """Why a shown rung earns no credit: the lowest unshown rung below it."""
    if r.status != RungStatus.SHOWN or r.credited or lowest is None:
        return None
    return _(
        "not credited: rung {rung} ({name}) below it is {status}, and a rung counts only when "
        "every rung below it is shown",
        rung=count(lowest.rung),
        name=rung_word(lowest.name),
        status=status_word(lowest.status),
    )


def _failed_numbers(report: Report) -> dict[int, list[tuple[str, str]]]:
    """Each rung's failed checks, by rung: (the value as printed, "label: value against its
    bar" in words)."""
    failed: dict[int, list[tuple[str, str]]] = {}
    for c in report.checks:
        if c.passed is False:
            cid = c.id or "check"
            fmt = value_format(report, cid)
            what = measured(c.value, c.bar, fmt, cid, c.passed)
            if what:
                label = check_words(cid, cv=report.noise.cv is not None)
                shown = fmt(c.value) if c.value is not None else ""
                failed.setdefault(c.rung, []).append((shown, f"{label}: {what}"))
    return failed


def _not_said(numbers: list[tuple[str, str]], *texts: str | None) -> list[str]:
    """The numbers of a rung whose value the row's own words do not print already (the
    missing text, the rung's summary): each number once per cell."""
    said = " ".join(t for t in texts if t)
    return [phrase for value, phrase in numbers if not says_number(said, value)]


def ladder_view(report: Report, links: str | None = None) -> list[LadderRow]:
    """The claim ladder: each rung's status, what is missing, its artefacts and numbers."""
    failed = _failed_numbers(report)
    lowest = next((r for r in report.ladder if r.status != RungStatus.SHOWN), None)
    rows = []
    for r in report.ladder:
        listed = list(r.artefacts)
        missing = in_words(_not_credited(r, lowest) or r.missing or DASH, report)
        page_missing = unsaid(missing, report)
        summary = in_words(r.summary, report) if r.summary else None
        numbers = failed.get(r.rung, []) if r.status != RungStatus.SHOWN else []
        rows.append(
            LadderRow(
                rung=r.rung,
                name=rung_word(r.name),
                status=rung_status(r.status, r.credited),
                artefacts=[path_text(a, links) for a in listed],
                artefacts_shown=_page_one_artefacts(listed, links),
                anchor=f"evidence-rung-{r.rung}",
                missing=missing,
                page_missing=page_missing,
                numbers=_not_said(numbers, page_missing, summary),
                summary=summary,
            )
        )
    return rows
