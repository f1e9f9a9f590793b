"""report.json ``descriptions``: metrics that are not a mean of per-row values (multi-class
macro F1, regression R²), each model's value over its test networks and the gap, with a
block bootstrap that recomputes the metric on every resample. Never the claim's metric:
no rung rests on them (docs/methods.md, "Descriptions")."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from reportgen.checks.evaluation import EvalData, positions
from reportgen.checks.present import required
from reportgen.checks.reasons import sentence
from reportgen.checks.select import ModelRuns
from reportgen.model.common import IntPair
from reportgen.model.relevance import Description
from reportgen.project import Project
from reportgen.project.predictions import Predictions
from reportgen.stats import multiclass as mc
from reportgen.stats import regression as rg
from reportgen.stats._util import FloatArray
from reportgen.stats.described import block_statistic_gap
from reportgen.words.i18n import _


def why() -> str:
    """Why a description has no estimand of its own, in the language being written."""
    return _(
        "not a mean of per-row values, so no row-weighted estimand, seed rule or t interval: a "
        "description beside the claim's metric, with a block bootstrap that recomputes it"
    )


#: one network's per-block statistics: (predictions, positions, block codes, blocks) -> (B, m)
BlockStats = Callable[[Predictions, np.ndarray, np.ndarray, int], FloatArray]


def _networks(mr: ModelRuns, kind: str) -> list[Predictions]:
    """The test predictions of ``kind`` of every network of one model, in seed order."""
    return [p for p in (s.test_pred for s in mr.seeds) if p is not None and p.kind == kind]


def _stack(ev: EvalData, nets: list[Predictions], stats: BlockStats) -> np.ndarray:
    """(S, B, m): each network's per-block statistics on the rows ``ev`` pairs."""
    n_blocks = len(ev.blocks)
    out = []
    for p in nets:
        pos = positions(ev, p)
        out.append(stats(p, pos, ev.block_codes, n_blocks))
    return np.stack(out)


def _confusions(pred: Predictions, pos: np.ndarray, codes: np.ndarray, n_blocks: int) -> FloatArray:
    proba = required(pred.proba, "probabilities")
    k = proba.shape[1]
    y, hat = required(pred.y, "labels")[pos], proba[pos].argmax(axis=1)
    flat = np.bincount((codes * k + y) * k + hat, minlength=n_blocks * k * k)
    return flat.reshape(n_blocks, k * k).astype(np.float64)


def _r2_sums(pred: Predictions, pos: np.ndarray, codes: np.ndarray, n_blocks: int) -> FloatArray:
    y_pred = required(pred.y_pred, "predicted values")
    return rg.r2_block_stats(codes, required(pred.y, "labels")[pos], y_pred[pos], n_blocks)


def descriptions_section(
    project: Project, ev: EvalData | None, cand: ModelRuns, base: ModelRuns
) -> list[Description] | None:
    """The descriptions of this task's test predictions, or None (binary, or no predictions)."""
    task = project.task
    if ev is None or task not in ("multiclass", "regression"):
        return None
    nets = {mr.role: _networks(mr, task) for mr in (cand, base)}
    if not nets["candidate"] or not nets["baseline"]:
        return None
    if task == "multiclass":
        k = required(nets["candidate"][0].proba, "probabilities").shape[1]
        name, label, stats = "macro_f1", "macro F1", _confusions

        def statistic(s: FloatArray) -> FloatArray:
            lead = s.shape[:-1]
            return mc.macro_f1_batch(s.reshape(-1, k, k)).reshape(lead)

    else:
        name, label, stats, statistic = "r2", "R²", _r2_sums, rg.r2_from_sums
    cfg = project.config
    res = block_statistic_gap(
        _stack(ev, nets["candidate"], stats),
        _stack(ev, nets["baseline"], stats),
        statistic,
        higher_is_better=True,
        resamples=cfg.resamples,
        confidence=cfg.confidence,
        rng=np.random.default_rng(cfg.random_seed),
    )
    return [
        Description(
            name=name,
            label=label,
            higher_is_better=True,
            candidate=res.candidate,
            baseline=res.baseline,
            gap=res.gap,
            low=res.low,
            high=res.high,
            blocks=res.blocks,
            resamples=res.resamples,
            undefined_draws=res.undefined_draws,
            reason=sentence(res.reason),
            confidence=cfg.confidence,
            networks=IntPair(candidate=len(nets["candidate"]), baseline=len(nets["baseline"])),
            rows=int(len(ev.row_ids)),
            block_column=ev.block_column,
            why=why(),
        )
    ]
