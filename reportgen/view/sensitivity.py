"""How each prediction moves with its inputs (locally): report.json ``sensitivity``, per model
the features with the largest median |dp/dx| per raw unit (methods, input sensitivity)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.enums import ChartKey
from reportgen.model.sensitivity import FeatureSensitivity, ModelSensitivity
from reportgen.view.parts import Figure, chart_figure, ids, names
from reportgen.words.cells import count, pct, sig

#: the most features a model's printed table lists (the rest: the HTML's details and report.json)
SHOWN = 10
#: the caveats, said once for the section
GLOSS = (
    "Each figure is local (an infinitesimal change of one input, the others held fixed) and per "
    "raw unit of its feature, so features measured in different units are not comparable; it is "
    "not a feature importance and not a causal effect."
)
#: what p is, by the file's task (regression: the target's unit, from [claim] unit)
WHAT = {
    "binary": "probability",
    "multiclass": "predicted class's probability",
}


@dataclass(frozen=True)
class SensitivityRow:
    """One feature of one model's table."""

    #: the raw feature's name
    feature: str
    #: what dp/dx is counted in: "probability per year of age"
    unit: str
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
    #: the rows and the gradient's check: "On 400 test rows; analytical gradient, agreeing with
    #: central differences (largest relative error 3.1 × 10⁻⁹)."; None with a reason
    basis: str | None
    #: the features with the largest median |dp/dx|, at most ten, largest first
    top: list[SensitivityRow]
    #: the other features in the same order (printed only in the HTML, inside details)
    rest: list[SensitivityRow]
    #: what the printed page says of the rest: "20 more features in the HTML report and
    #: report.json"; None without a rest
    rest_note: str | None
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


def unit_phrase(task: str | None, feature: FeatureSensitivity, target_unit: str | None) -> str:
    """What dp/dx is in: "probability per year of age", "predicted class's probability per
    unit of x1", "mmHg per unit of dose" (regression, in the target's unit)."""
    what = WHAT.get(task or "binary", None)
    if what is None:
        what = target_unit or "target units"
    per = feature.unit or "unit"
    return f"{what} per {per} of {feature.name}"


def _rows(
    s: ModelSensitivity, target_unit: str | None
) -> tuple[list[SensitivityRow], list[SensitivityRow]]:
    feats = sorted(s.features or (), key=lambda f: -f.median_abs)  # stable: file order on ties
    rows = [
        SensitivityRow(
            feature=f.name,
            unit=unit_phrase(s.task, f, target_unit),
            median_abs=sig(f.median_abs),
            positive=pct(f.share_positive),
            saturated=pct(f.share_saturated),
        )
        for f in feats
    ]
    return rows[:SHOWN], rows[SHOWN:]


def _basis(s: ModelSensitivity) -> str:
    c = s.check
    rows = f"On {count(s.n_rows)} {s.rows} rows" if s.n_rows else "On its rows"
    gradient = s.gradient or "analytical"
    if c is None:  # pragma: no cover - a file with features always has its check
        return f"{rows}; {gradient} gradient."
    if gradient == "central differences":
        check = f"central differences at {sig(c.eps[0])}, stable across the steps"
        check = check if c.passed else f"central differences at {sig(c.eps[0])}, unstable"
        return f"{rows}; gradient by {check}."
    agree = "agreeing with" if c.passed else "disagreeing with"
    return (
        f"{rows}; {gradient} gradient, {agree} central differences (largest relative error "
        f"{sig(c.max_relative_error)})."
    )


def _model(label: str, s: ModelSensitivity, target_unit: str | None) -> ModelSensitivityView:
    if s.features is None:
        return ModelSensitivityView(
            model=label,
            basis=None,
            top=[],
            rest=[],
            rest_note=None,
            reason=(s.reason or "").rstrip(".").capitalize() + ".",
        )
    top, rest = _rows(s, target_unit)
    note = (
        f"{count(len(rest))} more feature{'s' if len(rest) != 1 else ''} in the HTML report "
        "and report.json."
        if rest
        else None
    )
    return ModelSensitivityView(
        model=label, basis=_basis(s), top=top, rest=rest, rest_note=note, reason=None
    )


def sensitivity_view(report: Report, charts: Collection[str]) -> SensitivityView | None:
    """The section, or None when no compared model has a sensitivity file (nothing printed)."""
    if not report.sensitivity:
        return None
    labels = dict(
        zip(
            ids(report),
            (
                f"{n} ({role})"
                for n, role in zip(names(report), ("candidate", "baseline"), strict=True)
            ),
            strict=True,
        )
    )
    models = [
        _model(labels[m], report.sensitivity[m], report.project.unit)
        for m in ids(report)
        if m in report.sensitivity
    ]
    figure = chart_figure(
        charts,
        ChartKey.SENSITIVITY,
        "Median |dp/dx| per feature, both models, per raw unit of each feature: compare the "
        "models on one feature, not the features with each other.",
        "A dot per model and feature at the median absolute change of the prediction per raw "
        "unit of the feature, the features in the candidate's order.",
    )
    return SensitivityView(models=models, figure=figure, gloss=GLOSS)
