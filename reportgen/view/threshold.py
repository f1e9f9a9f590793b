"""Threshold, cost and ranking: chosen thresholds, confusion matrices, ROC and PR."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.ranking import Ranking, RankingModel
from reportgen.model.threshold import OverRepeats, Threshold, ThresholdModel
from reportgen.stats.threshold import cost_axis
from reportgen.view.parts import Figure, Row, chart_figure, cost_unit, names, said
from reportgen.words import count_noun
from reportgen.words.cells import DASH, cost, count, prob
from reportgen.words.i18n import _, n_, p_
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
        return _(
            "cross-fitted: in each repeat, each fold's threshold is the one with the least cost "
            "on the other folds' out-of-fold rows, and it is applied to that fold's rows only, "
            "so no row both chooses and measures the cost"
        )
    if rule == "validation-cost":
        return _("each model picks its own threshold on its validation rows (minimum cost)")
    if isinstance(rule, int | float):
        return _("fixed threshold {threshold}", threshold=prob(rule))
    return DASH


def threshold_view(report: Report, charts: Collection[str]) -> ThresholdView | None:
    """The threshold, cost and ranking section; None without y/p predictions."""
    th = report.threshold
    if th is None:
        return None
    ranking = report.ranking
    cand, base = names(report)
    costs = th.costs
    unit = cost_unit(costs.unit)
    c, b = th.candidate, th.baseline
    rc, rb = (ranking.candidate, ranking.baseline) if ranking else (None, None)
    models = [
        _model_row(_("{model} (candidate)", model=cand), c, rc),
        _model_row(_("{model} (baseline)", model=base), b, rb),
    ]
    facts = [
        # the unit is said once, in the note above these facts: it may carry its own brackets
        Row(_("cost of a false positive"), cost(costs.false_positive)),
        Row(_("cost of a false negative"), cost(costs.false_negative)),
        Row(_("theoretical cutoff c_FP / (c_FP + c_FN)"), prob(th.theoretical_cutoff)),
    ]
    if costs.cases_per_period is not None:
        facts.append(
            Row(
                _("cases per {period}", period=costs.period)
                if costs.period
                else _("cases per period"),
                count(costs.cases_per_period),
            )
        )
    is_cv = c.cv is not None and b.cv is not None
    not_measured, undefined = _("not measured"), _("undefined")
    figure = chart_figure(
        charts,
        "threshold_cost",
        (
            _cost_caption(c, b, cand, base, unit)
            if is_cv
            else _(
                "Validation cost per case, in {unit}, as the threshold moves; the diamonds mark "
                "each model's chosen threshold and the dashed line the theoretical cutoff. Look "
                "at how flat the curves are near their minimum: a flat minimum makes the choice "
                "robust.",
                unit=cost_unit(th.costs.unit),
            )
        )
        + _cut_sentence(th),
        _(
            "Line chart of validation cost against threshold. {candidate} chooses "
            "{candidate_threshold} (validation cost {candidate_cost}), {baseline} chooses "
            "{baseline_threshold} (validation cost {baseline_cost}); theoretical cutoff "
            "{cutoff}.",
            candidate=cand,
            candidate_threshold=_threshold_text(c.threshold),
            candidate_cost=said(cost(c.validation_cost), not_measured),
            baseline=base,
            baseline_threshold=_threshold_text(b.threshold),
            baseline_cost=said(cost(b.validation_cost), not_measured),
            cutoff=prob(th.theoretical_cutoff),
        ),
    )
    rc_auc, rb_auc = (rc.roc_auc if rc else None), (rb.roc_auc if rb else None)
    rc_ap = rc.average_precision if rc else None
    rb_ap = rb.average_precision if rb else None
    ranking_fig = chart_figure(
        charts,
        "ranking",
        _ranking_caption(rc, rb, cand, base)
        if is_cv and rc is not None and rb is not None
        else _(
            "ROC (left) and precision-recall (right) on test. ROC AUC {candidate} "
            "{candidate_auc}, {baseline} {baseline_auc}; average precision {candidate} "
            "{candidate_ap}, {baseline} {baseline_ap}. Look at where the curves separate: that "
            "is where the choice of threshold matters.",
            candidate=cand,
            baseline=base,
            candidate_auc=said(prob(rc_auc), undefined),
            baseline_auc=said(prob(rb_auc), undefined),
            candidate_ap=said(prob(rc_ap), undefined),
            baseline_ap=said(prob(rb_ap), undefined),
        ),
        _(
            "ROC and precision-recall curves for {candidate} and {baseline}, with the chance "
            "diagonal and the positive rate as the precision baseline.",
            candidate=cand,
            baseline=base,
        ),
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
        _("Confusion matrices out of fold at the chosen thresholds")
        if is_cv
        else _("Confusion matrices on test at the chosen thresholds"),
        # TRANSLATORS: the part in the column head "{part} cost / case"
        p_("cost column", "Out-of-fold") if is_cv else p_("cost column", "Test"),
        _("Mean over repeats") if is_cv else _("Mean test cost, all seeds"),
        not is_cv,
        _("median fold threshold") if is_cv else _("threshold"),
    )


def spread(o: OverRepeats, fmt: Callable[[float | None], str]) -> str:
    """A figure over repeats as printed: its mean and the sd across repeats."""
    if o.mean is None:
        return DASH
    if o.sd is None:
        return fmt(o.mean)
    return _(
        "{mean} (sd {sd} across {repeats})",
        mean=fmt(o.mean),
        sd=fmt(o.sd),
        repeats=count_noun(o.repeats, "repeat"),
    )


def _cv_note(th: Threshold, cand: str, base: str) -> str:
    """What a cv design's threshold figures rest on: the representative repeat, the sets."""
    c, b = th.candidate, th.baseline
    assert c.cv is not None and b.cv is not None  # the caller checked
    return _(
        "Each row is scored once per repeat by the network that did not train on it. Cost per "
        "case, mean over repeats: {candidate} {candidate_cost}, {baseline} {baseline_cost}. "
        "Matrices and curves are one typical out-of-fold set per model (seed {candidate_seed} "
        "of {candidate_sets}, seed {baseline_seed} of {baseline_sets}: the median out-of-fold "
        "score), its threshold the median of its fold thresholds; the bands span every set.",
        candidate=cand,
        candidate_cost=spread(c.cv.cost, cost),
        baseline=base,
        baseline_cost=spread(b.cv.cost, cost),
        candidate_seed=str(c.seed),
        candidate_sets=count_noun(c.cv.sets, "set"),
        baseline_seed=str(b.seed),
        baseline_sets=count_noun(b.cv.sets, "set"),
    )


