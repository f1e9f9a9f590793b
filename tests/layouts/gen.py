"""A seeded generator of complete evreport projects, one per cell of the layout matrix.

``make_project(path, **cell)`` writes evreport.toml, runs.csv, split files and the
manifest (reportgen's ``freeze``), predictions (CSV or Parquet) and rung-1 check
files, and returns a :class:`Gen` that carries the truth the tests need to compute
every figure independently: the split parts, each network's per-row metric, the
logged values and the sign rule.

Every logged value is the exact metric of the network's predictions (``repr`` of the
float64 mean), whether or not the predictions file is written (``predictions=False``
gives a run-log-only project with the same numbers).

Cell keys (defaults in ``DEFAULTS``):

- ``kind``: ``"mvb"`` (model against baseline), ``"ba"`` (before-after) or ``"cv"``
  (cross-validation: the keys of ``tests/layouts/gen_cv.py``).
- ``layout``: which parts each seed was scored on:
  ``"canonical"`` (every seed on validation from the run log only, seed 1 of each model
  also on test with predictions: the issue's canonical layout), ``"val-only"`` (no test
  rows at all), ``"test-only"`` (no validation rows), ``"both"``, ``"partly"`` (seeds
  1-3 both, seed 4 validation only, seed 5 and later test only).
- ``seeds``: candidate seed count; ``labels``: ``"match"`` (both 1..n), ``"disjoint"``
  (candidate 1-5, baseline 6-10), ``"extra"`` (baseline has one more seed, 1..n+1).
- ``predictions``: write per-row predictions (False: run log only); ``fmt``: csv|parquet.
- ``paired``: ``[rule] seeds_paired``.
- ``metric``: log_loss, brier, accuracy, error_rate, cost, custom_low (per-row column
  ``abs_err``, lower is better), custom_high (per-row column ``score``, higher is better).
- ``threshold``: ``"validation-cost"`` or a number (threshold metrics only).
- ``blocks``: none | one | equal | unequal (one 2,000-row block and 19 of 5 rows) |
  weekly52 | a list of block sizes; ``block_col``: the column's name; ``block_kind``:
  None (key absent) | "period" | "group".
- ``slices``: none | normal | one-row (one test row in slice "rare", required, where
  the candidate is badly wrong: log-loss gap about -6.8 on it).
- ``one_class``: every test label is 0.
- ``effect``: strong | very-strong | tie | worse (the baseline the stronger) | flip (candidate better on the big block, much worse on the
  small ones) | disagree (validation favours the baseline, test the candidate).
- ``seed_jitter``: the sd of each network's relative strength around its model's (0.05).
- ``deterministic``: none | baseline | both: those models' seeds give identical predictions
  (a logistic regression: zero seed spread).
- ``edit_after_freeze``: rewrite split/test.csv after freezing (same content, CRLF line ends).
- ``log_digits``: round the logged values to this many decimals (they then disagree with
  the predictions); ``empty_block_rows``: that many test rows have an empty block value;
  ``val_block_column``: False drops the block and slice columns from the validation split.
- before-after: ``category`` (column present), ``general`` (general set scored),
  ``general_broken`` (general questions right before, wrong after), ``general_blocks``
  (the general split file has the block column too), ``fixed``/``broken``,
  ``fixed_in_small_blocks`` (all questions after the first block fixed, the first block
  only broken: per-block means and the question-weighted difference part ways).
- before-after: ``general_shift`` (the after version answers the general questions
  shifted by this many: 0.9 before, 0.7 after, the same on the shared ones),
  ``general_in_split`` (False: no split/general.csv), ``general_unanswered`` / ``unanswered``
  (the after version leaves the last general / frozen questions unanswered), ``duplicate_id``
  (split/test.csv gets a second row under q0150, frozen by hand as an older evreport would),
  ``broken_category`` with ``category_before`` (every broken question in that category, that
  many of its questions right before), ``slice_required`` (``slice = "category"`` with this
  ``not_worse_on``; ``not_worse_margin`` applies as in model-against-baseline cells).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from reportgen.project.manifest import freeze
from tests.layouts.gen_io import (
    BASE,
    CAND,
    part_blocks,
    record_part,
    row_ids,
    run_row,
    toml_head,
)
from tests.synthetic import write_checks

BA_CAND, BA_BASE = "after", "before"
C_FP, C_FN = 1.0, 2.0
THRESHOLD_METRICS = ("accuracy", "error_rate", "cost")
CUSTOM = {"custom_low": ("abs_err", False), "custom_high": ("score", True)}

DEFAULTS: dict = {
    "kind": "mvb",
    "layout": "both",
    "seeds": 5,
    "labels": "match",
    "predictions": True,
    "fmt": "csv",
    "paired": False,
    "metric": "log_loss",
    "threshold": "validation-cost",
    "blocks": "equal",
    "block_col": "week",
    "block_kind": None,
    "slices": "normal",
    "one_class": False,
    "effect": "strong",
    "min_useful_effect": 0.005,
    "not_worse_margin": None,
    "checks": True,
    "seed": 0,
    "deterministic": "none",
    "seed_jitter": 0.05,
    "edit_after_freeze": False,
    "log_digits": None,
    "empty_block_rows": 0,
    "val_block_column": True,
    # before-after
    "questions": 400,
    "fixed": 120,
    "broken": 20,
    "category": True,
    "general": True,
    "general_questions": 300,
    "general_broken": 0,
    "general_blocks": False,
    "max_drop": 0.02,
    "fixed_in_small_blocks": False,
    # before-after blind spots
    "general_shift": 0,
    "general_in_split": True,
    "general_unanswered": 0,
    "unanswered": 0,
    "duplicate_id": False,
    "broken_category": None,
    "category_before": None,
    "slice_required": None,
}


@dataclass
class Gen:
    """A generated project and its truth."""

    path: Path
    cell: dict
    higher_is_better: bool
    candidate: str
    baseline: str
    parts: dict[str, pd.DataFrame] = field(default_factory=dict)
    #: (model, seed, part) -> per-row metric, aligned with ``parts[part]``
    per_row: dict[tuple[str, int, str], np.ndarray] = field(default_factory=dict)
    #: (model, seed, part) -> the value written to runs.csv
    logged: dict[tuple[str, int, str], float] = field(default_factory=dict)
    #: (model, seed, part) for which a predictions file was written
    with_predictions: set = field(default_factory=set)

    def sign(self, cand: float, base: float) -> float:
        """methods.md section 0: candidate-better positive."""
        return cand - base if self.higher_is_better else base - cand

    def seeds(self, model: str, part: str, predictions: bool | None = None) -> list[int]:
        out = sorted({s for (m, s, p) in self.logged if m == model and p == part})
        if predictions is True:
            out = [s for s in out if (model, s, part) in self.with_predictions]
        return out

    def seed_mean_rows(self, model: str, part: str = "test") -> np.ndarray:
        """Per-row metric averaged over the model's networks with predictions on ``part``."""
        seeds = self.seeds(model, part, predictions=True)
        return np.mean([self.per_row[(model, s, part)] for s in seeds], axis=0)


