"""index.html: the context dataclasses of templates/batch/index.html, and its rendering."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from reportgen.batch.build import RUNG_COLUMNS
from reportgen.batch.overview import Overview, overview_context
from reportgen.batch.summary import BatchResult, counts
from reportgen.names import RUNG_NAMES
from reportgen.safe import replace_controls
from reportgen.words import cells, points
from reportgen.words.i18n import _, current, p_
from reportgen.words.rungs import rung_word, status_word

STYLESHEETS = ("batch.css",)
_RUNG_CSS = {"shown": "shown", "partly": "partly", "not shown": "not-shown"}
#: the columns of the by-name table an error message spans: verdict, supported rung, the
#: rungs, the test gap and the seed gap
ERROR_COLSPAN = 4 + len(RUNG_COLUMNS)


@dataclass(frozen=True)
class RungCell:
    """One rung's status in the by-name table, with its CSS class."""

    status: str  # shown | partly | not shown | "" (unknown)
    css: str

    @property
    def text(self) -> str:
        """The status as printed, in words: a dash when unknown."""
        return status_word(self.status) if self.status else cells.DASH


@dataclass(frozen=True)
class Link:
    """A link from index.html to a file of a student's report folder (relative, existing)."""

    label: str
    href: str


@dataclass(frozen=True)
class IndexRow:
    """One submission in the by-name table of index.html: its result or its error; or a
    roster student with no submission (status "missing" or "ambiguous")."""

    name: str
    href: str | None
    status: str
    error: str
    verdict: str
    supported_rung: str
    rungs: list[RungCell]
    gap: str
    seed_gap_in_sd: str
    seconds: str
    notes: str
    #: the roster's student for this submission ("" without a roster entry)
    student: str = ""
    #: the rubric's points, "6 of 14" ("" without a rubric)
    points: str = ""
    #: the late deduction, "−2 late"; "" when on time
    late: str = ""
    #: why it is late: "a run started at ..., after the deadline ..." (the late cell's title)
    late_why: str = ""
    #: links to report.html, report.pdf and feedback.md, only those in the folder
    links: list[Link] = field(default_factory=list)
    #: the credited ladder as a badge: "2 of 5 shown"
    badge: str = ""
    error_colspan: int = ERROR_COLSPAN

    @property
    def status_text(self) -> str:
        """The status as printed (``status`` is the id the CSS class uses)."""
        return submission_status(self.status)


def submission_status(status: str) -> str:
    """A submission's status (ok, error, missing, ambiguous) in words."""
    words = {
        "ok": p_("submission status", "ok"),
        "error": p_("submission status", "error"),
        "missing": p_("submission status", "missing"),
        "ambiguous": p_("submission status", "ambiguous"),
    }
    return words.get(status, status)


@dataclass(frozen=True)
class IndexContext:
    """templates/batch/index.html: the counts, the rung totals, the rows, the overview."""

    title: str
    version: str
    total: int
    ok: int
    errors: int
    reached: list[tuple[int, str, int]]  # (rung, name, how many reached it)
    rung_names: tuple[str, ...]
    rows: list[IndexRow] = field(default_factory=list)
    #: how many roster students have no submission (their rows are in ``rows``)
    missing: int = 0
    #: whether any row has rubric points (the points column is printed)
    graded: bool = False
    #: whether any row has a roster student (the student column is printed)
    roster: bool = False
    #: the class overview, when the hooks added its keys to summary.json (else None)
    overview: Overview | None = None
    #: the language the page is written in (``<html lang>``)
    lang: str = "en"

    @property
    def rung_headers(self) -> list[str]:
        """The by-name table's rung column headings: "1 correct" ..."""
        return [f"{i} {rung_word(name)}" for i, name in enumerate(self.rung_names, 1)]


def _number(x: object) -> float | None:
    """A summary value that is a number (summary.json comes from other processes), else None."""
    return x if isinstance(x, int | float) and not isinstance(x, bool) else None


def _rung(x: object) -> str:
    """The supported rung, a whole number 0 to 5; a dash for anything else."""
    return str(x) if isinstance(x, int) and not isinstance(x, bool) else cells.DASH


