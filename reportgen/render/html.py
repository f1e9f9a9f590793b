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


def render_html(view) -> str:
    """The self-contained report page for a ReportView."""
    template = environment().get_template("report.html")
    return template.render(v=view, css=stylesheet())
