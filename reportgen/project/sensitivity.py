"""An input-sensitivity file (artefacts/checks/sensitivity-<model>.json, docs/format.md) read
into typed figures: every field checked, since the file is the user's (methods section 10)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportgen.errors import clean_text, said, said_ids
from reportgen.words import count
from reportgen.words.i18n import _, current

#: the tasks and parts a file may name
TASKS = ("binary", "multiclass", "regression")
PARTS = ("test", "validation")
#: the most features one file may list (the report prints at most 10 in the PDF)
MAX_FEATURES = 10_000


@dataclass(frozen=True)
class FeatureFigures:
    """One raw feature's sensitivity: dp/dx per raw unit over the rows."""

    name: str
    unit: str | None
    mean: float
    median_abs: float
    share_positive: float
    share_saturated: float | None


@dataclass(frozen=True)
class Agreement:
    """The finite-difference agreement: relative errors at eps, 10 eps and eps / 10."""

    eps: tuple[float, ...]
    relative_errors: tuple[float, ...] | None
    max_relative_error: float
    passed: bool
    #: (row, feature) entries left out because a relu kink lies within the largest step
    excluded: int | None


@dataclass(frozen=True)
class Sensitivity:
    """A parsed file: its figures, or the reason a model has none."""

    model: str
    reason: str | None = None
    task: str = "binary"
    rows: str = "test"
    n_rows: int | None = None
    gradient: str | None = None
    features: tuple[FeatureFigures, ...] = ()
    check: Agreement | None = None


class BadFile(ValueError):
    """A field of the file is missing or wrong: the message names its JSON path."""


def _number(v: object, where: str, low: float | None = None, high: float | None = None) -> float:
    ok = isinstance(v, int | float) and not isinstance(v, bool)
    if ok:
        try:
            x = float(v)  # type: ignore[arg-type]
        except OverflowError:
            ok = False
        else:
            ok = math.isfinite(x) and (low is None or x >= low) and (high is None or x <= high)
    if not ok:
        if low is not None and high is not None:
            message = _(
                "{field} should be a finite number from {low} to {high}, not {value}",
                low=format(low, "g"),
                high=format(high, "g"),
                field=where,
                value=said(v),
            )
        elif low is not None:
            message = _(
                "{field} should be a finite number of at least {low}, not {value}",
                low=format(low, "g"),
                field=where,
                value=said(v),
            )
        else:
            message = _(
                "{field} should be a finite number, not {value}", field=where, value=said(v)
            )
        raise BadFile(message)
    return x


def _text(v: object, where: str, limit: int, optional: bool = False) -> str | None:
    if v is None and optional:
        return None
    if not isinstance(v, str) or not v.strip():
        raise BadFile(
            _("{field} should be a non-empty string, not {value}", field=where, value=said(v))
        )
    return clean_text(v.strip(), limit)


def _choice(v: object, where: str, options: tuple[str, ...]) -> str:
    if v not in options:
        allowed = str(list(options)) if current() == "en" else said_ids(options)
        raise BadFile(
            _(
                "{field}={value} should be one of {allowed}",
                field=where,
                value=said(v),
                allowed=allowed,
            )
        )
    return str(v)


def _feature(f: object, i: int, regression: bool) -> FeatureFigures:
    where = f"features[{i}]"
    if not isinstance(f, dict):
        raise BadFile(_("{field} should be an object, not {value}", field=where, value=said(f)))
    sat = f.get("share_saturated")
    return FeatureFigures(
        name=_text(f.get("name"), f"{where}.name", 80) or "",
        unit=_text(f.get("unit"), f"{where}.unit", 40, optional=True),
        mean=_number(f.get("mean"), f"{where}.mean"),
        median_abs=_number(f.get("median_abs"), f"{where}.median_abs", 0.0),
        share_positive=_number(f.get("share_positive"), f"{where}.share_positive", 0.0, 1.0),
        share_saturated=None
        if sat is None and regression
        else _number(sat, f"{where}.share_saturated", 0.0, 1.0),
    )


def _agreement(fd: object) -> Agreement:
    if not isinstance(fd, dict):
        raise BadFile(
            _(
                "{field} should be an object, not {value}",
                field="finite_differences",
                value=said(fd),
            )
        )
    eps = fd.get("eps")
    if not isinstance(eps, list) or not 1 <= len(eps) <= 10:
        raise BadFile(
            _("finite_differences.eps should be a list of steps, not {value}", value=said(eps))
        )
    steps = tuple(_number(e, f"finite_differences.eps[{i}]", 0.0) for i, e in enumerate(eps))
    if any(s == 0 for s in steps):
        raise BadFile(_("finite_differences.eps should hold positive steps, not 0"))
    errs = fd.get("relative_errors")
    errors = None
    if errs is not None:
        if not isinstance(errs, list) or len(errs) != len(steps):
            raise BadFile(
                _(
                    "finite_differences.relative_errors should hold one error per step ({steps}), "
                    "not {value}",
                    steps=len(steps),
                    value=said(errs),
                )
            )
        errors = tuple(
            _number(e, f"finite_differences.relative_errors[{i}]", 0.0) for i, e in enumerate(errs)
        )
    passed = fd.get("passed")
    if not isinstance(passed, bool):
        raise BadFile(
            _("finite_differences.passed should be true or false, not {value}", value=said(passed))
        )
    ex = fd.get("excluded")
    if ex is not None and (not isinstance(ex, int) or isinstance(ex, bool) or ex < 0):
        raise BadFile(
            _("finite_differences.excluded should be a count, not {value}", value=said(ex))
        )
    return Agreement(
        eps=steps,
        relative_errors=errors,
        max_relative_error=_number(
            fd.get("max_relative_error"), "finite_differences.max_relative_error", 0.0
        ),
        passed=passed,
        excluded=ex,
    )


def parse_sensitivity(doc: dict) -> Sensitivity:
    """The figures of one file's object (its ``check`` and ``model`` already strings), or
    BadFile naming the first wrong field; a file with a ``reason`` holds only that."""
    model = str(doc.get("model"))
    if "reason" in doc:
        return Sensitivity(model=model, reason=_text(doc.get("reason"), "reason", 200))
    task = _choice(doc.get("task", "binary"), "task", TASKS)
    rows = _choice(doc.get("rows"), "rows", PARTS)
    n = doc.get("n_rows")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise BadFile(_("n_rows should be a positive count of rows, not {value}", value=said(n)))
    gradient = _text(doc.get("gradient"), "gradient", 40, optional=True)
    feats = doc.get("features")
    if not isinstance(feats, list) or not feats:
        raise BadFile(
            _("features should be a non-empty list of objects, not {value}", value=said(feats))
        )
    if len(feats) > MAX_FEATURES:
        raise BadFile(
            _(
                "features lists {n} features; at most {limit} are read",
                n=count(len(feats)),
                limit=count(MAX_FEATURES),
            )
        )
    features = tuple(_feature(f, i, task == "regression") for i, f in enumerate(feats))
    seen: set[str] = set()
    for f in features:
        if f.name in seen:
            raise BadFile(_("features names {name} twice", name=said(f.name)))
        seen.add(f.name)
    return Sensitivity(
        model=model,
        task=task,
        rows=rows,
        n_rows=n,
        gradient=gradient,
        features=features,
        check=_agreement(doc.get("finite_differences")),
    )
