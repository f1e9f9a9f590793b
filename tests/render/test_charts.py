"""Charts: escaped user text, scoped ids, curves as the report gives them, no active content."""

from __future__ import annotations

import copy
import re

import pytest

from reportgen.charts import specs
from reportgen.charts.compose import AMBER, BAD, GOOD, MUTED, model_name, models
from reportgen.charts.svg import scope_ids
from reportgen.model import Report
from reportgen.model.enums import ChartKey
from reportgen.stats.calibration import MIN_JOINED
from reportgen.words.cells import cost as fmt_cost

from .conftest import load

#: checks thin every curve to this many points before it reaches the report
MAX_POINTS = 500


def chart_specs(report: dict) -> dict:
    """The chart specs of a report.json object, parsed strictly into the model first."""
    return specs.chart_specs(Report.from_json(report))


def build_charts(report: dict) -> dict:
    """The chart SVGs of a report.json object, parsed strictly into the model first."""
    return specs.build_charts(Report.from_json(report))


def test_every_chart_key_has_a_builder_and_an_unknown_key_is_an_error():
    assert list(specs.BUILDERS) == list(ChartKey)
    assert specs.builder("slices") is specs.BUILDERS[ChartKey.SLICES]
    with pytest.raises(KeyError, match="'slice'.*seed_strip, eval_intervals"):
        specs.builder("slice")


def test_a_figure_for_an_unknown_chart_key_is_an_error():
    from reportgen.view.parts import chart_figure

    assert chart_figure({ChartKey.SLICES}, "slices", "c", "d") is not None
    assert chart_figure(set(), ChartKey.BUDGET, "c", "d") is None
    with pytest.raises(KeyError, match="'slice'"):
        chart_figure({"slices"}, "slice", "c", "d")


def test_scope_ids_rewrites_ids_and_references():
    svg = '<svg><clipPath id="clip1"/><g clip-path="url(#clip1)"/><use href="#clip1"/></svg>'
    out = scope_ids(svg, "ch-x")
    assert 'id="ch-x-1"' in out and "url(#ch-x-1)" in out and 'href="#ch-x-1"' in out
    assert "clip1" not in out


def test_scope_ids_refuses_active_content():
    with pytest.raises(ValueError, match="script"):
        scope_ids("<svg><script>alert(1)</script></svg>", "p")


def test_model_vs_baseline_draws_every_chart(weekly_churn):
    specs = chart_specs(weekly_churn)
    assert set(specs) == {
        "seed_strip",
        "eval_intervals",
        "bootstrap_histogram",
        "budget",
        "threshold_cost",
        "ranking",
        "reliability",
        "slices",
    }
    for spec in specs.values():
        assert spec["config"]["font"] == "DejaVu Sans"
        for rows in spec["datasets"].values():
            # two models at most 500 points each, plus the cost curve's run-on to threshold 1
            assert len(rows) <= 2 * (MAX_POINTS + 1)


def test_minimal_draws_only_its_two_logged_values(minimal):
    """One run per model and no predictions: the seed strip's two dots, no other chart."""
    specs = chart_specs(minimal)
    assert list(specs) == ["seed_strip"]
    dots = [r for rows in specs["seed_strip"]["datasets"].values() for r in rows if "seed" in r]
    assert sorted((r["model"], r["value"]) for r in dots) == [
        ("new (candidate)", 0.8),
        ("old (baseline)", 0.79),
    ]


def test_empty_calibration_bins_not_drawn(weekly_churn):
    report = copy.deepcopy(weekly_churn)
    report["calibration"]["candidate"]["bins"][9].update(
        count=0, mean_p=None, fraction_positive=None
    )
    spec = chart_specs(report)["reliability"]
    drawn = {
        (r["model"], r["mean_p"])
        for rows in spec["datasets"].values()
        for r in rows
        if "mean_p" in r
    }
    bins = [b for m in ("candidate", "baseline") for b in report["calibration"][m]["bins"]]
    assert len(drawn) == sum(1 for b in bins if b["count"]) == 18  # gbm's top bin is empty too


