"""Generate examples/digits-multiclass: scikit-learn's MLPClassifier against a multinomial
logistic regression on the ten handwritten digits.

The data ship with scikit-learn (`load_digits`, 1,797 images of 8 x 8 pixels; no download).
Written the way a student would: train with scikit-learn, call only `Recorder.log` (``y``,
``p = predict_proba(X)`` and ``classes = estimator.classes_``), the rung-1 adapter
`check_mlp_classifier` and `freeze` (docs/recording.md). Five paired seeds: seed i draws
the same 90% training subsample for both models. Metric: multi-class log loss; the slice is
the stroke (light or bold writing, by the image's total ink, split at the training median).

    .venv/bin/python examples/make_digits_multiclass.py
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import shutil  # noqa: E402
import sys  # noqa: E402
import warnings  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent
sys.path.insert(0, str(EXAMPLES.parent))
from reportgen.record import Recorder  # noqa: E402
from reportgen.sanity import check_mlp_classifier  # noqa: E402

OUT = EXAMPLES / "digits-multiclass"
SPLIT_SEED = 20260601
SEEDS = range(1, 6)
SUBSAMPLE = 0.9
CREATED = "2026-06-01T09:00:00Z"
RULE_WRITTEN = "2026-06-01"
RUNS_START = datetime(2026, 6, 1, 11, 0, 0)
MLP_CFG = dict(hidden_layer_sizes=(64,), max_iter=500, learning_rate_init=1e-3)
MLP_ALPHAS = (1e-3, 1e-1, 1.0)  # L2 strengths tried on validation (seed 1)
LR_CS = (0.01, 0.1, 1.0)  # inverse L2 strengths, the same budget
FEATURES_ID = "digits-64 (8x8 pixel intensities, standardised on train)"
SPLIT_ID = "stratified 60/20/20, seed 20260601"
METRICS = ["log_loss", "accuracy", "brier"]


def make_split() -> dict[str, pd.DataFrame]:
    data = load_digits(as_frame=True)
    df = data.frame.rename(columns={"target": "digit"})
    df.insert(0, "row_id", [f"dig{i:04d}" for i in range(len(df))])
    pixels = [c for c in df.columns if c.startswith("pixel")]
    ink = df[pixels].sum(axis=1)
    train, rest = train_test_split(df, test_size=0.4, stratify=df.digit, random_state=SPLIT_SEED)
    valid, test = train_test_split(
        rest, test_size=0.5, stratify=rest.digit, random_state=SPLIT_SEED
    )
    cut = float(np.median(ink[train.index]))  # fixed on train
    parts = {"train": train, "validation": valid, "test": test}
    return {
        k: v.assign(stroke=np.where(ink[v.index] > cut, "bold", "light")) for k, v in parts.items()
    }


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    (OUT / "split").mkdir(parents=True)
    parts = make_split()
    for name, part in parts.items():
        part.to_csv(OUT / "split" / f"{name}.csv", index=False, lineterminator="\n")
    write_toml()  # the claim and the rule first, before any run
    rec = Recorder(OUT)
    rec.freeze(CREATED)

    cols = [c for c in parts["train"].columns if c.startswith("pixel")]
    scaler = StandardScaler().fit(parts["train"][cols].to_numpy(dtype=float))
    X = {k: scaler.transform(v[cols].to_numpy(dtype=float)) for k, v in parts.items()}
    y = {k: v["digit"].to_numpy() for k, v in parts.items()}
    ids = {k: v["row_id"].to_numpy() for k, v in parts.items()}
    clock = iter(RUNS_START + timedelta(minutes=3 * i) for i in range(1000))
    subsample = {
        seed: np.sort(
            np.random.default_rng(seed).choice(
                len(y["train"]), int(SUBSAMPLE * len(y["train"])), replace=False
            )
        )
        for seed in SEEDS
    }

    def make(model, strength, seed):
        if model == "mlp":
            return MLPClassifier(**MLP_CFG, alpha=strength, random_state=seed)
        return LogisticRegression(C=strength, max_iter=5000)

    def fit(est, seed):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return est.fit(X["train"][subsample[seed]], y["train"][subsample[seed]])

    def log(model, seed, cfg_id, est, parts_, note, started=None):
        """One Recorder.log call per split: runs.csv rows and Parquet predictions."""
        out = {}
        for part in parts_:
            out[part] = rec.log(
                model=model,
                seed=seed,
                split=part,
                row_id=ids[part],
                y=y[part],
                p=est.predict_proba(X[part]),
                classes=est.classes_,
                metric=METRICS,
                config=cfg_id,
                features=FEATURES_ID,
                split_id=SPLIT_ID,
                started_at=started,  # a fixed clock: regenerating gives identical files
                notes=note,
            )["log_loss"]
        return out

    chosen = {}
    for model, grid, name in (("mlp", MLP_ALPHAS, "alpha"), ("logreg", LR_CS, "C")):
        tuned = {}
        for strength in grid:
            cfg_id = f"{model}-{name}{strength:g}"
            est = fit(make(model, strength, 1), 1)
            v = log(
                model, 1, cfg_id, est, ["validation"], f"tuning: {name}={strength:g}", next(clock)
            )
            tuned[cfg_id] = (v["validation"], strength, est)
        cfg_id = min(tuned, key=lambda c: tuned[c][0])
        chosen[model] = (cfg_id, *tuned[cfg_id])

    for seed in SEEDS:
        for model in ("mlp", "logreg"):
            cfg_id, _, strength, est1 = chosen[model]
            note = f"final: {cfg_id} chosen on validation"
            if seed == 1:
                log(model, 1, cfg_id, est1, ["test"], note + " (tuning run, test row)")
                continue
            est = fit(make(model, strength, seed), seed)
            log(model, seed, cfg_id, est, ["validation", "test"], note, next(clock))

    # rung 1 for the candidate: ten classes, the initial loss against ln 10
    check_mlp_classifier(
        rec,
        "mlp",
        MLPClassifier(**MLP_CFG, alpha=chosen["mlp"][2], random_state=1),
        X["train"],
        y["train"],
        rng=np.random.default_rng(0),
    )
    (OUT / "README.md").write_text(README)


def write_toml() -> None:
    text = f"""title  = "Handwritten digits: scikit-learn MLP against logistic regression"
