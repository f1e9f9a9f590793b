"""The language every sentence is written in: English, or Ukrainian from a gettext catalog.

A build speaks one language (``[report] language`` in evreport.toml, or ``--lang``), set for
the whole of it with ``speaking(lang)``; every sentence is a message with named placeholders,
looked up when it is built (never at import time), so the same code writes both languages:

    _("the {part} interval {ends} lies below zero", part=..., ends=...)
    n_("{n} week", "{n} weeks", n)           # Ukrainian has three forms: 1 тиждень, 2 тижні, 5 тижнів
    p_("part", "test")                       # a short word with a context for the translator

The messages are extracted with Babel (``make messages``: babel.cfg, pybabel extract, update
and compile) into ``reportgen/locale/evreport.pot``; ``locale/uk/LC_MESSAGES/evreport.po`` is
the Ukrainian a translator corrects, and its compiled ``.mo`` ships in the wheel. English is
the msgid itself: an English build is exactly the text the code writes.

Numbers follow the language's typesetting through ``reportgen.words.numbers``: the decimal
symbol and the thousands separator are Babel's (CLDR) for the locale, "−0,0051" and
"12 345" in Ukrainian; the typographic minus stays everywhere.
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from pathlib import Path

#: the languages a report is written in; the first is the default
LANGUAGES = ("en", "uk")
DOMAIN = "evreport"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("evreport_language", default="en")


def check_language(lang: str) -> str:
    """``lang`` if it is one of LANGUAGES, else ValueError naming them."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; use one of {', '.join(LANGUAGES)}")
    return lang


def current() -> str:
    """The language being written now ("en" outside any ``speaking``)."""
    return _current.get()


@contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Write in ``lang`` (None: keep the current language) until the block ends."""
    token = _current.set(check_language(lang)) if lang is not None else None
    try:
        yield current()
    finally:
        if token is not None:
            _current.reset(token)


@lru_cache(maxsize=len(LANGUAGES))
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the messages as written)."""
    if lang == "en":
        return _gettext.NullTranslations()
    with catalog_path(lang, ".mo").open("rb") as f:
        return _gettext.GNUTranslations(f)


def catalog_path(lang: str, suffix: str = ".po") -> Path:
    """reportgen/locale/LANG/LC_MESSAGES/evreport.po (or .mo): inside the package, so the
    wheel carries both the catalog a translator corrects and its compiled form."""
    return (
        Path(str(resources.files("reportgen")))
        / "locale"
        / lang
        / "LC_MESSAGES"
        / (DOMAIN + suffix)
    )


def _fill(text: str, fields: dict[str, object]) -> str:
    return text.format(**fields) if fields else text


def _count(n: int) -> str:
    """A count as words.numbers.count prints it (thousands separated, typographic minus),
    here so that numbers can use this module without a cycle."""
    return local_number(f"{int(n):,}".replace("-", "\u2212"))


def _(message: str, /, **fields: object) -> str:
    """``message`` in the current language, its ``{name}`` placeholders filled from ``fields``."""
    return _fill(translations(current()).gettext(message), fields)


def n_(singular: str, plural: str, n: int, /, **fields: object) -> str:
    """The form of a counted message for ``n`` (English: two forms; Ukrainian: three, by the
    catalog's Plural-Forms); ``{n}`` is filled with the count as printed (thousands separated)."""
    text = translations(current()).ngettext(singular, plural, n)
    return _fill(text, {"n": _count(n), **fields} if "{n}" in text else fields)


def p_(context: str, message: str, /, **fields: object) -> str:
    """``message`` with a context for the translator (the same English word may need two
    Ukrainian ones: "test" the part, "test" the check)."""
    return _fill(translations(current()).pgettext(context, message), fields)


def np_(context: str, singular: str, plural: str, n: int, /, **fields: object) -> str:
    """``n_`` with a context."""
    text = translations(current()).npgettext(context, singular, plural, n)
    return _fill(text, {"n": _count(n), **fields} if "{n}" in text else fields)


@lru_cache(maxsize=len(LANGUAGES))
def number_symbols(lang: str) -> tuple[str, str]:
    """(decimal symbol, thousands separator) of ``lang`` by Babel's locale data (CLDR):
    (".", ",") in English, (",", no-break space) in Ukrainian."""
    if lang == "en":
        return ".", ","
    from babel.numbers import get_decimal_symbol, get_group_symbol

    return get_decimal_symbol(lang), get_group_symbol(lang)


def local_number(text: str) -> str:
    """A number printed the English way ("−1,234.5") in the current language's symbols
    ("−1 234,5" in Ukrainian); English text is returned as it is."""
    lang = current()
    if lang == "en":
        return text
    dec, group = number_symbols(lang)
    return text.translate({ord(","): group, ord("."): dec})
