"""A seeded generator of cross-validation projects (``[evaluation] design = "cv"``), with the truth
the tests need to recompute every figure independently (methods.md section 9).

``make_cv_project(path, **cell)`` writes evreport.toml, split/folds.csv (unless ``folds_file`` is
False: a run-log-only project), an optional held-out split/test.csv, the manifest, runs.csv with
one ``split = "fold"`` row per model, seed, repeat and fold, and per-fold predictions (unless
``predictions`` is False). Every logged value is the exact mean of its per-row metric.

Cell keys (defaults in ``CV_DEFAULTS``): ``repeats`` R, ``folds`` K, ``rows`` N (cut into K
nearly equal folds per repeat) or ``sizes`` (explicit fold sizes of every repeat, unequal
folds), ``seeds`` (candidate, baseline) per fold, ``effect`` (strong | tie | none | worse),
``metric`` (log_loss | brier | accuracy | custom_low), ``predictions``, ``fmt`` (csv |
parquet), ``folds_file``, ``test_part`` (a held-out test part scored once),
``train_rows`` (log train_rows = this many rows on every fold row), ``min_useful_effect``,
``deterministic_baseline`` (the baseline's seeds agree: zero seed spread), ``task`` (binary |
multiclass: three classes, p_<class> columns, log loss | regression: y_pred, squared error),
``swap_classes`` (multiclass: the candidate's p_ columns named in the wrong order), ``unit``
(``[claim] unit`` of a regression), ``paired`` (``[rule] seeds_paired``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from reportgen.project.manifest import freeze
from tests.layouts.gen_io import BASE, CAND, run_row, write_predictions
from tests.layouts.gen_tasks import write_task_checks
from tests.synthetic import write_checks

CV_DEFAULTS: dict = {
    "kind": "cv",
    "repeats": 3,
    "folds": 5,
    "rows": 200,
    "sizes": None,
    "seeds": (2, 2),
    "effect": "strong",
    "metric": "log_loss",
    "predictions": True,
    "fmt": "csv",
    "folds_file": True,
    "test_part": False,
    "train_rows": None,
    "min_useful_effect": 0.01,
    "deterministic_baseline": False,
    "paired": False,
    "seed": 0,
    "checks": True,
    "task": "binary",
    "swap_classes": False,
    "unit": None,
}
#: the classes of a multi-class cell
CLASSES = ("a", "b", "c")


@dataclass
class CvGen:
    """A generated cv project and its truth."""

    path: Path
    cell: dict
    higher_is_better: bool
    #: (repeat, fold) -> row ids held out
    folds: dict[tuple[int, int], list[str]] = field(default_factory=dict)
    #: (model, seed, repeat, fold) -> per-row metric on the fold's rows (file order)
    per_row: dict[tuple[str, int, int, int], np.ndarray] = field(default_factory=dict)
    #: (model, seed, repeat, fold) -> logged value; (model, seed, "test") on the held-out part
    logged: dict[tuple, float] = field(default_factory=dict)
    rows: int = 0

    def sign(self, cand, base):
        return cand - base if self.higher_is_better else base - cand

    def fold_gaps(self) -> np.ndarray:
        """d_rk: the seed-averaged per-row gap, row-weighted within each fold, in fold order."""
        out = []
        for r, k in sorted(self.folds):
            c = np.mean(
                [v for (m, _, rr, kk), v in self.per_row.items() if (m, rr, kk) == (CAND, r, k)],
                axis=0,
            )
            b = np.mean(
                [v for (m, _, rr, kk), v in self.per_row.items() if (m, rr, kk) == (BASE, r, k)],
                axis=0,
            )
            out.append(float(np.mean(self.sign(c, b))))
        return np.array(out)

    def ratio(self) -> float:
        """Mean over folds of n_test / n_train (train_rows when logged)."""
        out = []
        for _key, ids in sorted(self.folds.items()):
            n_train = self.cell["train_rows"] or (self.rows - len(ids))
            out.append(len(ids) / n_train)
        return float(np.mean(out))


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _labels(cell: dict, x, rng) -> np.ndarray:
    """Every row's label: 0/1 (binary), a class index (multiclass) or a number (regression)."""
    if cell["task"] == "multiclass":
        return np.digitize(x + 0.5 * rng.normal(size=len(x)), [-0.45, 0.45])
    if cell["task"] == "regression":
        return (10 * x + 3 * rng.normal(size=len(x))).round(4) + 50.0
    return (rng.random(len(x)) < _sigmoid(2 * x)).astype(int)


