"""Vega-Lite spec -> inline SVG string, drawn by vl-convert; chart labels made safe to draw.

vl-convert draws each spec (and escapes every string it draws); ids are then made
deterministic and per-chart so several SVGs can share one page. Every string reaches a
chart through ``chart_label``. This module imports nothing heavy (vl_convert only when
drawing): the chart helper process (render/svg_process.py) imports it and nothing else.
"""

from __future__ import annotations

import re
from typing import Any

from reportgen.safe import replace_controls

_ID_RE = re.compile(r'\bid="([^"]+)"')
_FORBIDDEN = ("<script", "<foreignobject", "javascript:", 'href="http', "href='http")


#: longest label a chart shows: vl-convert's layout time grows fast with label length
MAX_LABEL = 200
_LABEL_ACTIVE = re.compile(r"(?i)(javascript|href)")
#: Unicode noncharacters (U+FDD0-FDEF, the last two code points of every plane) and lone
#: surrogates: vl-convert aborts the process on U+FFFE and U+FFFF
_NONCHARACTER = re.compile(
    "[\ufdd0-\ufdef\ud800-\udfff"
    + "".join(f"{chr(p * 0x10000 + 0xFFFE)}{chr(p * 0x10000 + 0xFFFF)}" for p in range(17))
    + "]"
)


def chart_label(text: str) -> str:
    """A user's text as a chart may show it: no control characters or noncharacters (U+FFFE),
    at most MAX_LABEL long.

    vl-convert aborts the whole process (a Rust panic) on some control characters, so
    every string reaches a chart through here; report.json keeps the original text.
    Words the SVG safety check looks for get a zero-width space, so a label cannot
    make a chart refuse to render.
    """
    if (
        len(text) <= MAX_LABEL
        and text.isascii()
        and text.isprintable()
        and not _LABEL_ACTIVE.search(text)
    ):
        return text  # the common case, at a tenth of the cost: a chart has thousands of labels
    s = _NONCHARACTER.sub("\ufffd", replace_controls(text, "\ufffd"))
    if len(s) > MAX_LABEL:
        s = s[: MAX_LABEL - 1] + "…"
    return _LABEL_ACTIVE.sub("\\1\u200b", s)


def sanitise_spec(node: Any) -> Any:
    """Every string value in a Vega-Lite spec passed through ``chart_label``."""
    if isinstance(node, str):
        return chart_label(node)
    if isinstance(node, dict):
        return {k: sanitise_spec(v) for k, v in node.items()}
    if isinstance(node, list | tuple):
        return [sanitise_spec(v) for v in node]
    return node


def svg_from_spec(spec: dict[str, Any], prefix: str) -> str:
    """One Vega-Lite spec -> SVG markup with ids prefixed, checked free of active content."""
    import vl_convert as vlc

    try:
        svg = vlc.vegalite_to_svg(spec, allowed_base_urls=[])
    except (
        Exception
    ) as e:  # vl-convert raises plain ValueError/RuntimeError with a JavaScript message
        from reportgen.errors import RenderError

        raise RenderError(f"chart {prefix!r}: {str(e).splitlines()[0]}") from e
    return scope_ids(svg, prefix)


def scope_ids(svg: str, prefix: str) -> str:
    """Rewrite every id (and its url(#..)/href="#.." references) to `prefix`-n, in order of first use.

    vl-convert numbers clip paths and gradients per process, so two charts on one page can
    collide and the same report can get different ids on a second build.
    """
    mapping: dict[str, str] = {}
    for old in _ID_RE.findall(svg):
        mapping.setdefault(old, f"{prefix}-{len(mapping) + 1}")
    for old, new in mapping.items():
        svg = svg.replace(f'id="{old}"', f'id="{new}"')
        svg = svg.replace(f"url(#{old})", f"url(#{new})")
        svg = svg.replace(f'href="#{old}"', f'href="#{new}"')
    lowered = svg.lower()
    for bad in _FORBIDDEN:
        if bad in lowered:
            raise ValueError(f"chart SVG contains {bad!r}; refusing to inline it")
    return svg


def chart_svg(key: str, spec: dict[str, Any]) -> str:
    """The inline SVG of chart `key`, its ids scoped by the key."""
    return svg_from_spec(spec, f"ch-{key}")
