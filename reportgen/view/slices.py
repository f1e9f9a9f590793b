"""Slices and bounds: per-slice gaps, relevance in decision units, what was measured."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.enums import IntervalSource
from reportgen.model.relevance import Relevance, Slice
from reportgen.stats.metric_registry import unit_power
from reportgen.view.parts import Figure, Row, chart_figure, cost_unit, in_words, names
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
from reportgen.words.i18n import _, n_, p_
from reportgen.words.repeats import repeat_words


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


def slice_reading(s: Slice, readings: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """A slice's reading and CSS class, by the model's one rule (``Slice.reading``)."""
    return readings[s.reading()]


def slices_view(report: Report, charts: Collection[str]) -> SlicesView | None:
    """Each slice's gap, interval and reading, and its chart; None without a slice column."""
    if report.slices is None:
        return None
    rows = []
    words = readings()
    for s in report.slices:
        # each slice's gap and interval share one decimal count, as its sentences print them
        d = gap_decimals(s.gap, s.low, s.high)
        reading, css = slice_reading(s, words)
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
            )
        )
    worse = [s.slice for s in report.slices if s.reading() == "worse"]
    figure = chart_figure(
        charts,
        "slices",
        _(
            "Gap per slice with its interval (candidate better is positive), coloured as the "
            "table reads it. Red: wholly below zero, the candidate is worse; amber: a required "
            "slice whose worse end lies beyond the dashed margin, so no worse is not shown."
        ),
        _(
            "Dot-and-whisker chart of per-slice gaps for {slices}; candidate worse on {worse}.",
            slices=count_noun(len(rows), "slice"),
            worse=", ".join(worse) if worse else _("none"),
        ),
    )
    return SlicesView(figure, rows)


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
    if data.blocks is not None:
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
                f"{count(len(seeds))} ({', '.join(str(x) for x in seeds)})" if seeds else DASH,
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


def _relevance_rows(report: Report, rel: Relevance) -> list[Row]:
    """The interval against the smallest useful effect, and the costs when there are any."""
    iv = report.noise.interval
    rows = [
        Row(_("smallest useful effect"), given(rel.min_useful_effect, _metric_unit(report))),
        Row(_("finding"), finding_word(rel.finding)),
        Row(
            _("cross-validation gap and interval")
            if iv is not None and iv.source == IntervalSource.CV_CORRECTED
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
    """What was measured, what never was, and the interval against the useful effect."""
    rel = report.relevance
    rows = [] if rel is None else _relevance_rows(report, rel)
    text = in_words(rel.text, report) if rel is not None and rel.text else None
    printed = rows
    if rel is not None and text and interval(rel.low, rel.high, rel.gap) in text:
        # the sentence says the interval: its row ("gap and interval") would say it again
        printed = [r for i, r in enumerate(rows) if i != 2]
    return BoundsView(
        data=_measured_rows(report),
        not_tested=[in_words(x, report) for x in report.not_tested],
        relevance=rows,
        relevance_print=printed,
        relevance_text=text,
    )
