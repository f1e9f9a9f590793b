"""The report page: report.html rendered by the HTML environment (render/env.py)."""

from __future__ import annotations

from collections.abc import Mapping

from reportgen.render.env import environment, stylesheet

STYLESHEETS = ("report.css", "print.css")
#: a language's own rules after those, for its longer words (the Ukrainian page one and ladder
#: keep to the English pages, docs/report.md "The page budget")
LANGUAGE_STYLESHEETS = {"uk": ("print-uk.css",)}
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
        css=stylesheet(*STYLESHEETS, *LANGUAGE_STYLESHEETS.get(view.header.language, ())),
        charts=charts or {},
        for_print=for_print,
        chart_url=CHART_URL,
    )