def test_user_strings_escaped_in_svg(weekly_churn):
    report = copy.deepcopy(weekly_churn)
    report["project"]["candidate"] = "<script>alert(1)</script>"
    report["slices"][0]["slice"] = '<img src=x onerror="alert(1)">'
    svgs = build_charts(report)
    joined = "".join(svgs.values())
    assert "<script" not in joined.lower()
    assert "<img" not in joined.lower()
    assert "&lt;script&gt;" in joined


def test_ids_unique_across_charts(weekly_churn):
    svgs = build_charts(weekly_churn)
    ids = [i for svg in svgs.values() for i in re.findall(r'\bid="([^"]+)"', svg)]
    assert len(ids) == len(set(ids))


def test_fixed_and_broken_per_category(tuned_no_replay):
    ba = tuned_no_replay["before_after"]
    rows = chart_specs(tuned_no_replay)["fixed_broken"]["datasets"]["data-1"]
    cats = set(ba["fixed_by_category"]) | set(ba["broken_by_category"])
    assert {(r["category"], r["what"]) for r in rows} == {
        (c, w) for c in cats for w in ("fixed", "broken")
    }
    assert sum(r["count"] for r in rows if r["what"] == "fixed") == ba["fixed"] == 230
    assert sum(r["count"] for r in rows if r["what"] == "broken") == ba["broken"] == 24
    # most broken first (dates: 10, places 5, numbers 4, units 3, names 2)
    order = list(dict.fromkeys(r["category"] for r in rows))
    assert order == ["dates", "places", "numbers", "units", "names"]


def test_fixed_in_one_bar_without_categories(tuned_no_replay):
    report = copy.deepcopy(tuned_no_replay)
    report["before_after"]["fixed_by_category"] = None
    rows = chart_specs(report)["fixed_broken"]["datasets"]["data-1"]
    fixed = [r for r in rows if r["what"] == "fixed"]
    assert fixed == [
        {"category": "all categories", "what": "fixed", "count": report["before_after"]["fixed"]}
    ]


def _layers(spec: dict) -> list[dict]:
    """Every unit view of a spec, in drawing order (a view without data gets its layer's)."""
    out = []
    for part in spec.get("layer") or spec.get("hconcat") or spec.get("vconcat") or []:
        if "data" not in part and "data" in spec:
            part = {**part, "data": spec["data"]}
        out += _layers(part) if any(k in part for k in ("layer", "hconcat", "vconcat")) else [part]
    return out


def _mark(view: dict) -> str:
    m = view.get("mark")
    return m if isinstance(m, str) else m["type"]


def test_reference_rules_drawn_over_the_bars(weekly_churn):
    views = _layers(chart_specs(weekly_churn)["bootstrap_histogram"])
    marks = [_mark(v) for v in views]
    assert marks.index("rule") > marks.index("rect")


def test_zero_and_interval_ends_sit_inside_the_frame(tuned_no_replay, weekly_churn):
    for report, key in (
        (tuned_no_replay, "before_after_interval"),
        (weekly_churn, "eval_intervals"),
    ):
        spec = chart_specs(report)[key]
        lo, hi = _layers(spec)[0]["encoding"]["x"]["scale"]["domain"]
        rows = next(iter(spec["datasets"].values()))
        ends = [0.0] + [r[k] for r in rows for k in ("low", "high")]
        assert lo < min(ends) and hi > max(ends), (key, lo, hi)


def test_seed_strip_rule_bar_off_the_frame(weekly_churn):
    spec = chart_specs(weekly_churn)["seed_strip"]
    lo, hi = _layers(spec)[0]["encoding"]["x"]["scale"]["domain"]
    rule = [r for rows in spec["datasets"].values() for r in rows if "what" in r][0]["x"]
    assert lo < rule < hi and min(rule - lo, hi - rule) > 0.05 * (hi - lo)


