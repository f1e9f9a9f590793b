"""decision-log.md: the entry a team pastes into its decision log, plain text in markdown."""

from __future__ import annotations

from functools import lru_cache

from reportgen.render.html import TEMPLATES


def plain(text: object) -> str:
    """User text as one markdown line: no raw HTML, no structure-breaking newlines."""
    s = " ".join(str(text).split())
    return s.replace("<", "\\<").replace(">", "\\>")


@lru_cache(maxsize=1)
def environment():
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        finalize=plain,
    )
    return env


def render_markdown(view) -> str:
    return environment().get_template("decision-log.md").render(v=view)
