"""The jinja2 environment (autoescape on, StrictUndefined) and the HTML page."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import reportgen

ROOT = Path(reportgen.__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
STYLES = ROOT / "styles"
STYLESHEETS = ("report.css", "print.css")


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
    )


def stylesheet() -> str:
    """report.css and print.css, to be inlined in the page."""
    return "\n".join((STYLES / name).read_text(encoding="utf-8") for name in STYLESHEETS)


def render_html(view, for_print: bool = False) -> str:
    """The self-contained report page for a ReportView.

    for_print: the page WeasyPrint prints, each chart an <img> of the same SVG. WeasyPrint
    parses and styles inline SVG as part of the HTML before it draws it; as an image it only
    draws it.
    """
    template = environment().get_template("report.html")
    return template.render(v=view, css=stylesheet(), for_print=for_print)
