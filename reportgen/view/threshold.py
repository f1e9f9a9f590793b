"""Threshold, cost and ranking: chosen thresholds, confusion matrices, ROC and PR."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.ranking import Ranking, RankingModel
from reportgen.model.threshold import Threshold, ThresholdModel
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


def _rule_text(rule: str | float) -> str:
    """How the thresholds were chosen: on validation cost, or one fixed threshold."""
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
    figure = chart_figure(
        charts,
        "threshold_cost",
        f"Validation cost per case, in {th.costs.unit or 'cost units'}, as the threshold "
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
        f"ROC (left) and precision-recall (right) on test. ROC AUC {cand} "
        f"{said(prob(rc_auc), 'undefined')}, {base} "
        f"{said(prob(rb_auc), 'undefined')}; average precision "
        f"{cand} {said(prob(rc_ap), 'undefined')}, {base} "
        f"{said(prob(rb_ap), 'undefined')}. Look at where the curves separate: that is "
        "where the choice of threshold matters.",
        f"ROC and precision-recall curves for {cand} and {base}, with the chance diagonal and "
        "the positive rate as the precision baseline.",
    )
    note = _seed_note(report, th, ranking, cand, base)
    return ThresholdView(figure, ranking_fig, models, facts, unit, _rule_text(th.rule), note)


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
