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
)
from reportgen.model import Report
from reportgen.model.relevance import SliceReading
from reportgen.words import given
from reportgen.words.i18n import _


def kinds() -> dict[SliceReading, tuple[str, str]]:
    """Each reading's legend words and colour, in the table's colours (shown green, partly
    amber, not shown red, neutral grey); in legend order. The words in the language being
    written: looked up at each chart, never at import."""
    return {
        "better": (_("candidate better (interval above zero)"), GOOD),
        "not_worse": (_("no worse: worse end above the margin"), GOOD),
        "unclear": (_("interval includes zero"), MUTED),
        "unshown": (_("may be worse: worse end beyond the margin"), AMBER),
        "worse": (_("candidate worse (interval below zero)"), BAD),
    }


def slice_gaps(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Per-slice gap with its interval, coloured by the slice's reading (``Slice.reading``,
    the rule the table prints), and the non-inferiority margin when a slice is required.

    The legend lists only the readings drawn: a legend entry no slice has is noise.
    """
    import altair as alt

    legend = kinds()
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
    refs = [{"x": 0, "what": _("zero: no difference"), "colour": INK, "dash": SOLID}]
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
        gap_title(report),
        refs,
        [pair for pair in legend.values() if pair[0] in drawn],
    )
