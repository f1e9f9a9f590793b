"""report.json ``regression``: per model, MSE with RMSE beside it, MAE and R², predicted
against actual (thinned), residuals by block and MAE/RMSE by slice, for one representative
network (chosen on validation); every seed's figures beside it."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import numpy as np

from reportgen.checks.classify import representative
from reportgen.checks.evaluation import natural_key
from reportgen.checks.present import required, test_of
from reportgen.checks.select import ModelRuns
from reportgen.model.regression import (
    BlockRow,
    Points,
    Regression,
    RegressionModel,
    RegressionSeed,
    SliceRow,
    Target,
)
from reportgen.project import Project
from reportgen.stats import regression as rg
from reportgen.words.i18n import _

#: most points the predicted-against-actual chart draws per model
MAX_POINTS = 500


def regression_section(project: Project, cand: ModelRuns, base: ModelRuns) -> Regression | None:
    """The regression figures of both models, or None (another task, or no test predictions)."""
    if project.task != "regression":
        return None
    crep, brep = representative(cand, "regression"), representative(base, "regression")
    if crep is None or brep is None:
        return None
    y = required(test_of(crep).y, "regression targets")
    return Regression(
        unit=project.config.claim_unit,
        residual=_(
            "y - y_pred (actual minus predicted: positive where the model predicts too low)"
        ),
        target=Target(
            rows=int(y.size),
            mean=float(np.mean(y)),
            sd=float(np.std(y, ddof=1)) if y.size > 1 else None,
            min=float(np.min(y)),
            max=float(np.max(y)),
        ),
        block_column=project.config.block,
        slice_column=project.config.slice,
        candidate=_model_entry(project, cand, crep),
        baseline=_model_entry(project, base, brep),
    )


def _groups(labels: Any) -> tuple[list[str], np.ndarray]:
    """Distinct labels in natural order and each row's index into them."""
    import pandas as pd

    codes, distinct = pd.factorize(np.asarray(labels, dtype=object).astype(str))
    order = sorted(range(len(distinct)), key=lambda i: natural_key(str(distinct[i])))
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[order] = np.arange(len(distinct))
    return [str(distinct[i]) for i in order], rank[codes]


def _fields(figures: rg.RegressionFigures) -> dict[str, Any]:
    """stats' figures of one group as the model's keyword arguments (rows, mse, ..., by name)."""
    return asdict(figures)


def _by_block(labels: Any, y: Any, y_pred: Any) -> tuple[BlockRow, ...] | None:
    """regression.<model>.by_block: the figures per block, in natural order."""
    if labels is None:
        return None
    names, codes = _groups(labels)
    groups = rg.by_group(codes, y, y_pred, len(names))
    return tuple(BlockRow(block=n, **_fields(g)) for n, g in zip(names, groups, strict=True))


def _by_slice(labels: Any, y: Any, y_pred: Any) -> tuple[SliceRow, ...] | None:
    """regression.<model>.by_slice: the figures per slice, in natural order."""
    if labels is None:
        return None
    names, codes = _groups(labels)
    groups = rg.by_group(codes, y, y_pred, len(names))
    return tuple(SliceRow(slice=n, **_fields(g)) for n, g in zip(names, groups, strict=True))


def _model_entry(project: Project, mr: ModelRuns, rep: Any) -> RegressionModel:
    cfg = project.config
    tp = rep.test_pred
    keep = rg.thin_points(tp.y, tp.y_pred, MAX_POINTS)
    return RegressionModel(
        seed=rep.seed,
        **_fields(rg.summary(tp.y, tp.y_pred)),
        points=Points(
            actual=tuple(float(v) for v in tp.y[keep]),
            predicted=tuple(float(v) for v in tp.y_pred[keep]),
            shown=int(keep.size),
        ),
        by_block=_by_block(tp.block if cfg.block else None, tp.y, tp.y_pred),
        by_slice=_by_slice(tp.slice if cfg.slice else None, tp.y, tp.y_pred),
        per_seed=tuple(
            RegressionSeed(seed=s.seed, **_fields(rg.summary(s.test_pred.y, s.test_pred.y_pred)))
            for s in mr.seeds
            if s.test_pred is not None and s.test_pred.kind == "regression"
        ),
    )
