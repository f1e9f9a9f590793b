"""The report page: report.html rendered by the HTML environment (render/env.py)."""

from __future__ import annotations

from collections.abc import Mapping

from reportgen.render.env import environment, stylesheet
from reportgen.words.i18n import _, current

STYLESHEETS = ("report.css", "print.css")
#: a language's own rules after those, for its longer words (the Ukrainian page one and ladder
#: keep to the English pages, docs/report.md "The page budget")
LANGUAGE_STYLESHEETS = {"uk": ("uk.css",)}
#: the printed page's chart images: CHART_URL + chart key
CHART_URL = "evreport-chart:"


def render_html(view, charts: Mapping[str, str] | None = None, for_print: bool = False) -> str:
    """The self-contained report page for a ReportView, each chart's SVG (by key) inline.

    for_print: the page WeasyPrint prints. Each chart is an <img> of CHART_URL + key, which
    render.pdf's fetcher serves: WeasyPrint parses and styles inline SVG as part of the HTML
    before it draws it, an image it only draws; and the page can be laid out while the
    charts are still being drawn.
    """
    template = environment("html").get_template("report.html")
    return template.render(
        v=view,
        css=stylesheet(*STYLESHEETS, *LANGUAGE_STYLESHEETS.get(current(), ())) + page_margin_css(),
        charts=charts or {},
        for_print=for_print,
        chart_url=CHART_URL,
    )


def _css_string(text: str) -> str:
    """``text`` as a CSS string literal: letters, digits and plain punctuation as they are,
    every other character as a CSS escape (our catalog's words, escaped all the same)."""
    kept = " .,:;-()'\u2013\u2014"
    return '"' + "".join(c if c.isalnum() or c in kept else f"\\{ord(c):x} " for c in text) + '"'


def page_margin_css() -> str:
    """The printed page's running head and page numbers in the build's language (print.css
    lays them out; only their words are here)."""
    head = _css_string(_("evaluation report"))
    # TRANSLATORS: the printed page's foot; {page} and {pages} become the page counters
    words = _("page {page} of {pages}", page="\0page\0", pages="\0pages\0")
    # "\0\1page\0": a counter's name, marked by a character no catalog text holds
    foot = [
        f"counter({piece[1:]})" if piece[:1] == "\1" else _css_string(piece)
        for piece in words.replace("\0page", "\0\1page").split("\0")
        if piece
    ]
    return (
        "\n@page { @top-right { content: " + head + "; } "
        "@bottom-right { content: " + " ".join(foot) + "; } }\n"
    )
