"""report.json ``multiclass``: a multi-class task's figures per model."""

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
    """One class's counts and scores (``multiclass.<model>.per_class``)."""

    class_: str = key("the class", json_name="class")
    rows: int = key("its test rows")
    predicted: int = key("rows predicted as it")
    correct: int = key("rows of it predicted right")
    recall: float | None = key("recall; null without rows")
    precision: float | None = key("precision, or null")
    f1: float | None = key("F1, or null")


@dataclass(frozen=True, slots=True)
class TopLabel(Model):
    """Top-label (confidence) calibration: its ECE and bins."""

    ece: float | None = key("its ECE, or null")
    bins: tuple[CalibrationBin, ...] = key("its bins")


@dataclass(frozen=True, slots=True)
class ClasswiseEce(Model):
    """Class-wise ECE: per class, and its mean over classes."""

    mean: float | None = key("the mean over classes, or null")
    per_class: tuple[float, ...] = key("per class, in classes order")


@dataclass(frozen=True, slots=True)
class MulticlassSeed(Model):
    """One seed's accuracy and top-label ECE."""

    seed: int = key("the seed")
    accuracy: float = key("its test accuracy")
    top_label_ece: float = key("its top-label ECE")


@dataclass(frozen=True, slots=True)
class MulticlassModel(Model):
    """One model's multi-class figures (``multiclass.<model>``)."""

    seed: int = key("the representative seed")
    rows: int = key("test rows")
    class_order: ClassOrder | None = key(
        "null, or why the p_ columns look named in the wrong order: test accuracy more than 3 binomial standard errors below 1/K while the best relabelling of the columns scores above the majority-class rate"
    )
    accuracy: float = key("test accuracy")
    macro_f1: float | None = key("macro F1, or null")
    confusion: tuple[tuple[int, ...], ...] = key(
        "rows the actual class, columns the predicted one, in classes order"
    )
    confusion_normalised: tuple[tuple[float, ...] | None, ...] = key(
        "each row divided by its count; null for a class without test rows"
    )
    per_class: tuple[ClassRow, ...] = key("per class, in classes order")
    missing_classes: tuple[str, ...] = key("classes without test rows")
    top_label: TopLabel = key("top-label calibration")
    classwise_ece: ClasswiseEce = key("class-wise ECE")
    validation_top_label_ece: float | None = key("validation top-label ECE, or null")
    per_seed: tuple[MulticlassSeed, ...] = key("every seed")


@dataclass(frozen=True, slots=True)
class Multiclass(Model):
    """``multiclass``: a multi-class task's figures per model, one representative network on test."""

    classes: tuple[str, ...] = key(
        "the class names, in the order of every per-class list and matrix"
    )
    bins: int = key("bins per reliability diagram")
    top_label_variant: str = key("the top-label calibration, in words")
    classwise_variant: str = key("the class-wise ECE, in words")
    candidate: MulticlassModel = key("the candidate's figures")
    baseline: MulticlassModel = key("the baseline's figures")
