"""Which runs are analysed: per model, the configuration scored on test, its complete seeds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from reportgen.checks.orientation import part_name
from reportgen.project import Project
from reportgen.project.predictions import Predictions
from reportgen.project.runs import RunRow
from reportgen.stats import multiclass, regression
from reportgen.stats.metric_registry import METRICS
from reportgen.stats.metrics import per_row_metric
from reportgen.stats.threshold import choose_threshold
from reportgen.words.i18n import _


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
    chosen = choose_threshold(pred.p, pred.y, cfg.false_positive, cfg.false_negative)
    return 0.5 if chosen is None else float(chosen)  # None: no validation rows to choose on


def row_metric(project: Project, pred: Predictions, threshold: float | None) -> np.ndarray:
    """Per-row values of the claim's metric on one predictions file."""
    cfg = project.config
    if not cfg.builtin_metric:
        if pred.metric is None:  # loading refuses a file without the claim's metric column
            raise ValueError(f"internal error: {pred.path} has no column {cfg.metric!r}")
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


@dataclass(frozen=True)
class Valued:
    """The value that stands for one run on a part, and where it comes from."""

    value: float | None
    source: str


def run_value(
    project: Project, row: RunRow, pred: Predictions | None, threshold: float | None
) -> Valued:
    """The valuation policy of both designs: a run's value is recomputed from its predictions
    when they exist, else it is the logged value, cited by its line."""
    if pred is not None:
        return Valued(float(np.mean(row_metric(project, pred, threshold))), pred.path)
    return Valued(row.value, row.cite(project.runs_name))


def left_out_line(name: str, seed: int, where: str, why: str) -> str:
    """How a left-out run is listed: the model, the seed, where the run is, why it is left out."""
    return _("{model} seed {seed} ({where}): {why}", model=name, seed=seed, where=where, why=why)


def failed_runs(name: str, rows: list[RunRow], where: Callable[[RunRow], str]) -> list[str]:
    """The left-out lines of the runs whose status is failed, in file order."""
    return [left_out_line(name, r.seed, where(r), _("status failed")) for r in rows if not r.ok]


def select_runs(project: Project, role: str) -> ModelRuns:
    """The analysed runs of one model, with what was left out and why."""
    cfg = project.config
    name = getattr(cfg, role)
    rn = project.runs_name
    rows = [r for r in project.runs if r.model == name and r.metric == cfg.metric]
    mr = ModelRuns(role, name, None, rows=rows)
    mr.left_out += failed_runs(name, rows, lambda r: f"{part_name(r.split)}, {r.cite(rn)}")
    ok = [r for r in rows if r.ok]
    mr.test_configs = _configs(ok, "test")
    mr.val_configs = _configs(ok, "validation")
    mr.config = _analysed_config(ok)
    mr.left_out += [
        left_out_line(
            name,
            r.seed,
            r.cite(rn),
            _(
                "test score of config {config}, not the analysed config {analysed}",
                config=repr(r.config),
                analysed=repr(mr.config),
            ),
        )
        for r in ok
        if r.config != mr.config and r.split == "test"
    ]
    chosen = [r for r in ok if r.config == mr.config]
    index = _prediction_index(project)
    runs, again = _seed_runs(chosen)
    mr.left_out += [
        left_out_line(
            name,
            r.seed,
            r.cite(rn),
            _(
                "a second {part} row of this seed (run {run}); the first in the log, {first}, "
                "is analysed",
                part=part_name(r.split),
                run=repr(r.run_id),
                first=first.cite(rn),
            ),
        )
        for r, first in again
    ]
    seeds = [_valued_seed(project, s, index) for s in runs]
    # Every seed with a validation or a test row is analysed: the seed line uses the ones with a
    # validation value, the block line the ones with test predictions. Only a seed with neither
    # (e.g. a train row alone) is an incomplete run.
    for s in seeds:
        if s.val_row is None and s.test_row is None:
            mr.left_out.append(_incomplete(name, s, chosen, rn))
        else:
            mr.seeds.append(s)
    return mr


def _configs(ok: list[RunRow], split: str) -> list[str | None]:
    """The configurations scored on ``split``, sorted (None last)."""
    return sorted({r.config for r in ok if r.split == split}, key=lambda c: (c is None, str(c)))


def _analysed_config(ok: list[RunRow]) -> str | None:
    """The configuration scored on test; if several were: the most complete seeds (validation and
    test), then the most test rows, then the latest. Without test rows: the validation config with
    the most rows, then the latest."""
    test_cfg = Counter(r.config for r in ok if r.split == "test")
    if test_cfg:
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
        return max(test_cfg, key=lambda c: (complete[c], test_cfg[c], last_line[c]))
    val_cfg = Counter(r.config for r in ok if r.split == "validation")
    if not val_cfg:
        return None
    last_line = {
        c: max(r.line for r in ok if r.split == "validation" and r.config == c) for c in val_cfg
    }
    return max(val_cfg, key=lambda c: (val_cfg[c], last_line[c]))


def _seed_runs(chosen: list[RunRow]) -> tuple[list[SeedRun], list[tuple[RunRow, RunRow]]]:
    """One SeedRun per seed of the analysed config, sorted by seed: its first validation row and
    its first test row (file order); and each later row of a seed and part (a re-run) with the
    row analysed in its place."""
    by_seed: dict[int, SeedRun] = {}
    again: list[tuple[RunRow, RunRow]] = []
    for r in sorted(chosen, key=lambda r: r.line):
        s = by_seed.setdefault(r.seed, SeedRun(r.seed))
        if r.split not in ("validation", "test"):
            continue
        attr = "val_row" if r.split == "validation" else "test_row"
        first = getattr(s, attr)
        if first is None:
            setattr(s, attr, r)
        else:
            again.append((r, first))
    return [by_seed[seed] for seed in sorted(by_seed)], again


def _valued_seed(
    project: Project, s: SeedRun, index: dict[tuple[str, str], Predictions]
) -> SeedRun:
    """The seed with its predictions, its threshold and the value of each part it has a row on."""
    if s.val_row is not None:
        s.val_pred = index.get((s.val_row.run_id, "validation"))
    if s.test_row is not None:
        s.test_pred = index.get((s.test_row.run_id, "test"))
    s.threshold = threshold_for(project, s.val_pred)
    if s.val_row is not None:
        val = run_value(project, s.val_row, s.val_pred, s.threshold)
        s.val_value, s.val_source = val.value, val.source
    if s.test_row is not None:
        test = run_value(project, s.test_row, s.test_pred, s.threshold)
        s.test_value, s.test_source = test.value, test.source
    return s


def _incomplete(name: str, s: SeedRun, chosen: list[RunRow], rn: str) -> str:
    """The left-out line of a seed with neither a validation nor a test row."""
    rows_of_seed = [r for r in chosen if r.seed == s.seed]
    cite = rows_of_seed[0].cite(rn) if rows_of_seed else rn
    return left_out_line(
        name, s.seed, cite, _("neither a validation nor a test row (incomplete run)")
    )
