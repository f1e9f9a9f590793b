"""report.json ``sensitivity``: each model's input sensitivity, read from its check file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reportgen.model.base import Model, key


@dataclass(frozen=True, slots=True)
class FeatureSensitivity(Model):
    """One raw feature: dp/dx per raw unit of the feature, over the rows."""

    name: str = key("the raw feature")
    unit: str | None = key("its unit as the file names it, or null")
    mean: float = key("the mean of dp/dx over the rows")
    median_abs: float = key("the median of |dp/dx| over the rows")
    share_positive: float = key("the share of rows where dp/dx > 0")
    share_saturated: float | None = key(
        "the share of rows with p (1 - p) < 0.001, where gradients are tiny; null for regression"
    )


@dataclass(frozen=True, slots=True)
class SensitivityCheck(Model):
    """The finite-difference agreement of the recorded gradients."""

    eps: tuple[float, ...] = key("the steps: eps, 10 eps, eps / 10")
    relative_errors: tuple[float, ...] | None = key(
        "the largest relative error at each step, or null when the file gives none"
    )
    max_relative_error: float = key("the largest relative error at the best step")
    excluded: int | None = key(
        "(row, feature) entries left out of the agreement because a relu kink lies within the largest step, or null"
    )
    passed: bool = key("at most 1e-4 at the best step and within 1e-2 at every step")


@dataclass(frozen=True, slots=True)
class ModelSensitivity(Model):
    """One model's sensitivity (``sensitivity.<model>``): per raw feature, in the file's
    order; or only ``reason`` (and ``artefact``) for a model local gradients are not defined
    for (a tree: piecewise constant)."""

    rows: Literal["test", "validation"] | None = key(
        "the part the rows come from", omit_if_none=True
    )
    n_rows: int | None = key("how many rows", omit_if_none=True)
    task: Literal["binary", "multiclass", "regression"] | None = key(
        "what p is: the class-1 probability, the predicted class's probability, the prediction",
        omit_if_none=True,
    )
    gradient: str | None = key("analytical or central differences", omit_if_none=True)
    features: tuple[FeatureSensitivity, ...] | None = key("per raw feature", omit_if_none=True)
    check: SensitivityCheck | None = key("the finite-difference agreement", omit_if_none=True)
    reason: str | None = key(
        "why the model has no local gradients, in one sentence (then no other figure)",
        omit_if_none=True,
    )
    artefact: str = key("the check file")
