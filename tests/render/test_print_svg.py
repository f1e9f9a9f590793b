"""The charts as the PDF draws them (render.pdf.for_print): fewer elements, the same marks."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from reportgen.charts.specs import build_charts
from reportgen.model import Report
from reportgen.render.pdf import for_print

NS = "{http://www.w3.org/2000/svg}"
#: what draws: every one must survive, with its attributes and the transforms above it
MARKS = ("path", "line", "rect", "text", "circle", "image", "clipPath", "defs")


def drawn(svg: str) -> list[tuple]:
    """Every drawing element with its attributes and the drawing attributes of its groups."""
    out: list[tuple] = []

    def walk(node, inherited: tuple) -> None:
        own = tuple(sorted((k, v) for k, v in node.attrib.items() if k not in {"class", "role"}))
        if node.tag == NS + "g":
            inherited = inherited + tuple(
                (k, v) for k, v in own if not k.startswith("aria") and k != "pointer-events"
            )
        elif node.tag.removeprefix(NS) in MARKS:
            if not (node.get("class") == "background" and node.get("d") == "M0,0h0v0h0Z"):
                out.append((node.tag, own, inherited, (node.text or "").strip()))
        for child in node:
            walk(child, inherited)

    walk(ET.fromstring(svg), ())
    return out


@pytest.fixture(scope="module")
def svgs(weekly_churn) -> dict[str, str]:
    return build_charts(Report.from_json(weekly_churn))


def test_every_mark_is_kept_with_what_it_inherits(svgs):
    for key, svg in svgs.items():
        slim = for_print(svg)
        assert drawn(slim) == drawn(svg), key
        assert len(slim) < len(svg), key


def test_about_half_the_groups_go(svgs):
    before = sum(len(re.findall(r"<g\b", s)) for s in svgs.values())
    after = sum(len(re.findall(r"<g\b", for_print(s))) for s in svgs.values())
    assert after < 0.7 * before, (before, after)


def test_groups_that_draw_stay():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<g class="a"><g fill="red"><rect width="1" height="1"/></g>'
        '<g transform="translate(2,0)"><rect width="1" height="1"/></g>'
        '<g clip-path="url(#c)"><rect width="1" height="1"/></g>'
        '<g role="graphics-object" aria-roledescription="x"><text>label</text></g></g>'
        '<path class="background" aria-hidden="true" d="M0,0h0v0h0Z"/></svg>'
    )
    slim = for_print(svg)
    assert slim.count("<g") == 3  # fill, transform and clip-path groups; the others unwrapped
    assert 'fill="red"' in slim and 'transform="translate(2,0)"' in slim
    assert "M0,0h0v0h0Z" not in slim and ">label</text>" in slim
