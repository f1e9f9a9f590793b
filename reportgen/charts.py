"""Report dict -> altair charts -> inline SVG strings. No file IO.

Every chart is built once from the report dict, converted by vl-convert (which escapes every
string it draws), and given deterministic, per-chart element ids so several SVGs can share one
page. altair and vl_convert are imported lazily: ``evreport --help`` must stay instant.
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

_ID_RE = re.compile(r'\bid="([^"]+)"')
_FORBIDDEN = ("<script", "<foreignobject", "javascript:", 'href="http', "href='http")


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


def _config(chart):
    return (
        chart.configure(font=FONT, background="white")
        .configure_view(stroke="#cccccc")
        .configure_axis(
            labelFontSize=11,
            titleFontSize=11,
            titleFontWeight="normal",
            labelColor=INK,
            titleColor=INK,
            gridColor="#e6e6e6",
            domainColor="#888888",
            tickColor="#888888",
        )
        .configure_legend(
            labelFontSize=11,
            titleFontSize=11,
            titleFontWeight="normal",
            orient="bottom",
            direction="vertical",
            labelLimit=260,
            symbolStrokeWidth=2,
        )
        .configure_header(labelFontSize=11, titleFontSize=11)
    )


def _models(report: dict) -> list[tuple[str, str, str]]:
    """(role, label, colour) for candidate and baseline; labels are the user's model names."""
    project = report["project"]
    return [
        ("candidate", f"{project['candidate']} (candidate)", CANDIDATE_COLOUR),
        ("baseline", f"{project['baseline']} (baseline)", BASELINE_COLOUR),
    ]


def _model_colour(alt, report: dict, title: str | None = None):
    models = _models(report)
    return alt.Color(
        "model:N",
        title=title,
        scale=alt.Scale(domain=[m[1] for m in models], range=[m[2] for m in models]),
        sort=[m[1] for m in models],
    )


def _direction(report: dict) -> str:
    return "higher is better" if report["project"]["higher_is_better"] else "lower is better"


def _metric(report: dict) -> str:
    return report["project"]["metric"].replace("_", " ")


def _reference(alt, data: Datasets, rows: list[dict]):
    """Labelled vertical reference rules (zero, bounds, cut-offs) with their own legend."""
    legend = list({r["what"]: r for r in rows}.values())
    domain = [r["what"] for r in legend]
    return (
        alt.Chart(data.add(rows))
        .mark_rule(strokeWidth=1.5)
        .encode(
            x="x:Q",
            color=alt.Color(
                "what:N",
                title=None,
                scale=alt.Scale(domain=domain, range=[r["colour"] for r in legend]),
                sort=domain,
            ),
            strokeDash=alt.StrokeDash(
                "what:N",
                scale=alt.Scale(domain=domain, range=[r["dash"] for r in legend]),
                sort=domain,
            ),
        )
    )


def _with_references(alt, data: Datasets, data_layers: list, refs: list[dict] | None):
    """Data layers sharing one colour legend, plus reference rules with a legend of their own."""
    layered = data_layers[0] if len(data_layers) == 1 else alt.layer(*data_layers)
    if not refs:
        return layered
    return alt.layer(_reference(alt, data, refs), layered).resolve_scale(
        color="independent", strokeDash="independent"
    )


# ---------------------------------------------------------------- noise


