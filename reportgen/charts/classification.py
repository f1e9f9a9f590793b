"""Classification charts: validation cost against threshold, ROC and precision-recall, reliability."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportgen.charts.compose import (
    DASHED,
    INK,
    MUTED,
    WIDTH,
    Datasets,
    Role,
    layer,
    model_colour,
    models,
    of,
    padded,
    sized,
    unit,
    with_references,
)
from reportgen.model import Report
from reportgen.model.ranking import CalibrationBin, CalibrationModel, RocBand
from reportgen.stats.calibration import MIN_JOINED
from reportgen.stats.threshold import cost_at, cost_axis
from reportgen.words import fixed
from reportgen.words.i18n import _, p_

#: one model's curve: its label, the x values and the y values (checks thinned them)
Curve = tuple[str, Sequence[float | None], Sequence[float | None]]


def _guide_line(alt: Any, data: Datasets, y0: float, y1: float, x0: float = 0) -> dict[str, Any]:
    """A thin dashed grey line from (x0, y0) to (1, y1): chance diagonal or chance level."""
    return unit(
        alt.Chart(data.add([{"x": x0, "y": y0}, {"x": 1, "y": y1}]))
        .mark_line(color=MUTED, strokeDash=[4, 3], strokeWidth=1)
        .encode(x=alt.X("x:Q"), y=alt.Y("y:Q"))
    )


def _curve_rows(curves: list[Curve]) -> list[dict[str, Any]]:
    """Both models' curves as rows (model, x, y, order); a model without its curve is left out."""
    rows = []
    for label, xs, ys in curves:
        for order, (x, y) in enumerate(zip(xs, ys, strict=False)):
            if x is None or y is None:
                continue
            rows.append({"model": label, "x": x, "y": y, "order": order})
    return rows


def _unit_square_curves(
    alt: Any,
    report: Report,
    data: Datasets,
    rows: list[dict[str, Any]],
    x_title: str,
    y_title: str,
) -> dict[str, Any]:
    """Both models' curves on [0, 1] x [0, 1] (ROC, precision-recall)."""
    square = alt.Scale(domain=[0, 1])
    return unit(
        alt.Chart(data.add(rows))
        .mark_line(strokeWidth=1.6)
        .encode(
            x=alt.X("x:Q", title=x_title, scale=square),
            y=alt.Y("y:Q", title=y_title, scale=square),
            color=model_colour(alt, report, legend=alt.Legend(symbolOpacity=1)),
            order=alt.Order("order:Q"),
        )
    )


def _band_rows(report: Report, roc: bool, skip_zero: bool = False) -> list[dict[str, Any]]:
    """Both models' seed bands (ranking.<role>.roc_band, or pr_band) as rows (model, x, low, high)."""
    rows: list[dict[str, Any]] = []
    if report.ranking is None:
        return rows
    for role, label, _colour in models(report):
        m = of(report.ranking, role)
        band = m.roc_band if roc else m.pr_band
        if band is None:
            continue
        xs = band.fpr if isinstance(band, RocBand) else band.recall
        for x, lo, hi in zip(xs, band.low, band.high, strict=True):
            if not (skip_zero and x == 0):
                rows.append({"model": label, "x": x, "low": lo, "high": hi})
    return rows


