"""Generate examples/breast-cancer: scikit-learn's MLPClassifier against LogisticRegression.

The data ship with scikit-learn (`load_breast_cancer`, 569 tumours, 30 features;
no download). Written the way a student would: train with scikit-learn, call only
`Recorder.log`, the rung-1 adapter `check_mlp_classifier` and `freeze`
(docs/recording.md). Five paired seeds: seed i draws the same 90% training
subsample for both models (and the MLP's initial weights). Metric: log loss.

    .venv/bin/python examples/make_breast_cancer.py
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
from sklearn.datasets import load_breast_cancer  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent
sys.path.insert(0, str(EXAMPLES.parent))
from reportgen.record import Recorder  # noqa: E402
from reportgen.sanity import check_mlp_classifier  # noqa: E402

OUT = EXAMPLES / "breast-cancer"
SPLIT_SEED = 20260410
SEEDS = range(1, 6)
SUBSAMPLE = 0.9
CREATED = "2026-04-10T09:00:00Z"
RULE_WRITTEN = "2026-04-10"  # the day of the freeze, before the first run
RUNS_START = datetime(2026, 4, 10, 11, 0, 0)
MLP_CFG = dict(hidden_layer_sizes=(64, 32), max_iter=300, learning_rate_init=1e-3)
MLP_ALPHAS = (1e-3, 1e-1, 1.0, 3.0)  # L2 strengths tried on validation (seed 1)
LR_CS = (0.01, 0.1, 1.0, 10.0)  # inverse L2 strengths tried on validation (seed 1)
FEATURES_ID = "wdbc-30 (all 30 features, standardised on train)"
SPLIT_ID = "stratified 60/20/20, seed 20260410"


def make_split() -> dict[str, pd.DataFrame]:
    data = load_breast_cancer(as_frame=True)
    df = data.frame.rename(columns=lambda c: c.replace(" ", "_"))
    # the positive class is the malignant tumour (scikit-learn codes benign as 1)
    df["malignant"] = 1 - df.pop("target")
    df.insert(0, "row_id", [f"wdbc{i:03d}" for i in range(len(df))])
    train, rest = train_test_split(
        df, test_size=0.4, stratify=df.malignant, random_state=SPLIT_SEED
    )
    valid, test = train_test_split(
        rest, test_size=0.5, stratify=rest.malignant, random_state=SPLIT_SEED
    )
    return {"train": train, "validation": valid, "test": test}


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

    cols = [c for c in parts["train"].columns if c not in ("row_id", "malignant")]
    scaler = StandardScaler().fit(parts["train"][cols].to_numpy())
    X = {k: scaler.transform(v[cols].to_numpy()) for k, v in parts.items()}
    y = {k: v["malignant"].to_numpy() for k, v in parts.items()}
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
                p=est.predict_proba(X[part])[:, 1],
                metric=["log_loss", "brier", "accuracy"],
                config=cfg_id,
                features=FEATURES_ID,
                split_id=SPLIT_ID,
                started_at=started,  # a fixed clock: regenerating gives identical files
                notes=note,
            )["log_loss"]
        return out

    # tuning, the same budget for both: each L2 strength once (seed 1) on validation;
    # the lowest validation log loss wins
    def make(model, strength, seed):
        if model == "mlp":
            return MLPClassifier(**MLP_CFG, alpha=strength, random_state=seed)
        return LogisticRegression(C=strength, max_iter=2000)

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

    # final: each chosen config for every seed, on validation and test
    for seed in SEEDS:
        for model in ("mlp", "logreg"):
            cfg_id, _, strength, est1 = chosen[model]
            note = f"final: {cfg_id} chosen on validation"
            if seed == 1:  # the tuning run itself: add its test row (same run_id and start)
                log(model, 1, cfg_id, est1, ["test"], note + " (tuning run, test row)")
                continue
            est = fit(make(model, strength, seed), seed)
            log(model, seed, cfg_id, est, ["validation", "test"], note, next(clock))

    # rung 1 for the candidate: initial loss, tested-library gradient, 32-row overfit, shapes
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
    text = f"""title  = "Breast cancer: scikit-learn MLP against logistic regression"
author = "A. Student (example on scikit-learn's breast-cancer data)"

[claim]
text              = "The MLP is at least as good as logistic regression on log loss."
kind              = "model-vs-baseline"
candidate         = "mlp"
baseline          = "logreg"
metric            = "log_loss"
min_useful_effect = 0.01

[rule]
written          = {RULE_WRITTEN}
seed_sd_multiple = 2.0
seed_sd_from     = "larger"
confidence       = 0.95
resamples        = 2000
random_seed      = 0
seeds_paired     = true

[evaluation]
threshold = "validation-cost"
bins      = 10

[costs]
false_positive = 1.0
false_negative = 5.0
unit           = "follow-up costs (a missed malignancy counts as five unneeded biopsies)"

[reconsider]
when = ["data from another hospital or scanner are available"]
"""
    (OUT / "evreport.toml").write_text(text)


README = """# breast-cancer (scikit-learn's built-in data)

`sklearn.datasets.load_breast_cancer()` (569 tumours, 30 features, 212 malignant),
split 60 / 20 / 20 stratified (train / validation / test). The positive class is
*malignant*. A scikit-learn `MLPClassifier` (64-32 ReLU; L2 `alpha` tuned on
validation over 0.001, 0.1, 1 and 3 with seed 1, every tuning run logged) against
`LogisticRegression` (C tuned the same way over 0.01, 0.1, 1 and 10), both on
standardised features; five paired seeds, seed
*i* drawing the same 90% training subsample for both models.

Written by `examples/make_breast_cancer.py` using only the recording API:
`Recorder.log` (runs.csv rows and full-precision Parquet predictions),
`check_mlp_classifier` (the four rung-1 check files, the gradient credited to
scikit-learn) and `Recorder.freeze`. The claim ("at least as good") was written
before the runs; on these 569 rows the logistic regression is hard to beat.
"""


if __name__ == "__main__":
    main()
