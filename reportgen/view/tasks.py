"""What the task changes on the page: the descriptions (metrics that are not a mean of per-row
values) and the one line that says why a binary-only section is absent."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.common import IntPair
from reportgen.model.enums import Task
from reportgen.view.parts import Row, ids, names
from reportgen.view.results import labels
from reportgen.words import blocks_phrase, confidence, count_noun, gap_decimals
from reportgen.words.cells import interval, metric, prob, with_sign
from reportgen.words.i18n import _


def threshold_absent(task: Task | None) -> str:
    """Why the threshold section is absent, by task (binary keeps its own words)."""
    if task == Task.MULTICLASS:
        return _(
            "No threshold, cost or ranking section: a multi-class model predicts the most "
            "probable class, so there is no decision threshold to choose (the multi-class "
            "section shows its confusion matrix)."
        )
    if task == Task.REGRESSION:
        return _(
            "No threshold, cost or ranking section: a regression model predicts numbers, with "
            "no decision threshold (the regression section shows its errors)."
        )
    return _(
        "Not computed: the project has no per-row predictions with y and p, so there is no "
        "threshold, cost, ROC or precision-recall to show."
    )


def calibration_absent(task: Task | None) -> str:
    """Why the calibration section is absent, by task."""
    if task == Task.MULTICLASS:
        return _(
            "The calibration of a multi-class model is in the multi-class section: top-label "
            "and classwise."
        )
    if task == Task.REGRESSION:
        return _(
            "No calibration section: a regression model predicts numbers, not probabilities "
            "(the regression section plots predicted against actual)."
        )
    return _("Not computed: no per-row predicted probabilities.")


@dataclass(frozen=True)
class AbsentView:
    """The one line each of the threshold and calibration sections prints when it is absent."""

    threshold: str
    calibration: str


def absent_view(report: Report) -> AbsentView:
    """Why the threshold and calibration sections are absent, in the words of the task."""
    task = report.project.task
    key = task if task in (Task.MULTICLASS, Task.REGRESSION) else None
    return AbsentView(threshold_absent(key), calibration_absent(key))


def mean_over_networks(nets: IntPair) -> str:
    """Whose mean a description's value is: each model's networks (the tables beside it show
    one representative network)."""
    c, b = nets.candidate, nets.baseline
    if c and c == b:
        return _("each the mean over the model's {networks}", networks=count_noun(c, "network"))
    return _("each the mean over the model's networks")


def _tabled(report: Report, name: str, candidate: float, baseline: float) -> bool:
    """Results at a glance prints this description's two values (the same metric, the same
    means on test): then the description prints them with the table's digits (digits' macro F1
    0.9692 there and here, never 0.9692 on one page and 0.969 on another)."""
    cand_id, base_id = ids(report)
    means = {
        r.model: r.mean
        for r in report.results or ()
        if r.part == "test" and r.metric == name and r.mean is not None
    }
    return all(
        m in means and math.isclose(means[m], x, rel_tol=1e-12, abs_tol=1e-15)
        for m, x in ((cand_id, candidate), (base_id, baseline))
    )


def description_rows(report: Report) -> list[Row]:
    """One row per description: each model's value and the gap with its block-bootstrap interval."""
    cand, base = names(report)
    rows = []
    for d in report.descriptions or ():
        if d.candidate is None or d.baseline is None:
            rows.append(
                Row(d.label, _("not computed: {reason}", reason=d.reason or _("undefined")))
            )
            continue
        value = metric if _tabled(report, d.name, d.candidate, d.baseline) else prob
        text = _(
            "{candidate} {candidate_value}, {baseline} {baseline_value} ({networks})",
            candidate=cand,
            candidate_value=value(d.candidate),
            baseline=base,
            baseline_value=value(d.baseline),
            networks=mean_over_networks(d.networks),
        )
        if d.low is not None:
            digits = gap_decimals(d.gap, d.low, d.high)
            # TRANSLATORS: continues "mlp 0.912, gbm 0.905 (each the mean ...)"
            text += _(
                "; gap {gap}, {confidence} block bootstrap {interval} over {blocks} ({resamples})",
                gap=with_sign(d.gap, digits),
                confidence=confidence(d.confidence),
                interval=interval(d.low, d.high, digits=digits),
                blocks=blocks_phrase(d.blocks, d.block_column),
                resamples=count_noun(d.resamples, "resample"),
            )
        else:
            # TRANSLATORS: continues "mlp 0.912, gbm 0.905 (each the mean ...)"
            text += _(
                "; gap {gap}, no interval ({reason})", gap=with_sign(d.gap, 3), reason=d.reason
            )
        label = labels().get(d.name, d.label)  # "macro F1" in the report's language
        rows.append(Row(_("{label} (a description, not the claim's metric)", label=label), text))
    return rows
