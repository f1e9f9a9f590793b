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
    #: the diagram prints smaller (a cv design: its threshold pages hold one more figure)
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
        Row(f"{cand} ECE / Brier", f"{metric(c.ece)} / {metric(c.brier)}"),
        Row(f"{base} ECE / Brier", f"{metric(b.ece)} / {metric(b.brier)}"),
        Row("bins", count(cal.bins)),
    ]
    if c.cv is not None and b.cv is not None:
        summary = [
            Row(f"{cand} ECE, mean over repeats", spread(c.cv.ece, metric)),
            Row(f"{cand} Brier", spread(c.cv.brier, metric)),
            Row(f"{base} ECE, mean over repeats", spread(b.cv.ece, metric)),
            Row(f"{base} Brier", spread(b.cv.brier, metric)),
            Row("bins", count(cal.bins)),
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
    ece = f"ECE {cand} {metric(c.ece)}, {base} {metric(b.ece)}"
    level = confidence(report.build.confidence)
    figure = chart_figure(
        charts,
        "reliability",
        "Reliability diagram out of fold, one typical repeat drawn: observed positive fraction "
        "against mean predicted probability per bin; the dashed diagonal is perfect "
        "calibration, the vertical line spans the bin's observed fraction over every repeat, "
        "and the bars under it count the drawn repeat's rows. Bins with fewer than "
        f"{MIN_JOINED} rows are hollow and the line does not cross them. Look for departures "
        "from the diagonal where the bars are tall."
        + (f" {count_noun(empty, 'empty bin')} not drawn." if empty else "")
        if is_cv
        else "Reliability diagram on test: observed positive fraction against mean predicted "
        "probability per bin; the dashed diagonal is perfect calibration, the vertical line "
        f"is the bin's {level} interval, and the bars under it count each bin's rows. Bins "
        f"with fewer than {MIN_JOINED} rows are hollow and the line does not cross them: their "
        "observed fraction is too uncertain to read. Look for departures from the diagonal "
        "where the bars are tall."
        + (f" {count_noun(empty, 'empty bin')} not drawn." if empty else ""),
        f"Reliability diagram for {cand} and {base} with bin counts; {ece}.",
    )
    return CalibrationView(figure, summary, bins, is_cv)
