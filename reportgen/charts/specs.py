"""The chart registry: every chart the report can draw, as Vega-Lite specs and as inline SVG."""

from __future__ import annotations

from collections.abc import Callable

from reportgen.charts.before_after import before_after_interval, fixed_broken, forgetting
from reportgen.charts.classification import ranking_pair, reliability, threshold_cost
from reportgen.charts.compose import Datasets, top_level
from reportgen.charts.cv import cv_fold_gaps
from reportgen.charts.noise import bootstrap_histogram, budget, eval_intervals, seed_strip
from reportgen.charts.slices import slice_gaps
from reportgen.charts.svg import chart_svg, sanitise_spec
from reportgen.charts.tasks import (
    confusion,
    predicted_actual,
    residuals_by_block,
    top_label_reliability,
)

#: chart key -> builder, in page order
BUILDERS: dict[str, Callable[[dict, Datasets], dict | None]] = {
    "seed_strip": seed_strip,
    "eval_intervals": eval_intervals,
    "bootstrap_histogram": bootstrap_histogram,
    "cv_fold_gaps": cv_fold_gaps,
    "threshold_cost": threshold_cost,
    "ranking": ranking_pair,
    "reliability": reliability,
    "confusion": confusion,
    "top_label_reliability": top_label_reliability,
    "predicted_actual": predicted_actual,
    "residuals_by_block": residuals_by_block,
    "slices": slice_gaps,
    "before_after_interval": before_after_interval,
    "fixed_broken": fixed_broken,
    "forgetting": forgetting,
    "budget": budget,
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


def build_charts(report: dict) -> dict[str, str]:
    """Chart key -> inline SVG markup for every chart the report has data for."""
    return {key: chart_svg(key, spec) for key, spec in chart_specs(report).items()}
