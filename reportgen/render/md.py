"""decision-log.md: the entry a team pastes into its decision log, plain text in markdown."""

from __future__ import annotations

import re
from functools import lru_cache

from reportgen.errors import clean_text
from reportgen.render.html import TEMPLATES

#: characters that would let user text become a link, an image, raw HTML or code
_ACTIVE = re.compile(r"([\\`\[\]<>])")


def plain(text: object) -> str:
    """User text as one markdown line: no raw HTML, links, images or structure-breaking newlines.

    Square brackets, angle brackets, backticks and backslashes are escaped, so neither
    ``![x](http://host/p.png)`` nor ``[x](javascript:...)`` nor ``<http://...>`` can form;
    control characters are shown as escapes.
    """
    s = " ".join(clean_text(text, None).split())
    return _ACTIVE.sub(r"\\\1", s)


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
