"""report.json ``results``: each model's own figures per part and metric, the "results at a
glance" table (docs/methods.md, "Results at a glance"). The claim's metric and its task's
companions, every figure of a part on one basis: the rows every network of both models
scored (the gap's rows), each network's own threshold, the mean over a model's networks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from reportgen.checks.evaluation import EvalData, build_eval, positions
from reportgen.checks.present import required
from reportgen.checks.select import ModelRuns, row_metric
from reportgen.model.results import Part, ResultRow
from reportgen.project import Project
from reportgen.project.predictions import Predictions
from reportgen.stats import multiclass as mc
from reportgen.stats import regression as rg
from reportgen.stats._util import FloatArray
from reportgen.stats.metrics import per_row_metric
from reportgen.stats.own import (
    WILSON,
    Measured,
    OwnFigure,
    block_figures,
    mean_stats,
    root_row_mean,
    row_mean,
)
from reportgen.words import blocks_phrase, confidence, count_noun
from reportgen.words.i18n import _
from reportgen.words.repeats import repeat_words

#: each predictions kind's companions of the claim's metric, in the table's order
COMPANIONS = {
    "binary": ("log_loss", "accuracy"),
    "multiclass": ("accuracy", "macro_f1"),
    "regression": ("squared_error", "rmse", "absolute_error"),
    "correct": ("accuracy",),
}
#: the range of each built-in metric's values (and of the companions): an interval is clipped to it
RANGES: dict[str, tuple[float | None, float | None]] = {
    "accuracy": (0.0, 1.0),
    "error_rate": (0.0, 1.0),
    "macro_f1": (0.0, 1.0),
    "brier": (0.0, None),
    "log_loss": (0.0, None),
    "cost": (0.0, None),
    "squared_error": (0.0, None),
    "rmse": (0.0, None),
    "absolute_error": (0.0, None),
}
#: the companions that are not a mean of per-row values: their interval is the bootstrap alone
NOT_ROW_MEANS = frozenset({"macro_f1", "rmse"})
PART_WORDS = {"test": "test", "validation": "validation", "general": "general set"}

#: one network's per-block statistics of one metric: (network, its predictions, rows) -> (B, m)
Stats = Callable[["Net", EvalData], FloatArray]


@dataclass(frozen=True)
class Net:
    """One network on the part: its predictions, its threshold and its per-row claim metric
    on the evaluation rows (``ev.values``'s row)."""

    pred: Predictions
    threshold: float | None
    claim: FloatArray


def metrics(project: Project, kind: str) -> list[str]:
    """The claim's metric, then its companions that the predictions of ``kind`` allow."""
    out = [project.config.metric]
    out += [m for m in COMPANIONS.get(kind, ()) if m not in out]
    return out


def _block_stats(values: FloatArray, ev: EvalData) -> FloatArray:
    return mean_stats(values, ev.block_codes, len(ev.blocks))


def _per_row(name: str, net: Net, ev: EvalData) -> FloatArray:
    """A companion's per-row values of one network on the evaluation rows."""
    p, pos = net.pred, positions(ev, net.pred)
    if p.kind == "binary":
        threshold = 0.5 if net.threshold is None else net.threshold
        y, prob = required(p.y, "labels")[pos], required(p.p, "probabilities")[pos]
        return per_row_metric(name, y=y, p=prob, threshold=threshold)
    if p.kind == "multiclass":
        y, proba = required(p.y, "labels")[pos], required(p.proba, "probabilities")[pos]
        return mc.per_row_metric(name, y, proba)
    if p.kind == "regression":
        y, hat = required(p.y, "targets")[pos], required(p.y_pred, "predicted values")[pos]
        return rg.per_row_metric("squared_error" if name == "rmse" else name, y, hat)
    return per_row_metric(name, correct=required(p.correct, "correct")[pos])


def _confusions(net: Net, ev: EvalData) -> FloatArray:
    """(B, K*K) confusion counts per block of one multi-class network (actual, predicted)."""
    p, pos = net.pred, positions(ev, net.pred)
    proba = required(p.proba, "probabilities")
    k = proba.shape[1]
    y, hat = required(p.y, "labels")[pos], proba[pos].argmax(axis=1)
    n_blocks = len(ev.blocks)
    flat = np.bincount((ev.block_codes * k + y) * k + hat, minlength=n_blocks * k * k)
    return flat.reshape(n_blocks, k * k).astype(np.float64)


def _measured(project: Project, name: str, nets: list[Net], ev: EvalData) -> Measured:
    """One model's ``name`` on the evaluation rows, as block_figures takes it, with its range."""
    m = _measured_stats(project, name, nets, ev)
    lowest, highest = RANGES.get(name, (None, None)) if _builtin(project, name) else (None, None)
    return replace(m, lowest=lowest, highest=highest)


def _builtin(project: Project, name: str) -> bool:
    """``name`` is a built-in metric (or a companion), not the user's own column."""
    return name != project.config.metric or project.config.builtin_metric


def _measured_stats(project: Project, name: str, nets: list[Net], ev: EvalData) -> Measured:
    if name == project.config.metric:
        stats = np.stack([_block_stats(n.claim, ev) for n in nets])
        return Measured(stats, row_mean, True)
    if name == "macro_f1":
        k = required(nets[0].pred.proba, "probabilities").shape[1]

        def f1(s: FloatArray) -> FloatArray:
            lead = s.shape[:-1]
            return mc.macro_f1_batch(s.reshape(-1, k, k)).reshape(lead)

        return Measured(np.stack([_confusions(n, ev) for n in nets]), f1, False)
    stats = np.stack([_block_stats(_per_row(name, n, ev), ev) for n in nets])
    if name == "rmse":
        return Measured(stats, root_row_mean, False)
    return Measured(stats, row_mean, True)


def _interval_words(method: str | None, name: str, ev: EvalData, averaged: str) -> str:
    """How a row's interval was found, in words (``averaged``: the rows' averaging, "rows"
    for one network's rows, else the unit averaged over: "network", "run")."""
    where = blocks_phrase(len(ev.blocks), ev.block_column)
    if method is None:
        return _("none (fewer than 2 blocks, or the metric is undefined)")
    if method == WILSON:
        return _("the Wilson score interval over {where}", where=where)
    if name in NOT_ROW_MEANS:
        return _("a block bootstrap over {where} recomputing the metric on each draw", where=where)
    if averaged == "rows":
        return _(
            "over {where}, the wider of a block bootstrap and a ratio t on its rows", where=where
        )
    if averaged == "run":
        return _(
            "over {where}, the wider of a block bootstrap and a ratio t on the rows averaged "
            "over its runs",
            where=where,
        )
    return _(
        "over {where}, the wider of a block bootstrap and a ratio t on the rows averaged over "
        "its networks",
        where=where,
    )


def _basis(
    part: str, method: str | None, name: str, ev: EvalData, project: Project, networks: int
) -> str:
    """A row's basis: over what its mean, its sd and its interval are taken, in the words of
    the project's repeats (trained networks or evaluation runs) and its count of them."""
    unit = repeat_words(project.config.repeats).unit
    rows = count_noun(len(ev.row_ids), f"{PART_WORDS.get(part, part)} row")
    level = confidence(project.config.confidence)
    if networks == 1:
        fields = {"rows": rows, "level": level, "how": _interval_words(method, name, ev, "rows")}
        if unit == "run":
            return _(
                "the model's one run, on the {rows} both models scored; no sd with one run; "
                "{level} interval: {how}",
                **fields,
            )
        return _(
            "the model's one network, on the {rows} both models scored; no sd with one "
            "network; {level} interval: {how}",
            **fields,
        )
    fields = {"rows": rows, "level": level, "how": _interval_words(method, name, ev, unit)}
    if unit == "run":
        return _(
            "mean over the model's runs, each on the {rows} every run of both models scored; "
            "sd across the runs; {level} interval: {how}",
            **fields,
        )
    return _(
        "mean over the model's networks, each on the {rows} every network of both models "
        "scored; sd across the networks; {level} interval: {how}",
        **fields,
    )


def _logged_rows(project: Project, mrs: Sequence[ModelRuns], part: Part) -> list[ResultRow]:
    """A part without per-row predictions of both models: each model's logged values."""
    out = []
    for mr in mrs:
        _ids, vals = mr.seed_values(part)
        if not vals.size:
            continue
        out.append(
            ResultRow(
                model=mr.name,
                part=part,
                metric=project.config.metric,
                mean=float(vals.mean()),
                sd=float(np.std(vals, ddof=1)) if vals.size >= 2 else None,
                low=None,
                high=None,
                rows=None,
                networks=int(vals.size),
                basis=(
                    _(
                        "mean of the model's logged values (runs.csv) over its runs; sd across "
                        "them; no interval without per-row predictions"
                    )
                    if repeat_words(project.config.repeats).unit == "run"
                    else _(
                        "mean of the model's logged values (runs.csv) over its networks; sd "
                        "across them; no interval without per-row predictions"
                    )
                ),
            )
        )
    return out


def _nets(mr: ModelRuns, part: str, ev: EvalData) -> list[Net]:
    """The networks ``ev`` holds of one model, in its order, with their claim metric rows."""
    pairs = [(s, s.test_pred if part == "test" else s.val_pred) for s in mr.seeds]
    kept = [(s, p) for s, p in pairs if p is not None]
    values = ev.values[mr.role]
    return [Net(p, s.threshold, values[i]) for i, (s, p) in enumerate(kept)]


def part_rows(
    project: Project, mrs: Sequence[ModelRuns], part: Part, ev: EvalData | None
) -> list[ResultRow]:
    """The rows of one held-out part: every metric of both models on the evaluation rows."""
    if ev is None:
        return _logged_rows(project, mrs, part)
    nets = {mr.role: _nets(mr, part, ev) for mr in mrs}
    kind = nets[mrs[0].role][0].pred.kind
    kinds = {n.pred.kind for v in nets.values() for n in v}
    names = metrics(project, kind) if len(kinds) == 1 else [project.config.metric]
    if not project.config.builtin_metric and kind == "metric":
        names = [project.config.metric]
    entries = [(name, mr) for name in names for mr in mrs]
    cfg = project.config
    figures = block_figures(
        [_measured(project, name, nets[mr.role], ev) for name, mr in entries],
        resamples=cfg.resamples,
        confidence=cfg.confidence,
        rng=np.random.default_rng(cfg.random_seed),
    )
    return [
        result_row(
            mr.name,
            part,
            name,
            fig,
            len(ev.row_ids),
            _basis(part, fig.method, name, ev, project, len(nets[mr.role])),
        )
        for (name, mr), fig in zip(entries, figures, strict=True)
    ]


def result_row(
    model: str, part: Part, name: str, fig: OwnFigure, rows: int | None, basis: str
) -> ResultRow:
    """One row of ``results``: a model's figure on one part and metric, with its basis."""
    return ResultRow(
        model=model,
        part=part,
        metric=name,
        mean=fig.mean,
        sd=fig.sd,
        low=fig.low,
        high=fig.high,
        rows=rows,
        networks=fig.networks,
        basis=basis,
    )


def split_results(
    project: Project, cand: ModelRuns, base: ModelRuns, ev: EvalData | None
) -> list[ResultRow]:
    """``results`` of a held-out split: test (``ev``), then validation."""
    rows = part_rows(project, (cand, base), "test", ev) if _on(cand, base, "test") else []
    if _on(cand, base, "validation"):
        val = build_eval(project, cand, base, "validation")
        rows += part_rows(project, (cand, base), "validation", val)
    return rows


def _on(cand: ModelRuns, base: ModelRuns, part: str) -> bool:
    """Some network of either model has a value on ``part``."""
    return any(mr.seed_values(part)[1].size for mr in (cand, base))


def version_rows(
    project: Project,
    part: Part,
    split: str,
    versions: Sequence[tuple[str, Sequence[Predictions], float | None]],
) -> list[ResultRow]:
    """A before-after project's rows on one set: each version on the questions every file of
    both answered. A version evaluated once gets the Wilson interval (or the block interval
    with a block column); one evaluated several times (epochs) gets the mean of its runs, their
    sd, and the interval over questions (or blocks) of each question's mean over the runs, the
    questions as clusters (methods.md, Before and after with repeated evaluations). Logged
    values when a version has no per-question predictions."""
    cfg = project.config
    if any(not p for _name, p, _logged in versions):
        return [
            ResultRow(
                model=name,
                part=part,
                metric=cfg.metric,
                mean=logged,
                sd=None,
                low=None,
                high=None,
                rows=None,
                networks=1,
                basis=_(
                    "the logged value (runs.csv); no interval without per-question predictions"
                ),
            )
            for name, _files, logged in versions
            if logged is not None
        ]
    import pandas as pd

    ps = [p for _name, files, _logged in versions for p in files]
    common = pd.Index(ps[0].row_id)
    for p in ps[1:]:
        common = common.intersection(pd.Index(p.row_id))
    ids = np.array(sorted(common.tolist()), dtype=object)
    if not ids.size:
        return []
    ref = versions[-1][1][0]
    ref_pos = pd.Index(ref.row_id).get_indexer(ids)
    block = ref.block[ref_pos] if cfg.block and ref.block is not None else None
    labels = block if block is not None else ids
    uniq, codes = np.unique(labels.astype(str), return_inverse=True)
    measured = []
    lowest, highest = RANGES.get(cfg.metric, (None, None))
    for _name, files, _logged in versions:
        runs = []
        for p in files:  # each evaluation run of the version: (B, 2) sums per question/block
            pos = pd.Index(p.row_id).get_indexer(ids)
            runs.append(mean_stats(row_metric(project, p, 0.5)[pos], codes, len(uniq)))
        measured.append(Measured(np.stack(runs), row_mean, True, lowest, highest))
    figures = block_figures(
        measured,
        resamples=cfg.resamples,
        confidence=cfg.confidence,
        rng=np.random.default_rng(cfg.random_seed),
    )
    where = (
        blocks_phrase(len(uniq), cfg.block)
        if block is not None
        else count_noun(len(uniq), "question")
    )
    conf = confidence(cfg.confidence)
    out = []
    for (name, _files, _logged), fig in zip(versions, figures, strict=True):
        if fig.method == WILSON:
            how = _("the Wilson score interval over {where}", where=where)
        elif fig.method is None:
            how = _("none (fewer than 2 blocks)")
        else:
            how = _("over {where}, the wider of a block bootstrap and a ratio t", where=where)
        questions = count_noun(int(ids.size), "question")
        fields = {"questions": questions, "level": conf, "how": how}
        if fig.networks == 1:
            basis = (
                _(
                    "one version, on the {questions} of the general set both versions "
                    "answered; {level} interval: {how}",
                    **fields,
                )
                if part == "general"
                else _(
                    "one version, on the {questions} of the frozen question set both versions "
                    "answered; {level} interval: {how}",
                    **fields,
                )
            )
        else:
            fields["runs"] = str(fig.networks)
            basis = (
                _(
                    "one version's mean over its {runs} evaluation runs (sd across runs), on the "
                    "{questions} of the general set both versions answered; {level} interval: "
                    "{how}",
                    **fields,
                )
                if part == "general"
                else _(
                    "one version's mean over its {runs} evaluation runs (sd across runs), on the "
                    "{questions} of the frozen question set both versions answered; {level} "
                    "interval: {how}",
                    **fields,
                )
            )
        out.append(result_row(name, part, cfg.metric, fig, int(ids.size), basis))
    return out


def before_after_results(project: Project, before: ModelRuns, after: ModelRuns) -> list[ResultRow]:
    """``results`` of a before-after project: both versions on the frozen question set, then on
    the general set when there is one."""
    cfg = project.config
    out = version_rows(project, "test", "test", [_version(before), _version(after)])
    if cfg.general_split:
        versions = []
        for mr in (before, after):
            rows = [r for r in mr.rows if r.split == cfg.general_split and r.ok]
            if rows:
                files = [project.predictions.get(r.predictions) for r in rows if r.predictions]
                found = [f for f in files if f is not None]
                versions.append((mr.name, found if len(found) == len(rows) else [], rows[0].value))
        if len(versions) == 2:
            out += version_rows(project, "general", cfg.general_split, versions)
    return out


def _version(mr: ModelRuns) -> tuple[str, list[Predictions], float | None]:
    """A version on test: the predictions of each analysed run (epoch) and its first value; no
    files when some run has none."""
    runs = [s for s in mr.seeds if s.test_row is not None]
    files = [s.test_pred for s in runs if s.test_pred is not None]
    value = runs[0].test_value if runs else None
    return mr.name, files if len(files) == len(runs) else [], value