# --------------------------------------------------------------------------- metrics (independent)


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def brute_force_threshold(p: np.ndarray, y: np.ndarray, c_fp: float, c_fn: float) -> float:
    """methods.md section 4 by brute force: every candidate threshold, one full pass each."""
    eps = np.finfo(float).eps
    cands = sorted(set(p.tolist()) | {0.5, float(np.nextafter(1.0, np.inf))})
    costs = []
    for t in cands:
        pred = p >= t
        costs.append((c_fp * np.sum(pred & (y == 0)) + c_fn * np.sum(~pred & (y == 1))) / len(y))
    best = min(costs)
    tied = [t for t, c in zip(cands, costs, strict=True) if c - best <= 8 * eps * abs(best)]
    dmin = min(abs(t - 0.5) for t in tied)
    close = [t for t in tied if abs(t - 0.5) - dmin <= 8 * eps * dmin]
    return float(max(close))


def row_metric(metric: str, y, p, t: float) -> np.ndarray:
    """Per-row values of a built-in or generated metric (y, p given)."""
    y = np.asarray(y, dtype=float)
    p = np.asarray(p, dtype=float)
    if metric == "log_loss":
        return -(y * np.log(p) + (1 - y) * np.log(1 - p))
    if metric == "brier":
        return (p - y) ** 2
    pred = (p >= t).astype(float)
    if metric == "accuracy":
        return (pred == y).astype(float)
    if metric == "error_rate":
        return (pred != y).astype(float)
    if metric == "cost":
        return C_FP * ((pred == 1) & (y == 0)) + C_FN * ((pred == 0) & (y == 1))
    if metric == "custom_low":
        return np.abs(y - p)
    if metric == "custom_high":
        return 1.0 - np.abs(y - p)
    raise ValueError(metric)


# --------------------------------------------------------------------------- layout helpers


