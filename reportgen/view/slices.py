"""Slices and bounds: per-slice gaps, relevance in decision units, what was measured."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import TypeVar

from reportgen.model import Missing, Report
from reportgen.model.enums import IntervalSource, Kind
from reportgen.model.relevance import Relevance, Slice
from reportgen.stats.metric_registry import unit_power
from reportgen.view.parts import (
    Figure,
    Row,
    chart_figure,
    cost_unit,
    in_words,
    metric_name,
    names,
    says_number,
)
from reportgen.words import blocks_phrase, confidence, count_noun, gap_decimals, metric_unit
from reportgen.words.cells import (
    DASH,
    cost,
    count,
    gap_with_interval,
    given,
    interval,
    prob,
    timestamp,
    with_sign,
    yes_no,
)
from reportgen.words.i18n import _, n_, p_
from reportgen.words.repeats import repeat_words

T = TypeVar("T")


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
    #: before/after: each version's score, the questions fixed and broken; empty for a pair
    before: str = ""
    after: str = ""
    fixed: str = ""
    broken: str = ""


@dataclass(frozen=True)
class Column:
    """One column of the slice table: the SliceRow field it prints, its heading, its width
    (a col class of report.css) and whether it holds numbers."""

    key: str
    head: str
    width: str
    num: bool = True


@dataclass(frozen=True)
class SlicesView:
    """The per-slice part of partials/_slices.html (None: no slice column): one table, in the
    design's words (a before/after project's has each version's score and the questions fixed
    and broken: the report's only table of its slices). A column that would say the same for
    every slice (blocks equal to rows, no slice required) is left out and said once in the
    caption."""

    figure: Figure | None
    rows: list[SliceRow]
    #: the table's columns, the slice's own first
    columns: list[Column]
    #: before/after: the table has the Before, After, Fixed and Broken columns
    versions: bool = False
    #: False when every slice's blocks are its rows (the Blocks column is left out)
    blocks: bool = True
    #: False when no slice is required not to be worse (the column is left out)
    required: bool = True
    caption: str = ""
    #: the part's heading: "Per-slice gaps", or "Change in each slice"
    heading: str = ""


@dataclass(frozen=True)
class BoundsView:
    """The rest of partials/_slices.html: relevance, what was measured, what never was."""

    data: list[Row]
    not_tested: list[str]
    relevance: list[Row]
    #: the relevance rows the sentence above them does not say (the PDF's): its interval once
    relevance_print: list[Row]
    relevance_text: str | None


def readings() -> dict[str, tuple[str, str]]:
    """A slice's reading in words and its CSS class, by slice_reading's key (``Slice.reading``)."""
    return {
        "worse": (p_("slice reading", "candidate worse"), "not-shown"),
        "not_worse": (p_("slice reading", "no worse, within the margin"), "shown"),
        "unshown": (p_("slice reading", "may be worse"), "partly"),
        "better": (p_("slice reading", "candidate better"), "shown"),
        "unmeasured": (p_("slice reading", "not measured"), "neutral"),
        "unclear": (p_("slice reading", "no clear difference"), "neutral"),
    }


def version_readings() -> dict[str, tuple[str, str]]:
    """A before/after slice's reading, by slice_reading's key: worse or better after tuning,
    in the colours the chart draws (charts/slices.py)."""
    return {
        **readings(),
        "worse": (p_("slice reading", "worse after tuning"), "not-shown"),
        "unshown": (p_("slice reading", "no worse: not shown"), "partly"),
        "better": (p_("slice reading", "better after tuning"), "shown"),
        "unclear": (p_("slice reading", "no clear change"), "neutral"),
    }


def slice_reading(s: Slice, readings: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """A slice's reading and CSS class, by the model's one rule (``Slice.reading``)."""
    return readings[s.reading()]


def _present(x: T | None | Missing) -> T | None:
    """A value of a key that may be absent: None when it is."""
    return None if isinstance(x, Missing) else x


def _caption(report: Report, versions: bool, blocks: bool, required: bool) -> str:
    """The table's caption: a before/after table names its metric; either says once what a
    left-out column would have said in every row (each row is its own block; no slice must not
    be worse); empty for a model pair with both columns, whose chart caption says what the gap
    is."""
    said = []
    if versions:
        said.append(_("Each slice's {metric} before and after tuning.", metric=metric_name(report)))
    if not blocks:
        said.append(
            _("Each question is its own block (no block column).")
            if versions
            else _("Each row is its own block (no block column).")
        )
    if not required:
        said.append(
            _("No slice is required to be no worse after tuning.")
            if versions
            else _("No slice is required to be no worse.")
        )
    return " ".join(said)


#: each table's column widths (report.css col classes), by (before/after, blocks, required);
#: the slice's own column first, the reading's wide enough for its badge on one line
_WIDTHS: dict[tuple[bool, bool, bool], tuple[int, ...]] = {
    # slice, rows, [blocks], gap, interval, reading, [required]
    (False, True, True): (16, 8, 8, 11, 21, 23, 13),
    (False, False, True): (16, 10, 12, 22, 27, 13),
    (False, True, False): (16, 8, 8, 11, 24, 33),
    (False, False, False): (16, 10, 12, 26, 36),
    # slice, questions, before, after, fixed, broken, [blocks], change, interval, reading,
    # [required]
    (True, True, True): (8, 8, 7, 7, 7, 7, 7, 8, 15, 18, 8),
    (True, False, True): (9, 9, 7, 7, 7, 7, 8, 16, 21, 9),
    (True, True, False): (9, 9, 7, 7, 7, 7, 8, 8, 16, 22),
    (True, False, False): (12, 10, 8, 8, 7, 8, 9, 17, 21),
}


def _columns(report: Report, versions: bool, blocks: bool, required: bool) -> list[Column]:
    """The table's columns in order, with their headings and widths."""
    cols = [Column("slice", _("Slice"), "", num=False)]
    if versions:
        cols += [
            Column("rows", _("Questions"), ""),
            Column("before", _("Before"), ""),
            Column("after", _("After"), ""),
            Column("fixed", _("Fixed"), ""),
            Column("broken", _("Broken"), ""),
        ]
    else:
        cols.append(Column("rows", _("Rows"), ""))
    if blocks:
        cols.append(Column("blocks", _("Blocks"), ""))
    cols += [
        Column("gap", _("After − before") if versions else _("Gap"), ""),
        Column(
            "interval",
            _("{confidence} interval", confidence=confidence(report.build.confidence)),
            "",
        ),
        Column("reading", _("Reading"), "", num=False),
    ]
    if required:
        cols.append(Column("required", _("Must not be worse"), "", num=False))
    widths = _WIDTHS[(versions, blocks, required)]
    return [replace(c, width=f"w{w}") for c, w in zip(cols, widths, strict=True)]