def _bands(alt: Any, report: Report, data: Datasets, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The lowest to highest curve of each model's networks, shaded in the model's colour."""
    square = alt.Scale(domain=[0, 1])
    return unit(
        alt.Chart(data.add(rows))
        .mark_area(opacity=0.28)
        .encode(
            x=alt.X("x:Q", scale=square),
            y=alt.Y("low:Q", scale=square),
            y2=alt.Y2("high:Q"),
            color=model_colour(alt, report, legend=alt.Legend(symbolOpacity=1)),
        )
    )


# ---------------------------------------------------------------- threshold and ranking


def threshold_cost(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Validation cost against threshold for both models, chosen thresholds and the theoretical cutoff."""
    import altair as alt

    th = report.threshold
    if th is None:
        return None
    curves = [(label, of(th, role).curve) for role, label, _colour in models(report)]
    rows = _curve_rows(
        [(label, c.threshold, c.cost) for label, c in curves if c is not None and c.threshold]
    )
    if not rows:
        return None
    # above a model's highest score it predicts no positives: its cost stays where the
    # curve ends, so the line runs on to threshold 1 instead of stopping mid-axis
    for label in dict.fromkeys(r["model"] for r in rows):
        last = max((r for r in rows if r["model"] == label), key=lambda r: r["order"])
        if last["x"] < 1:
            rows.append({**last, "x": 1.0, "order": last["order"] + 1})
    chosen = []
    for role, label, _colour in models(report):
        m = of(th, role)
        if m.validation_cost is not None:
            chosen.append({"model": label, "x": min(m.threshold, 1.0), "y": m.validation_cost})
        elif m.cv is not None and m.curve is not None and m.curve.threshold:
            # cross-fitted: the marker sits on the out-of-fold curve at the median fold threshold
            y = cost_at(m.curve.threshold, m.curve.cost, m.threshold)
            chosen.append({"model": label, "x": min(m.threshold, 1.0), "y": y})
    axis = cost_axis(
        [
            (m.curve.threshold, m.curve.cost, m.threshold)
            for m in (th.candidate, th.baseline)
            if m.curve is not None
        ]
    )
    cut = axis is not None and axis.cut
    if axis is not None and axis.cut:
        # a spike at an end of the curve (no positives predicted near threshold 1, all near
        # 0) would flatten the minimum along the floor: the axis stops at axis.top, the line
        # leaves the plot there, and the caption says where it is cut and how high the curve
        # rises (view/threshold.py)
        domain = [-0.06 * axis.top, axis.top]
    else:
        # zero in, and room above the highest point: no curve runs into the frame
        domain = padded([r["y"] for r in rows], 0.06, True)
    colour = model_colour(alt, report)
    line = (
        alt.Chart(data.add(rows))
        .mark_line(strokeWidth=1.6, interpolate="step-after", clip=cut)
        .encode(
            x=alt.X(
                "x:Q",
                title=_("threshold (predict positive when p ≥ threshold)"),
                scale=alt.Scale(domain=[0, 1]),
            ),
            y=alt.Y(
                "y:Q",
                # its unit is in the caption: a long title squashes the plot
                title=_("cost / case"),
                scale=alt.Scale(domain=domain, nice=False),
            ),
            color=colour,
            order=alt.Order("order:Q"),
        )
    )
    layers = [unit(line)]
    if chosen:
        layers.append(
            unit(
                alt.Chart(data.add(chosen))
                .mark_point(shape="diamond", size=120, filled=True, stroke="white", strokeWidth=1)
                .encode(x=alt.X("x:Q"), y=alt.Y("y:Q"), color=colour)
            )
        )
    refs = []
    if th.theoretical_cutoff is not None:
        refs.append(
            {
                "x": th.theoretical_cutoff,
                "what": _("theoretical cutoff c_FP / (c_FP + c_FN)"),
                "colour": INK,
                "dash": DASHED,
            }
        )
    return sized(with_references(alt, data, layers, refs), WIDTH, 190)


def _ranking_curves(report: Report, roc: bool) -> list[Curve]:
    """Both models' ROC (roc) or precision-recall curves, those the report has."""
    if report.ranking is None:
        return []
    out: list[Curve] = []
    for role, label, _colour in models(report):
        m = of(report.ranking, role)
        if roc and m.roc is not None and m.roc.fpr:
            out.append((label, m.roc.fpr, m.roc.tpr))
        if not roc and m.pr is not None and m.pr.recall:
            out.append((label, m.pr.recall, m.pr.precision))
    return out


def roc_curve(report: Report, data: Datasets) -> dict[str, Any] | None:
    """ROC curves of both models on test with the chance diagonal."""
    import altair as alt

    rows = _curve_rows(_ranking_curves(report, roc=True))
    if not rows:
        return None
    layers = [_guide_line(alt, data, 0, 1)]
    band = _band_rows(report, roc=True)
    if band:
        layers.append(_bands(alt, report, data, band))
    layers.append(
        _unit_square_curves(
            alt, report, data, rows, _("false positive rate"), _("true positive rate")
        )
    )
    return layer(*layers, width=230, height=230)


def pr_curve(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Precision-recall curves of both models on test, with the positive rate as the chance level."""
    import altair as alt

    # precision at recall 0 is a convention (1 by definition), not a measurement: drawn, it is
    # a vertical segment up the axis that no threshold produces
    rows = [r for r in _curve_rows(_ranking_curves(report, roc=False)) if r["x"]]
    if not rows:
        return None
    layers = []
    cand = None if report.threshold is None else report.threshold.candidate
    if cand is not None and cand.rows:
        rate = cand.actual_positive / cand.rows
        layers.append(_guide_line(alt, data, rate, rate))
        layers.append(
            unit(
                # at the left, where precision is high and the curves are far above it
                alt.Chart(
                    data.add(
                        [
                            {
                                "x": 0,
                                "y": rate,
                                "text": _("positive rate {rate}", rate=fixed(rate, 2)),
                            }
                        ]
                    )
                )
                .mark_text(align="left", baseline="bottom", dx=3, dy=-3, fontSize=11, color=MUTED)
                .encode(x=alt.X("x:Q"), y=alt.Y("y:Q"), text=alt.Text("text:N"))
            )
        )
    band = _band_rows(report, roc=False, skip_zero=True)
    if band:
        layers.append(_bands(alt, report, data, band))
    layers.append(
        _unit_square_curves(
            alt, report, data, rows, p_("chart axis", "recall"), p_("chart axis", "precision")
        )
    )
    return layer(*layers, width=230, height=230)


def ranking_pair(report: Report, data: Datasets) -> dict[str, Any] | None:
    """ROC and precision-recall side by side, one shared legend."""
    parts = [c for c in (roc_curve(report, data), pr_curve(report, data)) if c is not None]
    if not parts:
        return None
    return {"hconcat": parts, "spacing": 40} if len(parts) == 2 else parts[0]


# ---------------------------------------------------------------- calibration


def reliability(report: Report, data: Datasets) -> dict[str, Any] | None:
    """Reliability diagram: a point per bin with the bin's interval, its rows in a count
    histogram under it.

    The interval is the one the report gives per bin (``fraction_low`` to ``fraction_high``,
    Wilson at the report's confidence); a bin without one is drawn without its line.
    Bins with fewer than MIN_JOINED rows are hollow and left out of the line: joined like
    the others they would claim a precision their two or three rows do not have.
    """
    cal = report.calibration
    if cal is None:
        return None
    bins = {role: _spread_bins(of(cal, role)) for role, _label, _colour in models(report)}
    return reliability_diagram(
        report,
        data,
        bins,
        _("mean predicted probability in the bin"),
        _("observed positive fraction"),
    )


def _spread_bins(m: CalibrationModel) -> Sequence[CalibrationBin]:
    """A model's bins; in a cross-validation design each bin's vertical line spans the lowest
    to highest observed fraction of every out-of-fold set (calibration.<model>.cv), as the
    ROC bands span them."""
    if m.cv is None:
        return m.bins
    return [
        CalibrationBin(b.low, b.high, b.count, b.mean_p, b.fraction_positive, lo, hi)
        for b, lo, hi in zip(m.bins, m.cv.band_low, m.cv.band_high, strict=True)
    ]


def reliability_diagram(
    report: Report,
    data: Datasets,
    bins: Mapping[Role, Sequence[CalibrationBin]],
    x_title: str,
    y_title: str,
    *,
    top_label: bool = False,
) -> dict[str, Any] | None:
    """The reliability diagram of both models' ``bins`` (role -> reliability_bins), the
    binary one (class-1 probability) or a multi-class model's top-label one.

    ``top_label``: a confident model puts nearly every row in the top bin and leaves the
    others a few rows each, whose intervals span the whole height (digits: 1 to 15 rows
    against 323). Those bins are then faint small points without their interval, and both
    panels' probability axis starts at the lowest bin that holds rows (the top label's
    probability is at least one over the classes), so the histogram still counts every row.
    """
    import altair as alt

    rows: list[dict[str, Any]] = []
    for role, label, _colour in models(report):
        # the two models' points sit a little apart so their intervals do not overlap
        nudge = -0.006 if role == "candidate" else 0.006
        run = 0  # the line breaks at a small bin rather than bridging it
        for b in bins[role]:
            if not b.count or b.mean_p is None or b.fraction_positive is None:
                continue  # empty bins are not drawn
            run += b.count < MIN_JOINED
            rows.append(
                {
                    "model": label,
                    "mean_p": b.mean_p,
                    "x": min(1.0, max(0.0, b.mean_p + nudge)),
                    "observed": b.fraction_positive,
                    "low": b.fraction_low,
                    "high": b.fraction_high,
                    "count": b.count,
                    "bin": f"{b.low:.2f}–{b.high:.2f}",
                    "joined": b.count >= MIN_JOINED,
                    "run": f"{role}-{run}",
                }
            )
    if not rows:
        return None
    # the legend's symbols at full strength, as the points are drawn (not the faint rules')
    colour = model_colour(alt, report, legend=alt.Legend(symbolOpacity=1))
    scale = alt.Scale(domain=[0, 1])
    start = top_label_start(bins) if top_label else 0.0
    x_scale = alt.Scale(domain=[start, 1])
    x = alt.X("x:Q", title=x_title, scale=x_scale)
    y = alt.Y("observed:Q", title=y_title, scale=scale)
    big = data.add([r for r in rows if r["joined"]])
    small = [r for r in rows if not r["joined"]]
    whiskers = [r for r in rows if r["low"] is not None and (r["joined"] or not top_label)]
    layers = [
        _guide_line(alt, data, start, 1, start),
        unit(
            alt.Chart(data.add(whiskers))
            .mark_rule(strokeWidth=1, opacity=0.55)
            .encode(x=x, y=alt.Y("low:Q", scale=scale), y2=alt.Y2("high:Q"), color=colour)
        ),
        unit(
            alt.Chart(big)
            .mark_line(strokeWidth=1.4)
            .encode(x=x, y=y, color=colour, detail=alt.Detail("run:N"))
        ),
        unit(
            alt.Chart(big)
            .mark_point(filled=True, opacity=0.9, size=36)
            .encode(x=x, y=y, color=colour)
        ),
    ]
    if small and top_label:
        layers.append(
            unit(
                alt.Chart(data.add(small))
                .mark_point(filled=True, opacity=0.45, size=16)
                .encode(x=x, y=y, color=colour)
            )
        )
    elif small:
        layers.append(
            unit(
                alt.Chart(data.add(small))
                .mark_point(filled=False, strokeWidth=1.4, size=36)
                .encode(x=x, y=y, color=colour)
            )
        )
    diagram = layer(*layers, width=WIDTH - 140, height=220)
    counts = _bin_counts(alt, report, data, bins, x_title, start)
    if counts is None:
        return diagram
    # the count histogram under the diagram (as scikit-learn's calibration example): how
    # many rows each point rests on, on the same probability axis
    diagram["layer"] = [
        {**part, "encoding": {**part["encoding"], "x": {**part["encoding"]["x"], "title": None}}}
        if "encoding" in part and "x" in part["encoding"]
        else part
        for part in diagram["layer"]
    ]
    return {"vconcat": [diagram, counts], "spacing": 6}


def top_label_start(bins: Mapping[Role, Sequence[CalibrationBin]]) -> float:
    """Where a top-label diagram's probability axis starts: the lower edge of the lowest bin
    that holds rows in either model (0 when none does)."""
    return min((b.low for side in bins.values() for b in side if b.count), default=0.0)


def _bin_counts(
    alt: Any,
    report: Report,
    data: Datasets,
    bins: Mapping[Role, Sequence[CalibrationBin]],
    x_title: str,
    x_from: float = 0.0,
) -> dict[str, Any] | None:
    """Rows per bin for both models, side by side within each bin (candidate left), on a
    probability axis from ``x_from`` to 1."""
    rows = []
    for i, (role, label, _colour) in enumerate(models(report)):
        for b in bins[role]:
            if not b.count:
                continue
            half = (b.high - b.low) / 2
            start = b.low + i * half
            rows.append({"model": label, "a": start, "b": start + half, "count": b.count})
    if not rows:
        return None
    colour = model_colour(alt, report, legend=None)
    bars = (
        alt.Chart(data.add(rows))
        .mark_rect(opacity=0.85)
        .encode(
            x=alt.X("a:Q", title=x_title, scale=alt.Scale(domain=[x_from, 1])),
            x2=alt.X2("b:Q"),
            y=alt.Y("count:Q", title=p_("chart axis", "rows"), axis=alt.Axis(tickCount=3)),
            y2=alt.datum(0),
            color=colour,
        )
    )
    return sized(unit(bars), WIDTH - 140, 50)