def block_sizes(blocks) -> list[int] | None:
    if isinstance(blocks, list | tuple):
        return [int(b) for b in blocks]
    return {
        "none": [300],
        "one": [200],
        "equal": [15] * 20,
        "unequal": [2000] + [5] * 19,
        "weekly52": [6] * 52,
    }[blocks]


def seed_labels(cell: dict) -> tuple[list[int], list[int]]:
    n = cell["seeds"]
    cand = list(range(1, n + 1))
    if cell["labels"] == "match":
        base = list(range(1, n + 1))
    elif cell["labels"] == "disjoint":
        base = list(range(n + 1, 2 * n + 1))
    elif cell["labels"] == "extra":
        base = list(range(1, n + 2))
    else:
        raise ValueError(cell["labels"])
    return cand, base


def parts_of(layout: str, index: int) -> tuple[str, ...]:
    """Which parts the index-th seed of a model was scored on."""
    if layout == "canonical":
        return ("validation", "test") if index == 0 else ("validation",)
    if layout == "val-only":
        return ("validation",)
    if layout == "test-only":
        return ("test",)
    if layout == "both":
        return ("validation", "test")
    if layout == "partly":
        if index < 3:
            return ("validation", "test")
        return ("validation",) if index == 3 else ("test",)
    raise ValueError(layout)


def _strength(cell: dict, model: str, part: str, blocks: np.ndarray | None) -> np.ndarray | float:
    effect = cell["effect"]
    cand = model == CAND
    if effect == "strong":
        return 2.0 if cand else 1.0
    if effect == "very-strong":
        return 3.0 if cand else 0.5
    if effect == "tie":
        return 1.5
    if effect == "worse":
        return 1.0 if cand else 2.0
    if effect == "disagree":
        if part == "validation":
            return 1.0 if cand else 2.0
        return 2.0 if cand else 1.0
    if effect == "flip":
        if part != "test" or blocks is None:
            return 2.0 if cand else 1.0
        big = blocks == blocks[0]
        return np.where(big, 2.0, -1.0) if cand else 1.0
    raise ValueError(effect)


# --------------------------------------------------------------------------- the generator


def make_project(path: Path, **cell) -> Gen:
    """Write the project of one cell under ``path`` (created) and return it with its truth."""
    if cell.get("kind") == "cv":  # cross-validation: tests/layouts/gen_cv.py
        from tests.layouts.gen_cv import make_cv_project

        return make_cv_project(path, **cell)
    if cell.get("task") in ("multiclass", "regression"):
        from tests.layouts.gen_tasks import make_task_project

        return make_task_project(path, **cell)
    unknown = set(cell) - set(DEFAULTS) - {"id"}
    if unknown:
        raise TypeError(f"unknown cell keys {sorted(unknown)}")
    if cell.get("kind") == "ba":
        cell = {"blocks": "none", "min_useful_effect": None, **cell}
    cell = {**DEFAULTS, **cell}
    path = Path(path)
    (path / "split").mkdir(parents=True, exist_ok=True)
    (path / "artefacts" / "predictions").mkdir(parents=True, exist_ok=True)
    (path / "artefacts" / "checks").mkdir(parents=True, exist_ok=True)
    if cell["kind"] == "ba":
        from tests.layouts.gen_ba import make_ba

        return make_ba(path, cell)
    return _make_mvb(path, cell)


