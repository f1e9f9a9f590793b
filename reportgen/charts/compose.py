"""What every chart shares: colours, the Vega-Lite config, named datasets, layering, axes.

Every mark is an altair chart (mark and encoding, the chosen stack); it is turned into a
Vega-Lite dict at once with ``to_dict(validate=False)``, and layers, concatenations and the
shared config are plain dicts. Composing altair objects copies every subchart on each call and
validating re-checks the whole schema; together they took most of the chart time. altair is
imported inside the functions that need it: ``evreport --help`` must stay instant.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, Protocol, TypeVar, overload

from reportgen.model import Report
from reportgen.words.i18n import _, current, number_symbols

#: a model's place in the comparison: the key of its per-model figures
Role = Literal["candidate", "baseline"]
T = TypeVar("T", covariant=True)


class _Pair(Protocol[T]):
    """A per-model section: the candidate's and the baseline's figures."""

    @property
    def candidate(self) -> T: ...

    @property
    def baseline(self) -> T: ...


#: the font every chart uses; installed on the build machine (fc-list) and embedded by
#: weasyprint, so SVG text looks the same in the browser and in the PDF
FONT = "DejaVu Sans"
#: candidate / baseline colours, used consistently in every chart and in the CSS legend
CANDIDATE_COLOUR = "#1f5f99"
BASELINE_COLOUR = "#c2702a"
MUTED = "#8a8f98"
INK = "#222222"
BAD = "#b3261e"
GOOD = "#2e7d32"
#: "partly" / "may be worse": the amber edge of the report's status badges (report.css)
AMBER = "#c98a00"
#: plotting width in px: with the legend and axis it fits A4 portrait (about 170 mm)
WIDTH = 500
SOLID = [1, 0]
DASHED = [5, 3]
DOTTED = [1.5, 2.5]

#: the look shared by every chart (Vega-Lite config). The view's continuous sizes are
#: altair's default theme; every chart sets its own width and height.
CONFIG: dict[str, Any] = {
    "view": {"continuousWidth": 300, "continuousHeight": 300, "stroke": "#cccccc"},
    "axis": {
        "domainColor": "#888888",
        "gridColor": "#e6e6e6",
        "labelColor": INK,
        "labelFontSize": 11,
        # tick labels keep a clear gap; vega drops every other label rather than crowd them
        "labelOverlap": "greedy",
        "labelSeparation": 8,
        "tickColor": "#888888",
        "titleColor": INK,
        "titleFontSize": 11,
        "titleFontWeight": "normal",
    },
    "axisQuantitative": {"tickCount": 6},
    "background": "white",
    "font": FONT,
    "header": {"labelFontSize": 11, "titleFontSize": 11},
    "legend": {
        "direction": "vertical",
        "labelFontSize": 11,
        "labelLimit": 260,
        "orient": "bottom",
        "symbolStrokeWidth": 2,
        "titleFontSize": 11,
        "titleFontWeight": "normal",
    },
}


#: longest axis and legend label outside English, in px: Ukrainian words run about a third
#: longer than the English ones ("gradient boosting (базова модель)"), so the English limits
#: (Vega's 200 for an axis, 260 for the legend) would cut them with an ellipsis
WIDER_LABELS = {"axis": 260, "legend": 360}


def number_locale(lang: str) -> dict[str, Any] | None:
    """The d3 number-format locale Vega draws tick and text numbers in (Vega-Lite's
    ``config.locale.number``): None in English (Vega's own default, so English specs are
    unchanged); otherwise the language's decimal and thousands symbols as words/i18n.py's
    ``number_symbols`` gives them (Ukrainian: "−1 234,5"), and the typographic minus."""
    if lang == "en":
        return None
    decimal, thousands = number_symbols(lang)
    return {
        "decimal": decimal,
        "thousands": thousands,
        "grouping": [3],
        "currency": ["", ""],
        "minus": "\u2212",
    }


def chart_config(lang: str) -> dict[str, Any]:
    """The shared config in ``lang``: CONFIG itself in English (its bytes unchanged); in
    another language with its number locale and room for its longer labels."""
    locale = number_locale(lang)
    if locale is None:
        return CONFIG
    return {
        **CONFIG,
        "axis": {**CONFIG["axis"], "labelLimit": WIDER_LABELS["axis"]},
        "legend": {**CONFIG["legend"], "labelLimit": WIDER_LABELS["legend"]},
        "locale": {"number": locale},
    }


class Datasets:
    """Named inline datasets for one chart.

    Rows go into the spec's top-level ``datasets`` instead of inline ``values``: altair
    deep-copies inline values on every method call, which made large curves slow.
    """

    def __init__(self) -> None:
        self.values: dict[str, list[dict[str, Any]]] = {}

    def add(self, rows: list[dict[str, Any]]) -> Any:
        """Store ``rows`` under the next name; the altair reference to them."""
        import altair as alt

        name = f"data-{len(self.values) + 1}"
        self.values[name] = rows
        return alt.NamedData(name=name)


# ---------------------------------------------------------------- Vega-Lite composition


def unit(chart: Any) -> dict[str, Any]:
    """One altair chart (data, mark, encoding) as a Vega-Lite dict, without schema validation."""
    view: dict[str, Any] = chart.to_dict(validate=False, context={"top_level": False})
    return view


def layer(*parts: dict[str, Any], **props: Any) -> dict[str, Any]:
    """Layer Vega-Lite views; data that every part shares moves up to the layer, as altair does."""
    data = parts[0].get("data")
    if data is not None and all(p.get("data") == data for p in parts):
        parts = tuple({k: v for k, v in p.items() if k != "data"} for p in parts)
        return {"layer": list(parts), "data": data, **props}
    return {"layer": list(parts), **props}


def sized(view: dict[str, Any], width: int, height: int) -> dict[str, Any]:
    """The view with its plotting width and height in px."""
    return {**view, "width": width, "height": height}


def top_level(view: dict[str, Any], data: Datasets) -> dict[str, Any]:
    """A complete spec: the shared config, the view, the schema and the named datasets."""
    import altair as alt

    config = chart_config(current())
    return {"config": config, **view, "$schema": alt.SCHEMA_URL, "datasets": data.values}


# ---------------------------------------------------------------- shared encodings


def model_name(report: Report, role: Role) -> str:
    """A model as the page names it: its display name (evreport.toml [models]), else its id."""
    project = report.project
    model_id = str(project.candidate if role == "candidate" else project.baseline)
    return str(project.display_names.get(model_id) or model_id)


def models(report: Report) -> list[tuple[Role, str, str]]:
    """(role, label, colour) for candidate and baseline; labels are the user's model names."""
    return [
        (
            "candidate",
            _("{model} (candidate)", model=model_name(report, "candidate")),
            CANDIDATE_COLOUR,
        ),
        (
            "baseline",
            _("{model} (baseline)", model=model_name(report, "baseline")),
            BASELINE_COLOUR,
        ),
    ]


