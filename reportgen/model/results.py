"""report.json ``results``: each model's own figures, the "results at a glance" table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from reportgen.model.base import Model, key

#: where a row's figures were measured: a held-out part, the cross-validation folds, or a
#: before-after project's general set
Part = Literal["test", "validation", "cv", "general"]


@dataclass(frozen=True, slots=True)
class ResultRow(Model):
    """One model's figure on one part and one metric, with its own interval and basis."""

    model: str = key("the model (its id in runs.csv)")
    part: Part = key("test, validation, cv (the folds) or general (a before-after general set)")
    metric: str = key(
        "the metric: the claim's, or a companion (log_loss, accuracy, squared_error, rmse, "
        "absolute_error, macro_f1)"
    )
    mean: float | None = key("the mean over the model's networks, or null")
    sd: float | None = key("the sample sd across its networks (seed sd), or null with one")
    low: float | None = key("the model's own interval's lower end, or null")
    high: float | None = key("its upper end, or null")
    rows: int | None = key("the rows it is measured on, or null (logged values only)")
    networks: int = key("the networks (seeds) averaged")
    basis: str = key("over what the mean, the sd and the interval are taken, in words")
