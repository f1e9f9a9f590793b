"""Threshold, cost and ranking: chosen thresholds, confusion matrices, ROC and PR."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

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


#: ModelThreshold fields printed as report.json's threshold.<role> key of the same name
_FORMATTED = {
    "validation_cost": cost,
    "test_cost": cost,
    "mean_test_cost": cost,
    "precision": prob,
    "recall": prob,
    "fpr": prob,
}
#: report.json's threshold.<role> key of a field whose name differs
_KEYS = {"fpr": "false_positive_rate"}


def threshold_view(report: dict, charts: Collection[str]) -> ThresholdView | None:
    th = report.get("threshold")
    if not th:
        return None
    ranking = report.get("ranking") or {}
    cand, base = names(report)
    costs = th.get("costs") or {}
    unit = str(costs.get("unit") or "cost units")
    models = []
    for role, name in (("candidate", cand), ("baseline", base)):
        m = th.get(role) or {}
        rk = ranking.get(role) or {}
        cm = m.get("confusion") or [[None, None], [None, None]]
        (tn, fp), (fn, tp) = cm
        models.append(
            ModelThreshold(
                model=f"{name} ({role})",
                seed=DASH if m.get("seed") is None else str(m["seed"]),
                threshold=_threshold_text(m.get("threshold")),
                **{key: form(m.get(_KEYS.get(key, key))) for key, form in _FORMATTED.items()},
                tn=count(tn),
                fp=count(fp),
                fn=count(fn),
                tp=count(tp),
                auc=prob(rk.get("roc_auc")),
                ap=prob(rk.get("average_precision")),
            )
        )
    facts = [
        # the unit is said once, in the note above these facts: it may carry its own brackets
        Row("cost of a false positive", cost(costs.get("false_positive"))),
        Row("cost of a false negative", cost(costs.get("false_negative"))),
        Row("theoretical cutoff c_FP / (c_FP + c_FN)", prob(th.get("theoretical_cutoff"))),
    ]
    if costs.get("cases_per_period") is not None:
        facts.append(
            Row(f"cases per {costs.get('period') or 'period'}", count(costs["cases_per_period"]))
        )
    rule = th.get("rule")
    rule_text = (
        "each model picks its own threshold on its validation rows (minimum cost)"
        if rule == "validation-cost"
        else f"fixed threshold {prob(rule)}"
        if isinstance(rule, int | float)
        else DASH
    )
    c, b = th.get("candidate") or {}, th.get("baseline") or {}
    figure = chart_figure(
        charts,
        "threshold_cost",
        "Validation cost per case as the threshold moves; the diamonds mark each model's "
        "chosen threshold and the dashed line the theoretical cutoff. Look at how flat the "
        "curves are near their minimum: a flat minimum makes the choice robust.",
        f"Line chart of validation cost against threshold. {cand} chooses "
        f"{_threshold_text(c.get('threshold'))} (validation cost "
        f"{said(cost(c.get('validation_cost')), 'not measured')}), "
        f"{base} chooses {_threshold_text(b.get('threshold'))} "
        f"(validation cost {said(cost(b.get('validation_cost')), 'not measured')}); theoretical cutoff "
        f"{prob(th.get('theoretical_cutoff'))}.",
    )
    rc, rb = ranking.get("candidate") or {}, ranking.get("baseline") or {}
    ranking_fig = chart_figure(
        charts,
        "ranking",
        f"ROC (left) and precision-recall (right) on test. ROC AUC {cand} "
        f"{said(prob(rc.get('roc_auc')), 'undefined')}, {base} "
        f"{said(prob(rb.get('roc_auc')), 'undefined')}; average precision "
        f"{cand} {said(prob(rc.get('average_precision')), 'undefined')}, {base} "
        f"{said(prob(rb.get('average_precision')), 'undefined')}. Look at where the curves separate: that is "
        "where the choice of threshold matters.",
        f"ROC and precision-recall curves for {cand} and {base}, with the chance diagonal and "
        "the positive rate as the precision baseline.",
    )
    return ThresholdView(
        figure, ranking_fig, models, facts, unit, rule_text, _seed_note(report, cand, base)
    )


def _seed_note(report: dict, cand: str, base: str) -> str:
    """Which seed of each model the threshold, confusion and curves are for, and why (in the
    words of [evaluation] repeats: networks, or evaluation runs)."""
    words = repeat_words(report["project"].get("repeats"))
    th = report.get("threshold") or {}
    c, b = th.get("candidate") or {}, th.get("baseline") or {}
    seeds = {
        who: count_noun(len(m.get("per_seed") or []), words.one) for who, m in (("c", c), ("b", b))
    }
    which = (
        f"{cand} seed {c.get('seed')} of {seeds['c']} and {base} seed {b.get('seed')} of "
        f"{seeds['b']}"
        if c.get("seed") is not None and b.get("seed") is not None
        else f"one {words.unit} per model"
    )
    bands = any(
        (report.get("ranking") or {}).get(role, {}).get("roc_band")
        for role in ("candidate", "baseline")
    )
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