author = "A. Student (example on scikit-learn's digits data)"

[claim]
text              = "The MLP reads handwritten digits better than logistic regression."
kind              = "model-vs-baseline"
task              = "multiclass"
candidate         = "mlp"
baseline          = "logreg"
metric            = "log_loss"
min_useful_effect = 0.02

[rule]
written          = {RULE_WRITTEN}
seed_sd_multiple = 2.0
seed_sd_from     = "larger"
confidence       = 0.95
resamples        = 2000
random_seed      = 0
seeds_paired     = true

[evaluation]
slice        = "stroke"
not_worse_on = ["light"]
bins         = 10

[reconsider]
when = ["digits written by other people (another census form) are available"]
"""
    (OUT / "evreport.toml").write_text(text)


README = """# digits-multiclass (scikit-learn's built-in data)

`sklearn.datasets.load_digits()`: 1,797 handwritten digits (8 x 8 pixels, ten classes),
split 60 / 20 / 20 stratified by digit (train / validation / test). A scikit-learn
`MLPClassifier` (64 ReLU units; L2 `alpha` tuned on validation over 0.001, 0.1 and 1 with
seed 1) against a multinomial `LogisticRegression` (C tuned over 0.01, 0.1 and 1), both on
standardised pixels; five paired seeds, seed *i* drawing the same 90% training subsample
for both. The metric is the multi-class log loss (accuracy and the multi-class Brier score
are logged too); the slice is the stroke, light or bold writing by the image's total ink
(split at the training median), and the MLP must not be worse on light writing.

Written by `examples/make_digits_multiclass.py` using only the recording API:
`Recorder.log` with `y`, `p = predict_proba(X)` and `classes = estimator.classes_` (one
`p_<digit>` column per class), `check_mlp_classifier` (the four rung-1 check files, the
initial loss against ln 10) and `Recorder.freeze`.
"""


if __name__ == "__main__":
    main()
