"""Cross-validation: the fold gaps by repeat, with the corrected and the naive interval on their mean."""

from __future__ import annotations

from typing import Any

from reportgen.charts.compose import (
    CANDIDATE_COLOUR,
    INK,
    MUTED,
    WIDTH,
    Datasets,
    gap_title,
    nominal_colour,
    padded,
    sized,
    unit,
    with_references,
    zero_and_useful,
)
from reportgen.model import Report
from reportgen.words.i18n import _


def legend() -> tuple[str, str, str]:
    """The legend's words (one fold's gap, the corrected and the naive interval), in the
    language being written: looked up at each chart, never at import."""
    return (
        _("one fold's gap"),
        _("corrected interval (resampled t)"),
        _("naive interval (folds as if independent)"),
    )


def cv_fold_gaps(report: Report, data: Datasets) -> dict[str, Any] | None:
    """One dot per fold gap, a row per repeat; below them both intervals on the mean gap."""
    import altair as alt

    cv = report.noise.cv
    if cv is None:
        return None
    fold, corrected, naive = legend()
    dots: list[dict[str, Any]] = [
        # TRANSLATORS: a chart row: one repeat of the cross-validation, {repeat} its number
        {"row": _("repeat {repeat}", repeat=g.repeat), "gap": g.gap, "kind": fold, "fold": g.fold}
        for g in cv.fold_gaps
        if g.gap is not None
    ]
    if not dots:
        return None
    order: list[str] = list(dict.fromkeys(d["row"] for d in dots))
    bars: list[dict[str, Any]] = []
    for label, part, kind in (
        (_("corrected, mean gap"), cv.corrected, corrected),
        (_("naive, mean gap"), cv.naive, naive),
    ):
        if part.low is not None:
            bars.append(
                {
                    "row": label,
                    "gap": cv.gap,
                    "low": part.low,
                    "high": part.high,
                    "kind": kind,
                }
            )
    order += [b["row"] for b in bars]
    refs = zero_and_useful(report, _("zero: no difference"))
    domain = padded(
        [d["gap"] for d in dots]
        + [b[k] for b in bars for k in ("low", "high")]
        + [r["x"] for r in refs],
        include_zero=True,
    )
    x = alt.Scale(domain=domain, nice=False)
    y = alt.Y("row:N", title=None, sort=order, axis=alt.Axis(labelLimit=200))
    colour = nominal_colour(
        alt, "kind", [(fold, CANDIDATE_COLOUR), (corrected, INK), (naive, MUTED)], title=None
    )
    layers = [
        unit(
            alt.Chart(data.add(dots))
            .mark_point(size=28, opacity=0.7, filled=True)
            .encode(x=alt.X("gap:Q", title=gap_title(report), scale=x), y=y, color=colour)
        )
    ]
    if bars:
        source = data.add(bars)
        layers.append(
            unit(
                alt.Chart(source)
                .mark_rule(strokeWidth=2.4)
                .encode(x=alt.X("low:Q", scale=x), x2=alt.X2("high:Q"), y=y, color=colour)
            )
        )
        layers.append(
            unit(
                alt.Chart(source)
                .mark_point(filled=True, size=60)
                .encode(x=alt.X("gap:Q", scale=x), y=y, color=colour)
            )
        )
    chart = with_references(alt, data, layers, refs, x)
    return sized(chart, WIDTH - 80, max(80, 22 * len(order)))
