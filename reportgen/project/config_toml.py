"""A TOML file read against a key schema: syntax errors, unknown or mistyped keys, as Problems.

Knows nothing of evreport.toml's tables: ``project/config.py`` passes its SCHEMA in. Every
problem names the file and the line of its key; past MAX_PROBLEMS they are only counted.
"""

from __future__ import annotations

import datetime as dt
import difflib
import math
import re
import tomllib
from collections.abc import Iterable
from typing import Any

from reportgen.errors import Problem, clean_text, quote
from reportgen.words.i18n import _, current

#: the value types a schema names (each is also the message's wording)
STR, NUM, INT, BOOL, LIST, DATE = (
    "a string",
    "a number",
    "a whole number",
    "true or false",
    "a list of strings",
    "a date (YYYY-MM-DD)",
)


def kind_words(kind: str) -> str:
    """A schema type as a message says it, in the current language (the English kind is its
    own wording; "\"a\", \"b\" or \"c\"" lists of quoted choices are joined in words)."""
    words = {
        STR: _("a string"),
        NUM: _("a number"),
        INT: _("a whole number"),
        BOOL: _("true or false"),
        LIST: _("a list of strings"),
        DATE: _("a date (YYYY-MM-DD)"),
        '"validation-cost" or a number in [0, 1]': _('"validation-cost" or a number in [0, 1]'),
    }
    if kind in words:
        return words[kind]
    m = re.fullmatch(r'((?:"[^"]*", )*"[^"]*") or ("[^"]*")', kind)
    if m:
        return _("{choices} or {last}", choices=m.group(1), last=m.group(2))
    return kind


def listed(names: Iterable[str], table: bool = False) -> str:
    """Names of keys, tables or allowed values, comma-separated: as they are in English; in
    another language each written as in TOML ("binary", [claim]), so that the ids stand out
    from the sentence around them."""
    if current() == "en":
        return ", ".join(names)
    return ", ".join(f"[{n}]" if table else f'"{n}"' for n in names)


#: table -> key -> (expected type, required); the table None is the top level
Schema = dict[str | None, dict[str, tuple[str, bool]]]

#: problems reported for one file before the rest are only counted
MAX_PROBLEMS = 100

_HEADER = re.compile(r"^\[\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]")
_KEY = re.compile(r"^([A-Za-z0-9_\-\"' .]+?)\s*=")


def line_index(text: str) -> dict[tuple[str | None, str | None], int]:
    """(table, key) -> line of its first occurrence, and (table, None) -> its header line.

    One pass over the file, so locating thousands of problems stays linear. Dotted keys at
    the top level (``claim.text = ...``) count as keys of their table.
    """
    index: dict[tuple[str | None, str | None], int] = {}
    current: str | None = None
    for i, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if s.startswith("[["):
            current = "[[array]]"
            continue
        m = _HEADER.match(s)
        if m:
            current = m.group(1).strip().strip("\"'")
            index.setdefault((current, None), i)
            index.setdefault((current.split(".")[0].strip().strip("\"'"), None), i)  # [a.b]
            continue
        m = _KEY.match(s)
        if m:
            parts = [p.strip().strip("\"'") for p in m.group(1).split(".")]
            if len(parts) == 1:
                index.setdefault((current, parts[0]), i)
            elif current is None and len(parts) == 2:
                index.setdefault((parts[0], parts[1]), i)
                index.setdefault((parts[0], None), i)
    return index


def type_ok(kind: str, value: Any) -> bool:
    """Whether ``value`` is of the schema type ``kind`` (any other kind: checked by its section)."""
    if kind == STR:
        return isinstance(value, str)
    if kind == NUM:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        try:
            return math.isfinite(float(value))
        except OverflowError:  # an integer too large for a float
            return False
    if kind == INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == BOOL:
        return isinstance(value, bool)
    if kind == LIST:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == DATE:
        return isinstance(value, dt.date | dt.datetime) or isinstance(value, str)
    return True


class Sink:
    """Collects one file's problems: each names its line; past MAX_PROBLEMS they are only counted."""

    def __init__(self, text: str, name: str, problems: list[Problem]) -> None:
        self.name = name
        self.problems = problems
        self.index = line_index(text)
        self.start = len(problems)
        self.dropped = 0

    def line(self, table: str | None, key: str | None) -> int | None:
        return self.index.get((table, key))

    def full(self) -> bool:
        """True once MAX_PROBLEMS are reported: later ones are only counted."""
        if len(self.problems) - self.start >= MAX_PROBLEMS:
            self.dropped += 1
            return True
        return False

    def __call__(self, msg: str, table=None, key=None, slug: str = "bad-config") -> None:
        self.add(msg, table, key, 1 if key else None, slug)

    def add(self, msg: str, table, key, column: int | None, slug: str) -> None:
        """One problem at the line of ``table``/``key`` (its header when ``key`` is None)."""
        if self.full():
            return
        self.problems.append(Problem(msg, self.name, self.line(table, key), column, slug=slug))


def error_count(problems: list[Problem]) -> int:
    return len([p for p in problems if p.severity == "error"])


