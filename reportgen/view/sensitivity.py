"""How each prediction moves with its inputs (locally): report.json ``sensitivity``, per model
the features with the largest median |dp/dx| per raw unit (methods, input sensitivity)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.enums import ChartKey
from reportgen.model.sensitivity import FeatureSensitivity, ModelSensitivity
from reportgen.view.parts import Figure, chart_figure, ids, names
from reportgen.words.cells import pct, sig
from reportgen.words.i18n import _, n_, p_
from reportgen.words.reasons import reason_words

#: the most features a model's table lists (the rest: the HTML's details and report.json)
SHOWN = 10
#: the most feature rows the printed page lists over both models (six for one model's table,
#: three each for two): the page budget; the rest are in the HTML and report.json
PRINTED = 5


def gloss() -> str:
    """The caveats, said once for the section."""
    return _(
        "Local (one input moved a little, the others held), per raw unit (not comparable across "
        "units); not an importance, not a causal effect."
    )


def _what(task: str | None) -> str | None:
    """What p is, by the file's task; None for regression (the target's unit, [claim] unit)."""
    words = {
        "binary": _("probability"),
        "multiclass": _("predicted class's probability"),
    }
    return words.get(task or "binary")


@dataclass(frozen=True)
class SensitivityRow:
    """One feature of one model's table."""

    #: the raw feature's name
    feature: str
    #: what dp/dx is counted in: "probability per year of age" (the screen page's cell)
    unit: str
    #: the same without the feature the row names: "probability per year" (the printed cell)
    per: str
    #: the median of |dp/dx| over the rows, 3 significant figures
    median_abs: str
    #: the share of rows where dp/dx > 0: "62%"
    positive: str
    #: the share of saturated rows (p (1 - p) < 0.001): "3%"; a dash for regression
    saturated: str


@dataclass(frozen=True)
class ModelSensitivityView:
    """One model's part of the section: its table, or the sentence saying why it has none."""

    #: the model as the page names it, with its role: "MLP (candidate)"
    model: str
    #: the rows and the gradient's check: "400 test rows; analytical gradient agrees with
    #: central differences (worst relative error 3.1 × 10⁻⁹)."; None with a reason
    basis: str | None
    #: the features with the largest median |dp/dx|, at most ten, largest first
    top: list[SensitivityRow]
    #: the other features in the same order (printed only in the HTML, inside details)
    rest: list[SensitivityRow]
    #: what the HTML says of the rest: "20 more features"; None without a rest
    rest_note: str | None
    #: the first of ``top`` the printed page lists (six for one model's table, three each for
    #: two: the page budget)
    printed: list[SensitivityRow]
    #: what the printed page says of the features it leaves out: "25 more features in the
    #: HTML report and report.json."; None when it lists them all
    printed_note: str | None
    #: why the model has no table, in one sentence ("local gradients are not defined for a
    #: piecewise-constant model"); None with one
    reason: str | None


@dataclass(frozen=True)
class SensitivityView:
    """partials/_sensitivity.html: each compared model's local input sensitivity."""

    models: list[ModelSensitivityView]
    #: the dot plot of median |dp/dx| per feature for both models (both have figures in the
    #: same units); None otherwise
    figure: Figure | None
    #: the caveats in one line: local, per raw unit, not comparable across units, not an
    #: importance, not a causal effect
    gloss: str


def unit_phrase(
    task: str | None, feature: FeatureSensitivity, target_unit: str | None, named: bool = True
) -> str:
    """What dp/dx is in: "probability per year of age", "predicted class's probability per
    unit of x1", "mmHg per unit of dose" (regression, in the target's unit); without
    ``named`` the feature is left to the row ("probability per year")."""
    what = _what(task)
    if what is None:
        what = target_unit or _("target units")
    if feature.unit:
        if named:
            return _(
                "{what} per {unit} of {feature}", what=what, unit=feature.unit, feature=feature.name
            )
        return _("{what} per {unit}", what=what, unit=feature.unit)
    if named:
        return _("{what} per unit of {feature}", what=what, feature=feature.name)
    return _("{what} per unit", what=what)


