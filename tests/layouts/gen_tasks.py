"""Generated multi-class and regression projects for the layout matrix.

``make_task_project(path, **cell)`` writes a complete project like ``gen.make_project``, for
``task = "multiclass"`` (y and p_<class> columns) or ``"regression"`` (y and y_pred), and
returns a ``gen.Gen`` with the truth: every network's per-row metric, computed here with
numpy from the definitions in docs/methods.md, never with reportgen.

Cell keys beyond gen.DEFAULTS' layout keys (layout, seeds, labels, predictions, fmt, paired,
blocks, block_col, slices, effect, min_useful_effect, checks, seed):

- ``task``: multiclass | regression; ``explicit_task``: write ``[claim] task`` (False: the
  report infers it from the columns);
- ``metric``: multiclass log_loss | brier | accuracy | error_rate; regression squared_error |
  absolute_error;
- ``classes``: how many classes (multiclass); ``missing_class``: the last class has no rows
  in the first test block;
- ``unit``: ``[claim] unit`` (regression), or None; ``scale``: the target's scale.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from reportgen.project.manifest import freeze
from tests.layouts import gen_io
from tests.layouts.gen import DEFAULTS, Gen, block_sizes, parts_of, seed_labels
from tests.layouts.gen_io import BASE, CAND

TASK_DEFAULTS = {
    **DEFAULTS,
    "task": "multiclass",
    "explicit_task": True,
    "metric": None,
    "classes": 3,
    "missing_class": False,
    "unit": None,
    "scale": 100.0,
}
TASK_KEYS = set(TASK_DEFAULTS) | {"id", "kind"}


def mc_row_metric(metric: str, y: np.ndarray, proba: np.ndarray) -> np.ndarray:
    """Multi-class per-row metrics by their definitions (methods.md)."""
    n, k = proba.shape
    eps = np.finfo(float).eps
    if metric == "log_loss":
        return -np.log(np.clip(proba[np.arange(n), y], eps, 1 - eps))
    if metric == "brier":
        onehot = np.eye(k)[y]
        return ((proba - onehot) ** 2).sum(axis=1) * (0.5 if k == 2 else 1.0)
    right = (proba.argmax(axis=1) == y).astype(float)
    if metric == "accuracy":
        return right
    if metric == "error_rate":
        return 1 - right
    raise ValueError(metric)


def reg_row_metric(metric: str, y: np.ndarray, y_pred: np.ndarray) -> np.ndarray:
    if metric == "squared_error":
        return (y - y_pred) ** 2
    if metric == "absolute_error":
        return np.abs(y - y_pred)
    raise ValueError(metric)


def _strength(cell: dict, model: str) -> float:
    effect = cell["effect"]
    cand = model == CAND
    return {
        "strong": 2.0 if cand else 1.0,
        "very-strong": 3.0 if cand else 0.5,
        "tie": 1.5,
        "worse": 1.0 if cand else 2.0,
    }[effect]


def make_task_project(path: Path, **cell) -> Gen:
    unknown = set(cell) - TASK_KEYS
    if unknown:
        raise TypeError(f"unknown task cell keys {sorted(unknown)}")
    cell = {**TASK_DEFAULTS, **cell}
    if cell["metric"] is None:
        cell["metric"] = "log_loss" if cell["task"] == "multiclass" else "squared_error"
    path = Path(path)
    for d in ("split", "artefacts/predictions", "artefacts/checks"):
        (path / d).mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(cell["seed"])
    multi = cell["task"] == "multiclass"
    hib = cell["metric"] == "accuracy"
    gen = Gen(path, cell, hib, CAND, BASE)
    k = cell["classes"]
    bcol = cell["block_col"]
    sizes = block_sizes(cell["blocks"])
    latent: dict[str, np.ndarray] = {}
    for part in ("train", "validation", "test"):
        block = gen_io.part_blocks(bcol, part, sizes)
        n = len(block)
        signal = rng.normal(size=(n, k if multi else 1)).round(6)
        if multi:
            z = 2.0 * signal
            pr = np.exp(z - z.max(axis=1, keepdims=True))
            pr /= pr.sum(axis=1, keepdims=True)
            y = np.array([rng.choice(k, p=row) for row in pr])
            if part == "test" and cell["missing_class"]:
                first = block == block[0]
                y[first & (y == k - 1)] = 0
        else:
            y = (cell["scale"] * (signal[:, 0] + 0.5 * rng.normal(size=n))).round(4) + 50.0
        route = rng.choice(np.array(["a", "b", "shifted"]), size=n, p=[0.4, 0.35, 0.25])
        gen.parts[part] = pd.DataFrame(
            {"row_id": gen_io.row_ids(part, n), bcol: block, "route": route, "y": y}
        )
        latent[part] = signal
        gen.parts[part].to_csv(path / "split" / f"{part}.csv", index=False)
    freeze(path, created="2026-01-01T00:00:00Z")
    rows = _write_runs(gen, cell, latent)
    pd.DataFrame(rows).to_csv(path / "runs.csv", index=False)
    if cell["checks"]:
        write_task_checks(path, cell)
    _write_toml(path, cell)
    return gen


def _write_runs(gen: Gen, cell: dict, latent: dict) -> list[dict]:
    multi = cell["task"] == "multiclass"
    k = cell["classes"]
    cand_labels, base_labels = seed_labels(cell)
    rows = []
    for model, labels in ((CAND, cand_labels), (BASE, base_labels)):
        for index, seed in enumerate(labels):
            srng = np.random.default_rng([cell["seed"], 1 if model == CAND else 2, seed])
            s = _strength(cell, model) * (1 + 0.05 * srng.normal())
            for part in parts_of(cell["layout"], index):
                df = gen.parts[part]
                y = df["y"].to_numpy()
                if multi:
                    z = s * latent[part] + 0.3 * srng.normal(size=latent[part].shape)
                    pr = np.exp(z - z.max(axis=1, keepdims=True))
                    pr /= pr.sum(axis=1, keepdims=True)
                    values = mc_row_metric(cell["metric"], y, pr)
                    cols = {f"p_{c}": pr[:, c] for c in range(k)}
                else:
                    noise = cell["scale"] * (0.8 / s) * srng.normal(size=len(df))
                    y_pred = cell["scale"] * latent[part][:, 0] + 50.0 + noise
                    values = reg_row_metric(cell["metric"], y, y_pred)
                    cols = {"y_pred": y_pred}
                pred_path = gen_io.record_part(
                    gen, model, seed, part, values, {"y": y, **cols}, "%.17g"
                )
                value = repr(gen.logged[(model, seed, part)])
                run = gen_io.run_row(
                    f"{model}-s{seed}", model, seed, part, cell["metric"], value, pred_path
                )
                rows.append(run)
    return rows


def write_task_checks(path: Path, cell: dict) -> None:
    """artefacts/checks/*.json of a multi-class (``classes``) or regression candidate."""
    if cell["task"] == "multiclass":
        k = cell.get("classes", 3)
        init = {"value": float(np.log(k)) + 0.05, "classes": k}
    else:
        init = {"value": 1.4, "task": "regression", "target_variance": 1.0}
    for name, body in (
        ("initial_loss", init),
        ("gradient", {"max_relative_error": 1e-7}),
        ("overfit", {"rows": 32, "final_loss": 0.01, "accuracy": 1.0}),
        ("shapes", {"passed": True, "assertions": 12}),
    ):
        (path / "artefacts" / "checks" / f"{name}.json").write_text(
            json.dumps({"check": name, "model": CAND, **body})
        )


def _write_toml(path: Path, cell: dict) -> None:
    claim = [f'metric = "{cell["metric"]}"']
    if cell["explicit_task"]:
        claim.append(f'task = "{cell["task"]}"')
    if cell["unit"]:
        claim.append(f'unit = "{cell["unit"]}"')
    lines = gen_io.toml_head(cell, "Layout matrix task cell", claim)
    if cell["slices"] != "none":
        lines += ['slice = "route"', 'not_worse_on = ["shifted"]']
    lines.append("")
    (path / "evreport.toml").write_text("\n".join(lines))