def seed_strip(report: dict, data: Datasets):
    """Validation metric per seed and model, the means, and the band the rule asks the gap to clear."""
    import altair as alt

    seed = report["noise"].get("seed") or {}
    values = seed.get("values") or {}
    rows = []
    for role, label, _ in _models(report):
        for v in values.get(role) or []:
            if v.get("value") is not None:
                rows.append({"model": label, "seed": v["seed"], "value": v["value"]})
    if not rows:
        return None
    means = [
        {"model": label, "value": (seed.get("mean") or {}).get(role)}
        for role, label, _ in _models(report)
        if (seed.get("mean") or {}).get(role) is not None
    ]
    y = alt.Y("model:N", title=None, sort=[m[1] for m in _models(report)])
    layers = []
    refs = []
    base_mean = (seed.get("mean") or {}).get("baseline")
    if base_mean is not None and seed.get("sd_used") is not None and seed.get("multiple"):
        hib = report["project"]["higher_is_better"]
        reach = seed["multiple"] * seed["sd_used"]
        edge = base_mean + reach if hib else base_mean - reach
        band = [{"x": min(base_mean, edge), "x2": max(base_mean, edge)}]
        layers.append(
            alt.Chart(data.add(band)).mark_rect(color="#ece6d6").encode(x="x:Q", x2="x2:Q")
        )
        sign = "+" if hib else "−"
        refs.append(
            {
                "x": edge,
                "what": f"the rule's bar: baseline mean {sign} {seed['multiple']:g} × seed sd",
                "colour": INK,
                "dash": [5, 3],
            }
        )
    layers.append(
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
    if means:
        layers.append(
            alt.Chart(data.add(means))
            .mark_tick(thickness=3, size=34)
            .encode(x="value:Q", y=y, color=_model_colour(alt, report))
        )
    return _with_references(alt, data, layers, refs).properties(width=WIDTH, height=110)


def eval_intervals(report: dict, data: Datasets):
    """One evaluation interval per trained network beside the seed-averaged and two-level ones."""
    import altair as alt

    block = report["noise"].get("block")
    if not block or block.get("gap") is None:
        return None
    rows = []
    for s in block.get("per_seed") or []:
        if s.get("gap") is not None:
            rows.append(
                {
                    "row": f"network seed {s['seed']}",
                    "gap": s["gap"],
                    "low": s["low"],
                    "high": s["high"],
                    "kind": "one trained network",
                }
            )
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
    refs = [{"x": 0, "what": "zero: no difference", "colour": INK, "dash": [1, 0]}]
    relevance = report.get("relevance") or {}
    if relevance.get("min_useful_effect") is not None:
        refs.append(
            {
                "x": relevance["min_useful_effect"],
                "what": "smallest useful effect",
                "colour": GOOD,
                "dash": [5, 3],
            }
        )
    return _dot_whisker(
        alt,
        data,
        rows,
        "row",
        f"gap in {_metric(report)} (candidate better is positive)",
        refs,
        colour_field="kind",
        colours=[
            ("one trained network", MUTED),
            ("seed-averaged", INK),
            ("both noise sources", CANDIDATE_COLOUR),
        ],
    )


def _dot_whisker(
    alt, data: Datasets, rows, label_field, x_title, refs, colour_field, colours, height=None
):
    order = [r[label_field] for r in rows]
    y = alt.Y(f"{label_field}:N", title=None, sort=order, axis=alt.Axis(labelLimit=230))
    colour = alt.Color(
        f"{colour_field}:N",
        title=None,
        scale=alt.Scale(domain=[c[0] for c in colours], range=[c[1] for c in colours]),
        sort=[c[0] for c in colours],
    )
    source = data.add(rows)
    whisker = (
        alt.Chart(source)
        .mark_rule(strokeWidth=2.2)
        .encode(
            x=alt.X("low:Q", title=x_title, scale=alt.Scale(zero=True, nice=True)),
            x2="high:Q",
            y=y,
            color=colour,
        )
    )
    dot = alt.Chart(source).mark_point(filled=True, size=60).encode(x="gap:Q", y=y, color=colour)
    chart = _with_references(alt, data, [whisker, dot], refs)
    return chart.properties(width=WIDTH - 80, height=height or max(60, 26 * len(rows)))


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
    refs = [{"x": 0, "what": "zero", "colour": BAD, "dash": [1, 0]}]
    if block.get("bootstrap") and block["bootstrap"].get("low") is not None:
        lo, hi = block["bootstrap"]["low"], block["bootstrap"]["high"]
    else:
        lo, hi = block.get("low"), block.get("high")
    if lo is not None:
        label = f"{conf * 100:.0f}% interval"
        refs += [
            {"x": lo, "what": label, "colour": INK, "dash": [5, 3]},
            {"x": hi, "what": label, "colour": INK, "dash": [5, 3]},
        ]
    refs.append(
        {"x": block["gap"], "what": "observed gap", "colour": CANDIDATE_COLOUR, "dash": [1, 0]}
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
            x2="hi:Q",
            y=alt.Y("count:Q", title="resamples"),
        )
    )
    return _with_references(alt, data, [hist], refs).properties(width=WIDTH, height=150)


# ---------------------------------------------------------------- threshold and ranking


