"""Slices and bounds: per-slice gaps, relevance in decision units, what was measured."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.stats.metric_registry import unit_power
from reportgen.view.parts import Figure, Row, chart_figure, in_words, names
from reportgen.words import blocks_phrase, count_noun, gap_decimals, metric_unit
from reportgen.words.cells import (
    DASH,
    cost,
    count,
    gap_with_interval,
    given,
    interval,
    timestamp,
    with_sign,
    yes_no,
)


@dataclass(frozen=True)
class SliceRow:
    """One slice's gap, interval and reading."""

    slice: str
    rows: str
    blocks: str
    gap: str
    interval: str
    reading: str
    css: str
    #: what a "may be worse" reading is missing, in numbers; else empty
    detail: str
    required: str


@dataclass(frozen=True)
class SlicesView:
    """The per-slice part of partials/_slices.html (None: no slice column)."""

    figure: Figure | None
    rows: list[SliceRow]


@dataclass(frozen=True)
class BoundsView:
    """The rest of partials/_slices.html: relevance, what was measured, what never was."""

    data: list[Row]
    not_tested: list[str]
    relevance: list[Row]
    relevance_text: str | None


#: a slice's reading in words and its CSS class, by slice_reading's key
READINGS = {
    "worse": ("candidate worse", "not-shown"),
    "not_worse": ("no worse, within the margin", "shown"),
    "unshown": ("may be worse", "partly"),
    "better": ("candidate better", "shown"),
    "unmeasured": ("not measured", "neutral"),
    "unclear": ("no clear difference", "neutral"),
}


def slice_reading(s: dict, readings: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """A slice's reading and CSS class: worse, no worse within the margin, no worse not shown
    (a required slice), better, not measured or no clear difference."""
    if s.get("worse"):
        key = "worse"
    elif s.get("required") and s.get("not_worse"):
        key = "not_worse"
    elif s.get("required"):
        key = "unshown"
    elif s.get("low") is not None and s["low"] > 0:
        key = "better"
    elif s.get("low") is None:
        key = "unmeasured"
    else:
        key = "unclear"
    return readings[key]


def slices_view(report: dict, charts: Collection[str]) -> SlicesView | None:
    slices = report.get("slices")
    if slices is None:
        return None
    rows = []
    for s in slices:
        # each slice's gap and interval share one decimal count, as its sentences print them
        d = gap_decimals(s.get("gap"), s.get("low"), s.get("high"))
        reading, css = slice_reading(s, READINGS)
        rows.append(
            SliceRow(
                slice=str(s["slice"]),
                rows=count(s.get("rows")),
                blocks=count(s.get("blocks")),
                gap=with_sign(s.get("gap"), d),
                interval=interval(s.get("low"), s.get("high"), digits=d),
                reading=reading,
                css=css,
                detail=_not_shown_no_worse(s, d) if reading == "may be worse" else "",
                required=yes_no(s.get("required")),
            )
        )
    worse = [r.slice for r in rows if r.reading == "candidate worse"]
    figure = chart_figure(
        charts,
        "slices",
        "Gap per slice with its interval (candidate better is positive). Look for intervals "
        "wholly below zero (red): there the candidate is worse.",
        f"Dot-and-whisker chart of per-slice gaps for {count_noun(len(rows), 'slice')}; candidate worse on "
        f"{', '.join(worse) if worse else 'none'}.",
    )
    return SlicesView(figure, rows)


def _not_shown_no_worse(s: dict, digits: int) -> str:
    """A required slice not shown to be no worse: what is missing, in numbers when it has them
    (the interval's worse end, its low end, lies beyond the margin)."""
    if s.get("low") is not None and s.get("margin") is not None:
        return (
            f"no worse needs the interval's worse end above {given(-abs(s['margin']))}; "
            f"it is {with_sign(s['low'], digits)}"
        )
    return "no worse needs an interval: " + str(s.get("not_worse_reason") or "there is none")


def _metric_unit(report: dict) -> str | None:
    p = report.get("project") or {}
    return metric_unit(p.get("unit"), power=unit_power(str(p.get("metric") or "")))


def bounds_view(report: dict) -> BoundsView:
    data = report.get("data") or {}
    rows = []
    for part, n in (data.get("parts") or {}).items():
        rows.append(Row(f"{part} rows", count(n)))
    block = data.get("block_column")
    if block:
        rows.append(Row("block column", str(block)))
    if data.get("blocks") is not None:
        rows.append(Row("blocks on test", blocks_phrase(data["blocks"], block)))
    kind = ((report.get("noise") or {}).get("block") or {}).get("block_kind") or "period"
    # without a block column the first and last "blocks" are row ids: no period was measured
    if block and kind == "period" and data.get("first_block") is not None:
        rows.append(
            Row(
                "period measured",
                f"{timestamp(data.get('first_block'))} to {timestamp(data.get('last_block'))}",
            )
        )
    cand, base = names(report)
    seeds = data.get("seeds") or {}
    configs = data.get("configs") or {}
    for role, name in (("candidate", cand), ("baseline", base)):
        s = seeds.get(role) or []
        rows.append(
            Row(f"{name} seeds", f"{count(len(s))} ({', '.join(str(x) for x in s)})" if s else DASH)
        )
        if configs.get(role):
            scored = "analysed" if (report.get("noise") or {}).get("cv") else "scored on test"
            rows.append(Row(f"{name} configuration {scored}", str(configs[role])))
    rel = report.get("relevance")
    relevance_rows: list[Row] = []
    relevance_text = None
    if rel:
        period = rel.get("period") or "period"
        unit = rel.get("unit") or "cost units"
        finding = rel.get("finding")
        relevance_rows = [
            Row(
                "smallest useful effect",
                given(rel.get("min_useful_effect"), _metric_unit(report)),
            ),
            Row("finding", (finding or DASH).replace("-", " ")),
            Row(
                "cross-validation gap and interval"
                if ((report.get("noise") or {}).get("interval") or {}).get("source")
                == "cv-corrected"
                else "test gap and interval",
                gap_with_interval(rel.get("gap"), rel.get("low"), rel.get("high")),
            ),
        ]
        # a metric gap times cases per period ("+5.9 log loss per month") is no unit anyone
        # uses: relevance per period is said through costs, or not at all
        cpc = rel.get("cost_per_case") or {}
        if cpc.get("difference") is not None:
            relevance_rows.append(
                Row(
                    "test cost per case, candidate / baseline",
                    f"{cost(cpc.get('candidate'))} / {cost(cpc.get('baseline'))}",
                )
            )
        if rel.get("cost_per_period") is not None:
            saving = rel["cost_per_period"]
            relevance_rows.append(
                Row(
                    f"candidate saves per {period}"
                    if saving >= 0
                    else f"candidate costs more per {period}",
                    f"{cost(abs(saving))} ({count(rel.get('cases_per_period'))} cases)",
                )
            )
        if cpc.get("difference") is not None or rel.get("cost_per_period") is not None:
            relevance_rows.append(Row("costs in", str(unit)))
        relevance_text = in_words(str(rel["text"]), report) if rel.get("text") else None
    return BoundsView(
        data=rows,
        not_tested=[in_words(str(x), report) for x in report.get("not_tested") or []],
        relevance=relevance_rows,
        relevance_text=relevance_text,
    )
