"""The HTML report in headless Chromium at 1280 px and 390 px: nothing overprints.

Screenshots at both widths, and the boxes of table cells, badges and claim boxes from
getBoundingClientRect (tests/render/screen.py): no two cells of a row overlap and no text
leaves its cell, a badge is at most two lines, the claim boxes never overlap and stack on a
phone, the page never scrolls sideways (wide tables scroll in their own box) and chart
text stays readable. Skipped, with a message, on a machine without Chromium.
"""

from __future__ import annotations

import pytest

from .screen import WIDTHS, chromium, measure, screenshot

#: every example's report: both modes, binary, multi-class, regression, cross-validation
SCREENED = [
    "weekly-churn",
    "tuned-no-replay",
    "tuned-replay",
    "breast-cancer",
    "breast-cancer-cv",
    "moons-tie",
    "digits-multiclass",
    "diabetes-regression",
]
#: screenshots (slow) of a model-against-baseline report with every section and a before-after one
SHOT = ["weekly-churn", "tuned-no-replay"]
#: the smallest chart text, in CSS px as drawn (Vega's labels are 11 px at full size)
MIN_CHART_TEXT = 10.5


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
    out = {}
    for name in SCREENED:
        folder = tmp_path_factory.mktemp(f"screen-{name}")
        html = folder / "report.html"
        html.write_bytes(rendered(name)["report.html"])
        for width in WIDTHS:
            m = measure(browser, html, width)
            if name in SHOT:
                m["screenshot"] = screenshot(
                    browser, html, width, 3000, folder / f"shot-{width}.png"
                )
            out[name, width] = m
    return out


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", SCREENED)
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


@pytest.mark.parametrize("name", SCREENED)
def test_claim_boxes_sit_side_by_side_then_stack(pages, name):
    wide, phone = pages[name, 1280], pages[name, 390]
    assert wide["claims"] == phone["claims"] == 2
    assert not wide["claims_stacked"]
    assert phone["claims_stacked"]
    assert phone["claim_width"] > 0.9 * phone["main_width"] - 40  # each the column's width


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", SCREENED)
def test_chart_text_keeps_its_size(pages, name, width):
    m = pages[name, width]
    assert m["chart_texts"] > 20
    assert m["chart_text_min"] >= MIN_CHART_TEXT, m["chart_text_min"]


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
