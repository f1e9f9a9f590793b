"""Which runs are analysed: per model, the configuration scored on test, its complete seeds."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from reportgen.project import Project
from reportgen.project.predictions import Predictions
from reportgen.project.runs import RunRow
from reportgen.stats import multiclass, regression
from reportgen.stats.metric_registry import METRICS
from reportgen.stats.metrics import per_row_metric
from reportgen.stats.threshold import choose_threshold


@dataclass
class SeedRun:
    """One trained network: its seed and its rows/predictions on validation and test."""

    seed: int
    val_row: RunRow | None = None
    test_row: RunRow | None = None
    val_pred: Predictions | None = None
    test_pred: Predictions | None = None
    threshold: float | None = None
    val_value: float | None = None  # recomputed when predictions exist, else logged
    val_source: str = ""
    test_value: float | None = None
    test_source: str = ""


@dataclass
class ModelRuns:
    role: str
    name: str
    config: str | None
    test_configs: list[str | None] = field(default_factory=list)
    val_configs: list[str | None] = field(default_factory=list)
    seeds: list[SeedRun] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    rows: list[RunRow] = field(default_factory=list)

    def seed_values(self, part: str = "validation") -> tuple[list[int], np.ndarray]:
        attr = "val_value" if part == "validation" else "test_value"
        pairs = [(s.seed, getattr(s, attr)) for s in self.seeds if getattr(s, attr) is not None]
        return [p[0] for p in pairs], np.array([p[1] for p in pairs], dtype=float)


def _prediction_index(project: Project) -> dict[tuple[str, str], Predictions]:
    """(run_id, split) -> the predictions of that run's first row naming a loaded file (one pass)."""
    index: dict[tuple[str, str], Predictions] = {}
    for r in project.runs:
        if r.predictions and r.predictions in project.predictions:
            index.setdefault((r.run_id, r.split), project.predictions[r.predictions])
    return index


def threshold_for(project: Project, pred: Predictions | None) -> float:
    """The decision threshold of one network: fixed, or chosen on its own validation rows."""
    cfg = project.config
    if isinstance(cfg.threshold, float):
        return cfg.threshold
    if pred is None or pred.kind != "binary":
        return 0.5
    return float(choose_threshold(pred.p, pred.y, cfg.false_positive, cfg.false_negative))


def row_metric(project: Project, pred: Predictions, threshold: float | None) -> np.ndarray:
    """Per-row values of the claim's metric on one predictions file."""
    cfg = project.config
    if not cfg.builtin_metric:
        return pred.metric
    if pred.kind == "correct":
        name = cfg.metric if METRICS[cfg.metric].from_correct else "accuracy"
        return per_row_metric(name, correct=pred.correct)
    if pred.kind == "multiclass":
        return multiclass.per_row_metric(cfg.metric, pred.y, pred.proba)
    if pred.kind == "regression":
        return regression.per_row_metric(cfg.metric, pred.y, pred.y_pred)
    return per_row_metric(
        cfg.metric,
        y=pred.y,
        p=pred.p,
        threshold=0.5 if threshold is None else threshold,
        c_fp=cfg.false_positive,
        c_fn=cfg.false_negative,
    )


def select_runs(project: Project, role: str) -> ModelRuns:
    """The analysed runs of one model, with what was left out and why."""
    cfg = project.config
    name = getattr(cfg, role)
    runs_name = project.runs_name
    rows = [r for r in project.runs if r.model == name and r.metric == cfg.metric]
    mr = ModelRuns(role, name, None, rows=rows)
    for r in rows:
        if not r.ok:
            mr.left_out.append(
                f"{name} seed {r.seed} ({r.split}, {r.cite(runs_name)}): status failed"
            )
    ok = [r for r in rows if r.ok]
    test_cfg = Counter(r.config for r in ok if r.split == "test")
    mr.test_configs = sorted(test_cfg, key=lambda c: (c is None, str(c)))
    mr.val_configs = sorted(
        {r.config for r in ok if r.split == "validation"}, key=lambda c: (c is None, str(c))
    )
    if test_cfg:
        # the config scored on test; if several were: most complete seeds (validation and test), then latest
        last_line = {
            c: max(r.line for r in ok if r.split == "test" and r.config == c) for c in test_cfg
        }
        complete = {
            c: len(
                {r.seed for r in ok if r.split == "test" and r.config == c}
                & {r.seed for r in ok if r.split == "validation" and r.config == c}
            )
            for c in test_cfg
        }
        mr.config = max(test_cfg, key=lambda c: (complete[c], test_cfg[c], last_line[c]))
    else:
        val_cfg = Counter(r.config for r in ok if r.split == "validation")
        if val_cfg:
            last_line = {
                c: max(r.line for r in ok if r.split == "validation" and r.config == c)
                for c in val_cfg
            }
            mr.config = max(val_cfg, key=lambda c: (val_cfg[c], last_line[c]))
    chosen = [r for r in ok if r.config == mr.config]
    for r in ok:
        if r.config != mr.config and r.split == "test":
            mr.left_out.append(
                f"{name} seed {r.seed} ({r.cite(runs_name)}): test score of config {r.config!r}, "
                f"not the analysed config {mr.config!r}"
            )
    by_seed: dict[int, SeedRun] = {}
    for r in sorted(chosen, key=lambda r: r.line):
        s = by_seed.setdefault(r.seed, SeedRun(r.seed))
        if r.split == "validation" and s.val_row is None:
            s.val_row = r
        elif r.split == "test" and s.test_row is None:
            s.test_row = r
    index = _prediction_index(project)
    for seed in sorted(by_seed):
        s = by_seed[seed]
        if s.val_row is not None:
            s.val_pred = index.get((s.val_row.run_id, "validation"))
        if s.test_row is not None:
            s.test_pred = index.get((s.test_row.run_id, "test"))
        s.threshold = threshold_for(project, s.val_pred)
        for part, row, pred in (("val", s.val_row, s.val_pred), ("test", s.test_row, s.test_pred)):
            if row is None:
                continue
            if pred is not None:
                value = float(np.mean(row_metric(project, pred, s.threshold)))
                source = pred.path
            else:
                value, source = row.value, row.cite(runs_name)
            setattr(s, f"{part}_value", value)
            setattr(s, f"{part}_source", source)
        mr.seeds.append(s)
    # Every seed with a validation or a test row is analysed: the seed line uses the ones with a
    # validation value, the block line the ones with test predictions. Only a seed with neither
    # (e.g. a train row alone) is an incomplete run.
    complete = []
    for s in mr.seeds:
        if s.val_row is None and s.test_row is None:
            rows_of_seed = [r for r in chosen if r.seed == s.seed]
            cite = rows_of_seed[0].cite(runs_name) if rows_of_seed else runs_name
            mr.left_out.append(
                f"{name} seed {s.seed} ({cite}): neither a validation nor a test row (incomplete run)"
            )
        else:
            complete.append(s)
    mr.seeds = complete
    return mr
