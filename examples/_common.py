"""Helpers shared by the example generators: deterministic writing and freezing.

Import it before numpy (``import _common`` sorts first among the third-party imports): it
pins the linear-algebra libraries to one thread, so every regeneration sums in the same
order, and puts the repository on ``sys.path`` for ``reportgen``.
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import hashlib  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402
from itertools import count  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent
REPO = EXAMPLES.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
P_DECIMALS = 6
P_MIN = 10.0**-P_DECIMALS


def env_string() -> str:
    """The `env` column: interpreter and library versions (deterministic on one machine)."""
    import sklearn

    py = ".".join(platform.python_version_tuple()[:2])
    return f"python={py};numpy={np.__version__};scikit-learn={sklearn.__version__}"


def fresh_dir(path: Path) -> Path:
    """Remove and recreate a project folder so stale files never survive a regeneration."""
    if path.exists():
        shutil.rmtree(path)
    (path / "split").mkdir(parents=True)
    (path / "artefacts" / "predictions").mkdir(parents=True)
    (path / "artefacts" / "checks").mkdir(parents=True)
    return path


def write_csv(df: pd.DataFrame, path: Path, float_format: str = "%.6f") -> None:
    df.to_csv(path, index=False, float_format=float_format, lineterminator="\n")


def write_json(obj: dict, path: Path) -> None:
    path.write_text(json.dumps(obj, indent=2) + "\n")


def round_p(p: np.ndarray) -> np.ndarray:
    """Probabilities exactly as they will be read back from the written file.

    Clipped to [1e-6, 1 - 1e-6] first, so no printed p is 0 or 1 and the log loss
    stays finite; then formatted with 6 decimals and parsed back.
    """
    p = np.clip(np.asarray(p, dtype=float), P_MIN, 1.0 - P_MIN)
    return np.array([float(f"{x:.{P_DECIMALS}f}") for x in p])


def fmt_value(v: float | None) -> str:
    """Run-log values: 12 significant digits; a missing value (failed run) is empty."""
    return "" if v is None else f"{v:.12g}"


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def clock(start: datetime, step_minutes: int = 7):
    """A synthetic, fixed clock for `started_at`: each call is `step_minutes` later."""
    t = start
    while True:
        yield iso(t)
        t += timedelta(minutes=step_minutes)


def select_threshold(p: np.ndarray, y: np.ndarray, c_fp: float = 1.0, c_fn: float = 1.0) -> float:
    """The validation-cost threshold of methods.md section 4 (predict 1 when p >= t).

    Candidates: every distinct score, 0.5 and the "predict none" sentinel
    nextafter(1, inf). Minimum mean cost with ties within 8 eps relative; among
    ties the one closest to 0.5 (same tolerance), then the higher threshold.
    """
    p = np.asarray(p, dtype=float)
    y = np.asarray(y, dtype=int)
    none = float(np.nextafter(1.0, np.inf))
    cands = np.unique(np.concatenate([p, [0.5, none]]))
    order = np.argsort(p, kind="stable")
    ps, ys = p[order], y[order]
    # rows with p >= t are predicted positive: count them with searchsorted on sorted p
    n = len(p)
    pos_total = int(ys.sum())
    cum_pos = np.concatenate([[0], np.cumsum(ys)])  # positives among the first k (lowest) rows
    k = np.searchsorted(ps, cands, side="left")  # rows below t
    fn = cum_pos[k]
    tp = pos_total - fn
    fp = (n - k) - tp
    cost = (c_fp * fp + c_fn * fn) / n
    tol = 8 * np.finfo(float).eps
    best = cost.min()
    tied = cost <= best + tol * abs(best)
    dist = np.abs(cands - 0.5)
    dmin = dist[tied].min()
    closest = tied & (dist <= dmin + tol * abs(dmin))
    return float(cands[closest].max())


def accuracy_at(p: np.ndarray, y: np.ndarray, t: float) -> float:
    return float(((np.asarray(p) >= t).astype(int) == np.asarray(y)).mean())


def freeze(project: Path, created: str) -> None:
    """Write split/manifest.json with `evreport freeze`; fall back to our own writer."""
    cmd = [sys.executable, "-m", "reportgen", "freeze", str(project), "--created", created]
    try:
        r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
        ok = r.returncode == 0 and (project / "split" / "manifest.json").exists()
        why = (r.stderr or r.stdout).strip().splitlines()[-1:] if not ok else []
    except (OSError, subprocess.TimeoutExpired) as e:
        ok, why = False, [str(e)]
    if not ok:
        print(
            f"WARNING: `evreport freeze` unavailable ({' '.join(why) or 'no output'}); "
            f"writing {project.name}/split/manifest.json with the fallback writer",
            file=sys.stderr,
        )
        fallback_freeze(project, created)


def fallback_freeze(project: Path, created: str) -> None:
    """FALLBACK ONLY: the manifest in the exact JSON form of project-format.md.

    sha256 of the file bytes and the number of data rows of each split/*.csv,
    parts named after the file stem, sorted by path as `evreport freeze` does,
    so both writers give the same bytes.
    """
    files = sorted((project / "split").glob("*.csv"))
    entries = []
    for f in files:
        data = f.read_bytes()
        rows = len(pd.read_csv(f, dtype=str, keep_default_na=False))
        entries.append(
            {
                "part": f.stem,
                "path": f"split/{f.name}",
                "sha256": hashlib.sha256(data).hexdigest(),
                "rows": rows,
            }
        )
    write_json(
        {"created": created, "row_id": "row_id", "files": entries},
        project / "split" / "manifest.json",
    )


def toml_table(name: str, items: dict[str, str]) -> str:
    """A TOML table with its ``=`` signs aligned; each value already written as TOML."""
    width = max(map(len, items))
    return f"[{name}]\n" + "".join(f"{key:<{width}} = {value}\n" for key, value in items.items())


def claim_table(
    text: str,
    candidate: str,
    baseline: str,
    metric: str,
    useful: float,
    task: str | None = None,
    unit: str | None = None,
) -> str:
    """The [claim] table of a model-against-baseline example (``task`` and ``unit`` if given)."""
    words = {"text": text, "kind": "model-vs-baseline", "task": task, "candidate": candidate}
    words |= {"baseline": baseline, "metric": metric, "unit": unit}
    items = {k: json.dumps(v) for k, v in words.items() if v is not None}
    return toml_table("claim", items | {"min_useful_effect": str(useful)})


def rule_table(written: str, seeds_paired: bool) -> str:
    """The [rule] table of a model-against-baseline example: the seed rule at 2 sd."""
    rule = {"written": written, "seed_sd_multiple": "2.0", "seed_sd_from": '"larger"'}
    rule |= {"confidence": "0.95", "resamples": "2000", "random_seed": "0"}
    return toml_table("rule", rule | {"seeds_paired": "true" if seeds_paired else "false"})


# -- the scikit-learn examples (breast-cancer, diabetes-regression, digits-multiclass) --------
# Each trains two scikit-learn models with paired seeds and writes only through the
# recording API (the `rec` they pass in); what they share is the protocol below.


def write_split(project: Path, parts: dict[str, pd.DataFrame]) -> None:
    """A fresh project folder holding split/<part>.csv for each part, as the frames are."""
    fresh_dir(project)
    for name, part in parts.items():
        part.to_csv(project / "split" / f"{name}.csv", index=False, lineterminator="\n")


def split_60_20_20(df: pd.DataFrame, seed: int, stratify: str | None = None) -> dict:
    """Train, validation and test parts (60 / 20 / 20), stratified by one column if named."""
    from sklearn.model_selection import train_test_split

    def by(frame):
        return None if stratify is None else frame[stratify]

    train, rest = train_test_split(df, test_size=0.4, stratify=by(df), random_state=seed)
    valid, test = train_test_split(rest, test_size=0.5, stratify=by(rest), random_state=seed)
    return {"train": train, "validation": valid, "test": test}


def standardised(parts: dict[str, pd.DataFrame], cols: list[str]) -> dict[str, np.ndarray]:
    """The feature matrix of each part, standardised with the training part's mean and sd."""
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(parts["train"][cols].to_numpy(dtype=float))
    return {k: scaler.transform(v[cols].to_numpy(dtype=float)) for k, v in parts.items()}


def fit_quietly(est, X: np.ndarray, y: np.ndarray):
    """``est.fit(X, y)`` with scikit-learn's ConvergenceWarning silenced (max_iter is chosen)."""
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return est.fit(X, y)


@dataclass
class PairedSeeds:
    """One scikit-learn example: tune on validation with seed 1, then repeat over paired seeds.

    ``grids`` maps each model, candidate first, to the name of its L2 strength and the
    strengths tried; the first of ``metrics`` picks each model's config (the lowest wins). Seed
    i draws the same ``subsample`` of the training rows for both models. On ``day`` the split
    is frozen (09:00) and the rule written; the runs start at 11:00, ``step_minutes`` apart (a
    fixed clock: regenerating gives identical files).
    """

    name: str  # the folder under examples/
    day: str
    metrics: list[str]
    features: str
    split_id: str
    grids: dict[str, tuple[str, tuple[float, ...]]]
    seeds: range = range(1, 6)
    subsample: float = 0.9
    step_minutes: int = 3

    @property
    def out(self) -> Path:
        return EXAMPLES / self.name

    @property
    def runs_start(self) -> datetime:
        return datetime.fromisoformat(self.day).replace(hour=11)

    def write(
        self, recorder, parts, cols, target, train, rung1, toml: str, readme: str, sensitivity=None
    ) -> None:
        """Write the example folder: split, evreport.toml, the freeze, every run, rung 1, README.

        ``recorder`` is reportgen.record.Recorder, the one writer of runs and predictions;
        ``parts`` the split frames, ``cols`` their feature columns (standardised on train),
        ``target`` the label column; ``train`` as in :meth:`run`; ``rung1(rec, strength, X, y)``
        runs the candidate's rung-1 checks at its chosen strength on the training part;
        ``sensitivity(rec, chosen, rows)``, when given, records input sensitivity from each
        model's chosen strength and seed 1's training rows (``rows``).
        """
        write_split(self.out, parts)
        (self.out / "evreport.toml").write_text(toml)  # the claim and the rule before any run
        rec = recorder(self.out)
        rec.freeze(f"{self.day}T09:00:00Z")
        X = standardised(parts, cols)
        y = {k: v[target].to_numpy() for k, v in parts.items()}
        ids = {k: v["row_id"].to_numpy() for k, v in parts.items()}
        chosen = self.run(rec, X, y, ids, train)
        rung1(rec, chosen[next(iter(self.grids))], X["train"], y["train"])
        if sensitivity is not None:
            sensitivity(rec, chosen, self.rows(len(y["train"]), 1))
        (self.out / "README.md").write_text(readme)

    def rows(self, n: int, seed: int) -> np.ndarray:
        """Seed ``seed``'s training subsample of ``n`` training rows (sorted indices)."""
        return np.sort(
            np.random.default_rng(seed).choice(n, int(self.subsample * n), replace=False)
        )

    def run(self, rec, X: dict, y: dict, ids: dict, train) -> dict[str, float]:
        """Log every tuning and final run through ``rec``; return each model's chosen strength.

        ``train(model, strength, seed, X, y)`` fits one model on the seed's training rows and
        returns a function from a feature matrix to the prediction arguments of
        ``Recorder.log`` (``p=...`` or ``y_pred=...``).
        """
        n = len(y["train"])
        rows = {seed: self.rows(n, seed) for seed in self.seeds}
        starts = (self.runs_start + timedelta(minutes=self.step_minutes * i) for i in count())

        def fit(model, strength, seed):
            return train(model, strength, seed, X["train"][rows[seed]], y["train"][rows[seed]])

        def log(model, seed, cfg_id, predict, parts, note, started=None) -> dict[str, float]:
            """One Recorder.log call per part (runs.csv rows and predictions): its first metric."""
            return {
                part: rec.log(
                    model=model,
                    seed=seed,
                    split=part,
                    row_id=ids[part],
                    y=y[part],
                    **predict(X[part]),
                    metric=self.metrics,
                    config=cfg_id,
                    features=self.features,
                    split_id=self.split_id,
                    started_at=started,
                    notes=note,
                )[self.metrics[0]]
                for part in parts
            }

        # tuning, the same budget for both: each strength once (seed 1) on validation
        chosen = {}
        for model, (name, grid) in self.grids.items():
            tuned = {}
            for strength in grid:
                cfg_id = f"{model}-{name}{strength:g}"
                predict = fit(model, strength, 1)
                note = f"tuning: {name}={strength:g}"
                v = log(model, 1, cfg_id, predict, ["validation"], note, next(starts))
                tuned[cfg_id] = (v["validation"], strength, predict)
            cfg_id = min(tuned, key=lambda c: tuned[c][0])
            chosen[model] = (cfg_id, *tuned[cfg_id])

        # final: each chosen config for every seed, on validation and test
        for seed in self.seeds:
            for model, (cfg_id, _, strength, predict1) in chosen.items():
                note = f"final: {cfg_id} chosen on validation"
                if seed == 1:  # the tuning run itself: add its test row (same run_id and start)
                    log(model, 1, cfg_id, predict1, ["test"], note + " (tuning run, test row)")
                    continue
                predict = fit(model, strength, seed)
                log(model, seed, cfg_id, predict, ["validation", "test"], note, next(starts))
        return {model: c[2] for model, c in chosen.items()}


@dataclass
class Classifiers:
    """The candidate "mlp" (MLPClassifier) and the baseline "logreg" (LogisticRegression).

    ``mlp`` is the MLP's configuration apart from its L2 ``alpha``; the logistic regression's
    strength is its inverse ``C``. ``binary``: Recorder.log takes the positive class's
    probability; otherwise one probability per class, with the classes.
    """

    mlp: dict
    logreg_max_iter: int
    binary: bool

    def make(self, model: str, strength: float, seed: int):
        from sklearn.linear_model import LogisticRegression
        from sklearn.neural_network import MLPClassifier

        if model == "mlp":
            return MLPClassifier(**self.mlp, alpha=strength, random_state=seed)
        return LogisticRegression(C=strength, max_iter=self.logreg_max_iter)

    def train(self, model: str, strength: float, seed: int, X: np.ndarray, y: np.ndarray):
        """One fitted model: the prediction arguments of Recorder.log, as PairedSeeds takes them."""
        est = fit_quietly(self.make(model, strength, seed), X, y)
        if self.binary:
            return lambda Z: {"p": est.predict_proba(Z)[:, 1]}
        return lambda Z: {"p": est.predict_proba(Z), "classes": est.classes_}