def of(pair: _Pair[T], role: Role) -> T:
    """The candidate's or the baseline's member of a per-model section."""
    return pair.candidate if role == "candidate" else pair.baseline


def nominal_colour(alt: Any, field: str, pairs: list[tuple[str, str]], **kwargs: Any) -> Any:
    """A nominal colour with a fixed domain -> colour mapping, legend in domain order."""
    domain = [p[0] for p in pairs]
    return alt.Color(
        f"{field}:N",
        scale=alt.Scale(domain=domain, range=[p[1] for p in pairs]),
        sort=domain,
        **kwargs,
    )


def model_colour(alt: Any, report: Report, **kwargs: Any) -> Any:
    """The candidate/baseline colour encoding on the field ``model`` (the labels of ``models``);
    ``kwargs`` go to ``alt.Color`` (a legend whose symbols keep full opacity, for one)."""
    pairs = [(label, colour) for _role, label, colour in models(report)]
    return nominal_colour(alt, "model", pairs, title=None, **kwargs)


def direction(report: Report) -> str:
    """The words "higher is better" or "lower is better", for axis titles."""
    return _("higher is better") if report.project.higher_is_better else _("lower is better")


def metric_name(report: Report) -> str:
    """The project's metric as axis titles write it (underscores as spaces), with [claim] unit."""
    p = report.project
    if not p.unit:
        return p.metric.replace("_", " ")
    from reportgen.stats.metric_registry import unit_power
    from reportgen.words import metric_label

    return str(metric_label(p.metric, p.unit, power=unit_power(p.metric)))


def gap_title(report: Report) -> str:
    """The axis title of every gap: the metric, with the sign rule spelled out."""
    return _("gap in {metric} (candidate better is positive)", metric=metric_name(report))


