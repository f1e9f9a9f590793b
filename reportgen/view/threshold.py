"""Threshold, cost and ranking: chosen thresholds, confusion matrices, ROC and PR."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.ranking import Ranking, RankingModel
from reportgen.model.threshold import OverRepeats, Threshold, ThresholdModel
from reportgen.view.parts import Figure, Row, chart_figure, names, said
from reportgen.words import count_noun, plural_noun
from reportgen.words.cells import DASH, cost, count, prob
from reportgen.words.repeats import repeat_words


@dataclass(frozen=True)
class ModelThreshold:
    """One model's chosen threshold, costs, confusion matrix and ranking scores."""

    model: str
    seed: str
    threshold: str
    validation_cost: str
    test_cost: str
    mean_test_cost: str
    precision: str
    #: the true positive rate, TP / (TP + FN)
    recall: str
    #: the false positive rate, FP / (FP + TN)
    fpr: str
    tn: str
    fp: str
    fn: str
    tp: str
    auc: str
    ap: str


@dataclass(frozen=True)
class ThresholdView:
    """partials/_threshold.html: cost curve, confusion matrices, ROC and PR."""

    figure: Figure | None
    ranking_figure: Figure | None
    models: list[ModelThreshold]
    facts: list[Row]
    unit: str
    rule: str
    #: which network each model's figures are for, and why that one
    seed_note: str
    #: the heading of the confusion matrices (on test, or out of fold in a cv design)
    confusion_title: str
    #: the part the costs were measured on, for the table's head ("Test", "Out-of-fold")
    part: str
    #: the head of the mean cost column (over every seed, or over repeats in a cv design)
    mean_head: str
    #: the PDF prints the per-model table (a cv design's costs and scores are in the note and
    #: the captions: the table stays in the HTML)
    table_printed: bool
    #: what the threshold in each matrix's caption is ("threshold", or a cv design's
    #: "median fold threshold": each fold has its own)
    threshold_label: str


def _model_row(label: str, m: ThresholdModel, rk: RankingModel | None) -> ModelThreshold:
    """One model's threshold, costs, confusion matrix and ranking scores as printed."""
    (tn, fp), (fn, tp) = m.confusion
    return ModelThreshold(
        model=label,
        seed=str(m.seed),
        threshold=_threshold_text(m.threshold),
        validation_cost=cost(m.validation_cost),
        test_cost=cost(m.test_cost),
        mean_test_cost=cost(m.mean_test_cost),
        precision=prob(m.precision),
        recall=prob(m.recall),
        fpr=prob(m.false_positive_rate),
        tn=count(tn),
        fp=count(fp),
        fn=count(fn),
        tp=count(tp),
        auc=prob(rk.roc_auc if rk else None),
        ap=prob(rk.average_precision if rk else None),
    )


def _rule_text(rule: str | float, cv: bool = False) -> str:
    """How the thresholds were chosen: on validation cost (cross-fitted over the folds in a
    cv design), or one fixed threshold."""
    if rule == "validation-cost" and cv:
        return (
            "cross-fitted: in each repeat, each fold's threshold is the one with the least cost "
            "on the other folds' out-of-fold rows, and it is applied to that fold's rows only, "
            "so no row both chooses and measures the cost"
        )
    if rule == "validation-cost":
        return "each model picks its own threshold on its validation rows (minimum cost)"
    if isinstance(rule, int | float):
        return f"fixed threshold {prob(rule)}"
    return DASH


def threshold_view(report: Report, charts: Collection[str]) -> ThresholdView | None:
    """The threshold, cost and ranking section; None without y/p predictions."""
    th = report.threshold
    if th is None:
        return None
    ranking = report.ranking
    cand, base = names(report)
    costs = th.costs
    unit = costs.unit or "cost units"
    c, b = th.candidate, th.baseline
    rc, rb = (ranking.candidate, ranking.baseline) if ranking else (None, None)
    models = [
        _model_row(f"{cand} (candidate)", c, rc),
        _model_row(f"{base} (baseline)", b, rb),
    ]
    facts = [
        # the unit is said once, in the note above these facts: it may carry its own brackets
        Row("cost of a false positive", cost(costs.false_positive)),
        Row("cost of a false negative", cost(costs.false_negative)),
        Row("theoretical cutoff c_FP / (c_FP + c_FN)", prob(th.theoretical_cutoff)),
    ]
    if costs.cases_per_period is not None:
        facts.append(Row(f"cases per {costs.period or 'period'}", count(costs.cases_per_period)))
    is_cv = c.cv is not None and b.cv is not None
    part = "out of fold" if is_cv else "on test"
    figure = chart_figure(
        charts,
        "threshold_cost",
        _cost_caption(c, b, cand, base, unit)
        if is_cv
        else f"Validation cost per case, in {th.costs.unit or 'cost units'}, as the threshold "
        "moves; the diamonds mark each model's "
        "chosen threshold and the dashed line the theoretical cutoff. Look at how flat the "
        "curves are near their minimum: a flat minimum makes the choice robust.",
        f"Line chart of validation cost against threshold. {cand} chooses "
        f"{_threshold_text(c.threshold)} (validation cost "
        f"{said(cost(c.validation_cost), 'not measured')}), "
        f"{base} chooses {_threshold_text(b.threshold)} "
        f"(validation cost {said(cost(b.validation_cost), 'not measured')}); theoretical cutoff "
        f"{prob(th.theoretical_cutoff)}.",
    )
    rc_auc, rb_auc = (rc.roc_auc if rc else None), (rb.roc_auc if rb else None)
    rc_ap = rc.average_precision if rc else None
    rb_ap = rb.average_precision if rb else None
    ranking_fig = chart_figure(
        charts,
        "ranking",
        _ranking_caption(rc, rb, cand, base)
        if is_cv and rc is not None and rb is not None
        else f"ROC (left) and precision-recall (right) on test. ROC AUC {cand} "
        f"{said(prob(rc_auc), 'undefined')}, {base} "
        f"{said(prob(rb_auc), 'undefined')}; average precision "
        f"{cand} {said(prob(rc_ap), 'undefined')}, {base} "
        f"{said(prob(rb_ap), 'undefined')}. Look at where the curves separate: that is "
        "where the choice of threshold matters.",
        f"ROC and precision-recall curves for {cand} and {base}, with the chance diagonal and "
        "the positive rate as the precision baseline.",
    )
    note = _cv_note(th, cand, base) if is_cv else _seed_note(report, th, ranking, cand, base)
    return ThresholdView(
        figure,
        ranking_fig,
        models,
        facts,
        unit,
        _rule_text(th.rule, is_cv),
        note,
        f"Confusion matrices {part} at the chosen thresholds",
        "Out-of-fold" if is_cv else "Test",
        "Mean over repeats" if is_cv else "Mean test cost, all seeds",
        not is_cv,
        "median fold threshold" if is_cv else "threshold",
    )