def _curve_rows(report: dict, section: str, xkey: str, ykey: str, sub: str | None = None):
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
            order="order:Q",
        )
    )
    layers = [line]
    if chosen:
        layers.append(
            alt.Chart(data.add(chosen))
            .mark_point(shape="diamond", size=120, filled=True, stroke="white", strokeWidth=1)
            .encode(x="x:Q", y="y:Q", color=colour)
        )
    refs = []
    if th.get("theoretical_cutoff") is not None:
        refs.append(
            {
                "x": th["theoretical_cutoff"],
                "what": "theoretical cutoff c_FP / (c_FP + c_FN)",
                "colour": INK,
                "dash": [5, 3],
            }
        )
    chart = _with_references(alt, data, layers, refs)
    return chart.properties(width=WIDTH, height=190)


def roc_curve(report: dict, data: Datasets):
    """ROC curves of both models on test with the chance diagonal."""
    import altair as alt

    rows = _curve_rows(report, "ranking", "fpr", "tpr", sub="roc")
    if not rows:
        return None
    diag = (
        alt.Chart(data.add([{"x": 0, "y": 0}, {"x": 1, "y": 1}]))
        .mark_line(color=MUTED, strokeDash=[4, 3], strokeWidth=1)
        .encode(x="x:Q", y="y:Q")
    )
    line = (
        alt.Chart(data.add(rows))
        .mark_line(strokeWidth=1.6)
        .encode(
            x=alt.X("x:Q", title="false positive rate", scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("y:Q", title="true positive rate", scale=alt.Scale(domain=[0, 1])),
            color=_model_colour(alt, report),
            order="order:Q",
        )
    )
    return alt.layer(diag, line).properties(width=230, height=230)


def pr_curve(report: dict, data: Datasets):
    """Precision-recall curves of both models on test, with the positive rate as the chance level."""
    import altair as alt

    rows = _curve_rows(report, "ranking", "recall", "precision", sub="pr")
    if not rows:
        return None
    layers = []
    th = report.get("threshold") or {}
    cand = th.get("candidate") or {}
    if cand.get("actual_positive") is not None and cand.get("rows"):
        rate = cand["actual_positive"] / cand["rows"]
        layers.append(
            alt.Chart(data.add([{"x": 0, "y": rate}, {"x": 1, "y": rate}]))
            .mark_line(color=MUTED, strokeDash=[4, 3], strokeWidth=1)
            .encode(x="x:Q", y="y:Q")
        )
    layers.append(
        alt.Chart(data.add(rows))
        .mark_line(strokeWidth=1.6)
        .encode(
            x=alt.X("x:Q", title="recall", scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("y:Q", title="precision", scale=alt.Scale(domain=[0, 1])),
            color=_model_colour(alt, report),
            order="order:Q",
        )
    )
    return alt.layer(*layers).properties(width=230, height=230)


def ranking_pair(report: dict, data: Datasets):
    """ROC and precision-recall side by side, one shared legend."""
    import altair as alt

    roc, pr = roc_curve(report, data), pr_curve(report, data)
    if roc is None and pr is None:
        return None
    parts = [c for c in (roc, pr) if c is not None]
    return alt.hconcat(*parts, spacing=40) if len(parts) == 2 else parts[0]


# ---------------------------------------------------------------- calibration


def reliability(report: dict, data: Datasets):
    """Reliability diagram for both models with the diagonal; bin counts in a bar strip below."""
    import altair as alt

    cal = report.get("calibration")
    if not cal:
        return None
    rows = []
    for role, label, _ in _models(report):
        for b in (cal.get(role) or {}).get("bins") or []:
            if not b.get("count") or b.get("mean_p") is None or b.get("fraction_positive") is None:
                continue  # empty bins are not drawn
            rows.append(
                {
                    "model": label,
                    "mean_p": b["mean_p"],
                    "observed": b["fraction_positive"],
                    "count": b["count"],
                    "bin": f"{b['low']:.2f}–{b['high']:.2f}",
                    "mid": (b["low"] + b["high"]) / 2,
                    "bar_low": b["low"]
                    + (b["high"] - b["low"]) * (0.08 if role == "candidate" else 0.5),
                    "bar_high": b["low"]
                    + (b["high"] - b["low"]) * (0.5 if role == "candidate" else 0.92),
                }
            )
    if not rows:
        return None
    colour = _model_colour(alt, report)
    diag = (
        alt.Chart(data.add([{"x": 0, "y": 0}, {"x": 1, "y": 1}]))
        .mark_line(color=MUTED, strokeDash=[4, 3], strokeWidth=1)
        .encode(x="x:Q", y="y:Q")
    )
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
    top = alt.layer(diag, line).properties(width=WIDTH - 120, height=230)
    # bin counts below, the two models side by side within each bin
    counts = (
        alt.Chart(source)
        .mark_rect()
        .encode(
            x=alt.X("bar_low:Q", title="mean predicted probability in the bin", scale=scale),
            x2="bar_high:Q",
            y=alt.Y("count:Q", title="rows", axis=alt.Axis(tickCount=3)),
            y2=alt.datum(0),
            color=colour,
        )
        .properties(width=WIDTH - 120, height=70)
    )
    return alt.vconcat(top, counts, spacing=6).resolve_scale(color="shared")


# ---------------------------------------------------------------- slices


def slice_gaps(report: dict, data: Datasets):
    """Per-slice gap with its interval; slices where the candidate is worse in red."""
    import altair as alt

    slices = report.get("slices")
    if not slices:
        return None
    rows = []
    for s in slices:
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
    refs = [{"x": 0, "what": "zero: no difference", "colour": INK, "dash": [1, 0]}]
    return _dot_whisker(
        alt,
        data,
        rows,
        "slice",
        f"gap in {_metric(report)} (candidate better is positive)",
        refs,
        colour_field="kind",
        colours=[
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
    refs = [{"x": 0, "what": "zero: no change", "colour": INK, "dash": [1, 0]}]
    relevance = report.get("relevance") or {}
    if relevance.get("min_useful_effect") is not None:
        refs.append(
            {
                "x": relevance["min_useful_effect"],
                "what": "smallest useful effect",
                "colour": GOOD,
                "dash": [5, 3],
            }
        )
    return _dot_whisker(
        alt,
        data,
        rows,
        "row",
        f"change in {_metric(report)} (after better is positive)",
        refs,
        colour_field="kind",
        colours=[("primary interval", INK), ("for comparison", MUTED)],
    )


def fixed_broken(report: dict, data: Datasets):
    """Fixed and broken questions per category (fixed per category only when the report has it)."""
    import altair as alt

    ba = report.get("before_after")
    if not ba:
        return None
    rows = []
    fixed_by = ba.get("fixed_by_category")
    if fixed_by:
        for cat, n in sorted(fixed_by.items()):
            rows.append({"category": str(cat), "what": "fixed", "count": n})
    elif ba.get("fixed") is not None:
        rows.append({"category": "all categories", "what": "fixed", "count": ba["fixed"]})
    for cat, n in sorted(
        (ba.get("broken_by_category") or {}).items(), key=lambda kv: (-kv[1], kv[0])
    ):
        rows.append({"category": str(cat), "what": "broken", "count": n})
    if not rows:
        return None
    order = list(dict.fromkeys(r["category"] for r in rows))
    bars = (
        alt.Chart(data.add(rows))
        .mark_bar(height=10)
        .encode(
            x=alt.X("count:Q", title="questions", axis=alt.Axis(tickMinStep=1)),
            y=alt.Y("category:N", title=None, sort=order),
            yOffset=alt.YOffset("what:N", sort=["fixed", "broken"]),
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
            x="count:Q",
            y=alt.Y("category:N", sort=order),
            yOffset=alt.YOffset("what:N", sort=["fixed", "broken"]),
            text="count:Q",
        )
    )
    return alt.layer(bars, labels).properties(width=WIDTH - 80, height=max(60, 30 * len(order)))


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
        limit = (
            general["before"] - general["max_drop"]
            if hib
            else general["before"] + general["max_drop"]
        )
        word = "lowest" if hib else "highest"
        refs.append(
            {
                "x": limit,
                "what": f"{word} value the allowed drop permits",
                "colour": BAD,
                "dash": [5, 3],
            }
        )
    return _with_references(alt, data, [bars], refs).properties(width=WIDTH - 80, height=80)


#: chart key -> builder, in page order
BUILDERS: dict[str, Callable[[dict, Datasets], object]] = {
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
        chart = build(report, data)
        if chart is not None:
            spec = _config(chart).to_dict(validate=False)
            spec["datasets"] = data.values
            specs[key] = spec
    return specs


def svg_from_spec(spec: dict, prefix: str) -> str:
    """One Vega-Lite spec -> SVG markup with ids prefixed, checked free of active content."""
    import vl_convert as vlc

    svg = vlc.vegalite_to_svg(spec, allowed_base_urls=[])
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


def build_charts(report: dict) -> dict[str, str]:
    """Chart key -> inline SVG markup for every chart the report has data for."""
    return {key: svg_from_spec(spec, f"ch-{key}") for key, spec in chart_specs(report).items()}
