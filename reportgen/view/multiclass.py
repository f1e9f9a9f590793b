"""Multi-class: confusion matrices (counts and row shares), per-class recall and precision,
top-label and classwise calibration, and the descriptions (macro F1)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.multiclass import MulticlassModel
from reportgen.stats.calibration import MIN_JOINED
from reportgen.view.parts import Figure, Row, chart_figure, names
from reportgen.view.tasks import description_rows
from reportgen.words import count_noun
from reportgen.words.cells import DASH, confidence, count, metric, prob
from reportgen.words.i18n import _
from reportgen.words.numbers import decimals, fixed


@dataclass(frozen=True)
class ConfusionCell:
    """One cell: the count and its share of the actual class's rows."""

    count: str
    share: str
    diagonal: bool


@dataclass(frozen=True)
class ConfusionRow:
    """One actual class: its name and a cell per predicted class."""

    actual: str
    cells: list[ConfusionCell]
    rows: str


@dataclass(frozen=True)
class ConfusionView:
    """One model's confusion matrix on test."""

    caption: str
    classes: list[str]
    rows: list[ConfusionRow]


@dataclass(frozen=True)
class ClassRow:
    """One class: its test rows, both models' recall, precision and classwise ECE."""

    name: str
    rows: str
    candidate_recall: str
    candidate_precision: str
    candidate_ece: str
    baseline_recall: str
    baseline_precision: str
    baseline_ece: str


@dataclass(frozen=True)
class MulticlassView:
    """partials/_multiclass.html: the multi-class section."""

    confusion_figure: Figure | None
    reliability_figure: Figure | None
    confusions: list[ConfusionView]
    classes: list[ClassRow]
    summary: list[Row]
    descriptions: list[Row]
    variants: list[str]
    missing: str | None


def _confusion(m: MulticlassModel, label: str, classes: list[str]) -> ConfusionView:
    rows = []
    for i, (row, shares) in enumerate(zip(m.confusion, m.confusion_normalised, strict=True)):
        cells = [
            ConfusionCell(count(v), prob(shares[j]) if shares and v else "", i == j)
            for j, v in enumerate(row)
        ]
        rows.append(ConfusionRow(classes[i], cells, count(sum(row))))
    return ConfusionView(
        _(
            "{model}, seed {seed}: rows are the actual class, columns the predicted one; each "
            "cell's share is of its actual class's rows (the diagonal is the class's recall)",
            model=label,
            seed=str(m.seed),
        ),
        classes,
        rows,
    )


def multiclass_view(report: Report, charts: Collection[str]) -> MulticlassView | None:
    """The multi-class section; None for other tasks."""
    sec = report.multiclass
    if sec is None:
        return None
    cand, base = names(report)
    c, b = sec.candidate, sec.baseline
    classes = list(sec.classes)
    # the per-class ECE column on one number of decimals (4 significant figures of its
    # largest value), so its digits line up: 0.00349 above 0.01141, not 0.003491
    eces = [*c.classwise_ece.per_class, *b.classwise_ece.per_class]
    digits = decimals(*eces, sig=4)

    def ece(x: float | None) -> str:
        return DASH if x is None or x != x else fixed(x, digits)

    per = []
    for i, k in enumerate(classes):
        x, y = c.per_class[i], b.per_class[i]
        per.append(
            ClassRow(
                k,
                count(x.rows),
                prob(x.recall),
                prob(x.precision),
                ece(c.classwise_ece.per_class[i]),
                prob(y.recall),
                prob(y.precision),
                ece(b.classwise_ece.per_class[i]),
            )
        )
    summary = [
        # one network each (its seed named), as the chart and the table above: its calibration
        # only. Its accuracy would stand beside the macro F1 below (each model's mean over its
        # networks) and Results at a glance's mean accuracy, and could point the other way
        # (digits: mlp seed 5 0.961 < logreg seed 1 0.967, yet mlp's mean 0.9694 > 0.9606)
        Row(_scores_label(cand, c), _scores(c)),
        Row(_scores_label(base, b), _scores(b)),
        Row(_("classes / bins"), f"{count(len(classes))} / {count(sec.bins)}"),
    ]
    absent = sorted(set(c.missing_classes) | set(b.missing_classes))
    missing = (
        _(
            "{classes} without test rows ({names}): recall is undefined there (a dash), "
            "precision counts its false predictions",
            classes=count_noun(len(absent), "class"),
            names=", ".join(absent),
        )
        if absent
        else None
    )
    return MulticlassView(
        confusion_figure=chart_figure(
            charts,
            "confusion",
            _(
                "Confusion matrices on test, each cell shaded by its share of the actual class's "
                "rows, from white (none) to dark blue (all); the diagonal is each class's "
                "recall. Look for shaded cells off the diagonal: the classes a model confuses."
            ),
            _(
                "Heat maps of the confusion matrices of {candidate} and {baseline} over {classes}.",
                candidate=cand,
                baseline=base,
                classes=count_noun(len(classes), "class"),
            ),
        ),
        reliability_figure=chart_figure(
            charts,
            "top_label_reliability",
            # charts/tasks.py top_label_reliability draws the small bins faint and starts the
            # probability axis at the lowest bin with rows
            _(
                "Top-label reliability on test: how often the predicted class is right against "
                "its predicted probability, per bin; the dashed diagonal is perfect calibration, "
                "and the bars under it count each bin's rows. A confident model puts nearly all "
                "of them in the top bin: bins with at least {rows} rows are points with their "
                "{level} interval, the others faint dots without one, too few rows to read. The "
                "probability axis starts at the lowest bin that holds rows.",
                rows=count(MIN_JOINED),
                level=confidence(report.build.confidence),
            ),
            _(
                "Top-label reliability diagram for {candidate} and {baseline}; top-label ECE "
                "{candidate} {candidate_ece}, {baseline} {baseline_ece}.",
                candidate=cand,
                baseline=base,
                candidate_ece=metric(c.top_label.ece),
                baseline_ece=metric(b.top_label.ece),
            ),
        ),
        confusions=[
            _confusion(c, _("{model} (candidate)", model=cand), classes),
            _confusion(b, _("{model} (baseline)", model=base), classes),
        ],
        classes=per,
        summary=summary,
        descriptions=description_rows(report),
        variants=[sec.top_label_variant, sec.classwise_variant],
        missing=missing,
    )


def _scores_label(model: str, m: MulticlassModel) -> str:
    return _("{model} seed {seed} top-label ECE / classwise ECE", model=model, seed=str(m.seed))


def _scores(m: MulticlassModel) -> str:
    """The representative network's calibration (never its accuracy: that is on the results'
    basis, the mean over the model's networks, in Results at a glance)."""
    return f"{metric(m.top_label.ece)} / {metric(m.classwise_ece.mean)}"
