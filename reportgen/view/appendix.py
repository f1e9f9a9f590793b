"""Fairness facts, provenance and the appendix: checks, warnings, logged against recomputed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reportgen.view.parts import Row, Status, fact_status, outcome, said
from reportgen.words import gap_decimals
from reportgen.words.cells import (
    DASH,
    confidence,
    count,
    fixed,
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
    cite: str


@dataclass(frozen=True)
class Fact:
    """A pass/fail fact with its evidence (fairness, individual checks)."""

    label: str
    text: str
    status: Status
    artefacts: list[PathText]
    #: the measured value against its bar ("+0.88, bar 2"); empty when the check has none
    measured: str = ""
    #: "6 of 40 listed; all in report.json" when the list is cut for the page, else empty
    artefacts_more: str = ""


@dataclass(frozen=True)
class PathText:
    """A file path split at its slashes, so a line breaks between folders, never mid-name."""

    text: str
    parts: list[str]

    def __str__(self) -> str:
        return self.text


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


def path_text(path: str) -> PathText:
    """A path (or "runs.csv:12" citation) with its break points."""
    parts = str(path).split("/")
    return PathText(str(path), [p + "/" for p in parts[:-1]] + parts[-1:])


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
        return lambda v: fixed(v, d)
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


#: artefacts listed per fact or check in the tables; the full list is in report.json
LISTED_PER_FACT = 6


def listed_note(total: int, limit: int) -> str:
    """The note under a cut list of artefacts: "6 of 40 listed; all in report.json"."""
    return f"{limit} of {total} listed; all in report.json" if total > limit else ""


def facts(items: list[dict], report: dict | None = None) -> list[Fact]:
    """Facts or checks for a table; with ``report``, each with its value against its bar."""
    out = []
    for f in items or []:
        out.append(
            Fact(
                label=str(f.get("id", "")).replace("-", " "),
                text=timestamps_in(str(f.get("text") or DASH)),
                status=fact_status(f.get("passed")),
                artefacts=[path_text(a) for a in (f.get("artefacts") or [])[:LISTED_PER_FACT]],
                measured=measured(
                    f.get("value"), f.get("bar"), value_format(report, str(f.get("id", "")))
                )
                if report is not None
                else "",
                artefacts_more=listed_note(len(f.get("artefacts") or []), LISTED_PER_FACT),
            )
        )
    return out


def provenance_view(report: dict) -> ProvenanceView:
    build = report.get("build") or {}
    block = report["noise"].get("block") or {}
    rule = report.get("rule") or {}
    inputs = []
    for i in report.get("inputs") or []:
        sha = str(i.get("sha256") or DASH)
        groups = [sha[k : k + 16] for k in range(0, len(sha), 16)]
        inputs.append(
            FileRow(path_text(i["path"]), sha, groups, sha[:SHORT_HASH], count(i.get("bytes")))
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


def comparisons_view(report: dict) -> list[ComparisonRow]:
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
                cite=str(c.get("cite") or DASH),
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
                cite=f"{mine[0].get('cite')} and {count(len(mine) - 1)} more"
                if len(mine) > 1
                else str(mine[0].get("cite")),
            )
        )
    return rows
