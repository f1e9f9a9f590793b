"""The message catalog, kept with Babel: extract every message of the code and the templates,
merge them into each language's .po, compile the .mo the build reads.

    python -m reportgen.words.catalog          (make messages) extract, update, compile
    python -m reportgen.words.catalog --check  exit 1 when a message lacks a translation,
                                               a translation is fuzzy, or a .mo is stale

Babel is needed here (a development step), never by a build: the build reads the compiled .mo
with the standard library's gettext. The keywords are words/i18n.py's functions.
"""

from __future__ import annotations

import io
import string
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from reportgen.words.i18n import DOMAIN, LANGUAGES, catalog_path

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

#: words/i18n.py's functions, as Babel's keyword specs
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "np_": ((1, "c"), 2, 3)}
ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "reportgen" / "locale" / f"{DOMAIN}.pot"
COMMENT_TAGS = ("TRANSLATORS:",)
#: the catalogs' dates: fixed, so the same messages give the same files
_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)


def extract(root: Path = ROOT) -> Catalog:
    """Every message of reportgen/**.py and templates/** as a Babel Catalog (no dates, so the
    same code gives the same file)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    cat = Catalog(project="evreport", domain=DOMAIN, fuzzy=False)
    method_map = [
        ("reportgen/**.py", "python"),
        ("templates/**.html", "jinja2"),
        ("templates/**.md", "jinja2"),
    ]
    options = {"templates/**": {"trim_blocks": "true", "lstrip_blocks": "true"}}
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root),
        method_map,
        options_map=options,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
    ):
        cat.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return cat


def _write_po(cat: Catalog, path: Path) -> None:
    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=True, omit_header=False, include_lineno=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def read(lang: str) -> Catalog:
    """LANG's .po as a Babel Catalog."""
    from babel.messages.pofile import read_po

    with catalog_path(lang, ".po").open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def compile_mo(cat: Catalog) -> bytes:
    """The .mo bytes of ``cat`` (fuzzy entries left out, as gettext does)."""
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def update() -> None:
    """Extract into the .pot; merge it into each language's .po (new messages empty, gone
    ones dropped); compile each .mo."""
    from babel.messages.catalog import Catalog

    template = extract()
    template.creation_date = template.revision_date = _EPOCH
    _write_po(template, POT)
    for lang in LANGUAGES[1:]:
        path = catalog_path(lang, ".po")
        if path.exists():
            cat = read(lang)
        else:
            cat = Catalog(locale=lang, domain=DOMAIN, project="evreport", fuzzy=False)
        cat.update(template, no_fuzzy_matching=True, update_header_comment=False)
        cat.obsolete.clear()
        cat.creation_date = cat.revision_date = _EPOCH
        _write_po(cat, path)
        catalog_path(lang, ".mo").write_bytes(compile_mo(read(lang)))


def fields(text: str) -> set[str]:
    """The named placeholders of a brace-format message: {"part", "ends"}."""
    try:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f}
    except ValueError:
        return {"<unbalanced braces>"}


def problems(lang: str) -> list[str]:
    """What keeps LANG's catalog from being complete: a message of the code without a
    translation, a fuzzy one, a translation whose placeholders differ from its message's, a
    plural without every form, a stale .mo."""
    template = extract()
    cat = read(lang)
    out = []
    for msg in template:
        if not msg.id:
            continue
        tr = cat.get(msg.id, context=msg.context)
        where = f"{msg.locations[0][0]}:{msg.locations[0][1]}" if msg.locations else "?"
        ids: tuple[str, ...] = tuple(msg.id) if isinstance(msg.id, tuple | list) else (msg.id,)
        if tr is None or not tr.string or (isinstance(tr.string, tuple) and not all(tr.string)):
            out.append(f"{where}: no {lang} translation of {ids[0]!r}")
            continue
        if tr.fuzzy:
            out.append(f"{where}: the {lang} translation of {ids[0]!r} is fuzzy")
        strings: tuple[str, ...] = (
            tuple(tr.string) if isinstance(tr.string, tuple | list) else (tr.string,)
        )
        want = set().union(*(fields(i) for i in ids))
        for s in strings:
            if not fields(s) <= want:  # a form may leave out {n} ("один"), never add a name
                out.append(
                    f"{where}: {lang} {s!r} has placeholders {sorted(fields(s) - want)} "
                    f"that {ids[0]!r} lacks"
                )
        if isinstance(tr.string, tuple) and len(tr.string) != cat.num_plurals:
            out.append(
                f"{where}: {lang} {ids[0]!r} has {len(tr.string)} forms, not {cat.num_plurals}"
            )
    mo = catalog_path(lang, ".mo")
    if not mo.exists() or mo.read_bytes() != compile_mo(cat):
        out.append(f"{mo}: stale; run make messages")
    return out


def main(argv: list[str]) -> int:
    if "--check" in argv:
        found = [p for lang in LANGUAGES[1:] for p in problems(lang)]
        for p in found[:200]:
            print(p)
        if len(found) > 200:
            print(f"... and {len(found) - 200} more")
        return 1 if found else 0
    update()
    for lang in LANGUAGES[1:]:
        cat = read(lang)
        done = sum(1 for m in cat if m.id and m.string and not m.fuzzy)
        print(f"{lang}: {done} of {len([m for m in cat if m.id])} messages translated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
