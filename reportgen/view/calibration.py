"""Calibration: reliability per bin and the summary scores."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from reportgen.view.format import count, num
from reportgen.view.parts import Figure, Row, chart_figure, names


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


def calibration_view(report: dict, charts: Collection[str]) -> CalibrationView | None:
    cal = report.get("calibration")
    if not cal:
        return None
    cand, base = names(report)
    c, b = cal.get("candidate") or {}, cal.get("baseline") or {}
    summary = [
        Row(f"{cand} ECE / Brier", f"{num(c.get('ece'))} / {num(c.get('brier'))}"),
        Row(f"{base} ECE / Brier", f"{num(b.get('ece'))} / {num(b.get('brier'))}"),
        Row("bins", count(cal.get("bins"))),
    ]
    bins = []
    cb, bb = c.get("bins") or [], b.get("bins") or []
    for i in range(max(len(cb), len(bb))):
        x = cb[i] if i < len(cb) else {}
        y = bb[i] if i < len(bb) else {}
        edge = x or y
        bins.append(
            BinRow(
                bin=f"{num(edge.get('low'), 2)}–{num(edge.get('high'), 2)}",
                candidate_count=count(x.get("count")),
                candidate_mean_p=num(x.get("mean_p"), 3),
                candidate_observed=num(x.get("fraction_positive"), 3),
                baseline_count=count(y.get("count")),
                baseline_mean_p=num(y.get("mean_p"), 3),
                baseline_observed=num(y.get("fraction_positive"), 3),
            )
        )
    empty = sum(1 for x in cb + bb if not x.get("count"))
    figure = chart_figure(
        charts,
        "reliability",
        f"Reliability diagram on test: observed positive fraction against mean predicted "
        f"probability per bin; the dashed diagonal is perfect calibration. ECE {cand} "
        f"{num(c.get('ece'))}, {base} {num(b.get('ece'))}; Brier {cand} {num(c.get('brier'))}, "
        f"{base} {num(b.get('brier'))}. The bars below give the rows in each bin: look for "
        "departures from the diagonal where the bars are tall."
        + (f" {empty} empty bins are not drawn." if empty else ""),
        f"Reliability diagram for {cand} and {base} with bin counts; ECE {num(c.get('ece'))} "
        f"and {num(b.get('ece'))}.",
    )
    return CalibrationView(figure, summary, bins)