def toml_reason(msg: str) -> str:
    """tomllib's reason for a syntax error in the current language (English: as it is); a
    reason it does not know is left as tomllib wrote it."""
    end = msg.endswith(" (at end of document)")
    core = msg.removesuffix(" (at end of document)")
    fixed = {
        "Invalid value": _("Invalid value"),
        "Invalid statement": _("Invalid statement"),
        "Cannot overwrite a value": _("Cannot overwrite a value"),
        "Expected ']' at the end of a table declaration": _(
            "Expected ']' at the end of a table declaration"
        ),
        "Expected ']]' at the end of an array declaration": _(
            "Expected ']]' at the end of an array declaration"
        ),
        "Expected '=' after a key in a key/value pair": _(
            "Expected '=' after a key in a key/value pair"
        ),
        "Expected newline or end of document after a statement": _(
            "Expected newline or end of document after a statement"
        ),
        "Invalid initial character for a key part": _("Invalid initial character for a key part"),
        "Unclosed array": _("Unclosed array"),
        "Unclosed inline table": _("Unclosed inline table"),
        "Unterminated string": _("Unterminated string"),
        "Invalid date or datetime": _("Invalid date or datetime"),
        "Invalid hex value": _("Invalid hex value"),
    }
    reason = fixed.get(core)
    if reason is None:
        m = re.fullmatch(r"Cannot declare (.+) twice", core)
        if m:
            reason = _("Cannot declare {key} twice", key=m.group(1))
        m = re.fullmatch(r"Found invalid character (.+)", core)
        if m:
            reason = _("Found invalid character {char}", char=m.group(1))
        m = re.fullmatch(r"Illegal character (.+)", core)
        if m:
            reason = _("Illegal character {char}", char=m.group(1))
    if reason is None:
        return msg
    return _("{reason} (at end of document)", reason=reason) if end else reason


def load_toml(text: str, name: str, problems: list[Problem]) -> dict | None:
    """tomllib.loads with every failure as a Problem (bad syntax, deep nesting, huge integers)."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        problems.append(Problem(_("not readable TOML: nested too deeply"), name, slug="bad-toml"))
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"at line (\d+), column (\d+)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        problems.append(
            Problem(
                _("not valid TOML: {reason}", reason=toml_reason(msg)),
                name,
                int(m.group(1)) if m else None,
                int(m.group(2)) if m else None,
                slug="bad-toml",
            )
        )
    except ValueError as e:  # e.g. an integer with more than 4,300 digits
        problems.append(
            Problem(
                _("not readable TOML: {reason}", reason=clean_text(e, 120)), name, slug="bad-toml"
            )
        )
    return None


def _unknown_table(key: str, schema: Schema, err: Sink) -> None:
    tables = [t for t in schema if t is not None]
    if err.full():
        return
    close = difflib.get_close_matches(key, tables, n=1)
    table = clean_text(key, 80)
    if close:
        msg = _("unknown table [{table}]; did you mean [{close}]?", table=table, close=close[0])
    else:
        msg = _(
            "unknown table [{table}]; known tables: {known}",
            table=table,
            known=listed(tables, table=True),
        )
    err.add(msg, key, None, 1, "unknown-key")


def _unknown_key(table: str | None, k: str, label: str, schema: Schema, err: Sink) -> None:
    known = schema[table]
    if err.full():
        return
    close = difflib.get_close_matches(k, list(known), n=1, cutoff=0.5)
    if not close:  # maybe it belongs to another table
        for t2, keys in schema.items():
            if k in keys and t2 != table:
                close = [f"[{t2}] {k}" if t2 else _("{key} (top level)", key=k)]
                break
    if close:
        msg = _("unknown key {key}; did you mean {close}?", key=quote(label), close=quote(close[0]))
    else:
        msg = _("unknown key {key}; known keys: {known}", key=quote(label), known=listed(known))
    err(msg, table, k, slug="unknown-key")


def check_keys(doc: dict, schema: Schema, open_tables: dict[str, str], err: Sink) -> dict[str, int]:
    """Unknown tables and keys (with the closest known name) and values of the wrong type.

    ``open_tables`` are tables whose keys are the user's own, each value of the given type.
    Returns "table.key" -> line of every well-typed key, for citations.
    """
    lines: dict[str, int] = {}
    for key, value in doc.items():
        items: Iterable[tuple[str, Any]]
        if isinstance(value, dict):
            if key not in schema:
                _unknown_table(key, schema, err)
                continue
            items = value.items()
            table = key
        else:
            items = [(key, value)]
            table = None
        for k, v in items:
            label = f"{table}.{k}" if table else k
            spec = {k: (open_tables[table], False)} if table in open_tables else schema[table]
            if k not in spec:
                _unknown_key(table, k, label, schema, err)
                continue
            kind, _required = spec[k]
            if not type_ok(kind, v):
                finite = kind == NUM and isinstance(v, float)
                err(
                    _(
                        "{key} = {value} must be {kind}",
                        key=label,
                        value=quote(v),
                        kind=_("a finite number") if finite else kind_words(kind),
                    ),
                    table,
                    k,
                    slug="bad-type",
                )
                continue
            line = err.line(table, k)
            if line:
                lines[label] = line
    return lines


def check_required(doc: dict, schema: Schema, err: Sink) -> None:
    """A problem for every required key the document lacks."""
    for table, keys in schema.items():
        for k, (_kind, required) in keys.items():
            section = doc if table is None else doc.get(table)
            if required and (not isinstance(section, dict) or k not in section):
                if table:
                    msg = _("missing required key {key} in [{table}]", key=quote(k), table=table)
                else:
                    msg = _("missing required key {key} in the top level", key=quote(k))
                err(msg, table, None, slug="missing-key")
