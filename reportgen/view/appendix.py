"""Fairness facts, and the appendix: evidence by rung, logged against recomputed, warnings,
provenance with every input file's hash."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from reportgen.model import Report
from reportgen.model.data import Comparison
from reportgen.model.ladder import Check, Evidence
from reportgen.view.artefacts import ArtefactList, PathText, artefact_list, path_text
from reportgen.view.parts import (
    Row,
    Status,
    check_label,
    fact_status,
    in_words,
    outcome,
    part_word,
    says_number,
)
from reportgen.view.slices import finding_word
from reportgen.words import count_noun, date_text, file_size, gap_decimals
from reportgen.words.cells import (
    DASH,
    beside_logged,
    change,
    confidence,
    count,
    full,
    given,
    quantity,
    ratio,
    timestamp,
    timestamps_in,
    with_sign,
)
from reportgen.words.i18n import _, local_number, n_, p_
from reportgen.words.rungs import rung_word


@dataclass(frozen=True)
class ComparisonRow:
    """A logged metric value against the one recomputed from predictions (rung 1)."""

    model: str
    seed: str
    split: str
    logged: str
    recomputed: str
    agree: Status
    #: the run log row ("runs.csv:14"), linked to runs.csv on screen
    cite: PathText


@dataclass(frozen=True)
class Fact:
    """A pass/fail fact with its evidence (fairness in the body, checks in the appendix)."""

    label: str
    text: str
    status: Status
    #: the artefacts it rests on, grouped: capped in the body, complete in the appendix
    artefacts: ArtefactList
    #: the measured value against its bar ("+0.88, bar 2"); empty when the check has none
    measured: str = ""
    #: what the PDF's appendix prints in place of ``text`` when the body prints that sentence
    #: word for word (the relevance finding); empty: ``text``
    print_text: str = ""


@dataclass(frozen=True)
class FactEvidence:
    """A fairness fact in the appendix: its artefacts in full (result and finding are in
    the body's fairness table, said once)."""

    label: str
    artefacts: ArtefactList


@dataclass(frozen=True)
class RungEvidence:
    """The appendix's evidence for one rung: its checks with every artefact they cite."""

    rung: int
    name: str
    #: the id page one's ladder links to
    anchor: str
    checks: list[Fact]
    #: rung 2: each fairness fact's artefacts (its result and finding are the body's)
    facts: list[FactEvidence]
    #: artefacts the rung cites beyond its checks' (evreport.toml [evidence], rung 5's files)
    rest: ArtefactList | None


@dataclass(frozen=True)
class FileRow:
    """One input file in the HTML's provenance table: path, SHA-256 (in 16-character groups
    that break cleanly), size."""

    path: PathText
    sha256: str
    sha256_groups: list[str]
    size: str


def measured(
    value: float | int | None,
    bar: float | int | None,
    fmt: Callable[[float | int | None], str] = quantity,
    check_id: str = "",
    passed: bool | None = None,
) -> str:
    """A check's value against its bar, as one short phrase in the reader's words ("−0.0051,
    not above 0", "+0.88 seed sd; the rule needs more than 2"); empty when it has no value."""
    if value is None:
        # the check's text says it was not measured, and why
        return ""
    if check_id == "logged-equals-recomputed":
        # its text says it whole ("20 of 22 logged values agree ..."); a count against 0 adds nothing
        return ""
    shown = fmt(value)
    if bar is None:
        return shown
    limit = given(bar)
    if passed is None:
        return _("{value} against {bar}", value=shown, bar=limit)
    if check_id == "validation-gap-vs-seed-sd":
        return _("{value} seed sd; the rule needs more than {bar}", value=shown, bar=limit)
    if check_id in (
        "test-interval-excludes-zero",
        "cv-interval-excludes-zero",
        "interval-above-zero",
    ):
        if passed:
            return _("{value}, above {bar}", value=shown, bar=limit)
        return _("{value}, not above {bar}", value=shown, bar=limit)
    if check_id == "useful-effect":
        if passed:
            return _("{value}, at or above the useful effect {bar}", value=shown, bar=limit)
        return _("{value}, short of the useful effect {bar}", value=shown, bar=limit)
    if check_id.startswith("not-worse-on-"):
        if passed:
            return _("{value}, above the no-worse margin {bar}", value=shown, bar=limit)
        return _("{value}, below the no-worse margin {bar}", value=shown, bar=limit)
    if check_id == "general-set-held":
        return _("{value}, allowed {bar}", value=shown, bar=limit)
    return _("{value} against {bar}", value=shown, bar=limit)


def _with_decimals(d: int) -> Callable[[float | int | None], str]:
    return lambda v: with_sign(v, d)


def value_format(report: Report, check_id: str) -> Callable[[float | int | None], str]:
    """How a check's value prints: as the same number prints elsewhere in the report (the gap
    in seed sd as a ratio, an interval's end with its interval's decimals); else `quantity`."""
    if check_id == "validation-gap-vs-seed-sd":
        return lambda v: ratio(v, signed=True)
    if check_id in (
        "test-interval-excludes-zero",
        "cv-interval-excludes-zero",
        "interval-above-zero",
        "useful-effect",
    ):
        iv = report.noise.interval
        ends = (None, None, None) if iv is None else (iv.gap, iv.low, iv.high)
        return _with_decimals(gap_decimals(*ends))
    if check_id == "general-set-held":
        g = report.general
        d = gap_decimals(None, None, None) if g is None else gap_decimals(g.drop, g.low, g.high)
        return lambda v: change(v, d)
    for s in report.slices or ():
        if check_id == f"not-worse-on-{s.slice}":
            return _with_decimals(gap_decimals(s.gap, s.low, s.high))
    return quantity


@dataclass(frozen=True)
class ProvenanceView:
    """partials/_provenance.html: the rebuild command, settings, input files, versions."""

    inputs: list[FileRow]
    libraries: list[Row]
    settings: list[Row]
    command: str
    #: "308 input files, 4.1 MB in all": what the digest covers
    files: str
    #: build.inputs_sha256, the combined SHA-256 of every input file; the PDF prints it in
    #: place of the per-file list, which the HTML keeps in a <details> and report.json in full
    digest: str


@dataclass(frozen=True)
class WarningRow:
    """One input warning in the appendix (partials/_appendix.html), located path:line:column."""

    where: str
    severity: str
    slug: str
    message: str


#: artefacts listed per fairness fact in the body; every one is in the appendix
BODY_ARTEFACTS = 4


def facts(
    items: Sequence[Evidence] | Sequence[Check],
    report: Report,
    links: str | None = None,
    limit: int | None = BODY_ARTEFACTS,
    with_values: bool = False,
) -> list[Fact]:
    """Facts or checks for a table; ``with_values``: each with its value against its bar."""
    out = []
    for f in items:
        value, bar = (f.value, f.bar) if isinstance(f, Check) else (None, None)
        out.append(
            Fact(
                label=check_label(f.id, cv=report.noise.cv is not None),
                text=in_words(timestamps_in(f.text or DASH), report),
                status=fact_status(f.passed),
                artefacts=artefact_list(list(f.artefacts), links, limit),
                measured=_unsaid_measure(f, report) if with_values else "",
            )
        )
    return out


def _unsaid_measure(check: Evidence | Check, report: Report) -> str:
    """A check's value against its bar for the appendix, when its text does not print the
    value already ("300 of 300 logged values agree" needs no "0 disagree")."""
    if not isinstance(check, Check):
        return ""
    fmt = value_format(report, check.id)
    phrase = measured(check.value, check.bar, fmt, check.id, check.passed)
    value = fmt(check.value) if check.value is not None else ""
    if not phrase or (value and says_number(in_words(check.text or "", report), value)):
        return ""
    return phrase


def _said_in_body(fact: Fact, report: Report) -> Fact:
    """A check whose sentence the body prints word for word (Relevance in decision units:
    the interval and the costs) points there in the PDF instead of printing it twice."""
    rel = report.relevance
    if rel is None or not rel.text or fact.text != in_words(rel.text, report):
        return fact
    return replace(
        fact,
        print_text=_(
            "{finding}: its interval and costs are under Relevance in decision units",
            finding=finding_word(rel.finding),
        ),
    )


def evidence_view(report: Report, links: str | None = None) -> list[RungEvidence]:
    """Per rung, its checks and every artefact they cite; a fairness fact's check only by its
    artefacts (the body says its result and finding). A list of files that an earlier check
    or fact listed whole is said as "the same files as ..." instead (each list once)."""
    fact_ids = {f"fair-{f.id}" for f in report.fairness}
    cv = report.noise.cv is not None
    seen: dict[tuple[str, ...], str] = {}

    def once(files: tuple[str, ...], label: str, listed: ArtefactList) -> ArtefactList:
        if len(files) < 2:
            return listed
        first = seen.setdefault(files, label)
        if first == label:
            return listed
        return ArtefactList([], _("the same files as “{check}” above", check=first))

    out = []
    for r in report.ladder:
        mine = [c for c in report.checks if c.rung == r.rung]
        plain = [c for c in mine if c.id not in fact_ids]
        fair = [c for c in mine if c.id in fact_ids]
        cited = {a for c in mine for a in c.artefacts}
        rest = [a for a in r.artefacts if a not in cited]
        checks = [
            _said_in_body(
                replace(f, artefacts=once(tuple(c.artefacts), f.label, f.artefacts)), report
            )
            for c, f in zip(
                plain, facts(plain, report, links, limit=None, with_values=True), strict=True
            )
        ]
        fact_rows = []
        for c in fair:
            label = check_label(c.id.removeprefix("fair-"), cv)
            listed = artefact_list(list(c.artefacts), links)
            fact_rows.append(FactEvidence(label, once(tuple(c.artefacts), label, listed)))
        out.append(
            RungEvidence(
                rung=r.rung,
                name=rung_word(r.name),
                anchor=f"evidence-rung-{r.rung}",
                checks=checks,
                facts=fact_rows,
                rest=artefact_list(rest, links) if rest else None,
            )
        )
    return out


def provenance_view(report: Report, links: str | None = None) -> ProvenanceView:
    """The rebuild command, the build's settings, every input file with its hash, the versions."""
    build = report.build
    inputs = []
    for i in report.inputs:
        sha = i.sha256 or DASH
        groups = [sha[k : k + 16] for k in range(0, len(sha), 16)]
        inputs.append(FileRow(path_text(i.path, links), sha, groups, count(i.bytes)))
    total = sum(i.bytes or 0 for i in report.inputs)
    files = _(
        "{files}, {size} in all",
        files=count_noun(len(report.inputs), "input file"),
        size=file_size(total),
    )
    digest = build.inputs_sha256
    libraries = [Row(report.tool.name, report.tool.version)]
    libraries += [Row(k, str(v)) for k, v in sorted(build.libraries.items())]
    settings = [
        Row(_("report schema"), report.schema),
        Row(_("build date"), date_text(timestamp(build.date))),
        Row(_("random seed"), str(build.random_seed)),
        Row(_("bootstrap resamples"), count(build.resamples)),
        Row(_("confidence"), confidence(build.confidence)),
    ]
    return ProvenanceView(inputs, libraries, settings, build.command or DASH, files, digest)


def warnings_view(report: Report) -> list[WarningRow]:
    """The input warnings, each located path:line:column (the project when it has no file)."""
    rows = []
    for w in report.warnings:
        where = w.path or "<project>"
        if w.line is not None:
            where += f":{w.line}"
            if w.column is not None:
                where += f":{w.column}"
        rows.append(
            WarningRow(where, _severity(str(w.severity)), w.slug or DASH, w.message or DASH)
        )
    return rows


def _severity(severity: str) -> str:
    """A warning's severity as printed (report.json keeps the id)."""
    words = {"error": p_("severity", "error"), "warning": p_("severity", "warning")}
    return words.get(severity, severity)


def _fold_cite(mine: list[Comparison], links: str | None) -> PathText:
    """The run-log lines of one model's agreeing fold values: the first and how many more."""
    first = path_text(mine[0].cite, links)
    if len(mine) == 1:
        return first
    text = n_("{cite} and {n} more", "{cite} and {n} more", len(mine) - 1, cite=mine[0].cite)
    return PathText(text, [text], first.href)


def comparisons_sentence(report: Report) -> str | None:
    """How many logged values agree with the values recomputed from their predictions, and
    which run-log lines disagree; None without any comparison."""
    compared = [c for c in report.comparisons if c.agree is not None]
    if not compared:
        return None
    agree = sum(1 for c in compared if c.agree)
    text = n_(
        "{agree} of {values} agree with the values recomputed from their predictions",
        "{agree} of {values} agree with the values recomputed from their predictions",
        agree,
        agree=count(agree),
        values=count_noun(len(compared), "logged value"),
    )
    wrong = [c.cite or DASH for c in compared if not c.agree]
    if wrong:
        # TRANSLATORS: continues the sentence of logged against recomputed values
        text += n_("; {lines} disagrees", "; {lines} disagree", len(wrong), lines=", ".join(wrong))
    unchecked = len(report.comparisons) - len(compared)
    if unchecked:
        # TRANSLATORS: continues the sentence of logged against recomputed values
        text += n_(
            "; {n} not compared (no predictions)",
            "; {n} not compared (no predictions)",
            unchecked,
        )
    return text + "."


def comparisons_view(report: Report, links: str | None = None) -> list[ComparisonRow]:
    """One row per logged value; the agreeing fold rows of a cv design as one row per model."""
    rows = []
    folds = [c for c in report.comparisons if c.fold is not None and c.agree]
    for c in report.comparisons:
        if c.fold is not None and c.agree:
            continue
        rows.append(
            ComparisonRow(
                model=c.model,
                seed=str(c.seed),
                split=part_word(c.split),
                # its own digits, in the language's decimal sign ("0,86" beside "0,86" in uk)
                logged=local_number(c.logged_text) if c.logged_text else full(c.logged),
                # to the logged value's own decimals; the tolerance is rung 1's, said in methods.md
                recomputed=beside_logged(c.recomputed, c.logged_text, c.agree),
                agree=outcome(
                    c.agree,
                    p_("logged against recomputed", "agree"),
                    p_("logged against recomputed", "disagree"),
                    p_("logged against recomputed", "not compared"),
                ),
                cite=path_text(c.cite or DASH, links),
            )
        )
    for model in dict.fromkeys(c.model for c in folds):
        mine = [c for c in folds if c.model == model]
        seeds = sorted({c.seed for c in mine}, key=str)
        rows.append(
            ComparisonRow(
                model=model,
                seed=", ".join(str(x) for x in seeds),
                split=n_("fold ({n} values)", "fold ({n} values)", len(mine)),
                logged=DASH,
                recomputed=DASH,
                agree=outcome(True, n_("all {n} agree", "all {n} agree", len(mine)), "", ""),
                cite=_fold_cite(mine, links),
            )
        )
    return rows