def _scored(gen: CvGen, model: str, x, y, s: float, noise) -> tuple[dict, np.ndarray]:
    """One network's prediction columns and per-row metric for rows with signal ``x``."""
    cell = gen.cell
    if cell["task"] == "multiclass":
        z = s * np.stack([-x, np.zeros_like(x), x], axis=1) * 2 + 0.3 * noise[:, None]
        pr = np.exp(z - z.max(axis=1, keepdims=True))
        pr = np.clip(pr / pr.sum(axis=1, keepdims=True), 1e-6, None).round(8)
        pr /= pr.sum(axis=1, keepdims=True)
        names = list(CLASSES)
        if model == CAND and cell["swap_classes"]:
            names = names[1:] + names[:1]
        read = pr[:, [names.index(c) for c in CLASSES]]  # as the report reads the columns
        values = -np.log(read[np.arange(len(y)), y])  # logged as the files read
        return {f"p_{c}": pr[:, j] for j, c in enumerate(names)}, values
    if cell["task"] == "regression":
        y_pred = 10 * x + 50.0 + (3.0 / s) * noise
        return {"y_pred": y_pred}, (y - y_pred) ** 2
    p = np.clip(_sigmoid(s * x + 0.3 * noise), 1e-6, 1 - 1e-6).round(6)
    return {"p": p}, _row_metric(cell["metric"], y, p)


def _row_metric(metric: str, y, p) -> np.ndarray:
    if metric == "log_loss":
        return -(y * np.log(p) + (1 - y) * np.log(1 - p))
    if metric == "brier":
        return (p - y) ** 2
    if metric == "accuracy":
        return ((p >= 0.5).astype(float) == y).astype(float)
    if metric == "custom_low":
        return np.abs(y - p).round(6)
    raise ValueError(metric)


def _strength(effect: str, model: str) -> float:
    cand = model == CAND
    return {
        "strong": 2.2 if cand else 1.0,
        "tie": 1.5,
        "none": 1.5,
        "worse": 0.8 if cand else 2.0,
    }[effect]


def _assign(cell: dict, n: int, rng) -> list[np.ndarray]:
    """Per repeat, the fold (1..K) of each of the n rows."""
    out = []
    for _ in range(cell["repeats"]):
        if cell["sizes"] is not None:
            sizes = list(cell["sizes"])
        else:
            base, extra = divmod(n, cell["folds"])
            sizes = [base + (1 if i < extra else 0) for i in range(cell["folds"])]
        labels = np.repeat(np.arange(1, len(sizes) + 1), sizes)
        out.append(rng.permutation(labels))
    return out


def make_cv_project(path: Path, **cell) -> CvGen:
    """Write one cv cell's project under ``path`` and return it with its truth."""
    unknown = set(cell) - set(CV_DEFAULTS) - {"id"}
    if unknown:
        raise TypeError(f"unknown cv cell keys {sorted(unknown)}")
    cell = {**CV_DEFAULTS, **cell}
    if cell["task"] == "regression" and cell["metric"] == "log_loss":
        cell["metric"] = "squared_error"
    path = Path(path)
    for d in ("split", "artefacts/predictions", "artefacts/checks"):
        (path / d).mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(cell["seed"])
    n = sum(cell["sizes"]) if cell["sizes"] is not None else cell["rows"]
    metric = cell["metric"]
    hib = metric == "accuracy"
    gen = CvGen(path, cell, hib, rows=n)
    ids = np.array([f"r{i:04d}" for i in range(n)], dtype=object)
    x = rng.normal(size=n).round(6)
    y = _labels(cell, x, rng)
    assign = _assign(cell, n, rng)
    fold_rows = []
    for r, labels in enumerate(assign, 1):
        for k in range(1, int(labels.max()) + 1):
            members = ids[labels == k]
            gen.folds[(r, k)] = list(members)
        fold_rows += [
            {"row_id": i, "repeat": r, "fold": int(f)} for i, f in zip(ids, labels, strict=True)
        ]
    if cell["folds_file"]:
        pd.DataFrame(fold_rows).to_csv(path / "split" / "folds.csv", index=False)
    test = None
    if cell["test_part"]:
        tn = 120
        tx = rng.normal(size=tn).round(6)
        test = pd.DataFrame(
            {"row_id": [f"t{i:04d}" for i in range(tn)], "x": tx, "y": _labels(cell, tx, rng)}
        )
        test.to_csv(path / "split" / "test.csv", index=False)
    if cell["folds_file"] or cell["test_part"]:
        freeze(path, created="2026-01-01T00:00:00Z")
    pos = {rid: i for i, rid in enumerate(ids)}
    runs = []
    for model, n_seeds in ((CAND, cell["seeds"][0]), (BASE, cell["seeds"][1])):
        for seed in range(1, n_seeds + 1):
            runs += _fold_runs(gen, model, seed, x, y, pos)
            if test is not None:
                runs.append(_test_run(gen, model, seed, test))
    frame = pd.DataFrame(runs)
    if cell["train_rows"] is None:
        frame = frame.drop(columns=["train_rows"])
    frame.to_csv(path / "runs.csv", index=False)
    if cell["checks"] and cell["task"] == "binary":
        write_checks(path, CAND)
    elif cell["checks"]:
        write_task_checks(path, cell)
    _write_toml(path, cell)
    return gen