def test_per_network_rows_name_the_model(weekly_churn):
    rows = next(iter(chart_specs(weekly_churn)["eval_intervals"]["datasets"].values()))
    cand = weekly_churn["project"]["display_names"]["mlp"]  # evreport.toml [models]
    assert all(
        r["row"].startswith(f"{cand} seed ") for r in rows if r["kind"] == "one trained network"
    )


def test_pr_curve_has_no_point_at_recall_zero_and_labels_the_positive_rate(weekly_churn):
    spec = chart_specs(weekly_churn)["ranking"]
    rows = [r for rows in spec["datasets"].values() for r in rows]
    curves = [r for r in rows if "order" in r and "model" in r]
    assert curves and "text" in str(rows)
    assert any(str(r.get("text", "")).startswith("positive rate") for r in rows)


def test_reliability_small_bins_are_hollow_and_unjoined(weekly_churn):
    report = copy.deepcopy(weekly_churn)
    b = report["calibration"]["candidate"]["bins"][9]
    b.update(count=3, fraction_positive=2 / 3)
    spec = chart_specs(report)["reliability"]
    views = _layers(spec)
    lines = [spec["datasets"][v["data"]["name"]] for v in views if _mark(v) == "line"]
    joined = [r for rows in lines for r in rows if "count" in r]
    assert joined and all(r["count"] >= MIN_JOINED for r in joined)
    hollow = [v for v in views if _mark(v) == "point" and v["mark"].get("filled") is False]
    assert hollow and any(r["count"] == 3 for r in spec["datasets"][hollow[0]["data"]["name"]])


def _whiskers(spec: dict) -> list[dict]:
    """The rows of the reliability diagram's interval rules."""
    views = _layers(spec)
    rule = next(v for v in views if _mark(v) == "rule")
    return spec["datasets"][rule["data"]["name"]]


def test_reliability_draws_the_interval_the_report_gives(weekly_churn):
    report = copy.deepcopy(weekly_churn)
    b = report["calibration"]["candidate"]["bins"][3]
    b.update(fraction_low=0.125, fraction_high=0.375)
    rows = _whiskers(chart_specs(report)["reliability"])
    cand = f"{model_name(Report.from_json(report), 'candidate')} (candidate)"
    drawn = [r for r in rows if r["model"] == cand and r["mean_p"] == b["mean_p"]]
    assert [(r["low"], r["high"]) for r in drawn] == [(0.125, 0.375)]
    bins = [x for m in ("candidate", "baseline") for x in report["calibration"][m]["bins"]]
    assert len(rows) == sum(1 for x in bins if x["count"])


def test_reliability_bin_without_an_interval_has_no_whisker(weekly_churn):
    report = copy.deepcopy(weekly_churn)
    for b in report["calibration"]["baseline"]["bins"]:
        b.update(fraction_low=None, fraction_high=None)
    spec = chart_specs(report)["reliability"]
    base = f"{model_name(Report.from_json(report), 'baseline')} (baseline)"
    assert _whiskers(spec) and all(r["model"] != base for r in _whiskers(spec))
    points = [r for rows in spec["datasets"].values() for r in rows if r.get("model") == base]
    assert points  # the bins are still drawn


def _rows_of(spec: dict, mark: str) -> list[dict]:
    """The data rows of every unit view of ``spec`` drawn with ``mark``."""
    return [
        r for v in _layers(spec) if _mark(v) == mark for r in spec["datasets"][v["data"]["name"]]
    ]


def _reference_labels(spec: dict) -> list[str]:
    """The legend words of a chart's reference rules."""
    return [str(r["what"]) for rows in spec["datasets"].values() for r in rows if "what" in r]


def test_forgetting_draws_the_drop_with_its_interval_and_the_allowance(tuned_no_replay):
    general = tuned_no_replay["general"]
    spec = chart_specs(tuned_no_replay)["forgetting"]
    [row] = _rows_of(spec, "point")
    assert (row["gap"], row["low"], row["high"]) == (
        general["drop"],
        general["low"],
        general["high"],
    )
    refs = [r for rows in spec["datasets"].values() for r in rows if "what" in r]
    assert sorted(r["x"] for r in refs) == [0, general["max_drop"]]
    # the axis spans the drop's own scale, not the scores' 0 to 0.84
    scale = next(v for v in _layers(spec) if _mark(v) == "rule")["encoding"]["x"]["scale"]
    assert max(scale["domain"]) < 0.5


