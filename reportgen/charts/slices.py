"""The slice chart: each slice's gap with its interval, slices where the candidate is worse in red."""

from __future__ import annotations

from typing import Any

from reportgen.charts.compose import BAD, GOOD, INK, MUTED, SOLID, Datasets, dot_whisker, gap_title
from reportgen.model import Report


def slice_gaps(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Per-slice gap with its interval; slices where the candidate is worse in red."""
    import altair as alt

    rows = []
    for s in report.slices or ():
        if s.gap is None or s.low is None:
            continue
        if s.worse:
            kind = "candidate worse (interval below zero)"
        elif s.low > 0:
            kind = "candidate better (interval above zero)"
        else:
            kind = "interval includes zero"
        rows.append(
            {
                "slice": str(s.slice),
                "gap": s.gap,
                "low": s.low,
                "high": s.high,
                "kind": kind,
            }
        )
    if not rows:
        return None
    return dot_whisker(
        alt,
        data,
        rows,
        "slice",
        gap_title(report),
        [{"x": 0, "what": "zero: no difference", "colour": INK, "dash": SOLID}],
        [
            ("candidate better (interval above zero)", GOOD),
            ("interval includes zero", MUTED),
            ("candidate worse (interval below zero)", BAD),
        ],
    )