def _predictions(gen: CvGen, name: str, ids, y, pcols: dict, values) -> str:
    """Write one network's predictions on some rows (with ``abs_err`` for custom_low)."""
    if gen.cell["task"] == "multiclass":
        y = np.array(CLASSES)[y]
    cols = {"row_id": ids, "y": y, **pcols}
    if gen.cell["metric"] == "custom_low":
        cols["abs_err"] = values
    return write_predictions(gen.path, name, pd.DataFrame(cols), gen.cell["fmt"])


def _fold_runs(gen: CvGen, model: str, seed: int, x, y, pos: dict) -> list[dict]:
    """One network's runs on every (repeat, fold), each scored on that fold's rows."""
    cell, metric = gen.cell, gen.cell["metric"]
    fixed = model == BASE and cell["deterministic_baseline"]
    runs = []
    for (r, k), members in sorted(gen.folds.items()):
        frng = np.random.default_rng(
            [cell["seed"], 1 if model == CAND else 2, 0 if fixed else seed, r, k]
        )
        at = np.array([pos[m] for m in members])
        s = _strength(cell["effect"], model) * (1 + 0.1 * frng.normal())
        pcols, values = _scored(gen, model, x[at], y[at], s, frng.normal(size=len(at)))
        key = (model, seed, r, k)
        gen.per_row[key] = values
        gen.logged[key] = float(np.mean(values))
        pred = ""
        if cell["predictions"]:
            pred = _predictions(gen, f"{model}-s{seed}-r{r}-f{k}", members, y[at], pcols, values)
        runs.append(
            run_row(
                f"{model}-s{seed}-r{r}-f{k}",
                model,
                seed,
                "fold",
                "abs_err" if metric == "custom_low" else metric,
                repr(gen.logged[key]),
                pred,
                split_id="folds-1",
                repeat=r,
                fold=k,
                train_rows=cell["train_rows"] or "",
            )
        )
    return runs


def _test_run(gen: CvGen, model: str, seed: int, test: pd.DataFrame) -> dict:
    """One network's final run on the test part (the model as shipped)."""
    cell, metric = gen.cell, gen.cell["metric"]
    trng = np.random.default_rng([cell["seed"], 1 if model == CAND else 2, seed, 99])
    s = _strength(cell["effect"], model)
    tx, ty = test["x"].to_numpy(), test["y"].to_numpy()
    tp, tv = _scored(gen, model, tx, ty, s, trng.normal(size=len(test)))
    gen.logged[(model, seed, "test")] = float(np.mean(tv))
    tpath = _predictions(gen, f"{model}-s{seed}-test", test["row_id"], test["y"], tp, tv)
    return run_row(
        f"{model}-s{seed}-final",
        model,
        seed,
        "test",
        "abs_err" if metric == "custom_low" else metric,
        repr(gen.logged[(model, seed, "test")]),
        tpath,
        started_at="2026-01-04T00:00:00Z",
        split_id="folds-1",
        repeat="",
        fold="",
        train_rows="",
    )


def _write_toml(path: Path, cell: dict) -> None:
    metric = cell["metric"]
    lines = ['title = "Cross-validation cell"', "", "[claim]", 'text = "net beats base"']
    lines += [f'candidate = "{CAND}"', f'baseline = "{BASE}"']
    lines.append(f'metric = "{"abs_err" if metric == "custom_low" else metric}"')
    if metric == "custom_low":
        lines.append("higher_is_better = false")
    if cell["task"] != "binary":
        lines.append(f'task = "{cell["task"]}"')
    if cell["unit"]:
        lines.append(f'unit = "{cell["unit"]}"')
    if cell["min_useful_effect"] is not None:
        lines.append(f"min_useful_effect = {cell['min_useful_effect']}")
    lines += ["", "[rule]", "written = 2026-01-02", "resamples = 200"]
    lines.append(f"seeds_paired = {'true' if cell['paired'] else 'false'}")
    lines += ["", "[evaluation]", 'design = "cv"', ""]
    (path / "evreport.toml").write_text("\n".join(lines))