#: the files of a report folder index.html links to, in this order (labels: ``link_label``)
LINKED = ("report.html", "report.pdf", "feedback.md")
#: a batch built without HTML and PDF links its report.json instead (``--format json``)
JSON_ONLY = "report.json"


def link_label(file: str) -> str:
    """The label of a link to a report folder's file: report, PDF, feedback, report.json."""
    if file == "report.html":
        return p_("index link", "report")
    if file == "report.pdf":
        return p_("index link", "PDF")
    if file == "feedback.md":
        return p_("index link", "feedback")
    return file


def _verdict_words(verdict: str, candidate: str | None, baseline: str | None) -> str | None:
    """A verdict with the model it keeps: "adopt mlp", "roll back to before"; None for an
    unknown verdict. ``candidate``/``baseline`` None: the role in words."""
    cand = candidate or _("the candidate")
    base = baseline or _("the baseline")
    if verdict == "adopt":
        return _("adopt {candidate}", candidate=cand)
    if verdict == "keep-baseline":
        return _("keep {baseline}", baseline=base)
    if verdict == "roll-back":
        return _("roll back to {baseline}", baseline=base)
    if verdict == "inconclusive":
        return p_("verdict", "inconclusive")
    return None


def _links(out: Path | None, name: str) -> list[Link]:
    """Relative links to the files of OUT/NAME that exist, are regular files and lie inside it;
    report.json first when neither report.html nor report.pdf was written."""
    if out is None or not name or name != Path(name).name or name.startswith("."):
        return []
    folder = out / name
    if folder.is_symlink() or not folder.is_dir():
        return []

    def there(file: str) -> bool:
        p = folder / file
        return p.is_file() and not p.is_symlink()

    files = [file for file in LINKED if there(file)]
    links = [Link(link_label(file), f"{quote(name)}/{file}") for file in files]
    if not any(f in ("report.html", "report.pdf") for f in files) and there(JSON_ONLY):
        links.insert(0, Link(link_label(JSON_ONLY), f"{quote(name)}/{JSON_ONLY}"))
    return links


def _credited(statuses: list[str]) -> list[bool]:
    """Each rung credited: shown, and every rung below it shown (report.json ladder[].credited)."""
    out, below = [], True
    for st in statuses:
        below = below and st == "shown"
        out.append(below)
    return out


def _rung_cells(statuses: list[str]) -> list[RungCell]:
    cells_ = []
    for st, credited in zip(statuses, _credited(statuses), strict=True):
        if st == "shown" and not credited:
            cells_.append(RungCell("shown, not credited", "not-credited"))  # words: status_word
        else:
            cells_.append(RungCell(st, _RUNG_CSS.get(st, "unknown")))
    return cells_


def _gap(r: dict[str, Any]) -> str:
    """The test gap with its interval, the metric named: "log loss gap +0.0033 (... to ...)";
    a cross-validated project's (no test part) named so: "log loss cross-validation gap ..."."""
    text = cells.gap_with_interval(
        _number(r.get("gap")), _number(r.get("gap_low")), _number(r.get("gap_high"))
    )
    metric = r.get("metric")
    cv = r.get("gap_kind") == "cv"
    if text == cells.DASH or not isinstance(metric, str) or not metric:
        return _("cross-validation gap {gap}", gap=text) if cv and text != cells.DASH else text
    if cv:
        return _("{metric} cross-validation gap {gap}", metric=replace_controls(metric), gap=text)
    return _("{metric} gap {gap}", metric=replace_controls(metric), gap=text)


def _display(r: dict[str, Any]) -> dict[str, str]:
    d = r.get("display")
    return (
        {k: replace_controls(v) for k, v in d.items() if isinstance(v, str)}
        if isinstance(d, dict)
        else {}
    )


def _verdict(r: dict[str, Any]) -> str:
    """A row's verdict as index.html and the console print it: "keep gradient boosting"."""
    v = r.get("verdict")
    if not v:
        return cells.DASH
    d = _display(r)
    words = _verdict_words(str(v), d.get("candidate"), d.get("baseline") or r.get("recommend"))
    return str(v) if words is None else words


#: a row's verdict in words with the model it keeps (the console's progress lines too)
row_verdict = _verdict


