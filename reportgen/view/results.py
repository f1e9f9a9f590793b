"""Results at a glance: each model's own figures per part and metric (report.json ``results``)
and the gap's primary interval, once."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.model import Report
from reportgen.model.enums import Kind
from reportgen.model.results import ResultRow
from reportgen.view.parts import ids, in_words, names
from reportgen.words import confidence, gap_with_interval, metric_unit
from reportgen.words.cells import count, metric, metric_interval, spread
from reportgen.words.i18n import _, n_, p_
from reportgen.words.repeats import repeat_words


def labels() -> dict[str, str]:
    """Each metric's name in the table; another (the user's own column) reads with spaces."""
    return {
        "log_loss": p_("metric", "log loss"),
        "accuracy": p_("metric", "accuracy"),
        "error_rate": p_("metric", "error rate"),
        "brier": p_("metric", "Brier score"),
        "cost": p_("metric", "cost"),
        "squared_error": "MSE",
        "rmse": "RMSE",
        "absolute_error": "MAE",
        "macro_f1": p_("metric", "macro F1"),
    }


#: the power of the target's unit each regression metric is in
POWERS = {"squared_error": 2, "rmse": 1, "absolute_error": 1}


def parts() -> dict[str, str]:
    """Each part's heading in the table."""
    return {
        "test": p_("results part", "Test"),
        "validation": p_("results part", "Validation"),
        "cv": p_("results part", "Cross-validation folds"),
        "general": p_("results part", "General set"),
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


def metric_label(report: Report, name: str) -> str:
    """A metric's name as the table prints it, with the target's unit for a regression metric."""
    label = labels().get(name, name.replace("_", " "))
    unit = report.project.unit
    if name in POWERS and unit:
        shown = metric_unit(unit, power=POWERS[name])
        if shown:
            return f"{label}, {shown}"
    return label


def _part(report: Report, part: str, rows: list[ResultRow]) -> ResultPart:
    shown = dict(zip(ids(report), names(report), strict=True))
    counted = {r.rows for r in rows if r.rows is not None}
    name = parts().get(part, part)
    title = name
    if len(counted) == 1:
        n = counted.pop()
        # a before/after project's rows are questions, as every other page of it says
        title = (
            n_(
                "{part} · {rows} questions",
                "{part} · {rows} questions",
                int(n or 0),
                part=name,
                rows=count(n),
            )
            if report.project.kind == Kind.BEFORE_AFTER
            else n_(
                "{part} · {rows} rows",
                "{part} · {rows} rows",
                int(n or 0),
                part=name,
                rows=count(n),
            )
        )
    lines = [
        ResultLine(
            metric=metric_label(report, r.metric),
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
        label = metric_label(report, r.metric)
        said = bases.setdefault(r.basis, [])
        if label not in said:
            said.append(label)
    basis = [
        _("{part}, {metrics}: {basis}", part=name, metrics=_listed(said), basis=in_words(b, report))
        for b, said in bases.items()
    ]
    return ResultPart(title=title, lines=lines, basis=basis)


def _listed(labels: list[str]) -> str:
    """ "log loss", "log loss and accuracy", "MSE, MAE and RMSE"."""
    if len(labels) == 1:
        return labels[0]
    return _("{first} and {last}", first=", ".join(labels[:-1]), last=labels[-1])


def _gap(report: Report) -> str | None:
    """The gap with its primary interval, in one sentence."""
    iv = report.noise.interval
    if iv is None:
        return None
    cand = names(report)[0]
    words = {
        "test": p_("gap of a part", "Test gap"),
        "validation": p_("gap of a part", "Validation gap"),
        "general": p_("gap of a part", "General gap"),
        "cross-validation": p_("gap of a part", "Cross-validation gap"),
    }
    if iv.part:
        where = words.get(iv.part) or _("{part} gap", part=iv.part.capitalize())
    else:
        where = _("Gap")
    return _(
        "{where} (positive: {candidate} is better): {gap}, a {confidence} interval over {what}: "
        "the primary interval, the one the ladder rests on.",
        where=where,
        candidate=cand,
        gap=gap_with_interval(iv.gap, iv.low, iv.high),
        confidence=confidence(report.build.confidence),
        what=iv.what,
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
        interval_head=_("{confidence} interval", confidence=confidence(report.build.confidence)),
        sd_head=_("Seed sd") if unit == "network" else _("Run sd"),
        count_head=_("Networks") if unit == "network" else _("Runs"),
        # a before/after project's section just below states the difference with its interval
        gap=None if report.project.kind == Kind.BEFORE_AFTER else _gap(report),
    )
