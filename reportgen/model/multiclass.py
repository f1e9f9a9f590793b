"""report.json `multiclass`."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model.base import Model, key
from reportgen.model.ranking import CalibrationBin


@dataclass(frozen=True, slots=True)
class ClassOrder(Model):
    """Why the p_ columns look named in the wrong order (``multiclass.<model>.class_order``)."""

    accuracy: float = key("the test accuracy as the columns are named")
    chance: float = key("what guessing at random reaches: 1/K")
    majority: float = key("the majority-class rate")
    relabelled: tuple[str, ...] = key(
        "the class each p_ column (in classes order) reads as in the best relabelling"
    )
    relabelled_accuracy: float = key("the test accuracy under that relabelling")
    path: str = key("the predictions file")
    text: str = key("the doubt in words")


@dataclass(frozen=True, slots=True)
class ClassRow(Model):
    """report.multiclass.role.per_class[]"""

    class_: str = key("", json_name="class")
    rows: int
    predicted: int
    correct: int
    recall: float | None
    precision: float | None
    f1: float | None


@dataclass(frozen=True, slots=True)
class TopLabel(Model):
    """report.multiclass.role.top_label"""

    ece: float | None
    bins: tuple[CalibrationBin, ...]


@dataclass(frozen=True, slots=True)
class ClasswiseEce(Model):
    """report.multiclass.role.classwise_ece"""

    mean: float | None
    per_class: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class MulticlassSeed(Model):
    """report.multiclass.role.per_seed[]"""

    seed: int
    accuracy: float
    top_label_ece: float


@dataclass(frozen=True, slots=True)
class MulticlassModel(Model):
    """report.multiclass.role"""

    seed: int
    rows: int
    class_order: ClassOrder | None = key(
        "null, or why the p_ columns look named in the wrong order: test accuracy more than 3 binomial standard errors below 1/K while the best relabelling of the columns scores above the majority-class rate"
    )
    accuracy: float
    macro_f1: float | None
    confusion: tuple[tuple[int, ...], ...] = key(
        "rows the actual class, columns the predicted one, in classes order"
    )
    confusion_normalised: tuple[tuple[float, ...] | None, ...] = key(
        "each row divided by its count; null for a class without test rows"
    )
    per_class: tuple[ClassRow, ...]
    missing_classes: tuple[str, ...]
    top_label: TopLabel
    classwise_ece: ClasswiseEce
    validation_top_label_ece: float | None
    per_seed: tuple[MulticlassSeed, ...]


@dataclass(frozen=True, slots=True)
class Multiclass(Model):
    """report.multiclass"""

    classes: tuple[str, ...]
    bins: int
    top_label_variant: str
    classwise_variant: str
    candidate: MulticlassModel = key("the candidate's figures")
    baseline: MulticlassModel = key("the baseline's figures")
