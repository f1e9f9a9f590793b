"""The typed report.json: frozen dataclasses parsed strictly from JSON and written back exactly.

A ``Model`` subclass is a ``@dataclass(frozen=True, slots=True)``; its field annotations say
the JSON types (bool, int, float, str, ``X | None``, ``tuple[T, ...]`` for a list,
``dict[str, T]`` for a map keyed by data, a nested Model, a StrEnum, a Literal) and
``key(doc=...)`` its meaning. ``from_json`` raises ReportShapeError, naming the JSON path, on a
missing key, an unknown key or a wrong type; ``to_json`` returns the plain JSON in
report.json's key order.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Self, Union, get_args, get_origin, get_type_hints

from reportgen.errors import EvreportError


class ReportShapeError(EvreportError):
    """report.json does not have the shape its model states: the message names the JSON path."""

    slug = "report-shape"


class Missing:
    """The type of MISSING: a key that is absent from the object (not present and null)."""

    __slots__ = ()
    _instance: ClassVar[Missing | None] = None

    def __new__(cls) -> Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "MISSING"


#: the value of a field whose key is absent from report.json (annotate it ``T | Missing``)
MISSING = Missing()


def key(
    doc: str,
    *,
    json_name: str | None = None,
    omit_if_none: bool = False,
    default: Any = dataclasses.MISSING,
) -> Any:
    """A field with its one-line meaning; ``json_name`` for a key that is not an identifier;
    ``omit_if_none``: the key is absent exactly when the value is None (never present as null)."""
    meta = {"doc": doc, "json_name": json_name, "omit_if_none": omit_if_none}
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True)
class Spec:
    """One field of a Model as report.json holds it: its key, type and whether it may be absent."""

    name: str
    json_name: str
    type: Any
    doc: str
    #: the key is absent when the value is None
    omit_if_none: bool
    #: the key may be absent (the annotation includes Missing)
    may_be_missing: bool

    @property
    def required(self) -> bool:
        """The key is in every object of its class."""
        return not (self.omit_if_none or self.may_be_missing)


_SPECS: dict[type, tuple[Spec, ...]] = {}


def _without_missing(tp: Any) -> tuple[Any, bool]:
    """The annotation without Missing, and whether it had it."""
    if _is_union(tp):
        args = get_args(tp)
        if Missing in args:
            rest = tuple(a for a in args if a is not Missing)
            return (rest[0] if len(rest) == 1 else Union[rest]), True  # noqa: UP007
    return tp, False


def specs(cls: type[Model]) -> tuple[Spec, ...]:
    """The fields of ``cls`` in report.json's key order (cached per class)."""
    found = _SPECS.get(cls)
    if found is not None:
        return found
    hints = get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        tp, may_miss = _without_missing(hints[f.name])
        out.append(
            Spec(
                name=f.name,
                json_name=f.metadata.get("json_name") or f.name,
                type=tp,
                doc=f.metadata.get("doc", ""),
                omit_if_none=bool(f.metadata.get("omit_if_none")),
                may_be_missing=may_miss,
            )
        )
    if cls.KEYS is not None:
        by_name = {s.name: s for s in out}
        if sorted(cls.KEYS) != sorted(by_name):
            raise TypeError(f"{cls.__name__}.KEYS must list every field once")
        out = [by_name[k] for k in cls.KEYS]
    _SPECS[cls] = found = tuple(out)
    return found


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:59] + "…"


def _fail(path: str, expected: str, value: Any) -> ReportShapeError:
    return ReportShapeError(f"{path}: expected {expected}, got {_show(value)}")