@pytest.mark.parametrize(
    ("status", "word"), [("held", "held"), ("dropped", "dropped"), ("not shown", "not shown")]
)
def test_forgetting_colour_says_the_checks_status(tuned_no_replay, status, word):
    report = copy.deepcopy(tuned_no_replay)
    report["general"]["status"] = status
    report["general"]["held"] = status == "held"
    [row] = _rows_of(chart_specs(report)["forgetting"], "point")
    assert row["kind"].startswith(word)


def test_slice_chart_colours_each_slice_as_the_table_reads_it(weekly_churn):
    from reportgen.view.slices import readings

    report = Report.from_json(weekly_churn)
    spec = specs.chart_specs(report)["slices"]
    drawn = {r["slice"]: r["kind"] for r in _rows_of(spec, "point")}
    colour = next(v for v in _layers(spec) if _mark(v) == "point")["encoding"]["color"]
    colour_of = dict(zip(colour["scale"]["domain"], colour["scale"]["range"], strict=True))
    # the table's CSS class (report.css: shown green, partly amber, not shown red) -> colour
    expected = {"shown": GOOD, "partly": AMBER, "not-shown": BAD, "neutral": MUTED}
    words = readings()
    read = {s.slice: words[s.reading()] for s in report.slices or ()}
    assert "partly" in {css for _, css in read.values()}  # the case the issue names
    for name, (_, css) in read.items():
        assert colour_of[drawn[name]] == expected[css], (name, css)
    # the legend lists only what is drawn
    assert set(colour["scale"]["domain"]) == set(drawn.values())


def test_slice_chart_draws_the_no_worse_margin(weekly_churn):
    report = Report.from_json(weekly_churn)
    [margin] = {abs(s.margin) for s in report.slices or () if s.required and s.margin}
    spec = specs.chart_specs(report)["slices"]
    refs = [r for rows in spec["datasets"].values() for r in rows if "what" in r]
    assert -margin in [r["x"] for r in refs]
    assert any("margin" in w for w in _reference_labels(spec))


def test_slice_chart_without_a_required_slice_draws_no_margin(weekly_churn):
    report = copy.deepcopy(weekly_churn)
    for s in report["slices"]:
        s["required"] = False
    spec = chart_specs(report)["slices"]
    assert not any("margin" in w for w in _reference_labels(spec))


def test_reliability_diagram_has_a_count_histogram_of_every_bin(weekly_churn):
    spec = chart_specs(weekly_churn)["reliability"]
    assert "vconcat" in spec
    bars = _rows_of(spec, "rect")
    for role in ("candidate", "baseline"):
        counts = [b["count"] for b in weekly_churn["calibration"][role]["bins"] if b["count"]]
        label = f"{model_name(Report.from_json(weekly_churn), role)} ({role})"
        assert [r["count"] for r in bars if r["model"] == label] == counts
        assert all(r["b"] > r["a"] for r in bars)


def test_cost_chart_axis_title_is_short_and_the_unit_is_in_the_caption(weekly_churn):
    from reportgen.view.threshold import threshold_view

    spec = chart_specs(weekly_churn)["threshold_cost"]
    titles = [
        v["encoding"]["y"].get("title") for v in _layers(spec) if "y" in v.get("encoding", {})
    ]
    assert [t for t in titles if t] == ["cost / case"]
    unit = weekly_churn["threshold"]["costs"]["unit"]
    view = threshold_view(Report.from_json(weekly_churn), {"threshold_cost"})
    assert view is not None and view.figure is not None and unit in view.figure.caption


