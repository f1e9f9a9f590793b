"""Calibration: reliability per bin and the summary scores."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.ranking import CalibrationBin
from reportgen.stats.calibration import MIN_JOINED
from reportgen.view.parts import Figure, Row, chart_figure, names
from reportgen.view.threshold import spread
from reportgen.words import count_noun
from reportgen.words.cells import confidence, count, fixed, metric, prob
from reportgen.words.i18n import _


@dataclass(frozen=True)
class BinRow:
    """One probability bin with both models' counts, mean p and observed fraction."""

    bin: str
    candidate_count: str
    candidate_mean_p: str
    candidate_observed: str
    baseline_count: str
    baseline_mean_p: str
    baseline_observed: str


@dataclass(frozen=True)
class CalibrationView:
    """partials/_calibration.html: reliability diagram, bins and summary scores."""

    figure: Figure | None
    summary: list[Row]
    bins: list[BinRow]
    #: a cross-validation design (the section's class; every binary report prints the diagram
    #: beside ROC/PR, templates/partials/_calibration.html)
    compact: bool = False


def _bin_cells(b: CalibrationBin | None) -> tuple[str, str, str]:
    """One model's count, mean p and observed fraction in a bin (BinRow's order); dashes
    where the model has no such bin."""
    if b is None:
        return count(None), prob(None), prob(None)
    return count(b.count), prob(b.mean_p), prob(b.fraction_positive)


def calibration_view(report: Report, charts: Collection[str]) -> CalibrationView | None:
    """Reliability per bin and the summary scores; None without y/p predictions."""
    cal = report.calibration
    if cal is None:
        return None
    cand, base = names(report)
    c, b = cal.candidate, cal.baseline
    is_cv = c.cv is not None and b.cv is not None
    summary = [
        Row(_("{model} ECE / Brier", model=cand), f"{metric(c.ece)} / {metric(c.brier)}"),
        Row(_("{model} ECE / Brier", model=base), f"{metric(b.ece)} / {metric(b.brier)}"),
        Row(_("bins"), count(cal.bins)),
    ]
    if c.cv is not None and b.cv is not None:
        summary = [
            Row(_("{model} ECE, mean over repeats", model=cand), spread(c.cv.ece, metric)),
            Row(_("{model} Brier", model=cand), spread(c.cv.brier, metric)),
            Row(_("{model} ECE, mean over repeats", model=base), spread(b.cv.ece, metric)),
            Row(_("{model} Brier", model=base), spread(b.cv.brier, metric)),
            Row(_("bins"), count(cal.bins)),
        ]
    bins = []
    cb, bb = c.bins, b.bins
    for i in range(max(len(cb), len(bb))):
        x = cb[i] if i < len(cb) else None
        y = bb[i] if i < len(bb) else None
        edge = x if x is not None else bb[i]
        span = f"{fixed(edge.low, 2)}–{fixed(edge.high, 2)}"
        bins.append(BinRow(span, *_bin_cells(x), *_bin_cells(y)))
    empty = sum(1 for x in cb + bb if not x.count)
    level = confidence(report.build.confidence)
    caption = (
        _(
            "Reliability diagram out of fold, one typical repeat drawn: observed positive "
            "fraction against mean predicted probability per bin; the dashed diagonal is perfect "
            "calibration, the vertical line spans the bin's observed fraction over every repeat, "
            "and the bars under it count the drawn repeat's rows. Bins with fewer than {rows} "
            "rows are hollow and the line does not cross them. Look for departures from the "
            "diagonal where the bars are tall.",
            rows=count(MIN_JOINED),
        )
        if is_cv
        else _(
            "Reliability diagram on test: observed positive fraction against mean predicted "
            "probability per bin; the dashed diagonal is perfect calibration, the vertical line "
            "is the bin's {level} interval, and the bars under it count each bin's rows. Bins "
            "with fewer than {rows} rows are hollow and the line does not cross them: their "
            "observed fraction is too uncertain to read. Look for departures from the diagonal "
            "where the bars are tall.",
            level=level,
            rows=count(MIN_JOINED),
        )
    )
    if empty:
        caption += _(" {bins} not drawn.", bins=count_noun(empty, "empty bin"))
    figure = chart_figure(
        charts,
        "reliability",
        caption,
        _(
            "Reliability diagram for {candidate} and {baseline} with bin counts; ECE {candidate} "
            "{candidate_ece}, {baseline} {baseline_ece}.",
            candidate=cand,
            baseline=base,
            candidate_ece=metric(c.ece),
            baseline_ece=metric(b.ece),
        ),
    )
    return CalibrationView(figure, summary, bins, is_cv)
