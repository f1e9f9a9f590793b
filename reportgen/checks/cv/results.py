"""report.json ``results`` on the folds: each model's fold metric, its seed sd within folds and
the corrected resampled t (docs/methods.md, "Results at a glance")."""

from __future__ import annotations

import numpy as np

from reportgen.checks.cv.gaps import FoldTable
from reportgen.checks.cv.select import FoldNet, FoldRuns
from reportgen.checks.present import required
from reportgen.checks.results import metrics, result_row
from reportgen.checks.select import row_metric
from reportgen.model.results import ResultRow
from reportgen.project import Project
from reportgen.stats import multiclass as mc
from reportgen.stats import regression as rg
from reportgen.stats.metrics import per_row_metric
from reportgen.stats.own import CORRECTED_T, fold_figure
from reportgen.words import confidence, count, count_noun, fixed
from reportgen.words.i18n import _, n_
from reportgen.words.repeats import repeat_words


def cv_results(
    project: Project, fc: FoldRuns, fb: FoldRuns, table: FoldTable, ratio: float | None
) -> list[ResultRow]:
    """``results`` on the folds: each model's fold metric (its networks' mean on each fold),
    its seed sd within folds and the corrected resampled t, the gap's interval method."""
    cfg = project.config
    keys = [(g.repeat, g.fold) for g in table.gaps]
    if not keys or ratio is None:
        return []
    everyone = [n for fr in (fc, fb) for k in keys for n in fr.nets.get(k, [])]
    kinds = {n.pred.kind for n in everyone if n.pred is not None}
    all_pred = all(n.pred is not None for n in everyone) and len(kinds) == 1
    names = metrics(project, kinds.pop()) if all_pred else [cfg.metric]
    names = [m for m in names if m != "macro_f1" and m != "rmse"] + [
        m for m in names if m in ("macro_f1", "rmse")
    ]
    out = []
    conf = confidence(cfg.confidence)
    for name in names:
        for fr in (fc, fb):
            folds = [[_fold_value(project, name, n) for n in fr.nets[k]] for k in keys]
            fig = fold_figure(folds, ratio, cfg.confidence)
            rows = project.folds.rows if project.folds is not None else None
            how = (
                _(
                    "the corrected resampled t on the fold values (n_test/n_train {ratio}), as "
                    "the gap's",
                    ratio=fixed(ratio, 3),
                )
                if fig.method == CORRECTED_T
                else _("none (fewer than 2 folds, or no spread)")
            )
            fields = {
                "folds": count_noun(len(keys), "fold"),
                "k": count(table.folds),
                "level": conf,
                "how": how,
            }
            # English has always said "repeats" whatever the count: both forms are the same
            basis = (
                n_(
                    "mean over {folds} ({n} repeats of {k}) of each fold's mean over its runs, "
                    "each on the rows it held out; sd: the seed sd within folds; {level} "
                    "interval: {how}",
                    "mean over {folds} ({n} repeats of {k}) of each fold's mean over its runs, "
                    "each on the rows it held out; sd: the seed sd within folds; {level} "
                    "interval: {how}",
                    table.repeats,
                    **fields,
                )
                if repeat_words(cfg.repeats).unit == "run"
                else n_(
                    "mean over {folds} ({n} repeats of {k}) of each fold's mean over its "
                    "networks, each on the rows it held out; sd: the seed sd within folds; "
                    "{level} interval: {how}",
                    "mean over {folds} ({n} repeats of {k}) of each fold's mean over its "
                    "networks, each on the rows it held out; sd: the seed sd within folds; "
                    "{level} interval: {how}",
                    table.repeats,
                    **fields,
                )
            )
            out.append(result_row(fr.name, "cv", name, fig, rows, basis))
    return out


def _fold_value(project: Project, name: str, n: FoldNet) -> float:
    """One fold network's ``name``: recomputed from its predictions, the claim's as valued."""
    if name == project.config.metric or n.pred is None:
        return n.value
    p = n.pred
    if name == "macro_f1":
        proba = required(p.proba, "probabilities")
        conf = mc.confusion(required(p.y, "labels"), proba.argmax(axis=1), proba.shape[1])
        f1 = mc.macro_f1(conf)
        return float("nan") if f1 is None else f1
    if name == "rmse":
        y, hat = required(p.y, "targets"), required(p.y_pred, "predicted values")
        return float(np.sqrt(np.mean(rg.per_row_metric("squared_error", y, hat))))
    if p.kind == "binary":
        y, prob = required(p.y, "labels"), required(p.p, "probabilities")
        return float(np.mean(per_row_metric(name, y=y, p=prob, threshold=n.threshold)))
    if p.kind == "multiclass":
        y, proba = required(p.y, "labels"), required(p.proba, "probabilities")
        return float(np.mean(mc.per_row_metric(name, y, proba)))
    if p.kind == "regression":
        y, hat = required(p.y, "targets"), required(p.y_pred, "predicted values")
        return float(np.mean(rg.per_row_metric(name, y, hat)))
    return float(np.mean(row_metric(project, p, n.threshold)))
