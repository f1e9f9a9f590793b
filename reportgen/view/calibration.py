"""Calibration: reliability per bin and the summary scores."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.stats.calibration import MIN_JOINED
from reportgen.view.parts import Figure, Row, chart_figure, names
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


def _bin_cells(b: dict) -> tuple[str, str, str]:
    """One model's count, mean p and observed fraction in a bin (BinRow's order)."""
    return count(b.get("count")), prob(b.get("mean_p")), prob(b.get("fraction_positive"))


def calibration_view(report: dict, charts: Collection[str]) -> CalibrationView | None:
    cal = report.get("calibration")
    if not cal:
        return None
    cand, base = names(report)
    c, b = cal.get("candidate") or {}, cal.get("baseline") or {}
    summary = [
        Row(f"{cand} ECE / Brier", f"{metric(c.get('ece'))} / {metric(c.get('brier'))}"),
        Row(f"{base} ECE / Brier", f"{metric(b.get('ece'))} / {metric(b.get('brier'))}"),
        Row("bins", count(cal.get("bins"))),
    ]
    bins = []
    cb, bb = c.get("bins") or [], b.get("bins") or []
    for i in range(max(len(cb), len(bb))):
        x = cb[i] if i < len(cb) else {}
        y = bb[i] if i < len(bb) else {}
        edge = x or y
        span = f"{fixed(edge.get('low'), 2)}–{fixed(edge.get('high'), 2)}"
        bins.append(BinRow(span, *_bin_cells(x), *_bin_cells(y)))
    empty = sum(1 for x in cb + bb if not x.get("count"))
    ece = f"ECE {cand} {metric(c.get('ece'))}, {base} {metric(b.get('ece'))}"
    # the per-bin interval is at the rule's confidence (0.95 in reports that predate it)
    level = confidence((report.get("build") or {}).get("confidence") or 0.95)
    figure = chart_figure(
        charts,
        "reliability",
        "Reliability diagram on test: observed positive fraction against mean predicted "
        "probability per bin; the dashed diagonal is perfect calibration. The larger the "
        f"point, the more rows in the bin; the vertical line is the bin's {level} interval, and "
        f"bins with fewer than {MIN_JOINED} rows are hollow and the line does not cross them: their observed "
        f"fraction is too uncertain to read. {ece}; Brier {cand} {metric(c.get('brier'))}, "
        f"{base} {metric(b.get('brier'))}. Look for departures from the diagonal where the "
        "points are large." + (f" {count_noun(empty, 'empty bin')} not drawn." if empty else ""),
        f"Reliability diagram for {cand} and {base} with bin counts; {ece}.",
    )
    return CalibrationView(figure, summary, bins)
