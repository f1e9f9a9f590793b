"""Input sensitivity: each feature's median |dp/dx| per raw unit, a dot per model."""

from __future__ import annotations

from typing import Any

from reportgen.charts.compose import (
    WIDTH,
    Datasets,
    model_colour,
    models,
    padded,
    sized,
    unit,
)
from reportgen.model import Report
from reportgen.words.i18n import _

#: the most features drawn (the table's ten)
DRAWN = 10


def sensitivity_dots(report: Report, data: Datasets) -> dict[str, Any] | None:
    """A row per feature (the candidate's ten largest median |dp/dx|), a dot per model; only
    when both models have figures for the same features in the same units."""
    import altair as alt

    got = report.sensitivity or {}
    pair = [got.get(str(report.project.candidate)), got.get(str(report.project.baseline))]
    cand, base = pair
    if cand is None or base is None or cand.features is None or base.features is None:
        return None
    units = {f.name: f.unit for f in cand.features}
    if units != {f.name: f.unit for f in base.features}:
        return None
    order = [f.name for f in sorted(cand.features, key=lambda f: -f.median_abs)][:DRAWN]
    rows: list[dict[str, Any]] = []
    medians: list[float] = []
    for (_role, label, _colour), s in zip(models(report), (cand, base), strict=True):
        by_name = {f.name: f.median_abs for f in s.features or ()}
        rows += [{"feature": n, "median_abs": by_name[n], "model": label} for n in order]
        medians += [by_name[n] for n in order]
    domain = padded(medians, include_zero=True)
    y = alt.Y("feature:N", title=None, sort=order, axis=alt.Axis(labelLimit=200))
    dots = (
        alt.Chart(data.add(rows))
        .mark_point(filled=True, size=60, opacity=0.85)
        .encode(
            x=alt.X(
                "median_abs:Q",
                title=_("median |dp/dx|, per raw unit of each feature"),
                scale=alt.Scale(domain=domain, nice=False),
            ),
            y=y,
            color=model_colour(alt, report),
        )
    )
    return sized(unit(dots), WIDTH - 80, max(60, 20 * len(order)))
