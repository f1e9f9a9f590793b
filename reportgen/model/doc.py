"""The key tables of docs/report-json.md, generated from the model: each table sits between
``<!-- generated: PATH table -->`` and ``<!-- end generated -->``, PATH a dotted path from the
top level (``report``, ``noise.seed``, ``checks[]``); the prose around them is kept."""

from __future__ import annotations

import enum
import re
import types
from typing import Any, Literal, Union, get_args, get_origin

from reportgen.model.base import Model, specs
from reportgen.model.report import Report

MARKER = re.compile(
    r"(<!-- generated: (?P<path>[\w.\[\]]+) table -->\n)(?P<body>.*?)(<!-- end generated -->)",
    re.S,
)


def _union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def _model(tp: Any) -> type[Model] | None:
    """The Model an annotation holds (through None, lists and variants), or None."""
    if _union(tp):
        models = [a for a in get_args(tp) if isinstance(a, type) and issubclass(a, Model)]
        if models:
            return min(models, key=lambda c: len(c.__mro__))
        rest = [a for a in get_args(tp) if a is not type(None)]
        return _model(rest[0]) if len(rest) == 1 else None
    if get_origin(tp) is tuple:  # tuple[T, ...]: its items
        return _model(get_args(tp)[0])
    if get_origin(tp) is dict:
        return _model(get_args(tp)[-1])
    return tp if isinstance(tp, type) and issubclass(tp, Model) else None


def type_words(tp: Any) -> str:
    """An annotation as the doc prints it: "number or null", "list of string", "object"."""
    if _union(tp):
        args = get_args(tp)
        rest = [a for a in args if a is not type(None)]
        direct = any(isinstance(a, type) and issubclass(a, Model) for a in rest)
        words = "object" if direct else " or ".join(type_words(a) for a in rest)
        return words + (" or null" if type(None) in args else "")
    origin = get_origin(tp)
    if origin is tuple:
        return "list of " + type_words(get_args(tp)[0])
    if origin is dict:
        return "map of " + type_words(get_args(tp)[1])
    if origin is Literal:
        return " or ".join(f"`{a}`" for a in get_args(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return " / ".join(f"`{m.value}`" for m in tp)
    if isinstance(tp, type) and issubclass(tp, Model):
        return "object"
    return {bool: "boolean", int: "integer", float: "number", str: "string"}[tp]


def model_at(path: str) -> type[Model]:
    """The Model of a dotted path: "report", "noise.seed", "checks[]"."""
    cls: type[Model] = Report
    for part in [p for p in path.replace("[]", "").split(".") if p and p != "report"]:
        spec = next(s for s in specs(cls) if s.json_name == part)
        found = _model(spec.type)
        if found is None:
            raise KeyError(f"{path}: {part} is not an object")
        cls = found
    return cls


def table(path: str) -> str:
    """The Markdown key table of the object at ``path``: key, type, meaning."""
    rows = ["| key | type | meaning |", "|---|---|---|"]
    for s in specs(model_at(path)):
        kind = type_words(s.type)
        if not s.required:
            kind += ", may be absent"
        meaning = s.doc.replace("|", "\\|")
        rows.append(f"| `{s.json_name}` | {kind} | {meaning} |")
    return "\n".join(rows) + "\n"


def doc_text(text: str) -> str:
    """``text`` with every generated table rewritten from the model."""
    return MARKER.sub(lambda m: m.group(1) + table(m.group("path")) + m.group(4), text)
