"""The JSON Schema of report.json and the key tables of docs/report-json.md, generated from
the model's types: ``python -m reportgen.model.schema`` rewrites both (``--check``: only
says whether they are current, exit 1 when not)."""

from __future__ import annotations

import enum
import json
import sys
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from reportgen.model.base import Model, specs
from reportgen.model.report import Report

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "report.schema.json"
DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "report-json.md"
HEAD = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "evreport/1",
    "title": "evreport report.json, schema evreport/1",
}
SCALARS = {bool: "boolean", int: "integer", float: "number", str: "string"}


def _union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def _variants_base(args: list[Any]) -> type | None:
    models = [a for a in args if isinstance(a, type) and issubclass(a, Model)]
    if not models or len(models) != len(args):
        return None
    base = min(models, key=lambda c: len(c.__mro__))
    return base if all(issubclass(m, base) for m in models) else None


def _without_none(tp: Any) -> Any:
    """The annotation without None: a key that is absent when None is never null."""
    if not _union(tp):
        return tp
    rest = tuple(a for a in get_args(tp) if a is not type(None))
    return rest[0] if len(rest) == 1 else Union[rest]  # noqa: UP007


def type_schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    """The schema of one annotation; nested Models go to ``defs`` (by class name)."""
    if _union(tp):
        args = list(get_args(tp))
        nullable = type(None) in args
        rest = [a for a in args if a is not type(None)]
        base = _variants_base(rest)
        if base is not None:
            rest = [base]
        if len(rest) > 1:
            inner: dict[str, Any] = {"anyOf": [type_schema(a, defs) for a in rest]}
            if all(set(x) == {"type"} for x in inner["anyOf"]):
                inner = {"type": [x["type"] for x in inner["anyOf"]]}
        else:
            inner = type_schema(rest[0], defs)
        if not nullable:
            return inner
        if "enum" in inner:
            return {"enum": [*inner["enum"], None]}
        if "const" in inner:
            return {"enum": [inner["const"], None]}
        if set(inner) == {"type"}:
            kinds = inner["type"] if isinstance(inner["type"], list) else [inner["type"]]
            return {"type": [*kinds, "null"]}
        if inner.get("type") == "array" or inner.get("type") == "object" and "$ref" not in inner:
            return {**inner, "type": [inner["type"], "null"]}
        return {"anyOf": [inner, {"type": "null"}]}
    origin = get_origin(tp)
    if origin is tuple:
        return {"type": "array", "items": type_schema(get_args(tp)[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": type_schema(get_args(tp)[1], defs)}
    if origin is Literal:
        values = list(get_args(tp))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if tp in SCALARS:
        return {"type": SCALARS[tp]}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return {"enum": [m.value for m in tp]}
    if isinstance(tp, type) and issubclass(tp, Model):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # reserved first: a class met again inside itself refers to it
            defs[name] = object_schema(tp, defs)
        return {"$ref": f"#/$defs/{name}"}
    raise TypeError(f"unsupported annotation {tp!r}")


def object_schema(cls: type[Model], defs: dict[str, Any]) -> dict[str, Any]:
    """The schema of a Model: its keys, their meanings, which are required, nothing else."""
    props = {}
    for s in specs(cls):
        tp = _without_none(s.type) if s.omit_if_none else s.type
        prop = type_schema(tp, defs)
        if s.doc:
            prop = {**prop, "description": s.doc}
        props[s.json_name] = prop
    out: dict[str, Any] = {"type": "object"}
    if cls.__doc__:
        out["description"] = " ".join(cls.__doc__.split())
    out["properties"] = props
    out["required"] = [s.json_name for s in specs(cls) if s.required]
    out["additionalProperties"] = False
    return out


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of report.json."""
    defs: dict[str, Any] = {}
    root = object_schema(Report, defs)
    root.pop("description", None)
    return {**HEAD, **root, "$defs": dict(sorted(defs.items()))}


def schema_text() -> str:
    """reportgen/report.schema.json as written: one-space indent, UTF-8, a final newline."""
    return json.dumps(schema(), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """Rewrite the schema (and the doc's key tables), or with ``--check`` compare them."""
    want = {SCHEMA_PATH: schema_text()}
    from reportgen.model.doc import doc_text

    want[DOC_PATH] = doc_text(DOC_PATH.read_text(encoding="utf-8"))
    stale = [p for p, text in want.items() if p.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for p in stale:
            print(f"{p} is not what reportgen.model.schema generates", file=sys.stderr)
        return 1 if stale else 0
    for p in stale:
        p.write_text(want[p], encoding="utf-8")
        print(f"wrote {p}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