def test_reliability_legend_symbols_are_as_strong_as_the_points(weekly_churn):
    """The colour legend's symbols at full opacity, not the faint whiskers' 0.55."""
    spec = chart_specs(weekly_churn)["reliability"]
    legends = [
        v["encoding"]["color"].get("legend")
        for v in _layers(spec)
        # a legend set to null is hidden (the count histogram's): nothing to read there
        if "color" in v.get("encoding", {})
        and not ("legend" in v["encoding"]["color"] and v["encoding"]["color"]["legend"] is None)
    ]
    assert legends and all(lg and lg.get("symbolOpacity") == 1 for lg in legends)


def test_reliability_legend_sits_under_the_chart_so_the_plot_keeps_the_width(weekly_churn):
    """Printed beside ROC/PR, the diagram with its legend on the right was a small plot in a
    third of the page; the legend now sits under it and the plot takes that width."""
    from reportgen.charts.compose import WIDTH

    spec = chart_specs(weekly_churn)["reliability"]
    legends = [
        v["encoding"]["color"]["legend"]
        for v in _layers(spec)
        if (v.get("encoding", {}).get("color") or {}).get("legend")
    ]
    assert legends and all(lg.get("orient") in (None, "bottom") for lg in legends)
    assert spec["config"]["legend"]["orient"] == "bottom"
    widths = [part.get("width") for part in spec["vconcat"]]
    assert widths[0] == widths[1] and widths[0] >= WIDTH - 140


def test_roc_and_pr_draw_each_models_seed_band(weekly_churn):
    spec = chart_specs(weekly_churn)["ranking"]
    areas = [v for v in _layers(spec) if _mark(v) == "area"]
    assert len(areas) == 2  # ROC and precision-recall
    for v in areas:
        rows = spec["datasets"][v["data"]["name"]]
        assert {r["model"] for r in rows} == {
            label for _, label, _ in models(Report.from_json(weekly_churn))
        }
        assert all(r["low"] <= r["high"] for r in rows)
    band = weekly_churn["ranking"]["candidate"]["roc_band"]
    roc_rows = spec["datasets"][areas[0]["data"]["name"]]
    cand = [r for r in roc_rows if r["model"].endswith("(candidate)")]
    assert [r["high"] for r in cand] == band["high"]
    pr_rows = spec["datasets"][areas[1]["data"]["name"]]
    assert all(r["x"] > 0 for r in pr_rows)  # recall 0 is a convention, not drawn


TICK = re.compile(r"<text[^>]*>([^<]*)</text>")


def _texts(svg: str) -> list[str]:
    return TICK.findall(svg)


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("diabetes-regression", "variance of the gap"),
        ("weekly-churn", "variance of the gap (× 10⁻⁵)"),
        ("digits-multiclass", "variance of the gap (× 10⁻⁴)"),
    ],
)
def test_variance_axis_ticks_are_never_exponents(name, title):
    """50,000 for squared units, decimals from 10⁻³ up, a scaled title below: never 5.0e-5."""
    report = load(name)
    svg = build_charts(report)["budget"]
    texts = _texts(svg)
    assert title in texts
    ticks = [t for t in texts if re.fullmatch(r"[\d.,]+", t)]
    assert ticks and not [t for t in texts if re.search(r"\de[+-]?\d", t)]
    x = chart_specs(report)["budget"]["vconcat"][0]["encoding"]["x"]
    assert x["axis"]["format"] == ",~r"


def test_variance_axis_between_a_thousandth_and_one_is_decimals(weekly_churn):
    report = copy.deepcopy(weekly_churn)
    b = report["noise"]["budget"]
    b["seed_term"], b["block_term"], b["total"] = 0.0012, 0.00045, 0.00165
    texts = _texts(build_charts(report)["budget"])
    assert "variance of the gap" in texts
    assert "0.0005" in texts and "0.001" in texts