def _rows(
    s: ModelSensitivity, target_unit: str | None
) -> tuple[list[SensitivityRow], list[SensitivityRow]]:
    feats = sorted(s.features or (), key=lambda f: -f.median_abs)  # stable: file order on ties
    rows = [
        SensitivityRow(
            feature=f.name,
            unit=unit_phrase(s.task, f, target_unit),
            per=unit_phrase(s.task, f, target_unit, named=False),
            median_abs=sig(f.median_abs),
            positive=pct(f.share_positive),
            saturated=pct(f.share_saturated),
        )
        for f in feats
    ]
    return rows[:SHOWN], rows[SHOWN:]


def _basis(s: ModelSensitivity) -> str:
    c = s.check
    rows = (
        n_("{n} {part} rows", "{n} {part} rows", s.n_rows, part=_rows_part(s.rows))
        if s.n_rows
        else _("its rows")
    )
    gradient = s.gradient or "analytical"
    if c is None:  # pragma: no cover - a file with features always has its check
        return _("{rows}; {gradient} gradient.", rows=rows, gradient=_gradient_word(gradient))
    if gradient == "central differences":
        if c.passed:
            return _(
                "{rows}; gradient by central differences at {eps}, stable across the steps.",
                rows=rows,
                eps=sig(c.eps[0]),
            )
        return _(
            "{rows}; gradient by central differences at {eps}, unstable.",
            rows=rows,
            eps=sig(c.eps[0]),
        )
    fields = {
        "rows": rows,
        "gradient": _gradient_word(gradient),
        "error": sig(c.max_relative_error),
    }
    if c.passed:
        return _(
            "{rows}; {gradient} gradient agrees with central differences (worst relative error "
            "{error}).",
            **fields,
        )
    return _(
        "{rows}; {gradient} gradient disagrees with central differences (worst relative error "
        "{error}).",
        **fields,
    )


def _rows_part(part: str | None) -> str:
    """The part a sensitivity file's rows are from, before "rows": test, validation."""
    words = {"test": p_("rows of a part", "test"), "validation": p_("rows of a part", "validation")}
    return words.get(part or "", part or "")


def _gradient_word(gradient: str) -> str:
    """How the gradient was taken, as printed: analytical, central differences."""
    words = {
        "analytical": p_("gradient", "analytical"),
        "central differences": p_("gradient", "central differences"),
    }
    return words.get(gradient, gradient)


def _more(n: int) -> str:
    return n_("{n} more feature", "{n} more features", n)


def _model(
    label: str, s: ModelSensitivity, target_unit: str | None, printed: int
) -> ModelSensitivityView:
    if s.features is None:
        return ModelSensitivityView(
            model=label,
            basis=None,
            top=[],
            rest=[],
            rest_note=None,
            printed=[],
            printed_note=None,
            reason=reason_words(s.reason or "").rstrip(".").capitalize() + ".",
        )
    top, rest = _rows(s, target_unit)
    left = len(top) + len(rest) - printed
    return ModelSensitivityView(
        model=label,
        basis=_basis(s),
        top=top,
        rest=rest,
        rest_note=_more(len(rest)) if rest else None,
        printed=top[:printed],
        printed_note=_("{more} in the HTML report and report.json.", more=_more(left))
        if left > 0
        else None,
        reason=None,
    )


def sensitivity_view(report: Report, charts: Collection[str]) -> SensitivityView | None:
    """The section, or None when no compared model has a sensitivity file (nothing printed)."""
    if not report.sensitivity:
        return None
    labels = dict(
        zip(
            ids(report),
            (
                _("{model} (candidate)", model=names(report)[0]),
                _("{model} (baseline)", model=names(report)[1]),
            ),
            strict=True,
        )
    )
    shown = [m for m in ids(report) if m in report.sensitivity]
    tables = sum(report.sensitivity[m].features is not None for m in shown)
    printed = PRINTED if tables < 2 else 2
    models = [_model(labels[m], report.sensitivity[m], report.project.unit, printed) for m in shown]
    figure = chart_figure(
        charts,
        ChartKey.SENSITIVITY,
        _(
            "Median |dp/dx| per feature, both models, per raw unit of each feature: compare the "
            "models on one feature, not the features with each other."
        ),
        _(
            "A dot per model and feature at the median absolute change of the prediction per "
            "raw unit of the feature, the features in the candidate's order."
        ),
    )
    return SensitivityView(models=models, figure=figure, gloss=gloss())
