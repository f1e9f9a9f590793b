"""Report dict -> altair charts -> Vega-Lite dicts -> inline SVG strings. No file IO.

Every mark is an altair chart (mark and encoding, the chosen stack); it is turned into a
Vega-Lite dict at once with ``to_dict(validate=False)``, and layers, concatenations and the
shared config are plain dicts. Composing altair objects copies every subchart on each call and
validating re-checks the whole schema; together they took most of the chart time.

vl-convert draws each spec (and escapes every string it draws); ids are then made
deterministic and per-chart so several SVGs can share one page. altair and vl_convert are
imported lazily: ``evreport --help`` must stay instant.
"""

from __future__ import annotations

import re
from collections.abc import Callable

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
#: plotting width in px: with the legend and axis it fits A4 portrait (about 170 mm)
WIDTH = 500
MAX_POINTS = 500
SOLID = [1, 0]
DASHED = [5, 3]

#: the look shared by every chart (Vega-Lite config). The view's continuous sizes are
#: altair's default theme; every chart sets its own width and height.
CONFIG = {
    "view": {"continuousWidth": 300, "continuousHeight": 300, "stroke": "#cccccc"},
    "axis": {
        "domainColor": "#888888",
        "gridColor": "#e6e6e6",
        "labelColor": INK,
        "labelFontSize": 11,
        "tickColor": "#888888",
        "titleColor": INK,
        "titleFontSize": 11,
        "titleFontWeight": "normal",
    },
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

_ID_RE = re.compile(r'\bid="([^"]+)"')
_FORBIDDEN = ("<script", "<foreignobject", "javascript:", 'href="http', "href='http")


#: longest label a chart shows: vl-convert's layout time grows fast with label length
MAX_LABEL = 200
_LABEL_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_LABEL_ACTIVE = re.compile(r"(?i)(javascript|href)")


def chart_label(text: str) -> str:
    """A user's text as a chart may show it: no control characters, at most MAX_LABEL long.

    vl-convert aborts the whole process (a Rust panic) on some control characters, so
    every string reaches a chart through here; report.json keeps the original text.
    Words the SVG safety check looks for get a zero-width space, so a label cannot
    make a chart refuse to render.
    """
    s = _LABEL_CONTROL.sub("\ufffd", text)
    if len(s) > MAX_LABEL:
        s = s[: MAX_LABEL - 1] + "…"
    return _LABEL_ACTIVE.sub("\\1\u200b", s)


def sanitise_spec(node):
    """Every string value in a Vega-Lite spec passed through ``chart_label``."""
    if isinstance(node, str):
        return chart_label(node)
    if isinstance(node, dict):
        return {k: sanitise_spec(v) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return [sanitise_spec(v) for v in node]
    return node


class Datasets:
    """Named inline datasets for one chart.

    Rows go into the spec's top-level ``datasets`` instead of inline ``values``: altair
    deep-copies inline values on every method call, which made large curves slow.
    """

    def __init__(self) -> None:
        self.values: dict[str, list[dict]] = {}

    def add(self, rows: list[dict]):
        import altair as alt

        name = f"data-{len(self.values) + 1}"
        self.values[name] = rows
        return alt.NamedData(name=name)


def thin(n: int, limit: int = MAX_POINTS) -> list[int]:
    """Indices of at most `limit` evenly spread points of n, first and last always kept."""
    if n <= limit:
        return list(range(n))
    step = (n - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


# ---------------------------------------------------------------- Vega-Lite composition


def unit(chart) -> dict:
    """One altair chart (data, mark, encoding) as a Vega-Lite dict, without schema validation."""
    return chart.to_dict(validate=False, context={"top_level": False})


def layer(*parts: dict, **props) -> dict:
    """Layer Vega-Lite views; data that every part shares moves up to the layer, as altair does."""
    data = parts[0].get("data")
    if data is not None and all(p.get("data") == data for p in parts):
        parts = tuple({k: v for k, v in p.items() if k != "data"} for p in parts)
        return {"layer": list(parts), "data": data, **props}
    return {"layer": list(parts), **props}


def sized(view: dict, width: int, height: int) -> dict:
    return {**view, "width": width, "height": height}


def top_level(view: dict, data: Datasets) -> dict:
    """A complete spec: the shared config, the view, the schema and the named datasets."""
    import altair as alt

    return {"config": CONFIG, **view, "$schema": alt.SCHEMA_URL, "datasets": data.values}


# ---------------------------------------------------------------- shared encodings


def _models(report: dict) -> list[tuple[str, str, str]]:
    """(role, label, colour) for candidate and baseline; labels are the user's model names."""
    project = report["project"]
    return [
        ("candidate", f"{project['candidate']} (candidate)", CANDIDATE_COLOUR),
        ("baseline", f"{project['baseline']} (baseline)", BASELINE_COLOUR),
    ]


def _colour(alt, field: str, pairs: list[tuple[str, str]], **kwargs):
    """A nominal colour with a fixed domain -> colour mapping, legend in domain order."""
    domain = [p[0] for p in pairs]
    return alt.Color(
        f"{field}:N",
        scale=alt.Scale(domain=domain, range=[p[1] for p in pairs]),
        sort=domain,
        **kwargs,
    )


def _model_colour(alt, report: dict):
    pairs = [(label, colour) for _, label, colour in _models(report)]
    return _colour(alt, "model", pairs, title=None)


def _direction(report: dict) -> str:
    return "higher is better" if report["project"]["higher_is_better"] else "lower is better"


def _metric(report: dict) -> str:
    return report["project"]["metric"].replace("_", " ")


def _gap_title(report: dict) -> str:
    return f"gap in {_metric(report)} (candidate better is positive)"


def _reference(alt, data: Datasets, rows: list[dict]) -> dict:
    """Labelled vertical reference rules (zero, bounds, cut-offs) with their own legend."""
    legend = list({r["what"]: r for r in rows}.values())
    domain = [r["what"] for r in legend]
    return unit(
        alt.Chart(data.add(rows))
        .mark_rule(strokeWidth=1.5)
        .encode(
            x=alt.X("x:Q"),
            color=_colour(alt, "what", [(r["what"], r["colour"]) for r in legend], title=None),
            strokeDash=alt.StrokeDash(
                "what:N",
                scale=alt.Scale(domain=domain, range=[r["dash"] for r in legend]),
                sort=domain,
            ),
        )
    )


def _with_references(alt, data: Datasets, data_layers: list[dict], refs: list[dict]) -> dict:
    """Data layers sharing one colour legend, plus reference rules with a legend of their own."""
    layered = data_layers[0] if len(data_layers) == 1 else layer(*data_layers)
    if not refs:
        return layered
    return layer(
        _reference(alt, data, refs),
        layered,
        resolve={"scale": {"color": "independent", "strokeDash": "independent"}},
    )


def _zero_and_useful(report: dict, zero: str) -> list[dict]:
    """Reference rules at zero and, when the project sets one, at the smallest useful effect."""
    refs = [{"x": 0, "what": zero, "colour": INK, "dash": SOLID}]
    useful = (report.get("relevance") or {}).get("min_useful_effect")
    if useful is not None:
        refs.append({"x": useful, "what": "smallest useful effect", "colour": GOOD, "dash": DASHED})
    return refs


def _dot_whisker(alt, data: Datasets, rows, label_field, x_title, refs, colours) -> dict:
    """One row per interval: a rule from low to high and a dot at the gap, coloured by kind."""
    order = [r[label_field] for r in rows]
    y = alt.Y(f"{label_field}:N", title=None, sort=order, axis=alt.Axis(labelLimit=230))
    colour = _colour(alt, "kind", colours, title=None)
    source = data.add(rows)
    whisker = (
        alt.Chart(source)
        .mark_rule(strokeWidth=2.2)
        .encode(
            x=alt.X("low:Q", title=x_title, scale=alt.Scale(zero=True, nice=True)),
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
    chart = _with_references(alt, data, [unit(whisker), unit(dot)], refs)
    return sized(chart, WIDTH - 80, max(60, 26 * len(rows)))


def _guide_line(alt, data: Datasets, y0: float, y1: float) -> dict:
    """A thin dashed grey line from (0, y0) to (1, y1): chance diagonal or chance level."""
    return unit(
        alt.Chart(data.add([{"x": 0, "y": y0}, {"x": 1, "y": y1}]))
        .mark_line(color=MUTED, strokeDash=[4, 3], strokeWidth=1)
        .encode(x=alt.X("x:Q"), y=alt.Y("y:Q"))
    )


def _curve_rows(report: dict, section: str, xkey: str, ykey: str, sub: str | None = None):
    """Both models' curves as rows (model, x, y, order), each thinned to MAX_POINTS."""
    rows = []
    section_data = report.get(section) or {}
    for role, label, _ in _models(report):
        part = (section_data.get(role) or {}).get(sub) if sub else section_data.get(role)
        if not part or not part.get(xkey):
            continue
        xs, ys = part[xkey], part[ykey]
        for order, i in enumerate(thin(len(xs))):
            if xs[i] is None or ys[i] is None:
                continue
            rows.append({"model": label, "x": xs[i], "y": ys[i], "order": order})
    return rows


def _unit_square_curves(alt, report: dict, data: Datasets, rows, x_title, y_title) -> dict:
    """Both models' curves on [0, 1] x [0, 1] (ROC, precision-recall)."""
    square = alt.Scale(domain=[0, 1])
    return unit(
        alt.Chart(data.add(rows))
        .mark_line(strokeWidth=1.6)
        .encode(
            x=alt.X("x:Q", title=x_title, scale=square),
            y=alt.Y("y:Q", title=y_title, scale=square),
            color=_model_colour(alt, report),
            order=alt.Order("order:Q"),
        )
    )


# ---------------------------------------------------------------- noise


def seed_strip(report: dict, data: Datasets):
    """Validation metric per seed and model, the means, and the band the rule asks the gap to clear."""
    import altair as alt

    seed = report["noise"].get("seed") or {}
    values = seed.get("values") or {}
    mean = seed.get("mean") or {}
    rows = [
        {"model": label, "seed": v["seed"], "value": v["value"]}
        for role, label, _ in _models(report)
        for v in values.get(role) or []
        if v.get("value") is not None
    ]
    if not rows:
        return None
    means = [
        {"model": label, "value": mean[role]}
        for role, label, _ in _models(report)
        if mean.get(role) is not None
    ]
    y = alt.Y("model:N", title=None, sort=[m[1] for m in _models(report)])
    layers = []
    refs = []
    base_mean = mean.get("baseline")
    if base_mean is not None and seed.get("sd_used") is not None and seed.get("multiple"):
        hib = report["project"]["higher_is_better"]
        reach = seed["multiple"] * seed["sd_used"]
        edge = base_mean + reach if hib else base_mean - reach
        band = [{"x": min(base_mean, edge), "x2": max(base_mean, edge)}]
        layers.append(
            unit(
                alt.Chart(data.add(band))
                .mark_rect(color="#ece6d6")
                .encode(x=alt.X("x:Q"), x2=alt.X2("x2:Q"))
            )
        )
        sign = "+" if hib else "−"
        refs.append(
            {
                "x": edge,
                "what": f"the rule's bar: baseline mean {sign} {seed['multiple']:g} × seed sd",
                "colour": INK,
                "dash": DASHED,
            }
        )
    layers.append(
        unit(
            alt.Chart(data.add(rows))
            .mark_point(size=70, filled=False, strokeWidth=1.8)
            .encode(
                x=alt.X(
                    "value:Q",
                    title=f"validation {_metric(report)} per seed ({_direction(report)})",
                    scale=alt.Scale(zero=False, nice=False, padding=14),
                ),
                y=y,
                color=_model_colour(alt, report),
            )
        )
    )
    if means:
        layers.append(
            unit(
                alt.Chart(data.add(means))
                .mark_tick(thickness=3, size=34)
                .encode(x=alt.X("value:Q"), y=y, color=_model_colour(alt, report))
            )
        )
    return sized(_with_references(alt, data, layers, refs), WIDTH, 110)


def eval_intervals(report: dict, data: Datasets):
    """One evaluation interval per trained network beside the seed-averaged and two-level ones."""
    import altair as alt

    block = report["noise"].get("block")
    if not block or block.get("gap") is None:
        return None
    rows = [
        {
            "row": f"network seed {s['seed']}",
            "gap": s["gap"],
            "low": s["low"],
            "high": s["high"],
            "kind": "one trained network",
        }
        for s in block.get("per_seed") or []
        if s.get("gap") is not None
    ]
    primary = block.get("primary") or "bootstrap"
    rows.append(
        {
            "row": "seed-averaged (" + ("t" if primary == "t" else "bootstrap") + ")",
            "gap": block["gap"],
            "low": block["low"],
            "high": block["high"],
            "kind": "seed-averaged",
        }
    )
    two = block.get("two_level")
    if two and two.get("low") is not None:
        rows.append(
            {
                "row": "two-level (seeds and blocks)",
                "gap": two.get("gap", block["gap"]),
                "low": two["low"],
                "high": two["high"],
                "kind": "both noise sources",
            }
        )
    return _dot_whisker(
        alt,
        data,
        rows,
        "row",
        _gap_title(report),
        _zero_and_useful(report, "zero: no difference"),
        [
            ("one trained network", MUTED),
            ("seed-averaged", INK),
            ("both noise sources", CANDIDATE_COLOUR),
        ],
    )


def bootstrap_histogram(report: dict, data: Datasets):
    """The bootstrap distribution of the mean block gap with its interval and zero marked."""
    import altair as alt

    block = report["noise"].get("block")
    dist = (block or {}).get("distribution")
    if not dist or not dist.get("counts"):
        return None
    edges, counts = dist["edges"], dist["counts"]
    bars = [
        {"lo": edges[i], "hi": edges[i + 1], "count": c}
        for i, c in enumerate(counts)
        if i + 1 < len(edges)
    ]
    conf = block.get("confidence") or 0.95
    refs = [{"x": 0, "what": "zero", "colour": BAD, "dash": SOLID}]
    if block.get("bootstrap") and block["bootstrap"].get("low") is not None:
        lo, hi = block["bootstrap"]["low"], block["bootstrap"]["high"]
    else:
        lo, hi = block.get("low"), block.get("high")
    if lo is not None:
        label = f"{conf * 100:.0f}% interval"
        refs += [
            {"x": lo, "what": label, "colour": INK, "dash": DASHED},
            {"x": hi, "what": label, "colour": INK, "dash": DASHED},
        ]
    refs.append(
        {"x": block["gap"], "what": "observed gap", "colour": CANDIDATE_COLOUR, "dash": SOLID}
    )
    hist = (
        alt.Chart(data.add(bars))
        .mark_rect(color="#b9c7d6", stroke="white", strokeWidth=0.5)
        .encode(
            x=alt.X(
                "lo:Q",
                title=f"resampled mean gap in {_metric(report)} (candidate better is positive)",
                scale=alt.Scale(zero=True, nice=True),
            ),
            x2=alt.X2("hi:Q"),
            y=alt.Y("count:Q", title="resamples"),
        )
    )
    return sized(_with_references(alt, data, [unit(hist)], refs), WIDTH, 150)


# ---------------------------------------------------------------- threshold and ranking


def threshold_cost(report: dict, data: Datasets):
    """Validation cost against threshold for both models, chosen thresholds and the theoretical cutoff."""
    import altair as alt

    th = report.get("threshold")
    if not th:
        return None
    rows = _curve_rows(report, "threshold", "threshold", "cost", sub="curve")
    if not rows:
        return None
    chosen = []
    for role, label, _ in _models(report):
        m = th.get(role) or {}
        if m.get("threshold") is not None and m.get("validation_cost") is not None:
            chosen.append(
                {"model": label, "x": min(m["threshold"], 1.0), "y": m["validation_cost"]}
            )
    colour = _model_colour(alt, report)
    line = (
        alt.Chart(data.add(rows))
        .mark_line(strokeWidth=1.6, interpolate="step-after")
        .encode(
            x=alt.X(
                "x:Q",
                title="threshold (predict positive when p ≥ threshold)",
                scale=alt.Scale(domain=[0, 1]),
            ),
            y=alt.Y("y:Q", title="validation cost per case", scale=alt.Scale(zero=True)),
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
    if th.get("theoretical_cutoff") is not None:
        refs.append(
            {
                "x": th["theoretical_cutoff"],
                "what": "theoretical cutoff c_FP / (c_FP + c_FN)",
                "colour": INK,
                "dash": DASHED,
            }
        )
    return sized(_with_references(alt, data, layers, refs), WIDTH, 190)


def roc_curve(report: dict, data: Datasets):
    """ROC curves of both models on test with the chance diagonal."""
    import altair as alt

    rows = _curve_rows(report, "ranking", "fpr", "tpr", sub="roc")
    if not rows:
        return None
    diagonal = _guide_line(alt, data, 0, 1)
    curves = _unit_square_curves(
        alt, report, data, rows, "false positive rate", "true positive rate"
    )
    return layer(diagonal, curves, width=230, height=230)


def pr_curve(report: dict, data: Datasets):
    """Precision-recall curves of both models on test, with the positive rate as the chance level."""
    import altair as alt

    rows = _curve_rows(report, "ranking", "recall", "precision", sub="pr")
    if not rows:
        return None
    layers = []
    cand = (report.get("threshold") or {}).get("candidate") or {}
    if cand.get("actual_positive") is not None and cand.get("rows"):
        rate = cand["actual_positive"] / cand["rows"]
        layers.append(_guide_line(alt, data, rate, rate))
    layers.append(_unit_square_curves(alt, report, data, rows, "recall", "precision"))
    return layer(*layers, width=230, height=230)


def ranking_pair(report: dict, data: Datasets):
    """ROC and precision-recall side by side, one shared legend."""
    parts = [c for c in (roc_curve(report, data), pr_curve(report, data)) if c is not None]
    if not parts:
        return None
    return {"hconcat": parts, "spacing": 40} if len(parts) == 2 else parts[0]


# ---------------------------------------------------------------- calibration


def reliability(report: dict, data: Datasets):
    """Reliability diagram for both models with the diagonal; bin counts in a bar strip below."""
    import altair as alt

    cal = report.get("calibration")
    if not cal:
        return None
    rows = []
    for role, label, _ in _models(report):
        # the two models' count bars sit side by side within each bin
        left, right = (0.08, 0.5) if role == "candidate" else (0.5, 0.92)
        for b in (cal.get(role) or {}).get("bins") or []:
            if not b.get("count") or b.get("mean_p") is None or b.get("fraction_positive") is None:
                continue  # empty bins are not drawn
            width = b["high"] - b["low"]
            rows.append(
                {
                    "model": label,
                    "mean_p": b["mean_p"],
                    "observed": b["fraction_positive"],
                    "count": b["count"],
                    "bin": f"{b['low']:.2f}–{b['high']:.2f}",
                    "mid": (b["low"] + b["high"]) / 2,
                    "bar_low": b["low"] + width * left,
                    "bar_high": b["low"] + width * right,
                }
            )
    if not rows:
        return None
    colour = _model_colour(alt, report)
    diagonal = _guide_line(alt, data, 0, 1)
    source = data.add(rows)
    scale = alt.Scale(domain=[0, 1])
    line = (
        alt.Chart(source)
        .mark_line(strokeWidth=1.6, point=alt.OverlayMarkDef(filled=True, size=40))
        .encode(
            x=alt.X("mean_p:Q", title=None, scale=scale, axis=alt.Axis(labels=False, ticks=False)),
            y=alt.Y("observed:Q", title="observed positive fraction", scale=scale),
            color=colour,
        )
    )
    counts = (
        alt.Chart(source)
        .mark_rect()
        .encode(
            x=alt.X("bar_low:Q", title="mean predicted probability in the bin", scale=scale),
            x2=alt.X2("bar_high:Q"),
            y=alt.Y("count:Q", title="rows", axis=alt.Axis(tickCount=3)),
            y2=alt.datum(0),
            color=colour,
        )
    )
    top = layer(diagonal, unit(line), width=WIDTH - 120, height=230)
    return {
        "vconcat": [top, sized(unit(counts), WIDTH - 120, 70)],
        "resolve": {"scale": {"color": "shared"}},
        "spacing": 6,
    }


# ---------------------------------------------------------------- slices


def slice_gaps(report: dict, data: Datasets):
    """Per-slice gap with its interval; slices where the candidate is worse in red."""
    import altair as alt

    rows = []
    for s in report.get("slices") or []:
        if s.get("gap") is None or s.get("low") is None:
            continue
        if s.get("worse"):
            kind = "candidate worse (interval below zero)"
        elif s["low"] > 0:
            kind = "candidate better (interval above zero)"
        else:
            kind = "interval includes zero"
        rows.append(
            {
                "slice": str(s["slice"]),
                "gap": s["gap"],
                "low": s["low"],
                "high": s["high"],
                "kind": kind,
            }
        )
    if not rows:
        return None
    return _dot_whisker(
        alt,
        data,
        rows,
        "slice",
        _gap_title(report),
        [{"x": 0, "what": "zero: no difference", "colour": INK, "dash": SOLID}],
        [
            ("candidate better (interval above zero)", GOOD),
            ("interval includes zero", MUTED),
            ("candidate worse (interval below zero)", BAD),
        ],
    )


# ---------------------------------------------------------------- before-after


def before_after_interval(report: dict, data: Datasets):
    """The before/after difference with its interval(s) and zero."""
    import altair as alt

    ba = report.get("before_after")
    if not ba or ba.get("difference") is None or ba.get("low") is None:
        return None
    primary = ba.get("primary") or "bootstrap"
    rows = [
        {
            "row": f"after − before ({primary})",
            "gap": ba["difference"],
            "low": ba["low"],
            "high": ba["high"],
            "kind": "primary interval",
        }
    ]
    t = ba.get("t") or {}
    if primary != "t" and t.get("low") is not None:
        rows.append(
            {
                "row": "after − before (t)",
                "gap": ba["difference"],
                "low": t["low"],
                "high": t["high"],
                "kind": "for comparison",
            }
        )
    return _dot_whisker(
        alt,
        data,
        rows,
        "row",
        f"change in {_metric(report)} (after better is positive)",
        _zero_and_useful(report, "zero: no change"),
        [("primary interval", INK), ("for comparison", MUTED)],
    )


def fixed_broken(report: dict, data: Datasets):
    """Fixed and broken questions per category; without fixed_by_category, fixed in one bar."""
    import altair as alt

    ba = report.get("before_after")
    if not ba:
        return None
    broken_by = ba.get("broken_by_category") or {}
    fixed_by = ba.get("fixed_by_category")
    if fixed_by:
        # both bars for every category, most broken first: a regression shows at the top
        cats = sorted(
            set(fixed_by) | set(broken_by),
            key=lambda c: (-broken_by.get(c, 0), -fixed_by.get(c, 0), str(c)),
        )
        rows = [
            {"category": str(c), "what": what, "count": counts.get(c, 0)}
            for c in cats
            for what, counts in (("fixed", fixed_by), ("broken", broken_by))
        ]
    else:
        rows = []
        if ba.get("fixed") is not None:
            rows.append({"category": "all categories", "what": "fixed", "count": ba["fixed"]})
        rows += [
            {"category": str(c), "what": "broken", "count": n}
            for c, n in sorted(broken_by.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
    if not rows:
        return None
    order = list(dict.fromkeys(r["category"] for r in rows))
    offset = alt.YOffset("what:N", sort=["fixed", "broken"])
    bars = (
        alt.Chart(data.add(rows))
        .mark_bar(height=10)
        .encode(
            x=alt.X("count:Q", title="questions", axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("category:N", title=None, sort=order),
            yOffset=offset,
            color=alt.Color(
                "what:N",
                title=None,
                scale=alt.Scale(domain=["fixed", "broken"], range=[GOOD, BAD]),
            ),
        )
    )
    labels = (
        alt.Chart(data.add(rows))
        .mark_text(align="left", dx=3, fontSize=10, color=INK)
        .encode(
            x=alt.X("count:Q"),
            y=alt.Y("category:N", sort=order),
            yOffset=offset,
            text=alt.Text("count:Q"),
        )
    )
    return layer(unit(bars), unit(labels), width=WIDTH - 80, height=max(60, 30 * len(order)))


def forgetting(report: dict, data: Datasets):
    """General-set metric before and after against the lowest value the allowed drop permits."""
    import altair as alt

    general = report.get("general")
    if not general or general.get("before") is None or general.get("after") is None:
        return None
    hib = report["project"]["higher_is_better"]
    rows = [
        {"when": "before", "value": general["before"]},
        {"when": "after", "value": general["after"]},
    ]
    bars = (
        alt.Chart(data.add(rows))
        .mark_bar(height=22)
        .encode(
            x=alt.X(
                "value:Q",
                title=f"general-set {_metric(report)} ({_direction(report)})",
                scale=alt.Scale(zero=True),
            ),
            y=alt.Y("when:N", title=None, sort=["before", "after"]),
            color=alt.Color(
                "when:N",
                title=None,
                scale=alt.Scale(
                    domain=["before", "after"], range=[BASELINE_COLOUR, CANDIDATE_COLOUR]
                ),
                legend=None,
            ),
        )
    )
    refs = []
    if general.get("max_drop") is not None:
        drop = general["max_drop"]
        refs.append(
            {
                "x": general["before"] - drop if hib else general["before"] + drop,
                "what": f"{'lowest' if hib else 'highest'} value the allowed drop permits",
                "colour": BAD,
                "dash": DASHED,
            }
        )
    return sized(_with_references(alt, data, [unit(bars)], refs), WIDTH - 80, 80)


#: chart key -> builder, in page order
BUILDERS: dict[str, Callable[[dict, Datasets], dict | None]] = {
    "seed_strip": seed_strip,
    "eval_intervals": eval_intervals,
    "bootstrap_histogram": bootstrap_histogram,
    "threshold_cost": threshold_cost,
    "ranking": ranking_pair,
    "reliability": reliability,
    "slices": slice_gaps,
    "before_after_interval": before_after_interval,
    "fixed_broken": fixed_broken,
    "forgetting": forgetting,
}


def chart_specs(report: dict) -> dict[str, dict]:
    """Vega-Lite specs (plain dicts) for every chart the report can draw; absent charts left out."""
    specs = {}
    for key, build in BUILDERS.items():
        data = Datasets()
        view = build(report, data)
        if view is not None:
            specs[key] = sanitise_spec(top_level(view, data))
    return specs


def svg_from_spec(spec: dict, prefix: str) -> str:
    """One Vega-Lite spec -> SVG markup with ids prefixed, checked free of active content."""
    import vl_convert as vlc

    try:
        svg = vlc.vegalite_to_svg(spec, allowed_base_urls=[])
    except (
        Exception
    ) as e:  # vl-convert raises plain ValueError/RuntimeError with a JavaScript message
        from reportgen.errors import RenderError

        raise RenderError(f"chart {prefix!r}: {str(e).splitlines()[0]}") from e
    return scope_ids(svg, prefix)


def scope_ids(svg: str, prefix: str) -> str:
    """Rewrite every id (and its url(#..)/href="#.." references) to `prefix`-n, in order of first use.

    vl-convert numbers clip paths and gradients per process, so two charts on one page can
    collide and the same report can get different ids on a second build.
    """
    mapping: dict[str, str] = {}
    for old in _ID_RE.findall(svg):
        mapping.setdefault(old, f"{prefix}-{len(mapping) + 1}")
    for old, new in mapping.items():
        svg = svg.replace(f'id="{old}"', f'id="{new}"')
        svg = svg.replace(f"url(#{old})", f"url(#{new})")
        svg = svg.replace(f'href="#{old}"', f'href="#{new}"')
    lowered = svg.lower()
    for bad in _FORBIDDEN:
        if bad in lowered:
            raise ValueError(f"chart SVG contains {bad!r}; refusing to inline it")
    return svg


def chart_svg(key: str, spec: dict) -> str:
    """The inline SVG of chart `key`, its ids scoped by the key."""
    return svg_from_spec(spec, f"ch-{key}")


def build_charts(report: dict) -> dict[str, str]:
    """Chart key -> inline SVG markup for every chart the report has data for."""
    return {key: chart_svg(key, spec) for key, spec in chart_specs(report).items()}