def test_confusion_heat_map_shows_every_label_and_white_zero(tmp_path):
    """Long class names (wine cultivars) all show on both axes; an empty cell is white."""
    report = copy.deepcopy(load("digits-multiclass"))
    sec = report["multiclass"]
    names = ["barbera", "barolo", "grignolino"]
    sec["classes"] = names
    for role in ("candidate", "baseline"):
        sec[role]["confusion"] = [[12, 0, 0], [0, 15, 0], [1, 0, 17]]
        sec[role]["confusion_normalised"] = [[1, 0, 0], [0, 1, 0], [1 / 18, 0, 17 / 18]]
    svg = build_charts(report)["confusion"]
    shown = re.findall(r'<text[^>]*opacity="1"[^>]*>([^<]*)</text>', svg)
    hidden = re.findall(r'<text[^>]*opacity="0"[^>]*>([^<]*)</text>', svg)
    assert hidden == []
    for name in names:
        assert shown.count(name) == 4, name  # both axes of both panels
    fills = re.findall(r'<path[^>]*fill="(rgb\([^)]*\))"', svg)
    assert "rgb(255, 255, 255)" in fills
    assert not [
        f for f in fills if f.startswith("rgb(2") and "255, 255)" in f and f != "rgb(255, 255, 255)"
    ]


@pytest.mark.parametrize("required", [False, True])
def test_before_after_slice_chart_speaks_as_its_table(tuned_no_replay, required):
    """A before/after project's slice chart says "after tuning", as its one table does (issue
    31: the chart said "candidate better" beside a table saying "better after tuning"), and
    each slice's colour is its table reading's (a required slice's "no worse: not shown" amber,
    as the model pair's "may be worse")."""
    from reportgen.view.slices import version_readings

    raw = copy.deepcopy(tuned_no_replay)
    if required:  # the first slice required, with a margin its interval's worse end is beyond
        first = raw["slices"][0]
        first.update(required=True, margin=0.01, not_worse=False)
        first["low"] = -0.02
    report = Report.from_json(raw)
    spec = specs.chart_specs(report)["slices"]
    drawn = {r["slice"]: r["kind"] for r in _rows_of(spec, "point")}
    assert all("candidate" not in k for k in drawn.values())
    colour = next(v for v in _layers(spec) if _mark(v) == "point")["encoding"]["color"]
    colour_of = dict(zip(colour["scale"]["domain"], colour["scale"]["range"], strict=True))
    expected = {"shown": GOOD, "partly": AMBER, "not-shown": BAD, "neutral": MUTED}
    words = version_readings()
    for s in report.slices or ():
        _, css = words[s.reading()]
        assert colour_of[drawn[s.slice]] == expected[css], s.slice
    assert ("unshown" in {s.reading() for s in report.slices or ()}) == required
    titles = [
        v["encoding"]["x"].get("title") for v in _layers(spec) if "x" in v.get("encoding", {})
    ]
    assert "change in accuracy (after better is positive)" in titles


@pytest.mark.parametrize("primary", ["t", "bootstrap"])
def test_before_after_interval_legend_names_only_what_is_drawn(tuned_no_replay, primary):
    """tuned-replay page 2: the legend listed "for comparison" beside one interval (the paired
    t was primary, so no second interval was drawn)."""
    report = copy.deepcopy(tuned_no_replay)
    report["before_after"]["primary"] = primary
    spec = chart_specs(report)["before_after_interval"]
    drawn = {r["kind"] for r in _rows_of(spec, "point")}
    colour = next(v for v in _layers(spec) if _mark(v) == "point")["encoding"]["color"]
    assert set(colour["scale"]["domain"]) == drawn
    assert len(drawn) == (1 if primary == "t" else 2)


def _cost_axis(spec: dict) -> list[float]:
    """The cost chart's y domain (its line's)."""
    lines = [v for v in _layers(spec) if _mark(v) == "line" and "title" in v["encoding"]["y"]]
    return lines[0]["encoding"]["y"]["scale"]["domain"]


def _cost_caption(report: dict) -> str:
    from reportgen.view.threshold import threshold_view

    view = threshold_view(Report.from_json(report), {"threshold_cost"})
    assert view is not None and view.figure is not None
    return view.figure.caption


