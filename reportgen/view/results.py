"""Results at a glance: each model's own figures per part and metric (report.json ``results``)
and the gap's primary interval, once."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.results import ResultRow
from reportgen.view.parts import ids, in_words, names
from reportgen.words import confidence, gap_with_interval, metric_unit
from reportgen.words.cells import count, metric, metric_interval, spread
from reportgen.words.repeats import repeat_words

#: each metric's name in the table; another (the user's own column) reads with spaces
LABELS = {
    "log_loss": "log loss",
    "accuracy": "accuracy",
    "error_rate": "error rate",
    "brier": "Brier score",
    "cost": "cost",
    "squared_error": "MSE",
    "rmse": "RMSE",
    "absolute_error": "MAE",
    "macro_f1": "macro F1",
}
#: the power of the target's unit each regression metric is in
POWERS = {"squared_error": 2, "rmse": 1, "absolute_error": 1}
#: each part's heading in the table
PARTS = {
    "test": "Test",
    "validation": "Validation",
    "cv": "Cross-validation folds",
    "general": "General set",
}


@dataclass(frozen=True)
class ResultLine:
    """One model's figure on one metric: a row of the table."""

    metric: str
    model: str
    mean: str
    sd: str
    interval: str
    networks: str


@dataclass(frozen=True)
class ResultPart:
    """One part's rows, its heading (with its rows) and the basis of its figures."""

    title: str
    lines: list[ResultLine]
    #: over what the figures are taken, one line per distinct basis: "Test, log loss and
    #: accuracy: mean over the model's networks, ..."
    basis: list[str]


@dataclass(frozen=True)
class ResultsView:
    """partials/_results.html: the results at a glance."""

    parts: list[ResultPart]
    #: the interval column's heading: "95% interval"
    interval_head: str
    #: the sd column's heading: "Seed sd" (retrained networks) or "Run sd" (evaluation runs)
    sd_head: str
    #: the count column's heading: "Networks" or "Runs" (words/repeats.py's unit)
    count_head: str
    #: the gap with its primary interval, once; None without one
    gap: str | None


def _label(report: Report, name: str) -> str:
    label = LABELS.get(name, name.replace("_", " "))
    unit = report.project.unit
    if name in POWERS and unit:
        shown = metric_unit(unit, power=POWERS[name])
        if shown:
            return f"{label}, {shown}"
    return label


def _part(report: Report, part: str, rows: list[ResultRow]) -> ResultPart:
    shown = dict(zip(ids(report), names(report), strict=True))
    counted = {r.rows for r in rows if r.rows is not None}
    name = PARTS.get(part, part)
    title = f"{name} · {count(counted.pop())} rows" if len(counted) == 1 else name
    lines = [
        ResultLine(
            metric=_label(report, r.metric),
            model=shown.get(r.model, r.model),
            mean=metric(r.mean),
            sd=spread(r.sd),
            interval=metric_interval(r.low, r.high, r.mean),
            networks=count(r.networks),
        )
        for r in rows
    ]
    bases: dict[str, list[str]] = {}
    for r in rows:
        label = _label(report, r.metric)
        said = bases.setdefault(r.basis, [])
        if label not in said:
            said.append(label)
    basis = [f"{name}, {_listed(labels)}: {in_words(b, report)}" for b, labels in bases.items()]
    return ResultPart(title=title, lines=lines, basis=basis)


def _listed(labels: list[str]) -> str:
    """ "log loss", "log loss and accuracy", "MSE, MAE and RMSE"."""
    return labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"


def _gap(report: Report) -> str | None:
    """The gap with its primary interval, in one sentence."""
    iv = report.noise.interval
    if iv is None:
        return None
    cand, _ = names(report)
    where = f"{iv.part.capitalize()} gap" if iv.part else "Gap"
    conf = confidence(report.build.confidence)
    return (
        f"{where} (positive: {cand} is better): {gap_with_interval(iv.gap, iv.low, iv.high)}, "
        f"a {conf} interval over {iv.what}: the primary interval, the one the ladder rests on."
    )


def results_view(report: Report) -> ResultsView | None:
    """The table of each model's own figures, part by part; None without any."""
    if not report.results:
        return None
    unit = repeat_words(report.project.repeats).unit
    parts: dict[str, list[ResultRow]] = {}
    for r in report.results:
        parts.setdefault(r.part, []).append(r)
    return ResultsView(
        parts=[_part(report, p, rows) for p, rows in parts.items()],
        interval_head=f"{confidence(report.build.confidence)} interval",
        sd_head="Seed sd" if unit == "network" else f"{unit.capitalize()} sd",
        count_head=f"{unit.capitalize()}s",
        gap=_gap(report),
    )
