"""The chart registry: every chart the report can draw, as Vega-Lite specs and as inline SVG."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reportgen.charts.before_after import before_after_interval, fixed_broken, forgetting
from reportgen.charts.classification import ranking_pair, reliability, threshold_cost
from reportgen.charts.compose import Datasets, top_level
from reportgen.charts.cv import cv_fold_gaps
from reportgen.charts.noise import bootstrap_histogram, budget, eval_intervals, seed_strip
from reportgen.charts.sensitivity import sensitivity_dots
from reportgen.charts.slices import slice_gaps
from reportgen.charts.svg import chart_svg, sanitise_spec
from reportgen.charts.tasks import (
    confusion,
    predicted_actual,
    residuals_by_block,
    top_label_reliability,
)
from reportgen.model import Report
from reportgen.model.enums import ChartKey

#: a chart builder: the view of its chart (a Vega-Lite dict), or None without its data
Builder = Callable[[Report, Datasets], dict[str, Any] | None]

#: chart key -> builder, in page order
BUILDERS: dict[ChartKey, Builder] = {
    ChartKey.SEED_STRIP: seed_strip,
    ChartKey.EVAL_INTERVALS: eval_intervals,
    ChartKey.BOOTSTRAP_HISTOGRAM: bootstrap_histogram,
    ChartKey.CV_FOLD_GAPS: cv_fold_gaps,
    ChartKey.THRESHOLD_COST: threshold_cost,
    ChartKey.RANKING: ranking_pair,
    ChartKey.RELIABILITY: reliability,
    ChartKey.CONFUSION: confusion,
    ChartKey.TOP_LABEL_RELIABILITY: top_label_reliability,
    ChartKey.PREDICTED_ACTUAL: predicted_actual,
    ChartKey.RESIDUALS_BY_BLOCK: residuals_by_block,
    ChartKey.SENSITIVITY: sensitivity_dots,
    ChartKey.SLICES: slice_gaps,
    ChartKey.BEFORE_AFTER_INTERVAL: before_after_interval,
    ChartKey.FIXED_BROKEN: fixed_broken,
    ChartKey.FORGETTING: forgetting,
    ChartKey.BUDGET: budget,
}


def builder(key: str) -> Builder:
    """The builder of chart ``key``; KeyError naming the key and the known ones."""
    try:
        return BUILDERS[ChartKey(key)]
    except ValueError:
        known = ", ".join(BUILDERS)
        raise KeyError(f"unknown chart key {key!r}; the chart keys are {known}") from None


def chart_specs(report: Report) -> dict[ChartKey, dict[str, Any]]:
    """Vega-Lite specs (plain dicts) for every chart the report can draw; absent charts left out.

    The charts' words (titles, axes, legends) are in the report's language, wherever the specs
    are built: in the build's process or in the chart helper, which has only the report."""
    from reportgen.words.i18n import speaking

    specs = {}
    with speaking(report.language):
        for key, build in BUILDERS.items():
            data = Datasets()
            view = build(report, data)
            if view is not None:
                specs[key] = sanitise_spec(top_level(view, data))
    return specs


def build_charts(report: Report) -> dict[ChartKey, str]:
    """Chart key -> inline SVG markup for every chart the report has data for."""
    return {key: chart_svg(key, spec) for key, spec in chart_specs(report).items()}