def _make_mvb(path: Path, cell: dict) -> Gen:
    rng = np.random.default_rng(cell["seed"])
    metric = cell["metric"]
    custom = CUSTOM.get(metric)
    hib = custom[1] if custom else metric == "accuracy"
    gen = Gen(path, cell, hib, CAND, BASE)
    bcol = cell["block_col"]
    sizes = block_sizes(cell["blocks"])
    for part in ("train", "validation", "test"):
        block = part_blocks(bcol, part, sizes)
        n = len(block)
        signal = rng.normal(size=n).round(6)
        y = (rng.random(n) < _sigmoid(2 * signal)).astype(int)
        if part == "test" and cell["one_class"]:
            y[:] = 0
        route = rng.choice(np.array(["a", "b", "shifted"]), size=n, p=[0.4, 0.35, 0.25])
        if part == "test" and cell["slices"] == "one-row":
            route = np.where(route == "shifted", "b", route)
            route[n // 2] = "rare"
            y[n // 2] = 1 if not cell["one_class"] else 0
        if part == "test" and cell["empty_block_rows"]:
            block = block.astype(object)
            block[: cell["empty_block_rows"]] = ""
        gen.parts[part] = pd.DataFrame(
            {
                "row_id": row_ids(part, n),
                bcol: block,
                "route": route,
                "signal": signal,
                "y": y,
            }
        )
        frame = gen.parts[part]
        if part == "validation" and not cell["val_block_column"]:
            frame = frame.drop(columns=[bcol, "route"])
        frame.to_csv(path / "split" / f"{part}.csv", index=False)
    freeze(path, created="2026-01-01T00:00:00Z")
    if cell["edit_after_freeze"]:
        _edit_after_freeze(path)

    cand_labels, base_labels = seed_labels(cell)
    fixed_t = None if cell["threshold"] == "validation-cost" else float(cell["threshold"])
    rows = []
    for model, labels in ((CAND, cand_labels), (BASE, base_labels)):
        for index, seed in enumerate(labels):
            fixed = cell["deterministic"] == "both" or (
                cell["deterministic"] == "baseline" and model == BASE
            )
            srng = np.random.default_rng(
                [cell["seed"], 1 if model == CAND else 2, 0 if fixed else seed]
            )
            jitter = 1 + cell["seed_jitter"] * srng.normal() if not fixed else 1.0
            scored = parts_of(cell["layout"], index)
            probs = {}
            for part in ("validation", "test"):
                df = gen.parts[part]
                s = _strength(cell, model, part, df[bcol].to_numpy()) * jitter
                z = s * df["signal"].to_numpy() + 0.3 * srng.normal(size=len(df))
                p = np.clip(_sigmoid(z), 1e-6, 1 - 1e-6).round(6)
                if part == "test" and cell["slices"] == "one-row":
                    i = len(df) // 2
                    p[i] = 0.001 if model == CAND else 0.9
                probs[part] = p
            # the network's threshold: chosen on its own validation predictions when it has them
            has_val_pred = (
                cell["predictions"]
                and "validation" in scored
                and cell["layout"] != "canonical"
                and metric not in CUSTOM
            )
            if fixed_t is not None:
                t = fixed_t
            elif has_val_pred and metric in THRESHOLD_METRICS:
                vy = gen.parts["validation"]["y"].to_numpy()
                t = brute_force_threshold(probs["validation"], vy, C_FP, C_FN)
            else:
                t = 0.5
            for part in scored:
                df = gen.parts[part]
                values = row_metric(metric, df["y"].to_numpy(), probs[part], t)
                if custom:
                    values = values.round(6)
                    cols = {custom[0]: values}
                    if metric == "custom_low":
                        cols.update(y=df["y"].to_numpy(), p=probs[part])
                else:
                    cols = {"y": df["y"].to_numpy(), "p": probs[part]}
                pred_path = record_part(gen, model, seed, part, values, cols)
                value = _logged_text(gen.logged[(model, seed, part)], cell["log_digits"])
                name = custom[0] if custom else metric
                rows.append(run_row(f"{model}-s{seed}", model, seed, part, name, value, pred_path))
    pd.DataFrame(rows).to_csv(path / "runs.csv", index=False)
    if cell["checks"]:
        write_checks(path, CAND)
    _write_toml(path, cell, hib)
    return gen


def _logged_text(value: float, digits: int | None) -> str:
    return repr(value) if digits is None else f"{value:.{digits}f}"


def _edit_after_freeze(path: Path) -> None:
    """Change split/test.csv's bytes, not its rows: the manifest's sha256 no longer matches."""
    test = path / "split" / "test.csv"
    test.write_bytes(test.read_bytes().replace(b"\n", b"\r\n"))


def _write_toml(path: Path, cell: dict, hib: bool) -> None:
    metric = cell["metric"]
    custom = CUSTOM.get(metric)
    claim = [f'metric = "{custom[0] if custom else metric}"']
    if custom:
        claim.append(f"higher_is_better = {'true' if hib else 'false'}")
    lines = toml_head(cell, "Layout matrix cell", claim)
    if cell["block_kind"] is not None:
        lines.append(f'block_kind = "{cell["block_kind"]}"')
    if cell["slices"] != "none":
        lines.append('slice = "route"')
        req = "rare" if cell["slices"] == "one-row" else "shifted"
        lines.append(f'not_worse_on = ["{req}"]')
    if cell["not_worse_margin"] is not None:
        lines.append(f"not_worse_margin = {cell['not_worse_margin']}")
    if metric in THRESHOLD_METRICS and cell["threshold"] != "validation-cost":
        lines.append(f"threshold = {float(cell['threshold'])}")
    lines += ["", "[costs]", f"false_positive = {C_FP}", f"false_negative = {C_FN}"]
    lines += ['unit = "calls"', "cases_per_period = 1000", 'period = "week"', ""]
    (path / "evreport.toml").write_text("\n".join(lines))
