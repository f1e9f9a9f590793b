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

#: the value types a schema names (each is also the message's wording)
STR, NUM, INT, BOOL, LIST, DATE = (
    "a string",
    "a number",
    "a whole number",
    "true or false",
    "a list of strings",
    "a date (YYYY-MM-DD)",
)
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


def load_toml(text: str, name: str, problems: list[Problem]) -> dict | None:
    """tomllib.loads with every failure as a Problem (bad syntax, deep nesting, huge integers)."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        problems.append(Problem("not readable TOML: nested too deeply", name, slug="bad-toml"))
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"at line (\d+), column (\d+)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        problems.append(
            Problem(
                f"not valid TOML: {msg}",
                name,
                int(m.group(1)) if m else None,
                int(m.group(2)) if m else None,
                slug="bad-toml",
            )
        )
    except ValueError as e:  # e.g. an integer with more than 4,300 digits
        problems.append(Problem(f"not readable TOML: {clean_text(e, 120)}", name, slug="bad-toml"))
    return None


def _unknown_table(key: str, schema: Schema, err: Sink) -> None:
    tables = [t for t in schema if t is not None]
    if err.full():
        return
    close = difflib.get_close_matches(key, tables, n=1)
    hint = f"; did you mean [{close[0]}]?" if close else f"; known tables: {', '.join(tables)}"
    err.add(f"unknown table [{clean_text(key, 80)}]{hint}", key, None, 1, "unknown-key")


def _unknown_key(table: str | None, k: str, label: str, schema: Schema, err: Sink) -> None:
    known = schema[table]
    if err.full():
        return
    close = difflib.get_close_matches(k, list(known), n=1, cutoff=0.5)
    if not close:  # maybe it belongs to another table
        for t2, keys in schema.items():
            if k in keys and t2 != table:
                close = [f"[{t2}] {k}" if t2 else f"{k} (top level)"]
                break
    hint = f"; did you mean {quote(close[0])}?" if close else f"; known keys: {', '.join(known)}"
    err(f"unknown key {quote(label)}{hint}", table, k, slug="unknown-key")


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
            kind, _ = spec[k]
            if not type_ok(kind, v):
                err(
                    f"{label} = {quote(v)} must be "
                    + ("a finite number" if kind == NUM and isinstance(v, float) else kind),
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
        for k, (_, required) in keys.items():
            section = doc if table is None else doc.get(table)
            if required and (not isinstance(section, dict) or k not in section):
                where = f"[{table}]" if table else "the top level"
                err(f"missing required key {quote(k)} in {where}", table, None, slug="missing-key")
