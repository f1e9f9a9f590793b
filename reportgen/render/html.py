"""The jinja2 environment (autoescape on, StrictUndefined) and the HTML page."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import reportgen

ROOT = Path(reportgen.__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
STYLES = ROOT / "styles"
STYLESHEETS = ("report.css", "print.css")
#: the printed page's chart images: CHART_URL + chart key
CHART_URL = "evreport-chart:"


#: C0 controls but tab and newline, DEL, C1 controls, and lone surrogates (undecodable names)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _visible(value):
    """jinja2 finalize: control characters in plain strings become visible escapes (\\x1b), as
    in every message; markup the templates built is left as it is."""
    from markupsafe import Markup

    if not isinstance(value, str) or isinstance(value, Markup):
        return value
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()) & 0xFF:02x}", value)


@lru_cache(maxsize=1)
def environment():
    """The HTML environment: autoescape everywhere, undefined names are errors."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        finalize=_visible,
    )


def stylesheet() -> str:
    """report.css and print.css, to be inlined in the page."""
    return "\n".join((STYLES / name).read_text(encoding="utf-8") for name in STYLESHEETS)


def render_html(view, charts: Mapping[str, str] | None = None, for_print: bool = False) -> str:
    """The self-contained report page for a ReportView, each chart's SVG (by key) inline.

    for_print: the page WeasyPrint prints. Each chart is an <img> of CHART_URL + key, which
    render.pdf's fetcher serves: WeasyPrint parses and styles inline SVG as part of the HTML
    before it draws it, an image it only draws; and the page can be laid out while the
    charts are still being drawn.
    """
    template = environment().get_template("report.html")
    return template.render(
        v=view, css=stylesheet(), charts=charts or {}, for_print=for_print, chart_url=CHART_URL
    )
