"""The slice chart: each slice's gap with its interval, coloured as the slice table reads it."""

from __future__ import annotations

from typing import Any

from reportgen.charts.compose import (
    AMBER,
    BAD,
    DASHED,
    GOOD,
    INK,
    MUTED,
    SOLID,
    Datasets,
    dot_whisker,
    gap_title,
    metric_name,
)
from reportgen.model import Report
from reportgen.model.enums import Kind
from reportgen.model.relevance import SliceReading
from reportgen.words import given
from reportgen.words.i18n import _


def kinds(versions: bool = False) -> dict[SliceReading, tuple[str, str]]:
    """Each reading's legend words and colour, in the table's colours (shown green, partly
    amber, not shown red, neutral grey); in legend order; ``versions``: a before/after
    project's words (better or worse after tuning), as its table says them. The words in the
    language being written: looked up at each chart, never at import."""
    if versions:
        better = _("better after tuning (interval above zero)")
        unshown = _("no worse not shown: worse end beyond the margin")
        worse = _("worse after tuning (interval below zero)")
    else:
        better = _("candidate better (interval above zero)")
        unshown = _("may be worse: worse end beyond the margin")
        worse = _("candidate worse (interval below zero)")
    return {
        "better": (better, GOOD),
        "not_worse": (_("no worse: worse end above the margin"), GOOD),
        "unclear": (_("interval includes zero"), MUTED),
        "unshown": (unshown, AMBER),
        "worse": (worse, BAD),
    }


def slice_gaps(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Per-slice gap with its interval, coloured by the slice's reading (``Slice.reading``,
    the rule the table prints), and the non-inferiority margin when a slice is required.

    The legend lists only the readings drawn: a legend entry no slice has is noise.
    """
    import altair as alt

    versions = report.project.kind == Kind.BEFORE_AFTER
    legend = kinds(versions)
    rows = []
    for s in report.slices or ():
        if s.gap is None or s.low is None:
            continue  # not measured: the table says so, there is nothing to draw
        rows.append(
            {
                "slice": str(s.slice),
                "gap": s.gap,
                "low": s.low,
                "high": s.high,
                "kind": legend[s.reading()][0],
            }
        )
    if not rows:
        return None
    drawn = {r["kind"] for r in rows}
    zero = _("zero: no change") if versions else _("zero: no difference")
    refs = [{"x": 0, "what": zero, "colour": INK, "dash": SOLID}]
    margins = sorted(
        {abs(s.margin) for s in report.slices or () if s.required and s.margin is not None}
    )
    if len(margins) == 1:  # one margin for every required slice (not_worse_margin)
        refs.append(
            {
                "x": -margins[0],
                "what": _("no-worse margin ({margin})", margin=given(-margins[0])),
                "colour": AMBER,
                "dash": DASHED,
            }
        )
    return dot_whisker(
        alt,
        data,
        rows,
        "slice",
        _("change in {metric} (after better is positive)", metric=metric_name(report))
        if versions
        else gap_title(report),
        refs,
        [pair for pair in legend.values() if pair[0] in drawn],
    )