def slices_view(report: Report, charts: Collection[str]) -> SlicesView | None:
    """Each slice's gap, interval and reading, and its chart; None without a slice column. A
    before/after project's rows also hold each version's score and the questions fixed and
    broken, in its own words (better or worse after tuning)."""
    if report.slices is None:
        return None
    versions = report.project.kind == Kind.BEFORE_AFTER
    rows = []
    words = version_readings() if versions else readings()
    for s in report.slices:
        # each slice's gap and interval share one decimal count, as its sentences print them
        d = gap_decimals(s.gap, s.low, s.high)
        reading, css = slice_reading(s, words)
        scores = (
            {
                "before": prob(_present(s.before)),
                "after": prob(_present(s.after)),
                "fixed": count(_present(s.fixed)),
                "broken": count(_present(s.broken)),
            }
            if versions
            else {}
        )
        rows.append(
            SliceRow(
                slice=s.slice,
                rows=count(s.rows),
                blocks=count(s.blocks),
                gap=with_sign(s.gap, d),
                interval=interval(s.low, s.high, digits=d),
                reading=reading,
                css=css,
                detail=_not_shown_no_worse(s, d) if s.reading() == "unshown" else "",
                required=yes_no(s.required),
                **scores,
            )
        )
    worse = [s.slice for s in report.slices if s.reading() == "worse"]
    drawn = {s.reading() for s in report.slices if s.gap is not None and s.low is not None}
    # the colours the chart draws, each said once; a colour no slice has is not explained
    amber = _(
        "Amber: a required slice whose worse end lies beyond the dashed margin, so no worse is "
        "not shown."
    )
    if versions:
        said = [
            _("Each slice's change after tuning with its interval, coloured as the table reads it.")
        ]
        if "worse" in drawn:
            said.append(_("Red: wholly below zero, worse after tuning."))
        alt = _(
            "Dot-and-whisker chart of each slice's change after tuning for {slices}; worse "
            "after tuning on {worse}.",
            slices=count_noun(len(rows), "slice"),
            worse=", ".join(worse) if worse else _("none"),
        )
    else:
        said = [
            _(
                "Gap per slice with its interval (candidate better is positive), coloured as the "
                "table reads it."
            )
        ]
        if "worse" in drawn:
            said.append(_("Red: wholly below zero, the candidate is worse."))
        alt = _(
            "Dot-and-whisker chart of per-slice gaps for {slices}; candidate worse on {worse}.",
            slices=count_noun(len(rows), "slice"),
            worse=", ".join(worse) if worse else _("none"),
        )
    if "unshown" in drawn:
        said.append(amber)
    caption = " ".join(said)
    figure = chart_figure(charts, "slices", caption, alt)
    # a slice without rows has no blocks either: it does not make the column say more
    blocks = any(s.blocks != s.rows for s in report.slices)
    required = any(s.required for s in report.slices)
    return SlicesView(
        figure,
        rows,
        columns=_columns(report, versions, blocks, required),
        versions=versions,
        blocks=blocks,
        required=required,
        caption=_caption(report, versions, blocks, required),
        heading=_("Change in each slice") if versions else _("Per-slice gaps"),
    )


