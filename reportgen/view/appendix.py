"""Fairness facts, and the appendix: evidence by rung, logged against recomputed, warnings,
provenance with every input file's hash."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reportgen.view.artefacts import ArtefactList, PathText, artefact_list, path_text
from reportgen.view.parts import Row, Status, fact_status, in_words, outcome, said
from reportgen.words import gap_decimals
from reportgen.words.cells import (
    DASH,
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
    """One input file in the provenance table: path, SHA-256 (full, in 16-character groups
    that break cleanly, and the 12-character short form the PDF prints), size."""

    path: PathText
    sha256: str
    sha256_groups: list[str]
    sha256_short: str
    size: str


#: characters of a SHA-256 the printed report shows; the HTML and report.json keep all 64
SHORT_HASH = 12


def measured(
    value: float | int | None,
    bar: float | int | None,
    fmt: Callable[[float | int | None], str] = quantity,
) -> str:
    """A check's value against its bar, as one short phrase; empty when neither is set."""
    if value is None and bar is None:
        return ""
    shown = said(fmt(value), "not measured")
    if bar is None:
        return shown
    return f"{shown}, bar {given(bar)}"


def _with_decimals(d: int) -> Callable[[float | int | None], str]:
    return lambda v: with_sign(v, d)


def value_format(report: dict, check_id: str) -> Callable[[float | int | None], str]:
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
        iv = (report.get("noise") or {}).get("interval") or {}
        return _with_decimals(gap_decimals(iv.get("gap"), iv.get("low"), iv.get("high")))
    if check_id == "general-set-held":
        g = report.get("general") or {}
        d = gap_decimals(g.get("drop"), g.get("low"), g.get("high"))
        return lambda v: change(v, d)
    for s in report.get("slices") or []:
        if check_id == f"not-worse-on-{s.get('slice')}":
            return _with_decimals(gap_decimals(s.get("gap"), s.get("low"), s.get("high")))
    return quantity


@dataclass(frozen=True)
class ProvenanceView:
    """partials/_provenance.html: the rebuild command, settings, input files, versions."""

    inputs: list[FileRow]
    libraries: list[Row]
    settings: list[Row]
    command: str


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
    items: list[dict],
    report: dict,
    links: str | None = None,
    limit: int | None = BODY_ARTEFACTS,
    with_values: bool = False,
) -> list[Fact]:
    """Facts or checks for a table; ``with_values``: each with its value against its bar."""
    out = []
    for f in items or []:
        fid = str(f.get("id", ""))
        out.append(
            Fact(
                label=fid.replace("-", " "),
                text=in_words(timestamps_in(str(f.get("text") or DASH)), report),
                status=fact_status(f.get("passed")),
                artefacts=artefact_list(f.get("artefacts") or [], links, limit),
                measured=measured(f.get("value"), f.get("bar"), value_format(report, fid))
                if with_values
                else "",
            )
        )
    return out


def evidence_view(report: dict, links: str | None = None) -> list[RungEvidence]:
    """Per rung, its checks and every artefact they cite; a fairness fact's check only by its
    artefacts (the body says its result and finding)."""
    fact_ids = {f"fair-{f.get('id')}" for f in report.get("fairness") or []}
    checks = report.get("checks") or []
    out = []
    for r in report["ladder"]:
        n = int(r["rung"])
        mine = [c for c in checks if c.get("rung") == n]
        plain = [c for c in mine if c.get("id") not in fact_ids]
        fair = [c for c in mine if c.get("id") in fact_ids]
        cited = {str(a) for c in mine for a in c.get("artefacts") or []}
        listed = [str(a) for a in r.get("artefacts_all") or r.get("artefacts") or []]
        rest = [a for a in listed if a not in cited]
        out.append(
            RungEvidence(
                rung=n,
                name=str(r["name"]),
                anchor=f"evidence-rung-{n}",
                checks=facts(plain, report, links, limit=None, with_values=True),
                facts=[
                    FactEvidence(
                        str(c["id"]).removeprefix("fair-").replace("-", " "),
                        artefact_list(c.get("artefacts") or [], links),
                    )
                    for c in fair
                ],
                rest=artefact_list(rest, links) if rest else None,
            )
        )
    return out


def provenance_view(report: dict, links: str | None = None) -> ProvenanceView:
    build = report.get("build") or {}
    block = report["noise"].get("block") or {}
    rule = report.get("rule") or {}
    inputs = []
    for i in report.get("inputs") or []:
        sha = str(i.get("sha256") or DASH)
        groups = [sha[k : k + 16] for k in range(0, len(sha), 16)]
        inputs.append(
            FileRow(
                path_text(i["path"], links), sha, groups, sha[:SHORT_HASH], count(i.get("bytes"))
            )
        )
    tool = report.get("tool") or {}
    libraries = [Row(str(tool.get("name", "evreport")), str(tool.get("version", DASH)))]
    libraries += [Row(str(k), str(v)) for k, v in sorted((build.get("libraries") or {}).items())]
    seed = build.get("random_seed", rule.get("random_seed"))
    settings = [
        Row("report schema", str(report.get("schema") or DASH)),
        Row("build date", timestamp(build.get("date"))),
        Row("random seed", DASH if seed is None else str(seed)),
        Row("bootstrap resamples", count(build.get("resamples", block.get("resamples")))),
        Row("confidence", confidence(build.get("confidence", block.get("confidence")))),
    ]
    return ProvenanceView(inputs, libraries, settings, str(build.get("command") or DASH))


def warnings_view(report: dict) -> list[WarningRow]:
    rows = []
    for w in report.get("warnings") or []:
        where = str(w.get("path") or "<project>")
        if w.get("line") is not None:
            where += f":{w['line']}"
            if w.get("column") is not None:
                where += f":{w['column']}"
        rows.append(
            WarningRow(
                where,
                str(w.get("severity") or DASH),
                str(w.get("slug") or DASH),
                str(w.get("message") or DASH),
            )
        )
    return rows


def comparisons_view(report: dict, links: str | None = None) -> list[ComparisonRow]:
    """One row per logged value; the agreeing fold rows of a cv design as one row per model."""
    rows = []
    comps = report.get("comparisons") or []
    folds = [c for c in comps if c.get("fold") is not None and c.get("agree")]
    for c in comps:
        if c.get("fold") is not None and c.get("agree"):
            continue
        agree = c.get("agree")
        rows.append(
            ComparisonRow(
                model=str(c.get("model")),
                seed=str(c.get("seed")),
                split=str(c.get("split")),
                logged=str(c.get("logged_text") or full(c.get("logged"))),
                recomputed=full(c.get("recomputed")),
                agree=outcome(agree, "agree", "disagree", "not compared"),
                cite=path_text(str(c.get("cite") or DASH), links),
            )
        )
    for model in dict.fromkeys(str(c.get("model")) for c in folds):
        mine = [c for c in folds if str(c.get("model")) == model]
        seeds = sorted({c.get("seed") for c in mine}, key=str)
        rows.append(
            ComparisonRow(
                model=model,
                seed=", ".join(str(x) for x in seeds),
                split=f"fold ({count(len(mine))} values)",
                logged=DASH,
                recomputed=DASH,
                agree=outcome(True, f"all {count(len(mine))} agree", "", ""),
                cite=PathText(
                    f"{mine[0].get('cite')} and {count(len(mine) - 1)} more",
                    [f"{mine[0].get('cite')} and {count(len(mine) - 1)} more"],
                    path_text(str(mine[0].get("cite")), links).href,
                )
                if len(mine) > 1
                else path_text(str(mine[0].get("cite")), links),
            )
        )
    return rows
