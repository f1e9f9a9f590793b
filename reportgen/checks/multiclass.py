"""report.json ``multiclass``: per model, the confusion matrix (counts and row-normalised),
per-class recall and precision, top-label and classwise calibration, for one representative
network (chosen on validation, as for a binary task); every seed's accuracy beside it."""

from __future__ import annotations

from typing import Any

import numpy as np

from reportgen.checks.classify import calibration_bin, representative
from reportgen.checks.present import required, test_of
from reportgen.checks.select import ModelRuns
from reportgen.errors import Problem
from reportgen.model.multiclass import (
    ClassOrder,
    ClassRow,
    ClasswiseEce,
    Multiclass,
    MulticlassModel,
    MulticlassSeed,
    TopLabel,
)
from reportgen.project import Project
from reportgen.stats import multiclass as mc
from reportgen.words import count_noun, prob
from reportgen.words.i18n import _

#: how many binomial standard errors below 1/K a test accuracy must be to suggest that the
#: p_ columns are named in the wrong order (docs/methods.md, rung 1)
BELOW_CHANCE_SE = 3.0
#: what a doubt about the p_ columns measured: a test accuracy, or (cv) the held-out folds'
TEST_ACCURACY = "test accuracy"
FOLD_ACCURACY = "accuracy over its held-out folds"


def top_label_words() -> str:
    """What top-label calibration is, in the language being written."""
    return _(
        "top-label (confidence) calibration: the predicted class's probability against whether "
        "the prediction was right, in equal-width bins"
    )


def classwise_words() -> str:
    """What the classwise ECE is, in the language being written."""
    return _(
        "classwise ECE: per class, the ECE of its probability against whether the row is of "
        "that class; the mean over classes"
    )


def multiclass_section(project: Project, cand: ModelRuns, base: ModelRuns) -> Multiclass | None:
    """The multi-class figures of both models, or None (another task, or no test predictions)."""
    if project.task != "multiclass":
        return None
    crep, brep = representative(cand, "multiclass"), representative(base, "multiclass")
    if crep is None or brep is None:
        return None
    classes = list(project.classes or required(test_of(crep).classes, "class names"))
    return Multiclass(
        classes=tuple(classes),
        bins=project.config.bins,
        top_label_variant=top_label_words(),
        classwise_variant=classwise_words(),
        candidate=_model_entry(project, cand, crep, classes),
        baseline=_model_entry(project, base, brep, classes),
    )


def _top_label(figures: mc.TopLabelFigures) -> TopLabel:
    """Top-label calibration as the model holds it."""
    return TopLabel(ece=figures.ece, bins=tuple(calibration_bin(b) for b in figures.bins))


def _class_row(name: str, c: mc.ClassFigures) -> ClassRow:
    """One class's figures as the model holds them."""
    return ClassRow(
        class_=name,
        rows=c.rows,
        predicted=c.predicted,
        correct=c.correct,
        recall=c.recall,
        precision=c.precision,
        f1=c.f1,
    )


def _model_entry(project: Project, mr: ModelRuns, rep: Any, classes: list[str]) -> MulticlassModel:
    cfg = project.config
    tp = rep.test_pred
    k = len(classes)
    predicted = tp.proba.argmax(axis=1)
    conf = mc.confusion(tp.y, predicted, k)
    per = mc.per_class(conf)
    vp = rep.val_pred if rep.val_pred is not None and rep.val_pred.kind == "multiclass" else None
    classwise = mc.classwise_ece(tp.y, tp.proba, cfg.bins)
    return MulticlassModel(
        seed=rep.seed,
        rows=int(tp.y.size),
        class_order=class_order(conf, classes, mr.name, tp.path),
        accuracy=float(np.mean(predicted == tp.y)),
        macro_f1=mc.macro_f1(conf),
        confusion=tuple(tuple(r) for r in conf.tolist()),
        confusion_normalised=tuple(
            None if r is None else tuple(r) for r in mc.row_normalised(conf)
        ),
        per_class=tuple(_class_row(c, v) for c, v in zip(classes, per, strict=True)),
        missing_classes=tuple(c for c, v in zip(classes, per, strict=True) if not v.rows),
        top_label=_top_label(mc.top_label(tp.y, tp.proba, cfg.bins, confidence=cfg.confidence)),
        classwise_ece=ClasswiseEce(
            mean=classwise.mean,
            per_class=tuple(required(e, "class-wise ECE") for e in classwise.per_class),
        ),
        validation_top_label_ece=(
            mc.top_label(vp.y, vp.proba, cfg.bins).ece if vp is not None else None
        ),
        per_seed=tuple(
            MulticlassSeed(
                seed=s.seed,
                accuracy=float(np.mean(required(p.proba, "probabilities").argmax(axis=1) == p.y)),
                top_label_ece=required(
                    mc.top_label(p.y, required(p.proba, "probabilities"), cfg.bins).ece,
                    "top-label ECE",
                ),
            )
            for s, p in ((s, s.test_pred) for s in mr.seeds)
            if p is not None and p.kind == "multiclass"
        ),
    )