def _not_shown_no_worse(s: Slice, digits: int) -> str:
    """A required slice not shown to be no worse: what is missing, in numbers when it has them
    (the interval's worse end, its low end, lies beyond the margin)."""
    if s.low is not None and s.margin is not None:
        return _(
            "no worse needs the interval's worse end above {margin}; it is {low}",
            margin=given(-abs(s.margin)),
            low=with_sign(s.low, digits),
        )
    return _(
        "no worse needs an interval: {reason}", reason=s.not_worse_reason or _("there is none")
    )


def _metric_unit(report: Report) -> str | None:
    p = report.project
    return metric_unit(p.unit, power=unit_power(p.metric))


def _measured_rows(report: Report) -> list[Row]:
    """What was measured: rows per part, blocks, the period, each model's seeds and config."""
    data = report.data
    rows = [Row(_part_rows(part), count(n)) for part, n in data.parts.items()]
    block = data.block_column
    if block:
        rows.append(Row(_("block column"), block))
    # without a block column the slice table's caption says each row is its own block: not
    # said again on its page
    if data.blocks is not None and (block or not report.slices):
        rows.append(
            Row(
                _("blocks on test"),
                blocks_phrase(data.blocks, block)
                if block
                else _("none: the bootstrap resamples rows"),
            )
        )
    kind = (report.noise.block.block_kind if report.noise.block else None) or "period"
    # without a block column the first and last "blocks" are row ids: no period was measured
    if block and kind == "period" and data.first_block is not None:
        rows.append(
            Row(
                _("period measured"),
                _(
                    "{low} to {high}",
                    low=timestamp(data.first_block),
                    high=timestamp(data.last_block),
                ),
            )
        )
    cand, base = names(report)
    for name, seeds, config in (
        (cand, data.seeds.candidate, data.configs.candidate),
        (base, data.seeds.baseline, data.configs.baseline),
    ):
        rows.append(
            Row(
                _("{model} seeds", model=name),
                _seeds_text(seeds),
            )
        )
        if config:
            rows.append(
                Row(
                    _("{model} configuration analysed", model=name)
                    if report.noise.cv
                    else _("{model} configuration scored on test", model=name),
                    config,
                )
            )
    return rows


def _seeds_text(seeds: tuple[int, ...]) -> str:
    """A model's seeds: "5 (1, 2, 3, 4, 5)"; one seed by name, "1 (seed 0)", which a bare
    "1 (0)" does not say."""
    if not seeds:
        return DASH
    if len(seeds) == 1:
        return _("{n} (seed {seed})", n=count(1), seed=str(seeds[0]))
    return f"{count(len(seeds))} ({', '.join(str(x) for x in seeds)})"


