"""Generate examples/diabetes-regression: scikit-learn's MLPRegressor against Ridge.

The data ship with scikit-learn (`load_diabetes`, 442 patients, 10 baseline measurements,
the target a measure of disease progression one year later; no download). Written the way
a student would: train with scikit-learn, call only `Recorder.log` (``y`` and ``y_pred``),
the rung-1 adapter `check_mlp_regressor` and `freeze` (docs/recording.md). Both models see
standardised features; the MLP is trained on the standardised target (its rung-1 check is
run on that target) and its predictions are mapped back to progression points. Five paired
seeds: seed i draws the same 90% training subsample for both models. Metric: squared error.

    .venv/bin/python examples/make_diabetes_regression.py
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
from sklearn.datasets import load_diabetes  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.neural_network import MLPRegressor  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent
sys.path.insert(0, str(EXAMPLES.parent))
from reportgen.record import Recorder  # noqa: E402
from reportgen.sanity import check_mlp_regressor  # noqa: E402

OUT = EXAMPLES / "diabetes-regression"
SPLIT_SEED = 20260501
SEEDS = range(1, 6)
SUBSAMPLE = 0.9
CREATED = "2026-05-01T09:00:00Z"
RULE_WRITTEN = "2026-05-01"
RUNS_START = datetime(2026, 5, 1, 11, 0, 0)
MLP_CFG = dict(hidden_layer_sizes=(32,), max_iter=2000, learning_rate_init=1e-3)
MLP_ALPHAS = (1e-2, 1.0, 10.0)  # L2 strengths tried on validation (seed 1)
RIDGE_ALPHAS = (0.1, 1.0, 10.0)  # the same budget for the baseline
FEATURES_ID = "diabetes-10 (all 10 baseline measurements, standardised on train)"
SPLIT_ID = "random 60/20/20, seed 20260501"
METRICS = ["squared_error", "absolute_error"]


def make_split() -> dict[str, pd.DataFrame]:
    data = load_diabetes(as_frame=True, scaled=False)
    df = data.frame.rename(columns={"target": "progression"})
    df.insert(0, "row_id", [f"dia{i:03d}" for i in range(len(df))])
    df["age_band"] = np.where(df["age"] < 50, "under 50", "50 and over")
    train, rest = train_test_split(df, test_size=0.4, random_state=SPLIT_SEED)
    valid, test = train_test_split(rest, test_size=0.5, random_state=SPLIT_SEED)
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

    cols = [c for c in parts["train"].columns if c not in ("row_id", "progression", "age_band")]
    scaler = StandardScaler().fit(parts["train"][cols].to_numpy())
    X = {k: scaler.transform(v[cols].to_numpy()) for k, v in parts.items()}
    y = {k: v["progression"].to_numpy(dtype=float) for k, v in parts.items()}
    ids = {k: v["row_id"].to_numpy() for k, v in parts.items()}
    mean, sd = float(np.mean(y["train"])), float(np.std(y["train"]))
    clock = iter(RUNS_START + timedelta(minutes=3 * i) for i in range(1000))
    subsample = {
        seed: np.sort(
            np.random.default_rng(seed).choice(
                len(y["train"]), int(SUBSAMPLE * len(y["train"])), replace=False
            )
        )
        for seed in SEEDS
    }

    def fit(model, strength, seed):
        rows = subsample[seed]
        if model == "ridge":
            return Ridge(alpha=strength).fit(X["train"][rows], y["train"][rows]).predict
        est = MLPRegressor(**MLP_CFG, alpha=strength, random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est.fit(X["train"][rows], (y["train"][rows] - mean) / sd)
        return lambda Z: mean + sd * est.predict(Z)

    def log(model, seed, cfg_id, predict, parts_, note, started=None):
        """One Recorder.log call per split: runs.csv rows and Parquet predictions."""
        out = {}
        for part in parts_:
            out[part] = rec.log(
                model=model,
                seed=seed,
                split=part,
                row_id=ids[part],
                y=y[part],
                y_pred=predict(X[part]),
                metric=METRICS,
                config=cfg_id,
                features=FEATURES_ID,
                split_id=SPLIT_ID,
                started_at=started,  # a fixed clock: regenerating gives identical files
                notes=note,
            )["squared_error"]
        return out

    chosen = {}
    for model, grid in (("mlp", MLP_ALPHAS), ("ridge", RIDGE_ALPHAS)):
        tuned = {}
        for strength in grid:
            cfg_id = f"{model}-alpha{strength:g}"
            predict = fit(model, strength, 1)
            v = log(
                model,
                1,
                cfg_id,
                predict,
                ["validation"],
                f"tuning: alpha={strength:g}",
                next(clock),
            )
            tuned[cfg_id] = (v["validation"], strength, predict)
        cfg_id = min(tuned, key=lambda c: tuned[c][0])
        chosen[model] = (cfg_id, *tuned[cfg_id])

    for seed in SEEDS:
        for model in ("mlp", "ridge"):
            cfg_id, _, strength, predict1 = chosen[model]
            note = f"final: {cfg_id} chosen on validation"
            if seed == 1:  # the tuning run itself: add its test row
                log(model, 1, cfg_id, predict1, ["test"], note + " (tuning run, test row)")
                continue
            log(
                model,
                seed,
                cfg_id,
                fit(model, strength, seed),
                ["validation", "test"],
                note,
                next(clock),
            )

    # rung 1 for the candidate, on the standardised target the network is trained on
    check_mlp_regressor(
        rec,
        "mlp",
        MLPRegressor(**MLP_CFG, alpha=chosen["mlp"][2], random_state=1),
        X["train"],
        (y["train"] - mean) / sd,
        rng=np.random.default_rng(0),
    )
    (OUT / "README.md").write_text(README)


def write_toml() -> None:
    text = f"""title  = "Diabetes progression: scikit-learn MLP against ridge regression"
author = "A. Student (example on scikit-learn's diabetes data)"

[claim]
text              = "The MLP predicts disease progression better than ridge regression."
kind              = "model-vs-baseline"
task              = "regression"
candidate         = "mlp"
baseline          = "ridge"
metric            = "squared_error"
unit              = "points"
min_useful_effect = 100

[rule]
written          = {RULE_WRITTEN}
seed_sd_multiple = 2.0
seed_sd_from     = "larger"
confidence       = 0.95
resamples        = 2000
random_seed      = 0
seeds_paired     = true

[evaluation]
slice = "age_band"

[reconsider]
when = ["a second cohort with the same baseline measurements is available"]
"""
    (OUT / "evreport.toml").write_text(text)


README = """# diabetes-regression (scikit-learn's built-in data)

`sklearn.datasets.load_diabetes(scaled=False)`: 442 patients, 10 baseline measurements
(age, sex, BMI, blood pressure and six blood serum values); the target is a measure of
disease progression one year later, in points (25 to 346). Split 60 / 20 / 20 at random
(train / validation / test). A scikit-learn `MLPRegressor` (32 ReLU units, trained on the
standardised target; L2 `alpha` tuned on validation over 0.01, 1 and 10 with seed 1) against
`Ridge` (alpha tuned over 0.1, 1 and 10), both on standardised features; five paired seeds,
seed *i* drawing the same 90% training subsample for both. The metric is the squared error
(the report shows the MSE with the RMSE beside it); the slice is the patient's age band.

Written by `examples/make_diabetes_regression.py` using only the recording API:
`Recorder.log` with `y` and `y_pred`, `check_mlp_regressor` (the four rung-1 check files,
the initial MSE against the variance of the standardised target) and `Recorder.freeze`.
"""


if __name__ == "__main__":
    main()