def _points(r: dict[str, Any]) -> str:
    t, m = _number(r.get("total")), _number(r.get("max"))
    if t is None or m is None:
        return ""
    return p_("rubric points", "{points} of {max}", points=points(t), max=points(m))


def _late(r: dict[str, Any]) -> str:
    late = r.get("late")
    if not isinstance(late, dict):
        return ""
    pts = _number(late.get("points"))
    if not pts:
        return ""
    return _("{points} late", points=points(pts))


def _badge(statuses: list[str]) -> str:
    return _("{n} of {total} shown", n=sum(_credited(statuses)), total=len(statuses))


def _missing_row(m: dict[str, Any]) -> IndexRow:
    """A roster student with no submission: "no submission", not an error."""
    status = "missing" if m.get("status") == "missing" else "ambiguous"
    return IndexRow(
        name=replace_controls(str(m.get("name") or "")),
        href=None,
        status=status,
        error=_("no submission")
        if status == "missing"
        else replace_controls(str(m.get("error") or "")),
        verdict=cells.DASH,
        supported_rung=cells.DASH,
        rungs=[],
        gap=cells.DASH,
        seed_gap_in_sd=cells.DASH,
        seconds=cells.DASH,
        notes="",
        student=replace_controls(str(m.get("student") or "")),
    )


def _index_row(r: dict[str, Any], out: Path | None = None) -> IndexRow:
    statuses = [r.get(c) or "" for c in RUNG_COLUMNS]
    links = _links(out, r["name"]) if r.get("status") == "ok" else []
    return IndexRow(
        name=r["name"],
        href=links[0].href if links else (r.get("report") if out is None else None),
        status=r["status"],
        error=replace_controls(r.get("error") or ""),
        verdict=_verdict(r),
        supported_rung=_rung(r.get("supported_rung")),
        rungs=_rung_cells(statuses),
        gap=_gap(r),
        seed_gap_in_sd=cells.ratio(_number(r.get("seed_gap_in_sd")), signed=True),
        seconds=cells.seconds(_number(r.get("seconds"))),
        notes=replace_controls(r.get("notes") or ""),
        student=replace_controls(str(r.get("student") or "")),
        points=_points(r),
        late=_late(r),
        late_why=replace_controls(str((r.get("late") or {}).get("why") or "")) if _late(r) else "",
        links=links,
        badge=_badge(statuses) if r.get("status") == "ok" else "",
    )


def index_context(result: BatchResult) -> IndexContext:
    from reportgen import __version__

    c = counts(result.rows)
    roster_missing = [m for m in result.extra.get("roster_missing") or [] if isinstance(m, dict)]
    rows = [_index_row(r, result.out) for r in result.rows]
    rows += [_missing_row(m) for m in roster_missing]
    rows.sort(key=lambda row: (row.name.casefold(), row.name))
    return IndexContext(
        title=_("evreport batch: class overview"),
        version=__version__,
        total=c["submissions"],
        ok=c["ok"],
        errors=c["errors"],
        reached=[(k, rung_word(n), c["reached"][n]) for k, n in enumerate(RUNG_NAMES, 1)],
        rung_names=RUNG_NAMES,
        rows=rows,
        missing=sum(1 for m in roster_missing if m.get("status") == "missing"),
        graded=any(row.points for row in rows),
        roster=any(row.student for row in rows),
        overview=_overview(result, rows),
        lang=current(),
    )


def _overview(result: BatchResult, rows: list[IndexRow]) -> Overview | None:
    """The class overview, its by-rung table linking and naming as the by-name table does."""
    if not result.extra:
        return None
    ov = overview_context(result.rows, result.extra)
    by_name = {r.name: r for r in rows if r.status not in ("missing", "ambiguous")}
    by_rung = [
        replace(
            rr,
            href=by_name[rr.name].href,
            verdict=by_name[rr.name].verdict
            if by_name[rr.name].verdict != cells.DASH
            else rr.verdict,
        )
        if rr.name in by_name
        else rr
        for rr in ov.by_rung
    ]
    return replace(ov, by_rung=by_rung)


def render_index(ctx: IndexContext) -> str:
    from reportgen.render.env import environment, stylesheet

    template = environment("html").get_template("batch/index.html")
    html: str = template.render(ctx=ctx, css=stylesheet(*STYLESHEETS))
    return html
