"""What the task changes on the page: the descriptions (metrics that are not a mean of per-row
values) and the one line that says why a binary-only section is absent."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.common import IntPair
from reportgen.model.enums import Task
from reportgen.view.parts import Row, names
from reportgen.words import blocks_phrase, confidence, count_noun, gap_decimals
from reportgen.words.cells import interval, prob, with_sign

#: why the binary sections are absent, by task (binary keeps its own words)
THRESHOLD_ABSENT: dict[Task | None, str] = {
    Task.MULTICLASS: "No threshold, cost or ranking section: a multi-class model predicts the most "
    "probable class, so there is no decision threshold to choose (the multi-class section shows "
    "its confusion matrix).",
    Task.REGRESSION: "No threshold, cost or ranking section: a regression model predicts numbers, "
    "with no decision threshold (the regression section shows its errors).",
    None: "Not computed: the project has no per-row predictions with y and p, so there is no "
    "threshold, cost, ROC or precision-recall to show.",
}
CALIBRATION_ABSENT: dict[Task | None, str] = {
    Task.MULTICLASS: "The calibration of a multi-class model is in the multi-class section: "
    "top-label and classwise.",
    Task.REGRESSION: "No calibration section: a regression model predicts numbers, not "
    "probabilities (the regression section plots predicted against actual).",
    None: "Not computed: no per-row predicted probabilities.",
}


@dataclass(frozen=True)
class AbsentView:
    """The one line each of the threshold and calibration sections prints when it is absent."""

    threshold: str
    calibration: str


def absent_view(report: Report) -> AbsentView:
    """Why the threshold and calibration sections are absent, in the words of the task."""
    task = report.project.task
    key = task if task in (Task.MULTICLASS, Task.REGRESSION) else None
    return AbsentView(THRESHOLD_ABSENT[key], CALIBRATION_ABSENT[key])


def _networks(nets: IntPair) -> str:
    """Whose mean a description's value is: each model's networks (the tables beside it show
    one representative network)."""
    c, b = nets.candidate, nets.baseline
    if c and c == b:
        return f"each the mean over the model's {count_noun(c, 'network')}"
    return "each the mean over the model's networks"


def description_rows(report: Report) -> list[Row]:
    """One row per description: each model's value and the gap with its block-bootstrap interval."""
    cand, base = names(report)
    rows = []
    for d in report.descriptions or ():
        if d.candidate is None or d.baseline is None:
            rows.append(Row(d.label, f"not computed: {d.reason or 'undefined'}"))
            continue
        text = f"{cand} {prob(d.candidate)}, {base} {prob(d.baseline)} ({_networks(d.networks)})"
        if d.low is not None:
            digits = gap_decimals(d.gap, d.low, d.high)
            text += (
                f"; gap {with_sign(d.gap, digits)}, {confidence(d.confidence)} block "
                f"bootstrap {interval(d.low, d.high, digits=digits)} over "
                f"{blocks_phrase(d.blocks, d.block_column)} "
                f"({count_noun(d.resamples, 'resample')})"
            )
        else:
            text += f"; gap {with_sign(d.gap, 3)}, no interval ({d.reason})"
        rows.append(Row(f"{d.label} (a description, not the claim's metric)", text))
    return rows
