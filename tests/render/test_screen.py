"""The HTML report in headless Chromium at 1280 px and 390 px: nothing overprints.

Screenshots at both widths, and the boxes of table cells, badges and claim boxes from
getBoundingClientRect (tests/render/screen.py): no two cells of a row overlap and no text
leaves its cell, a badge is at most two lines, the claim boxes never overlap and stack on a
phone, the page never scrolls sideways (wide tables scroll in their own box), every chart
fits the screen with its legends whole and its data inside its plot, and chart text stays
readable; four examples also in Ukrainian (issue 34). Skipped, with a message, on a machine
without Chromium.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .screen import WIDTHS, chromium, measure, measure_many, screenshot

ROOT = Path(__file__).resolve().parents[2]

#: every example's report: both modes, binary, multi-class, regression, cross-validation
SCREENED = [
    "weekly-churn",
    "tuned-no-replay",
    "tuned-replay",
    "llm-before-after",
    "breast-cancer",
    "breast-cancer-cv",
    "moons-tie",
    "digits-multiclass",
    "diabetes-regression",
]
#: built in Ukrainian too (issue 34: longer words, the same layout rules): one of each kind of
#: page, named "NAME:uk" in the tests
UKRAINIAN = ["weekly-churn", "breast-cancer-cv", "digits-multiclass", "tuned-replay"]
SCREENED_ALL = SCREENED + [f"{n}:uk" for n in UKRAINIAN]
#: screenshots (slow) of a model-against-baseline report with every section and a before-after one
SHOT = ["weekly-churn", "tuned-no-replay"]
#: the smallest chart text, in CSS px as drawn (Vega's labels are 11 px at full size), by
#: width: on a laptop every chart keeps its size; on a phone each shrinks to the column with
#: its legend whole (the widest, 704 px of confusion heat maps, to about half), pinch to read
MIN_CHART_TEXT = {1280: 10.5, 390: 5.5}


@pytest.fixture(scope="module")
def browser() -> str:
    found = chromium()
    if found is None:
        pytest.skip(
            "Chromium is not installed (apt-get install chromium): screen layout not checked"
        )
    return found


@pytest.fixture(scope="module")
def pages(browser, rendered, tmp_path_factory) -> dict:
    """(example, width) -> the measurements of its HTML report, with a screenshot taken."""
    from reportgen.api import build_report

    htmls = {}
    for name in SCREENED_ALL:
        folder = tmp_path_factory.mktemp(f"screen-{name.replace(':', '-')}")
        html = folder / "report.html"
        if name.endswith(":uk"):
            example = ROOT / "examples" / name.removesuffix(":uk")
            res = build_report(example, folder, ("html",), language="uk")
            assert not res.render_problems, res.render_problems
        else:
            html.write_bytes(rendered(name)["report.html"])
        htmls[name] = html
    # every page at every width in one Chromium run: a start costs seconds
    keys = [(name, width) for name in SCREENED_ALL for width in WIDTHS]
    found = measure_many(
        browser, [(htmls[n], w) for n, w in keys], tmp_path_factory.mktemp("screen-host")
    )
    out = dict(zip(keys, found, strict=True))
    for name in SHOT:
        for width in WIDTHS:
            out[name, width]["screenshot"] = screenshot(
                browser, htmls[name], width, 3000, htmls[name].with_name(f"shot-{width}.png")
            )
    return out


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", SCREENED_ALL)
def test_nothing_overprints(pages, name, width):
    m = pages[name, width]
    assert "error" not in m, m
    assert m["width"] == width
    assert m["cells"] > 50 and m["badges"] > 5, m  # the report was measured, not a blank page
    assert m["problems"] == [], f"{name} at {width} px: {m['problems'][:10]}"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", SHOT)
def test_screenshot_is_taken(pages, name, width):
    png = pages[name, width]["screenshot"]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(data[16:20], "big") == width


@pytest.mark.parametrize("name", SCREENED_ALL)
def test_claim_boxes_sit_side_by_side_then_stack(pages, name):
    wide, phone = pages[name, 1280], pages[name, 390]
    assert wide["claims"] == phone["claims"] == 2
    assert not wide["claims_stacked"]
    assert phone["claims_stacked"]
    assert phone["claim_width"] > 0.9 * phone["main_width"] - 40  # each the column's width


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", SCREENED_ALL)
def test_chart_text_keeps_its_size(pages, name, width):
    m = pages[name, width]
    assert m["chart_texts"] > 20
    assert m["chart_text_min"] >= MIN_CHART_TEXT[width], m["chart_text_min"]


def test_the_measure_finds_overprinting(browser, tmp_path):
    """The check itself: a fixed-width table whose numbers are wider than their cells."""
    html = tmp_path / "report.html"
    html.write_text(
        '<!doctype html><html><body><main><table style="table-layout:fixed;width:200px">'
        '<tr><td style="white-space:nowrap">+0.0032 to +0.0112 and more</td><td>x</td></tr>'
        '</table><span class="status" style="display:inline-block;width:20px">no worse not '
        "shown at all</span></main></body></html>",
        encoding="utf-8",
    )
    kinds = {p["kind"] for p in measure(browser, html, 390)["problems"]}
    assert {"text leaves its cell", "badge wraps"} <= kinds


def test_the_measure_finds_a_chart_wider_than_the_phone_and_data_off_its_plot(browser, tmp_path):
    """The check itself: a chart drawn at 600 px that does not shrink, its legend past the
    screen's edge, and a point outside its plot's frame (Vega's classes as vl-convert writes)."""
    html = tmp_path / "report.html"
    html.write_text(
        '<!doctype html><html><body><main><figure class="chart"><div class="chart-svg">'
        '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200" style="max-width:none">'
        '<g class="mark-group role-frame root"><g><path class="background" d="M0,0h300v150h-300Z"/>'
        '<g class="mark-symbol role-mark"><circle cx="400" cy="60" r="4"/></g></g></g>'
        '<g class="mark-group role-legend"><rect x="450" y="170" width="120" height="20"/></g>'
        "</svg></div><figcaption>a chart</figcaption></figure></main></body></html>",
        encoding="utf-8",
    )
    kinds = {p["kind"] for p in measure(browser, html, 390)["problems"]}
    assert {"chart wider than the screen", "legend cut off", "data outside its plot"} <= kinds
    wide = {p["kind"] for p in measure(browser, html, 1280)["problems"]}
    assert wide == {"data outside its plot"}