def class_order(
    conf: np.ndarray, classes: list[str], model: str, path: str, scored: str = TEST_ACCURACY
) -> ClassOrder | None:
    """A doubt about the p_ columns' names, or None: the accuracy is far below what guessing
    at random reaches (1/K), and another reading of the columns (the assignment of columns to
    classes that maximises the confusion matrix's diagonal) would score above the
    majority-class rate. Column j is then read as class ``relabelled[j]``."""
    from scipy.optimize import linear_sum_assignment

    n, k = int(conf.sum()), len(classes)
    if n == 0 or k < 3:
        return None
    accuracy = float(np.trace(conf)) / n
    chance = 1.0 / k
    majority = float(conf.sum(axis=1).max()) / n
    if accuracy >= chance - BELOW_CHANCE_SE * np.sqrt(chance * (1 - chance) / n):
        return None
    actual, column = linear_sum_assignment(conf, maximize=True)
    best = float(conf[actual, column].sum()) / n
    if best <= majority:
        return None
    relabelled = [""] * k
    for i, j in zip(actual, column, strict=True):
        relabelled[j] = classes[i]
    moved = [
        _("p_{column} as {label}", column=classes[j], label=relabelled[j])
        for j in range(k)
        if relabelled[j] != classes[j]
    ]
    figures = {
        "model": model,
        "accuracy": prob(accuracy),
        "chance": prob(chance),
        "classes": count_noun(k, "class"),
        "moved": ", ".join(moved),
        "best": prob(best),
    }
    return ClassOrder(
        accuracy=accuracy,
        chance=chance,
        majority=majority,
        relabelled=tuple(relabelled),
        relabelled_accuracy=best,
        path=path,
        text=(
            _(
                "{model}'s accuracy over its held-out folds {accuracy} is far below what "
                "guessing at random reaches ({chance} for {classes}), but reading its columns "
                "{moved} would give {best}: the p_ columns are likely named in the wrong order "
                "(classes= must be estimator.classes_, in its order)",
                **figures,
            )
            if scored == FOLD_ACCURACY
            else _(
                "{model}'s test accuracy {accuracy} is far below what guessing at random "
                "reaches ({chance} for {classes}), but reading its columns {moved} would give "
                "{best}: the p_ columns are likely named in the wrong order (classes= must be "
                "estimator.classes_, in its order)",
                **figures,
            )
        ),
    )


def class_orders(section: Multiclass | None) -> dict[str, ClassOrder]:
    """Per role ("candidate", "baseline"), the doubt about its p_ columns on the test part."""
    if section is None:
        return {}
    found = {"candidate": section.candidate.class_order, "baseline": section.baseline.class_order}
    return {role: doubt for role, doubt in found.items() if doubt is not None}


def pooled_class_order(
    project: Project, model: str, preds: list[Any], scored: str
) -> ClassOrder | None:
    """The doubt about one model's p_ columns from several multi-class predictions files (the
    confusion matrices summed), named after the first; None without any."""
    preds = [p for p in preds if p is not None and p.kind == "multiclass"]
    if not preds:
        return None
    classes = list(project.classes or required(preds[0].classes, "class names"))
    k = len(classes)
    conf = sum(
        (mc.confusion(p.y, required(p.proba, "probabilities").argmax(axis=1), k) for p in preds),
        np.zeros((k, k), dtype=np.int64),
    )
    return class_order(np.asarray(conf), classes, model, preds[0].path, scored)


def class_order_warnings(doubts: dict[str, ClassOrder]) -> list[Problem]:
    """The ``class-order`` warning of each model whose p_ columns look misnamed."""
    return [
        Problem(d.text, d.path, slug="class-order", severity="warning") for d in doubts.values()
    ]
