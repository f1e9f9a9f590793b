"""report.json ``regression``: per model, MSE with RMSE beside it, MAE and R², predicted
against actual (thinned), residuals by block and MAE/RMSE by slice, for one representative
network (chosen on validation); every seed's figures beside it."""

from __future__ import annotations

import numpy as np

from reportgen.checks.classify import representative
from reportgen.checks.evaluation import natural_key
from reportgen.checks.select import ModelRuns
from reportgen.project import Project
from reportgen.stats import regression as rg

#: most points the predicted-against-actual chart draws per model
MAX_POINTS = 500


def regression_section(project: Project, cand: ModelRuns, base: ModelRuns) -> dict | None:
    """The regression figures of both models, or None (another task, or no test predictions)."""
    if project.task != "regression":
        return None
    reps = {mr.role: representative(mr, "regression") for mr in (cand, base)}
    if any(r is None for r in reps.values()):
        return None
    y = reps["candidate"].test_pred.y
    out = {
        "unit": project.config.claim_unit,
        "residual": "y - y_pred (actual minus predicted: positive where the model predicts too low)",
        "target": {
            "rows": int(y.size),
            "mean": float(np.mean(y)),
            "sd": float(np.std(y, ddof=1)) if y.size > 1 else None,
            "min": float(np.min(y)),
            "max": float(np.max(y)),
        },
        "block_column": project.config.block,
        "slice_column": project.config.slice,
    }
    for mr in (cand, base):
        out[mr.role] = _model_entry(project, mr, reps[mr.role])
    return out


def _groups(labels) -> tuple[list[str], np.ndarray]:
    """Distinct labels in natural order and each row's index into them."""
    import pandas as pd

    codes, distinct = pd.factorize(np.asarray(labels, dtype=object).astype(str))
    order = sorted(range(len(distinct)), key=lambda i: natural_key(str(distinct[i])))
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[order] = np.arange(len(distinct))
    return [str(distinct[i]) for i in order], rank[codes]


def _by(labels, y, y_pred, key: str) -> list[dict] | None:
    if labels is None:
        return None
    names, codes = _groups(labels)
    return [
        {key: n, **g} for n, g in zip(names, rg.by_group(codes, y, y_pred, len(names)), strict=True)
    ]


def _model_entry(project: Project, mr: ModelRuns, rep) -> dict:
    cfg = project.config
    tp = rep.test_pred
    keep = rg.thin_points(tp.y, tp.y_pred, MAX_POINTS)
    return {
        "seed": rep.seed,
        **rg.summary(tp.y, tp.y_pred),
        "points": {
            "actual": [float(v) for v in tp.y[keep]],
            "predicted": [float(v) for v in tp.y_pred[keep]],
            "shown": int(keep.size),
        },
        "by_block": _by(tp.block if cfg.block else None, tp.y, tp.y_pred, "block"),
        "by_slice": _by(tp.slice if cfg.slice else None, tp.y, tp.y_pred, "slice"),
        "per_seed": [
            {"seed": s.seed, **rg.summary(s.test_pred.y, s.test_pred.y_pred)}
            for s in mr.seeds
            if s.test_pred is not None and s.test_pred.kind == "regression"
        ],
    }