def _relevance_rows(report: Report, rel: Relevance) -> list[Row]:
    """The interval against the smallest useful effect, and the costs when there are any."""
    iv = report.noise.interval
    rows = [
        Row(_("smallest useful effect"), given(rel.min_useful_effect, _metric_unit(report))),
        Row(_("finding"), finding_word(rel.finding)),
        Row(
            _("cross-validation gap and interval")
            if iv is not None and iv.source == IntervalSource.CV_CORRECTED
            else _("difference (after − before) and interval")
            if report.project.kind == Kind.BEFORE_AFTER
            else _("test gap and interval"),
            gap_with_interval(rel.gap, rel.low, rel.high),
        ),
    ]
    # a metric gap times cases per period ("+5.9 log loss per month") is no unit anyone
    # uses: relevance per period is said through costs, or not at all
    cpc = rel.cost_per_case
    if cpc is not None:
        rows.append(
            Row(
                _("out-of-fold cost per case (cross-fitted), candidate / baseline")
                if report.threshold is not None and report.threshold.candidate.cv is not None
                # the mean over every network, each at its own chosen threshold: not the
                # threshold table's one network per model
                else _(
                    "mean test cost per case over all networks, each at its own threshold, "
                    "candidate / baseline"
                )
                if repeat_words(report.project.repeats).unit == "network"
                else _(
                    "mean test cost per case over all runs, each at its own threshold, "
                    "candidate / baseline"
                ),
                f"{cost(cpc.candidate)} / {cost(cpc.baseline)}",
            )
        )
    saving = rel.cost_per_period
    if saving is not None:
        if rel.period:
            label = (
                _("candidate saves per {period}", period=rel.period)
                if saving >= 0
                else _("candidate costs more per {period}", period=rel.period)
            )
        else:
            label = (
                _("candidate saves per period")
                if saving >= 0
                else _("candidate costs more per period")
            )
        cases = rel.cases_per_period
        rows.append(
            Row(
                label,
                n_(
                    "{amount} ({cases} cases)",
                    "{amount} ({cases} cases)",
                    2 if cases is None else int(cases),
                    amount=cost(abs(saving)),
                    cases=count(cases),
                ),
            )
        )
    if cpc is not None or saving is not None:
        rows.append(Row(_("costs in"), cost_unit(rel.unit)))
    return rows


def _part_rows(part: str) -> str:
    """ "test rows", "validation rows": the rows of a part, as a label."""
    words = {
        "test": _("test rows"),
        "validation": _("validation rows"),
        "train": _("train rows"),
        "general": _("general rows"),
    }
    return words.get(part, _("{part} rows", part=part))


def finding_word(finding: str | None) -> str:
    """report.json's relevance finding (an id: "too-wide") as words."""
    if not finding:
        return DASH
    words = {
        "useful gain shown": p_("relevance finding", "useful gain shown"),
        "positive not useful": p_("relevance finding", "positive not useful"),
        "equivalent": p_("relevance finding", "equivalent"),
        "worse": p_("relevance finding", "worse"),
        "no useful gain": p_("relevance finding", "no useful gain"),
        "inconclusive": p_("relevance finding", "inconclusive"),
    }
    text = finding.replace("-", " ")
    return words.get(text, text)


def bounds_view(report: Report) -> BoundsView:
    """What was measured, what never was, and the interval against the useful effect (the
    useful effect once: not as a row when the sentence above the rows says it)."""
    rel = report.relevance
    text = in_words(rel.text, report) if rel is not None and rel.text else None
    rows = [] if rel is None else _relevance_rows(report, rel)
    effect = rel.min_useful_effect if rel is not None else None
    gap_row = rows[2] if len(rows) > 2 else None
    if text and rows and effect is not None and says_number(text, given(effect)):
        rows = rows[1:]  # the first row is the smallest useful effect
    printed = rows
    if rel is not None and text and interval(rel.low, rel.high, rel.gap) in text:
        # the sentence says the interval: its row ("gap and interval") would say it again
        printed = [r for r in rows if r is not gap_row]
    return BoundsView(
        data=_measured_rows(report),
        not_tested=[in_words(x, report) for x in report.not_tested],
        relevance=rows,
        relevance_print=printed,
        relevance_text=text,
    )
