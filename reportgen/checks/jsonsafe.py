"""The report dict as pure JSON, in one place: numpy scalars and arrays converted, NaN and infinity refused."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reportgen.errors import EvreportError
from reportgen.model.base import Model


class ReportValueError(EvreportError):
    """A value of the report cannot be written as JSON (NaN, infinity or an unknown type)."""

    slug = "report-value"


def jsonable(obj: Any, path: str = "report", *, strict: bool = False) -> Any:
    """Return ``obj`` as plain JSON types. NaN/infinity raise ReportValueError naming the path.

    numpy bools, ints and floats become Python scalars; arrays and tuples become lists;
    dict keys become strings; a report model object (reportgen.model) becomes its JSON object.
    A value that cannot be computed must already be None. ``strict``: a numpy scalar the
    model cannot write itself (an array, or any scalar but a float64, which is a Python
    float) raises ReportValueError naming the path instead of being converted.
    """
    if obj is None or isinstance(obj, bool | str):
        return obj
    if strict and (
        isinstance(obj, np.ndarray) or (isinstance(obj, np.generic) and not isinstance(obj, float))
    ):
        raise ReportValueError(
            f"internal error: {path} is a numpy {type(obj).__name__}, which the report model "
            "cannot write; please report this with the project"
        )
    if isinstance(obj, Model):
        return {k: jsonable(v, f"{path}.{k}", strict=strict) for k, v in obj.json_items()}
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, int | np.integer):
        return int(obj)
    if isinstance(obj, float | np.floating):
        v = float(obj)
        if not math.isfinite(v):
            raise ReportValueError(
                f"internal error: {path} is {v}, which report.json cannot hold; please report this "
                "with the project (a value that cannot be computed must be null with a reason)"
            )
        return v
    if isinstance(obj, dict):
        return {str(k): jsonable(v, f"{path}.{k}", strict=strict) for k, v in obj.items()}
    if isinstance(obj, list | tuple | np.ndarray):
        items = obj.tolist() if isinstance(obj, np.ndarray) else obj
        return [jsonable(v, f"{path}[{i}]", strict=strict) for i, v in enumerate(items)]
    if isinstance(obj, np.generic):
        return jsonable(obj.item(), path, strict=strict)
    raise ReportValueError(
        f"internal error: {path} has type {type(obj).__name__}, which report.json cannot hold"
    )
