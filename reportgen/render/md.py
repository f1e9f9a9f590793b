"""decision-log.md: the entry a team pastes into its decision log, plain text in markdown.

Rendered by the markdown environment of render/env.py: every printed value goes
through ``render.env.plain`` (no link, image, raw HTML or code can form from user text).
"""

from __future__ import annotations

from reportgen.render.env import environment


def render_markdown(view) -> str:
    return environment("markdown").get_template("decision-log.md").render(v=view)
