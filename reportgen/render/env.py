"""The one jinja2 environment factory, for every page evreport renders.

Two flavours over the same templates/ folder (the packaged one or the repository's, as
reportgen.resources finds it), both with undefined names as errors:

- ``html`` (report.html, the batch index, the feedback section): autoescape on, and every
  printed string has its control characters shown as escapes (``\\x1b``), as in messages;
- ``markdown`` (decision-log.md, the CI job summary): autoescape off on purpose, since HTML entities would show
  as ``&lt;`` in a Markdown reader; instead every printed value goes through ``plain``:
  one line, control characters escaped, and ``[ ] < > ` \\`` escaped so that user text
  can form no link, image, raw HTML or code.

Both flavours have the message functions of ``reportgen.words.i18n`` as globals (``_``,
``n_``, ``p_``, ``np_``): a template's text is a message of the one catalog.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from reportgen.resources import resource_dir
from reportgen.safe import escape_controls, inert_markdown

if TYPE_CHECKING:
    import jinja2

FLAVOURS = ("html", "markdown")


def visible(value):
    """HTML finalize: control characters in plain strings become visible escapes (\\x1b), as
    in every message; tab and newline stay; markup the templates built is left as it is."""
    from markupsafe import Markup

    if not isinstance(value, str) or isinstance(value, Markup):
        return value
    return escape_controls(value, keep_lines=True)


def plain(text: object) -> str:
    """User text as one markdown line: no raw HTML, links, images or structure-breaking newlines.

    ``safe.inert_markdown``: square brackets, angle brackets, backticks and backslashes are
    escaped, so neither ``![x](http://host/p.png)`` nor ``[x](javascript:...)`` nor
    ``<http://...>`` can form; a bare ``http://`` or ``www.`` is broken visibly
    (``http[:]//``) so GitHub does not link it; control and invisible characters are
    shown as escapes.
    """
    return inert_markdown(str(text))


@lru_cache(maxsize=len(FLAVOURS))
def environment(flavour: str = "html"):
    """The jinja2 environment of ``flavour`` ("html" or "markdown"); see the module docstring."""
    import jinja2

    if flavour not in FLAVOURS:
        raise ValueError(f"unknown template flavour {flavour!r}; use one of {', '.join(FLAVOURS)}")
    html = flavour == "html"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resource_dir("templates"))),
        autoescape=html,
        undefined=jinja2.StrictUndefined,
        trim_blocks=html,
        lstrip_blocks=html,
        keep_trailing_newline=True,
        finalize=visible if html else plain,
        bytecode_cache=_bytecode_cache(flavour),
    )
    # the templates' words are messages of the same catalog as the code's, in the language
    # being written when the template renders: {{ _("Seed spread of {model}", model=m) }};
    # the filled text is escaped as any printed value (no message carries markup)
    from reportgen.words.i18n import _, n_, np_, p_

    messages = {"_": _, "n_": n_, "p_": p_, "np_": np_}
    env.globals.update({k: _as_text(f) for k, f in messages.items()} if html else messages)
    return env


def _bytecode_cache(flavour: str) -> jinja2.BytecodeCache | None:
    """Jinja's cache of compiled templates (a fifth of an HTML build's time is compiling them):
    in Jinja's own per-user temporary folder, which it creates private (mode 0700) and refuses
    when another user owns it; one file name pattern per flavour, since the two compile the
    same source differently. Each entry is checked against its template's source and Jinja's
    version. None (compile every time) when that folder cannot be used or
    EVREPORT_NO_TEMPLATE_CACHE is set; a write that fails is skipped."""
    import os

    import jinja2

    if os.environ.get("EVREPORT_NO_TEMPLATE_CACHE"):
        return None

    class Cache(jinja2.FileSystemBytecodeCache):
        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass  # a full or read-only disk: the next build compiles again

    try:
        return Cache(pattern=f"__evreport_{flavour}_%s.cache")
    except (OSError, RuntimeError):  # no private temporary folder to be had
        return None


def _as_text(message):
    """A message function for the HTML templates: its filled text escaped as autoescape does,
    except that an apostrophe stays one ("Each seed's mean"), as the same words written in the
    template print; every attribute of our templates is double-quoted, so it ends none. Control
    characters in a filled value are shown as escapes, as ``visible`` shows them."""
    import functools

    from markupsafe import Markup, escape

    @functools.wraps(message)
    def text(*args, **fields):
        filled = escape_controls(message(*args, **fields), keep_lines=True)
        return Markup(str(escape(filled)).replace("&#39;", "'"))

    return text


def stylesheet(*names: str) -> str:
    """Our own stylesheets from styles/, joined, to be inlined in a page (never user text)."""
    styles = resource_dir("styles")
    return "\n".join((styles / name).read_text(encoding="utf-8") for name in names)
