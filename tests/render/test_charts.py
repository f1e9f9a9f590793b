"""Charts: escaped user text, scoped ids, thinned curves, no active content."""

from __future__ import annotations

import copy
import re

import pytest

from reportgen import charts


def test_thin_keeps_ends_and_limit():
    idx = charts.thin(2001)
    assert len(idx) <= 500 and idx[0] == 0 and idx[-1] == 2000
    assert charts.thin(10) == list(range(10))


def test_scope_ids_rewrites_ids_and_references():
    svg = '<svg><clipPath id="clip1"/><g clip-path="url(#clip1)"/><use href="#clip1"/></svg>'
    out = charts.scope_ids(svg, "ch-x")
    assert 'id="ch-x-1"' in out and "url(#ch-x-1)" in out and 'href="#ch-x-1"' in out
    assert "clip1" not in out


def test_scope_ids_refuses_active_content():
    with pytest.raises(ValueError, match="script"):
        charts.scope_ids("<svg><script>alert(1)</script></svg>", "p")


def test_sample_has_all_model_vs_baseline_charts(sample):
    specs = charts.chart_specs(sample)
    assert set(specs) == {
        "seed_strip",
        "eval_intervals",
        "bootstrap_histogram",
        "threshold_cost",
        "ranking",
        "reliability",
        "slices",
    }
    for spec in specs.values():
        assert spec["config"]["font"] == "DejaVu Sans"
        for rows in spec["datasets"].values():
            assert len(rows) <= 2 * charts.MAX_POINTS  # two models at most 500 points each


def test_minimal_draws_nothing(minimal):
    assert charts.chart_specs(minimal) == {}


def test_empty_calibration_bins_not_drawn(sample):
    report = copy.deepcopy(sample)
    report["calibration"]["candidate"]["bins"][9].update(
        count=0, mean_p=None, fraction_positive=None
    )
    spec = charts.chart_specs(report)["reliability"]
    rows = [r for rows in spec["datasets"].values() for r in rows if "mean_p" in r]
    assert len(rows) == 19


def test_user_strings_escaped_in_svg(sample):
    report = copy.deepcopy(sample)
    report["project"]["candidate"] = "<script>alert(1)</script>"
    report["slices"][0]["slice"] = '<img src=x onerror="alert(1)">'
    svgs = charts.build_charts(report)
    joined = "".join(svgs.values())
    assert "<script" not in joined.lower()
    assert "<img" not in joined.lower()
    assert "&lt;script&gt;" in joined


def test_ids_unique_across_charts(sample):
    svgs = charts.build_charts(sample)
    ids = [i for svg in svgs.values() for i in re.findall(r'\bid="([^"]+)"', svg)]
    assert len(ids) == len(set(ids))


def test_fixed_and_broken_per_category(tuned_no_replay):
    ba = tuned_no_replay["before_after"]
    rows = charts.chart_specs(tuned_no_replay)["fixed_broken"]["datasets"]["data-1"]
    cats = set(ba["fixed_by_category"]) | set(ba["broken_by_category"])
    assert {(r["category"], r["what"]) for r in rows} == {
        (c, w) for c in cats for w in ("fixed", "broken")
    }
    assert sum(r["count"] for r in rows if r["what"] == "fixed") == ba["fixed"] == 224
    assert sum(r["count"] for r in rows if r["what"] == "broken") == ba["broken"] == 25
    # most broken first (units: 9), ties by fixed count (names 64 before places 52)
    order = list(dict.fromkeys(r["category"] for r in rows))
    assert order == ["units", "names", "places", "dates", "numbers"]


def test_fixed_in_one_bar_without_categories(before_after):
    assert before_after["before_after"].get("fixed_by_category") is None
    rows = charts.chart_specs(before_after)["fixed_broken"]["datasets"]["data-1"]
    fixed = [r for r in rows if r["what"] == "fixed"]
    assert fixed == [
        {
            "category": "all categories",
            "what": "fixed",
            "count": before_after["before_after"]["fixed"],
        }
    ]