def spread(o: OverRepeats, fmt: Callable[[float | None], str]) -> str:
    """A figure over repeats as printed: its mean and the sd across repeats."""
    if o.mean is None:
        return DASH
    sd = f" (sd {fmt(o.sd)} across {count_noun(o.repeats, 'repeat')})" if o.sd is not None else ""
    return f"{fmt(o.mean)}{sd}"


def _cv_note(th: Threshold, cand: str, base: str) -> str:
    """What a cv design's threshold figures rest on: the representative repeat, the sets."""
    c, b = th.candidate, th.baseline
    assert c.cv is not None and b.cv is not None  # the caller checked
    return (
        "Each row is scored once per repeat by the network that did not train on it. Cost per "
        f"case, mean over repeats: {cand} {spread(c.cv.cost, cost)}, {base} "
        f"{spread(b.cv.cost, cost)}. Matrices and curves are one typical out-of-fold set per "
        f"model (seed {c.seed} of {count_noun(c.cv.sets, 'set')}, seed {b.seed} of "
        f"{count_noun(b.cv.sets, 'set')}: the median out-of-fold score), its threshold the "
        "median of its fold thresholds; the bands span every set."
    )


def _cost_caption(c: ThresholdModel, b: ThresholdModel, cand: str, base: str, unit: str) -> str:
    return (
        f"Out-of-fold cost per case, in {unit}, as the threshold moves, on one typical repeat's "
        "rows; the diamonds mark the median of its fold thresholds (each chosen on the other "
        "folds) and the dashed line the theoretical cutoff. Look at how flat the curves are "
        "near their minimum: a flat minimum makes the choice robust."
    )


def _ranking_caption(rc: RankingModel, rb: RankingModel, cand: str, base: str) -> str:
    assert rc.cv is not None and rb.cv is not None  # the caller checked
    return (
        "ROC (left) and precision-recall (right) out of fold, one typical repeat drawn, the "
        f"bands spanning every repeat. ROC AUC, mean over repeats: {cand} "
        f"{spread(rc.cv.roc_auc, prob)}, {base} {spread(rb.cv.roc_auc, prob)}; average "
        f"precision {cand} {spread(rc.cv.average_precision, prob)}, {base} "
        f"{spread(rb.cv.average_precision, prob)}. Look at where the curves separate: that is "
        "where the choice of threshold matters."
    )


def _seed_note(report: Report, th: Threshold, ranking: Ranking | None, cand: str, base: str) -> str:
    """Which seed of each model the threshold, confusion and curves are for, and why (in the
    words of [evaluation] repeats: networks, or evaluation runs)."""
    words = repeat_words(report.project.repeats)
    c, b = th.candidate, th.baseline
    which = (
        f"{cand} seed {c.seed} of {count_noun(len(c.per_seed), words.one)} and {base} seed "
        f"{b.seed} of {count_noun(len(b.per_seed), words.one)}"
    )
    bands = ranking is not None and bool(ranking.candidate.roc_band or ranking.baseline.roc_band)
    return (
        f"The threshold, the confusion matrices and the curves are for {which}: each model's "
        f"{words.unit} with the median validation score, a typical {words.unit} rather than the "
        "best, chosen without looking at test."
        + (
            f" The shaded bands of the ROC and precision-recall curves span all its "
            f"{plural_noun(words.unit)}."
            if bands
            else ""
        )
    )


def _threshold_text(t: float | None) -> str:
    if t is None:
        return DASH
    if t > 1.0:
        return "none (predict no positives)"
    return prob(t)