def _cut_sentence(th: Threshold) -> str:
    """The cost chart's caption says where its axis is cut, when a spike made the chart cut
    it (charts/classification.py threshold_cost reads the same stats.threshold.cost_axis)."""
    axis = cost_axis(
        [
            (m.curve.threshold, m.curve.cost, m.threshold)
            for m in (th.candidate, th.baseline)
            if m.curve is not None
        ]
    )
    if axis is None or not axis.cut:
        return ""
    return " " + _(
        "The cost axis is cut at {top} so that the costs round the minimum can be read; the "
        "curve rises to {peak} at threshold {threshold}.",
        top=cost(axis.top),
        peak=cost(axis.peak),
        threshold=prob(min(axis.peak_at, 1.0)),
    )


def _cost_caption(c: ThresholdModel, b: ThresholdModel, cand: str, base: str, unit: str) -> str:
    return _(
        "Out-of-fold cost per case, in {unit}, as the threshold moves, on one typical repeat's "
        "rows; the diamonds mark the median of its fold thresholds (each chosen on the other "
        "folds) and the dashed line the theoretical cutoff. Look at how flat the curves are "
        "near their minimum: a flat minimum makes the choice robust.",
        unit=unit,
    )


def _ranking_caption(rc: RankingModel, rb: RankingModel, cand: str, base: str) -> str:
    assert rc.cv is not None and rb.cv is not None  # the caller checked
    return _(
        "ROC (left) and precision-recall (right) out of fold, one typical repeat drawn, the "
        "bands spanning every repeat. ROC AUC, mean over repeats: {candidate} {candidate_auc}, "
        "{baseline} {baseline_auc}; average precision {candidate} {candidate_ap}, {baseline} "
        "{baseline_ap}. Look at where the curves separate: that is where the choice of "
        "threshold matters.",
        candidate=cand,
        baseline=base,
        candidate_auc=spread(rc.cv.roc_auc, prob),
        baseline_auc=spread(rb.cv.roc_auc, prob),
        candidate_ap=spread(rc.cv.average_precision, prob),
        baseline_ap=spread(rb.cv.average_precision, prob),
    )


def count_repeats(n: int, unit: str) -> str:
    """A count of one model's repeats as a caption says it: "5 trained networks", "5
    evaluation runs"."""
    if unit == "run":
        return n_("{n} evaluation run", "{n} evaluation runs", n)
    return n_("{n} trained network", "{n} trained networks", n)


def _seed_note(report: Report, th: Threshold, ranking: Ranking | None, cand: str, base: str) -> str:
    """Which seed of each model the threshold, confusion and curves are for, and why (in the
    words of [evaluation] repeats: networks, or evaluation runs)."""
    words = repeat_words(report.project.repeats)
    c, b = th.candidate, th.baseline
    fields = {
        "candidate": cand,
        "candidate_seed": str(c.seed),
        "candidate_count": count_repeats(len(c.per_seed), words.unit),
        "baseline": base,
        "baseline_seed": str(b.seed),
        "baseline_count": count_repeats(len(b.per_seed), words.unit),
    }
    if words.unit == "run":
        text = _(
            "The threshold, the confusion matrices and the curves are for {candidate} seed "
            "{candidate_seed} of {candidate_count} and {baseline} seed {baseline_seed} of "
            "{baseline_count}: each model's run with the median validation score, a typical run "
            "rather than the best, chosen without looking at test.",
            **fields,
        )
    else:
        text = _(
            "The threshold, the confusion matrices and the curves are for {candidate} seed "
            "{candidate_seed} of {candidate_count} and {baseline} seed {baseline_seed} of "
            "{baseline_count}: each model's network with the median validation score, a "
            "typical network rather than the best, chosen without looking at test.",
            **fields,
        )
    bands = ranking is not None and bool(ranking.candidate.roc_band or ranking.baseline.roc_band)
    if not bands:
        return text
    if words.unit == "run":
        return text + _(
            " The shaded bands of the ROC and precision-recall curves span all its runs."
        )
    return text + _(
        " The shaded bands of the ROC and precision-recall curves span all its networks."
    )


def _threshold_text(t: float | None) -> str:
    if t is None:
        return DASH
    if t > 1.0:
        return _("none (predict no positives)")
    return prob(t)