def reference(
    alt: Any, data: Datasets, rows: list[dict[str, Any]], scale: Any = None
) -> dict[str, Any]:
    """Labelled vertical reference rules (zero, bounds, cut-offs) with their own legend."""
    legend = list({r["what"]: r for r in rows}.values())
    domain = [r["what"] for r in legend]
    return unit(
        alt.Chart(data.add(rows))
        .mark_rule(strokeWidth=1.5)
        .encode(
            x=alt.X("x:Q", scale=scale) if scale is not None else alt.X("x:Q"),
            color=nominal_colour(
                alt, "what", [(r["what"], r["colour"]) for r in legend], title=None
            ),
            strokeDash=alt.StrokeDash(
                "what:N",
                scale=alt.Scale(domain=domain, range=[r["dash"] for r in legend]),
                sort=domain,
            ),
        )
    )


def with_references(
    alt: Any,
    data: Datasets,
    data_layers: list[dict[str, Any]],
    refs: list[dict[str, Any]],
    scale: Any = None,
) -> dict[str, Any]:
    """Data layers sharing one colour legend, plus reference rules with a legend of their own.

    The rules are drawn last, on top of bars and bands: a zero line or an interval end
    hidden behind a histogram bar is no reference at all.
    """
    layered = data_layers[0] if len(data_layers) == 1 else layer(*data_layers)
    if not refs:
        return layered
    return layer(
        layered,
        reference(alt, data, refs, scale),
        resolve={"scale": {"color": "independent", "strokeDash": "independent"}},
    )


@overload
def padded(
    values: Iterable[float | None], pad: float, include_zero: Literal[True]
) -> list[float]: ...
@overload
def padded(
    values: Iterable[float | None], pad: float = ..., *, include_zero: Literal[True]
) -> list[float]: ...
@overload
def padded(
    values: Iterable[float | None], pad: float = ..., include_zero: bool = ...
) -> list[float] | None: ...
def padded(
    values: Iterable[float | None], pad: float = 0.08, include_zero: bool = False
) -> list[float] | None:
    """An axis domain around `values` with `pad` of its width free on each side.

    No reference line or interval end then sits on the frame, where it reads as the axis
    or as clipped; with include_zero, zero is inside the frame, never on its edge. None when
    there is no value to frame, so never with include_zero.
    """
    xs = [float(v) for v in values if v is not None]
    if include_zero:
        xs.append(0.0)
    if not xs:
        return None
    lo, hi = min(xs), max(xs)
    width = hi - lo or abs(hi) or 1.0
    return [lo - pad * width, hi + pad * width]


def zero_and_useful(report: Report, zero: str) -> list[dict[str, Any]]:
    """Reference rules at zero and, when the project sets one, at the smallest useful effect."""
    refs: list[dict[str, Any]] = [{"x": 0, "what": zero, "colour": INK, "dash": SOLID}]
    useful = None if report.relevance is None else report.relevance.min_useful_effect
    if useful is not None:
        refs.append(
            {"x": useful, "what": _("smallest useful effect"), "colour": GOOD, "dash": DASHED}
        )
    return refs


def dot_whisker(
    alt: Any,
    data: Datasets,
    rows: list[dict[str, Any]],
    label_field: str,
    x_title: str,
    refs: list[dict[str, Any]],
    colours: list[tuple[str, str]],
) -> dict[str, Any]:
    """One row per interval: a rule from low to high and a dot at the gap, coloured by kind."""
    order = [r[label_field] for r in rows]
    y = alt.Y(f"{label_field}:N", title=None, sort=order, axis=alt.Axis(labelLimit=230))
    colour = nominal_colour(alt, "kind", colours, title=None)
    source = data.add(rows)
    domain = padded(
        [r[k] for r in rows for k in ("low", "high", "gap")] + [r["x"] for r in refs],
        include_zero=True,
    )
    whisker = (
        alt.Chart(source)
        .mark_rule(strokeWidth=2.2)
        .encode(
            x=alt.X("low:Q", title=x_title, scale=alt.Scale(domain=domain, nice=False)),
            x2=alt.X2("high:Q"),
            y=y,
            color=colour,
        )
    )
    dot = (
        alt.Chart(source)
        .mark_point(filled=True, size=60)
        .encode(x=alt.X("gap:Q"), y=y, color=colour)
    )
    chart = with_references(alt, data, [unit(whisker), unit(dot)], refs)
    return sized(chart, WIDTH - 80, max(60, 26 * len(rows)))