@pytest.mark.parametrize("name", ["breast-cancer", "breast-cancer-cv"])
def test_a_spiking_cost_curve_is_cut_so_its_minimum_reads(name):
    """breast-cancer's cost rises to 1.84 at threshold 1 (no positives predicted) while the
    chosen thresholds cost 0.009 and 0.026: on an axis to 1.84 the minimum was a flat line
    along the floor. The axis stops at a small multiple of the costs there; the line leaves
    the plot (clipped); the diamonds stay inside; the caption says where it is cut."""
    report = load(name)
    spec = chart_specs(report)["threshold_cost"]
    low, top = _cost_axis(spec)
    curve = [r["y"] for r in _rows_of(spec, "line")]
    assert top < max(curve) / 4
    diamonds = [r["y"] for r in _rows_of(spec, "point")]
    assert len(diamonds) == 2 and all(low < y < top for y in diamonds)
    lines = [v for v in _layers(spec) if _mark(v) == "line" and "title" in v["encoding"]["y"]]
    assert lines[0]["mark"]["clip"] is True
    caption = _cost_caption(report)
    peak = fmt_cost(max(curve))
    assert f"The cost axis is cut at {fmt_cost(top)}" in caption
    assert f"the curve rises to {peak} at threshold" in caption


@pytest.mark.parametrize("name", ["weekly-churn", "moons-tie"])
def test_a_cost_curve_without_a_spike_is_drawn_whole(name):
    report = load(name)
    spec = chart_specs(report)["threshold_cost"]
    low, top = _cost_axis(spec)
    curve = [r["y"] for r in _rows_of(spec, "line")]
    assert low < 0 and top > max(curve)
    assert "axis is cut" not in _cost_caption(report)


def test_top_label_reliability_draws_only_the_bins_a_reader_can_judge():
    """digits-multiclass: nearly every row in the top bin, the other bins 1 to 15 rows whose
    intervals spanned the whole height. Only bins with MIN_JOINED rows or more keep their
    interval; the others are faint small dots; both panels' probability axis starts at the
    lowest bin with rows, so the histogram still counts every row."""
    report = load("digits-multiclass")
    spec = chart_specs(report)["top_label_reliability"]
    upper, _counts = spec["vconcat"]
    views = _layers(upper)
    whiskers = [r for v in views if _mark(v) == "rule" for r in spec["datasets"][v["data"]["name"]]]
    assert whiskers and all(r["count"] >= MIN_JOINED for r in whiskers)
    faint = [v for v in views if _mark(v) == "point" and v["mark"].get("opacity", 1) < 0.5]
    assert len(faint) == 1
    small = spec["datasets"][faint[0]["data"]["name"]]
    assert small and all(r["count"] < MIN_JOINED for r in small)
    bins = [
        b
        for role in ("candidate", "baseline")
        for b in report["multiclass"][role]["top_label"]["bins"]
    ]
    start = min(b["low"] for b in bins if b["count"])
    assert start > 0
    drawn = _layers(spec)
    assert len(drawn) > len(views)  # the histogram's view too
    for v in drawn:
        x = v["encoding"]["x"]
        if "scale" in x:
            assert x["scale"]["domain"] == [start, 1]
    bars = _rows_of(spec, "rect")
    assert sum(r["count"] for r in bars) == sum(b["count"] for b in bins)
    from reportgen.view.multiclass import multiclass_view

    view = multiclass_view(Report.from_json(report), {"top_label_reliability"})
    assert view is not None and view.reliability_figure is not None
    caption = view.reliability_figure.caption
    assert f"bins with at least {MIN_JOINED} rows are points with their 95% interval" in caption


def test_binary_reliability_keeps_its_hollow_small_bins_on_the_whole_axis(weekly_churn):
    spec = chart_specs(weekly_churn)["reliability"]
    for v in _layers(spec):
        x = v["encoding"].get("x", {})
        if "scale" in x:
            assert x["scale"]["domain"] == [0, 1]
    hollow = [v for v in _layers(spec) if _mark(v) == "point" and v["mark"].get("filled") is False]
    assert hollow