def describe(tp: Any) -> str:
    """The annotation in words, for an error message: "a number", "a list or null"."""
    if tp is type(None):
        return "null"
    if _is_union(tp):
        return " or ".join(describe(a) for a in get_args(tp))
    origin = get_origin(tp)
    if origin is tuple:
        return "a list"
    if origin is dict:
        return "an object"
    if origin is Literal:
        return " or ".join(_show(a) for a in get_args(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return "one of " + ", ".join(_show(m.value) for m in tp)
    if isinstance(tp, type) and issubclass(tp, Model):
        return "an object"
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string"}[tp]


#: the Python types of a valid JSON value of a scalar annotation (bool is not a number)
_PLAIN: dict[Any, frozenset[type]] = {
    float: frozenset({int, float}),
    int: frozenset({int}),
    str: frozenset({str}),
    bool: frozenset({bool}),
}


def parse(tp: Any, value: Any, path: str) -> Any:
    """``value`` (plain JSON) as the annotation ``tp`` states, or ReportShapeError at ``path``."""
    if _is_union(tp):
        args = get_args(tp)
        if value is None:
            if type(None) in args:
                return None
            raise _fail(path, describe(tp), value)
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:
            try:
                return parse(rest[0], value, path)
            except ReportShapeError as e:
                if str(e).startswith(f"{path}: expected "):
                    raise _fail(path, describe(tp), value) from None
                raise
        if all(isinstance(a, type) and issubclass(a, Model) for a in rest):
            if not isinstance(value, dict):
                raise _fail(path, "an object", value)
            cls = next((a for a in rest if a.claims(value)), rest[-1])
            return cls.from_json(value, path)
        for a in rest:  # a union of JSON types: the first that fits
            try:
                return parse(a, value, path)
            except ReportShapeError:
                continue
        raise _fail(path, describe(tp), value)
    origin = get_origin(tp)
    if origin is tuple:
        if not isinstance(value, list):
            raise _fail(path, "a list", value)
        item = get_args(tp)[0]
        plain = _PLAIN.get(item)
        if plain is not None and all(type(v) in plain for v in value):
            return tuple(value)  # a list of numbers or strings: checked in one pass
        return tuple(parse(item, v, f"{path}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise _fail(path, "an object", value)
        item = get_args(tp)[1]
        return {k: parse(item, v, f"{path}.{k}") for k, v in value.items()}
    if origin is Literal:
        if value not in get_args(tp) or isinstance(value, bool):
            raise _fail(path, describe(tp), value)
        return value
    if tp is bool:
        if not isinstance(value, bool):
            raise _fail(path, "true or false", value)
        return value
    if tp is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise _fail(path, "an integer", value)
        return value
    if tp is float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise _fail(path, "a number", value)
        return value
    if tp is str:
        if not isinstance(value, str):
            raise _fail(path, "a string", value)
        return value
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(value)
        except ValueError:
            raise _fail(path, describe(tp), value) from None
    if isinstance(tp, type) and issubclass(tp, Model):
        return tp.from_json(value, path)
    raise TypeError(f"unsupported annotation {tp!r} at {path}")


def dump(value: Any) -> Any:
    """``value`` as plain JSON types: Models by their to_json, enums by their value."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, str):
        return value
    if isinstance(value, Model):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [dump(v) for v in value]
    if isinstance(value, dict):
        return {k: dump(v) for k, v in value.items()}
    raise TypeError(f"{type(value).__name__} is not a report.json value")


class Model:
    """A report.json object as a frozen dataclass: strict ``from_json``, exact ``to_json``."""

    __slots__ = ()
    #: set by @dataclass on every subclass; declared so that dataclasses.fields takes the class
    __dataclass_fields__: ClassVar[dict[str, Any]]

    #: report.json's key order when it differs from the fields' order (field names)
    KEYS: ClassVar[tuple[str, ...] | None] = None

    @classmethod
    def claims(cls, data: dict[str, Any]) -> bool:
        """This class is the one for ``data`` among the classes of a union (a discriminator)."""
        return True

    @classmethod
    def from_json(cls, data: Any, path: str = "report") -> Self:
        """The object ``data`` (plain JSON) as this class; ReportShapeError names the path."""
        if not isinstance(data, dict):
            raise _fail(path, "an object", data)
        fields = specs(cls)
        known = {s.json_name for s in fields}
        unknown = [k for k in data if k not in known]
        if unknown:
            raise ReportShapeError(f"{path}.{unknown[0]}: unknown key")
        values: dict[str, Any] = {}
        for s in fields:
            where = f"{path}.{s.json_name}"
            if s.json_name not in data:
                if s.may_be_missing:
                    values[s.name] = MISSING
                    continue
                if s.omit_if_none:
                    values[s.name] = None
                    continue
                raise ReportShapeError(f"{where}: missing key")
            if s.omit_if_none and data[s.json_name] is None:
                raise ReportShapeError(f"{where}: expected the key to be absent, got null")
            values[s.name] = parse(s.type, data[s.json_name], where)
        return cls(**values)

    def json_items(self) -> list[tuple[str, Any]]:
        """(key, value) in report.json's order, values as held, absent keys left out."""
        out = []
        for s in specs(type(self)):
            v = getattr(self, s.name)
            if v is MISSING or (v is None and s.omit_if_none):
                continue
            out.append((s.json_name, v))
        return out

    def to_json(self) -> dict[str, Any]:
        """The report.json object: plain JSON types, keys in report.json's order."""
        return {k: dump(v) for k, v in self.json_items()}


__all__ = [
    "MISSING",
    "Missing",
    "Model",
    "ReportShapeError",
    "Spec",
    "describe",
    "dump",
    "key",
    "parse",
    "specs",
]
