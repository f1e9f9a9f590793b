"""The section "How each prediction moves with its inputs (locally)": every printed number is
report.json's, formatted here with plain Python; absent without a file; a tree's sentence."""

from __future__ import annotations

import json

import numpy as np

from reportgen.checks import compute_report
from reportgen.model import Report
from reportgen.project import load_project
from reportgen.render.html import render_html
from reportgen.sanity.sensitivity import PIECEWISE_CONSTANT, check_sensitivity
from reportgen.view import build_view
from tests.checks.builder import make_project

TITLE = "How each prediction moves with its inputs (locally)"
#: twelve features of very different slopes, so the table keeps ten and the HTML the rest
W = np.array([0.5, -2.0, 0.01, 3.0, -0.2, 0.07, 1.1, -0.9, 0.3, 0.02, -4.0, 0.6])
NAMES = [f"f{j}" for j in range(len(W))]


def _p(X):
    return 1.0 / (1.0 + np.exp(-(X @ W)))


def _grad(X):
    p = _p(X)
    return (p * (1 - p))[:, None] * W


def _report(tmp_path, base=None, write=True):
    root = make_project(tmp_path / "p")
    if write:
        X = np.random.default_rng(0).normal(size=(40, len(W)))
        check_sensitivity(
            _p, X, _grad(X), project=root, model="net", features=NAMES, units={"f0": "year"}
        )
        for model in ("base",) if base == "same" else ():
            check_sensitivity(
                _p,
                X,
                _grad(X) * 0.5,
                project=root,
                model=model,
                features=NAMES,
                units={"f0": "year"},
            )
    if base == "tree":
        body = {"check": "sensitivity", "model": "base", "reason": PIECEWISE_CONSTANT}
        (root / "artefacts/checks/sensitivity-base.json").write_text(json.dumps(body))
    report, _ = compute_report(load_project(root))
    return json.loads(json.dumps(report, default=str))


def _pct(x):
    return f"{round(x * 100):.0f}%"


def test_the_section_s_numbers_are_report_json_s(tmp_path):
    raw = _report(tmp_path, base="tree")
    view = build_view(Report.from_json(raw), ()).sensitivity
    cand = view.models[0]
    feats = sorted(raw["sensitivity"]["net"]["features"], key=lambda f: -f["median_abs"])
    assert [r.feature for r in cand.top] == [f["name"] for f in feats[:10]]
    assert [r.feature for r in cand.rest] == [f["name"] for f in feats[10:]]
    for row, f in zip(cand.top + cand.rest, feats, strict=True):
        assert float(row.median_abs) == float(f"{f['median_abs']:.3g}")
        assert len(row.median_abs.replace("0.", "").lstrip("0")) == 3  # 3 significant figures
        assert row.positive == _pct(f["share_positive"])
        assert row.saturated == _pct(f["share_saturated"])
    # the largest slope is f10 (|w| = 4), f3 next; f0's unit is its year
    assert [r.feature for r in cand.top[:2]] == ["f10", "f3"]
    f0 = next(r for r in cand.top + cand.rest if r.feature == "f0")
    assert f0.unit == "probability per year of f0"
    assert cand.top[0].unit == "probability per unit of f10"
    assert cand.rest_note == "2 more features"
    # the printed page: the first five (one model's table; two tables print two each)
    assert cand.printed == cand.top[:5]
    assert cand.printed_note == "7 more features in the HTML report and report.json."
    assert "40 test rows" in cand.basis and "agrees with central differences" in cand.basis


def test_the_html_prints_ten_features_and_the_rest_in_details_the_pdf_five(tmp_path):
    view = build_view(Report.from_json(_report(tmp_path, base="tree")), ())
    screen, printed = render_html(view), render_html(view, for_print=True)
    assert TITLE in screen and TITLE in printed
    cand = view.sensitivity.models[0]
    for r in cand.top + cand.rest:
        assert f'<th scope="row">{r.feature}</th>' in screen
        shown = f'<th scope="row">{r.feature}</th>' in printed
        assert shown == (r in cand.printed)
    assert '<details class="sensitivity-rest">' in screen and "sensitivity-rest" not in printed
    assert "7 more features in the HTML report and report.json." in printed
    assert "probability per year of f0" in screen
    assert printed.count("not an importance, not a causal effect") == 1


def test_a_tree_gets_its_one_sentence_never_a_table(tmp_path):
    view = build_view(Report.from_json(_report(tmp_path, base="tree")), ())
    base = view.sensitivity.models[1]
    assert base.reason == "Local gradients are not defined for a piecewise-constant model."
    assert base.top == [] and base.basis is None
    html = render_html(view)
    section = html[html.index(TITLE) :]
    assert section.count("sensitivity-table") == 2  # both models' table and the rest's
    assert section.count("Local gradients are not defined") == 1


def test_the_section_is_absent_without_a_file(tmp_path):
    raw = _report(tmp_path, write=False)
    view = build_view(Report.from_json(raw), ())
    assert view.sensitivity is None
    assert not [s for s in view.sections if s.present and s.anchor == "h-sensitivity"]
    html = render_html(view)
    printed = render_html(view, for_print=True)
    for page in (html, printed):
        assert TITLE not in page and "Input sensitivity" not in page
        assert "dp/dx" not in page and "not computed" not in page.lower()


def test_the_dot_plot_only_when_both_models_have_figures_in_the_same_units(tmp_path):
    from reportgen.charts.specs import chart_specs
    from reportgen.model.enums import ChartKey

    both = Report.from_json(_report(tmp_path / "a", base="same"))
    tree = Report.from_json(_report(tmp_path / "b", base="tree"))
    assert ChartKey.SENSITIVITY in chart_specs(both)
    assert ChartKey.SENSITIVITY not in chart_specs(tree)
    spec = chart_specs(both)[ChartKey.SENSITIVITY]
    rows = next(iter(spec["datasets"].values()))
    medians = {f.name: f.median_abs for f in both.sensitivity["net"].features}
    cand_rows = [r for r in rows if r["model"].endswith("(candidate)")]
    assert {r["feature"]: r["median_abs"] for r in cand_rows} == {
        n: medians[n] for n in [r["feature"] for r in cand_rows]
    }
    assert len(cand_rows) == 10
