"""Charts of the multi-class and regression sections: confusion heat maps, top-label
reliability, predicted against actual, mean residual per block. Every number they draw is in
the report (checks thinned the points)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from reportgen.charts.classification import reliability_diagram
from reportgen.charts.compose import (
    INK,
    MUTED,
    SOLID,
    WIDTH,
    Datasets,
    layer,
    model_colour,
    models,
    of,
    padded,
    unit,
)
from reportgen.model import Report
from reportgen.model.regression import Regression
from reportgen.words.i18n import _, p_

#: above this many classes the heat map drops its count labels (they would not fit)
LABELLED_CLASSES = 12
#: an axis label's width per character at the charts' 11 px font, in px (DejaVu Sans, roughly)
CHAR_PX = 7


class ShareScale(TypedDict):
    """The heat map's colour scale: the keyword arguments of altair's Scale."""

    domain: list[int]
    range: list[str]
    interpolate: Literal["rgb"]


class ClassAxis(TypedDict):
    """A heat map axis's label settings: keyword arguments of altair's Axis."""

    labelOverlap: bool
    labelAngle: int
    labelLimit: int


#: the heat map's colours: white for no rows, dark blue for all of them, mixed in RGB (Vega's
#: default HCL mix turns the white end light cyan)
SHARE_SCALE: ShareScale = {"domain": [0, 1], "range": ["#ffffff", "#08519c"], "interpolate": "rgb"}


def class_axis(classes: list[str], cell: int, vertical: bool = False) -> ClassAxis:
    """A heat map axis that shows every class label: never thinned (Vega hides overlapping
    labels by default), turned 45 degrees when the longest label is wider than a cell."""
    wide = max(len(c) for c in classes) * CHAR_PX > cell
    angle = 0 if vertical or not wide else -45
    return {"labelOverlap": False, "labelAngle": angle, "labelLimit": 120}


def confusion(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Both models' confusion matrices as heat maps of the row shares, counts written in."""
    import altair as alt

    sec = report.multiclass
    if sec is None:
        return None
    classes = [str(k) for k in sec.classes]
    k = len(classes)
    cell = max(14, min(34, 300 // k))
    if k <= LABELLED_CLASSES:  # wide enough for the largest count at the charts' 11 px
        most = max(
            (
                n
                for role, _label, _colour in models(report)
                for row in of(sec, role).confusion
                for n in row
            ),
            default=0,
        )
        cell = max(cell, len(str(most)) * CHAR_PX + 6)
    panels = []
    for role, label, _colour in models(report):
        m = of(sec, role)
        rows = []
        for i, (counts, shares) in enumerate(zip(m.confusion, m.confusion_normalised, strict=True)):
            for j, n in enumerate(counts):
                share = shares[j] if shares else None
                rows.append(
                    {
                        "actual": classes[i],
                        "predicted": classes[j],
                        "count": n,
                        "share": share,
                        "dark": share is not None and share > 0.5,
                    }
                )
        source = data.add(rows)
        x = alt.X(
            "predicted:N",
            sort=classes,
            title=_("{model}: predicted class", model=label),
            axis=alt.Axis(**class_axis(classes, cell)),
        )
        y = alt.Y(
            "actual:N",
            sort=classes,
            title=_("actual class"),
            axis=alt.Axis(**class_axis(classes, cell, vertical=True)),
        )
        heat = unit(
            alt.Chart(source)
            .mark_rect(stroke="white", strokeWidth=0.5)
            .encode(
                x=x,
                y=y,
                color=alt.Color(
                    "share:Q",
                    scale=alt.Scale(**SHARE_SCALE),
                    legend=None,
                ),
            )
        )
        parts = [heat]
        if k <= LABELLED_CLASSES:
            written = data.add([r for r in rows if r["count"]])  # a zero stays blank
            parts.append(
                unit(
                    alt.Chart(written)
                    .mark_text(fontSize=11)
                    .encode(
                        x=x,
                        y=y,
                        text=alt.Text("count:Q"),
                        color=alt.condition("datum.dark", alt.value("white"), alt.value(INK)),
                    )
                )
            )
        panels.append(layer(*parts, width=cell * k, height=cell * k))
    return {"hconcat": panels, "spacing": 30}


def top_label_reliability(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Top-label reliability: how often the predicted class is right against its probability."""
    sec = report.multiclass
    if sec is None:
        return None
    bins = {role: of(sec, role).top_label.bins for role, _label, _colour in models(report)}
    return reliability_diagram(
        report,
        data,
        bins,
        _("mean probability of the predicted class in the bin"),
        _("fraction predicted right"),
        top_label=True,
    )


def _unit_title(sec: Regression, what: str) -> str:
    """An axis title with the target's unit, when the project names one."""
    # TRANSLATORS: an axis title with the target's unit: "actual (mmHg)"
    return _("{what} ({unit})", what=what, unit=sec.unit) if sec.unit else what


def predicted_actual(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Predicted against actual on test for both models, with the diagonal of a perfect fit."""
    import altair as alt

    sec = report.regression
    if sec is None:
        return None
    rows: list[dict[str, Any]] = []
    for role, label, _colour in models(report):
        pts = of(sec, role).points
        rows += [
            {"model": label, "actual": a, "predicted": p}
            for a, p in zip(pts.actual, pts.predicted, strict=True)
        ]
    values = [r["actual"] for r in rows] + [r["predicted"] for r in rows]
    domain = padded(values, 0.04)
    if domain is None:  # no points
        return None
    scale = alt.Scale(domain=domain, nice=False)
    diagonal = unit(
        alt.Chart(data.add([{"x": domain[0], "y": domain[0]}, {"x": domain[1], "y": domain[1]}]))
        .mark_line(color=MUTED, strokeDash=[4, 3], strokeWidth=1)
        .encode(x=alt.X("x:Q", scale=scale), y=alt.Y("y:Q", scale=scale))
    )
    points = unit(
        alt.Chart(data.add(rows))
        .mark_point(size=14, opacity=0.55, filled=True)
        .encode(
            x=alt.X("actual:Q", title=_unit_title(sec, p_("chart axis", "actual")), scale=scale),
            y=alt.Y(
                "predicted:Q", title=_unit_title(sec, p_("chart axis", "predicted")), scale=scale
            ),
            color=model_colour(alt, report),
        )
    )
    return layer(diagonal, points, width=WIDTH - 160, height=WIDTH - 160)


def residuals_by_block(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Mean residual (actual minus predicted) per block for both models, with zero."""
    import altair as alt

    sec = report.regression
    if sec is None or not sec.candidate.by_block:
        return None
    order = [str(g.block) for g in sec.candidate.by_block]
    rows: list[dict[str, Any]] = [
        {"model": label, "block": str(g.block), "residual": g.mean_residual, "order": i}
        for role, label, _colour in models(report)
        for i, g in enumerate(of(sec, role).by_block or ())
        if g.mean_residual is not None
    ]
    x = alt.X(
        "block:N",
        sort=order,
        title=sec.block_column or p_("chart axis", "block"),
        axis=alt.Axis(labelAngle=-45 if len(order) > 8 else 0, labelLimit=90),
    )
    y = alt.Y(
        "residual:Q",
        title=_unit_title(sec, _("mean residual")),
        scale=alt.Scale(domain=padded([r["residual"] for r in rows], 0.08, True), nice=False),
    )
    colour = model_colour(alt, report)
    source = data.add(rows)
    lines = unit(
        alt.Chart(source).mark_line(strokeWidth=1.2).encode(x=x, y=y, color=colour, order="order:Q")
    )
    dots = unit(alt.Chart(source).mark_point(filled=True, size=30).encode(x=x, y=y, color=colour))
    zero = unit(
        alt.Chart(data.add([{"y": 0}]))
        .mark_rule(color=INK, strokeDash=SOLID, strokeWidth=1)
        .encode(y=alt.Y("y:Q"))
    )
    return layer(lines, dots, zero, width=WIDTH, height=200)
