"""index.html: the context dataclasses of templates/batch/index.html, and its rendering."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reportgen.batch.build import RUNG_COLUMNS
from reportgen.batch.overview import Overview, overview_context
from reportgen.batch.summary import BatchResult, counts
from reportgen.names import RUNG_NAMES
from reportgen.safe import replace_controls
from reportgen.words import cells

STYLESHEETS = ("batch.css",)
_RUNG_CSS = {"shown": "shown", "partly": "partly", "not shown": "not-shown"}
#: the columns of the by-name table an error message spans: verdict, recommends, supported
#: rung, the rungs, the test gap and the seed gap
ERROR_COLSPAN = 5 + len(RUNG_COLUMNS)


@dataclass(frozen=True)
class RungCell:
    """One rung's status in the by-name table, with its CSS class."""

    status: str  # shown | partly | not shown | "" (unknown)
    css: str

    @property
    def text(self) -> str:
        """The status as printed: a dash when unknown."""
        return self.status or cells.DASH


@dataclass(frozen=True)
class IndexRow:
    """One submission in the by-name table of index.html: its result or its error."""

    name: str
    href: str | None
    status: str
    error: str
    verdict: str
    recommend: str
    supported_rung: str
    rungs: list[RungCell]
    gap: str
    seed_gap_in_sd: str
    seconds: str
    notes: str
    error_colspan: int = ERROR_COLSPAN


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
    #: the class overview, when the hooks added its keys to summary.json (else None)
    overview: Overview | None = None

    @property
    def rung_headers(self) -> list[str]:
        """The by-name table's rung column headings: "1 correct" ..."""
        return [f"{i} {name}" for i, name in enumerate(self.rung_names, 1)]


def _number(x: object) -> float | None:
    """A summary value that is a number (summary.json comes from other processes), else None."""
    return x if isinstance(x, int | float) and not isinstance(x, bool) else None


def _rung(x: object) -> str:
    """The supported rung, a whole number 0 to 5; a dash for anything else."""
    return str(x) if isinstance(x, int) and not isinstance(x, bool) else cells.DASH


def _index_row(r: dict[str, Any]) -> IndexRow:
    rungs = [
        RungCell(s, _RUNG_CSS.get(s, "unknown")) for s in (r.get(c) or "" for c in RUNG_COLUMNS)
    ]
    return IndexRow(
        name=r["name"],
        href=r.get("report"),
        status=r["status"],
        error=replace_controls(r.get("error") or ""),
        verdict=r.get("verdict") or cells.DASH,
        recommend=r.get("recommend") or cells.DASH,
        supported_rung=_rung(r.get("supported_rung")),
        rungs=rungs,
        gap=cells.gap_with_interval(
            _number(r.get("gap")), _number(r.get("gap_low")), _number(r.get("gap_high"))
        ),
        seed_gap_in_sd=cells.ratio(_number(r.get("seed_gap_in_sd")), signed=True),
        seconds=cells.seconds(_number(r.get("seconds"))),
        notes=replace_controls(r.get("notes") or ""),
    )


def index_context(result: BatchResult) -> IndexContext:
    from reportgen import __version__

    c = counts(result.rows)
    return IndexContext(
        title="evreport batch: class overview",
        version=__version__,
        total=c["submissions"],
        ok=c["ok"],
        errors=c["errors"],
        reached=[(k, n, c["reached"][n]) for k, n in enumerate(RUNG_NAMES, 1)],
        rung_names=RUNG_NAMES,
        rows=[_index_row(r) for r in result.rows],
        overview=overview_context(result.rows, result.extra) if result.extra else None,
    )


def render_index(ctx: IndexContext) -> str:
    from reportgen.render.env import environment, stylesheet

    template = environment("html").get_template("batch/index.html")
    html: str = template.render(ctx=ctx, css=stylesheet(*STYLESHEETS))
    return html
