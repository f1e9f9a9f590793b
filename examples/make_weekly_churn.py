"""Generate examples/weekly-churn: a numpy MLP against gradient boosting on weekly churn.

Synthetic customers arrive in weekly cohorts; churn depends smoothly on a few
oblique combinations of the features. Acquisition route "shifted" changes in
the test period (a price rise moves its charges above anything seen in
training, and its usage signal weakens), which is where the MLP extrapolates
badly. Runs are logged with `reportgen.record.Recorder` (CSV predictions at full
precision). Everything below is seeded; regenerating gives byte-identical files.

    .venv/bin/python examples/make_weekly_churn.py
"""

from __future__ import annotations

from datetime import datetime

import _common  # noqa: F401  (first: one BLAS thread before numpy, the repo on sys.path)
import _nnet
import numpy as np
import pandas as pd
from _common import (
    EXAMPLES,
    P_MIN,
    claim_table,
    clock,
    fresh_dir,
    rule_table,
    write_csv,
    write_json,
)
from sklearn.ensemble import HistGradientBoostingClassifier

from reportgen.record import Recorder
from reportgen.sanity import check_sensitivity, input_sensitivity

OUT = EXAMPLES / "weekly-churn"
DATA_SEED = 20260301
CREATED = "2026-03-02T09:00:00Z"  # split frozen before the rule is dated and before any run
RULE_WRITTEN = "2026-03-02"  # the day of the freeze, after it; before the runs
RUNS_START = datetime(2026, 3, 3, 9, 0, 0)

TRAIN_WEEKS = range(1, 21)  # weeks 1-20
VALID_WEEKS = range(21, 25)  # weeks 21-24
TEST_WEEKS = range(25, 55)  # weeks 25-54: 30 weekly blocks
ROUTES = ["organic", "partner", "paid", "shifted"]
ROUTE_P = [0.35, 0.25, 0.25, 0.15]
NUMERIC = [
    "tenure_months",
    "monthly_charges",
    "support_calls",
    "usage_change",
    "days_since_login",
    "discount",
]
FEATURES = NUMERIC + [f"route_{r}" for r in ROUTES]

MLP_CONFIGS = {
    "mlp-a": dict(hidden=(16,), lr=3e-3, l2=1e-3, epochs=40, batch_size=64),
    "mlp-b": dict(hidden=(64, 32), lr=2e-3, l2=1e-4, epochs=30, batch_size=64),
    "mlp-c": dict(hidden=(32,), lr=3e-3, l2=1e-4, epochs=30, batch_size=32),
}
#: (max_iter, max_leaf_nodes, min_samples_leaf) of each; the rest is shared. The key order
#: is the order runs.csv's notes list them in.
GBM_CONFIGS = {
    cfg_id: dict(
        learning_rate=0.05,
        max_iter=iters,
        max_leaf_nodes=leaves,
        min_samples_leaf=leaf,
        l2_regularization=1.0,
        max_features=0.7,
    )
    for cfg_id, (iters, leaves, leaf) in {"gbm-a": (200, 8, 40), "gbm-b": (400, 15, 20)}.items()
}
FINAL_SEEDS = [1, 2, 3, 4, 5, 6]
FAILED = ("mlp", 4)  # this run's job is recorded as failed (see notes)


def make_data(rng: np.random.Generator) -> pd.DataFrame:
    """Weekly cohorts of customers with a churn label."""
    frames = []
    row = 0
    for week in [*TRAIN_WEEKS, *VALID_WEEKS, *TEST_WEEKS]:
        n = int(rng.integers(80, 121))
        route = rng.choice(ROUTES, size=n, p=ROUTE_P)
        tenure = rng.gamma(2.0, 9.0, size=n)
        charges = rng.normal(60, 18, size=n) + 8 * (route == "paid")
        calls = rng.poisson(1.2 + 0.8 * (route == "partner"), size=n).astype(float)
        usage = rng.normal(0, 1, size=n)
        login = rng.exponential(6.0, size=n)
        discount = rng.uniform(0, 0.3, size=n) * (rng.uniform(size=n) < 0.4)
        shifted_now = (route == "shifted") & (week >= TEST_WEEKS.start)
        # the price rise on the shifted route: charges jump and keep rising
        charges = np.where(shifted_now, charges + 25 + 0.4 * (week - TEST_WEEKS.start), charges)
        # standardised inputs for the true logit
        t = (np.log1p(tenure) - 2.6) / 0.8
        c = (charges - 62) / 18
        s = (calls - 1.4) / 1.2
        g = (login - 6) / 6
        usage_weight = np.where(shifted_now, 0.4, 1.0)  # usage matters less after the change
        # after the price rise the charges effect saturates: the new plan bundles more
        c_eff = np.where(shifted_now, np.minimum(c, 1.5), c)
        z = (
            -1.45
            + 1.4 * np.tanh(0.9 * c_eff - 0.8 * t + 0.4 * s)
            + 0.8 * np.tanh(0.7 * g - usage_weight * usage)
            + 0.5 * (calls >= 3)
            - 0.6 * ((discount > 0) & (c_eff > 0))
            + 0.3 * np.tanh(s * g)
        )
        churn = (rng.uniform(size=n) < 1 / (1 + np.exp(-z))).astype(int)
        frames.append(
            pd.DataFrame(
                {
                    "row_id": np.arange(row, row + n) + 100000,
                    "week": week,
                    "route": route,
                    "tenure_months": tenure.round(1),
                    "monthly_charges": charges.round(2),
                    "support_calls": calls.astype(int),
                    "usage_change": usage.round(3),
                    "days_since_login": login.round(1),
                    "discount": discount.round(3),
                    "churned": churn,
                }
            )
        )
        row += n
    return pd.concat(frames, ignore_index=True)


def design(df: pd.DataFrame, mean=None, sd=None):
    """Model inputs: numeric features standardised with training moments, route one-hot."""
    X = df[NUMERIC].to_numpy(dtype=float)
    X[:, 0] = np.log1p(X[:, 0])
    if mean is None:
        mean, sd = X.mean(axis=0), X.std(axis=0)
    X = (X - mean) / sd
    onehot = np.stack([(df["route"] == r).to_numpy(dtype=float) for r in ROUTES], axis=1)
    return np.hstack([X, onehot]), mean, sd


def fit_mlp(cfg, X, y, seed):
    rng = np.random.default_rng(seed)
    net = _nnet.MLP(X.shape[1], cfg["hidden"], 2, "relu", rng=rng)
    _nnet.train(
        net,
        X,
        y,
        epochs=cfg["epochs"],
        batch_size=cfg["batch_size"],
        lr=cfg["lr"],
        l2=cfg["l2"],
        rng=rng,
    )
    return lambda Z: net.predict_proba(Z)[:, 1]


def fit_gbm(cfg, X, y, seed):
    m = HistGradientBoostingClassifier(**cfg, early_stopping=False, random_state=seed)
    m.fit(X, y)
    return lambda Z: m.predict_proba(Z)[:, 1]


def main() -> None:
    rng = np.random.default_rng(DATA_SEED)
    df = make_data(rng)
    parts = {
        "train": df[df.week.isin(TRAIN_WEEKS)],
        "validation": df[df.week.isin(VALID_WEEKS)],
        "test": df[df.week.isin(TEST_WEEKS)],
    }
    fresh_dir(OUT)
    for name, part in parts.items():
        write_csv(part, OUT / "split" / f"{name}.csv", float_format="%.10g")
    Recorder(OUT).freeze(CREATED)

    Xtr, mu, sd = design(parts["train"])
    ytr = parts["train"]["churned"].to_numpy()
    Xs = {k: design(v, mu, sd)[0] for k, v in parts.items()}
    ys = {k: v["churned"].to_numpy() for k, v in parts.items()}
    features_id = f"churn-v1 ({len(FEATURES)} cols)"
    split_id = "weeks 1-20 / 21-24 / 25-54"

    clk = clock(RUNS_START)
    rec = Recorder(OUT, predictions="csv")
    tests: list[tuple[str, float]] = []  # (model, test log loss) of the final runs
    started_at: dict[str, str] = {}
    n_run = 0

    def log_run(model, seed, cfg_id, predict, splits, notes, failed=False, run_id=None):
        nonlocal n_run
        if run_id is None:
            n_run += 1
            run_id = f"r{n_run:02d}-{model}-s{seed}"
            started_at[run_id] = next(clk)
        value = None
        for split in splits:
            common = dict(
                model=model,
                seed=seed,
                split=split,
                metric="log_loss",
                run_id=run_id,
                started_at=started_at[run_id],
                config=cfg_id,
                features=features_id,
                split_id=split_id,
                notes=notes,
            )
            if failed:
                rec.log(**common, status="failed")
                continue
            # the model's own output, clipped so no p is exactly 0 or 1; full precision
            p = np.clip(predict(Xs[split]), P_MIN, 1.0 - P_MIN)
            value = rec.log(**common, row_id=parts[split]["row_id"].to_numpy(), y=ys[split], p=p)[
                "log_loss"
            ]
            if split == "test":
                tests.append((model, value))
        return run_id, value

    def describe(cfg):
        return "; ".join(f"{k}={v}" for k, v in cfg.items())

    # tuning: every config once (seed 1) on validation; pick the lowest validation log loss
    chosen, tuning_run = {}, {}
    for model, configs, fit in (("mlp", MLP_CONFIGS, fit_mlp), ("gbm", GBM_CONFIGS, fit_gbm)):
        best = None
        for cfg_id, cfg in configs.items():
            predict = fit(cfg, Xtr, ytr, 1)
            run_id, v = log_run(
                model, 1, cfg_id, predict, ["validation"], f"tuning: {describe(cfg)}"
            )
            if best is None or v < best[0]:
                best = (v, cfg_id, predict, run_id)
        chosen[model] = best[1]
        tuning_run[model] = best

    # final: the chosen config for every seed on validation and test (test opened once per
    # model); seed 1 is the tuning run itself, so only its test row is added
    for model, configs, fit in (("mlp", MLP_CONFIGS, fit_mlp), ("gbm", GBM_CONFIGS, fit_gbm)):
        cfg_id = chosen[model]
        for seed in FINAL_SEEDS:
            if seed == 1:
                _, _, predict, run_id = tuning_run[model]
                log_run(
                    model,
                    seed,
                    cfg_id,
                    predict,
                    ["test"],
                    f"final: {cfg_id} chosen on validation (tuning run, test row)",
                    run_id=run_id,
                )
            elif (model, seed) == FAILED:
                log_run(
                    model,
                    seed,
                    cfg_id,
                    None,
                    ["validation", "test"],
                    "final: job killed before evaluation (a failure written into this example on purpose)",
                    failed=True,
                )
            else:
                predict = fit(configs[cfg_id], Xtr, ytr, seed)
                log_run(
                    model,
                    seed,
                    cfg_id,
                    predict,
                    ["validation", "test"],
                    f"final: {cfg_id} chosen on validation",
                )

    write_checks(Xtr, ytr, MLP_CONFIGS[chosen["mlp"]])
    write_sensitivity(
        parts, mu, sd, Xtr, ytr, MLP_CONFIGS[chosen["mlp"]], GBM_CONFIGS[chosen["gbm"]]
    )
    write_toml(claimed_gap(tests))
    write_texts()


#: the raw numeric features' units (route is categorical: no derivative, held at each row's)
UNITS = {
    "tenure_months": "month",
    "support_calls": "call",
    "days_since_login": "day",
}


def write_sensitivity(parts, mu, sd, Xtr, ytr, mlp_cfg, gbm_cfg) -> None:
    """Input sensitivity on the test rows, per raw unit of each numeric feature (route held at
    each row's value): the chosen MLP's seed-1 network (refit, seeded: the logged run's
    network) by central differences through the whole input pipeline (log1p of tenure, the
    training moments), a relu net's kinks left out of the agreement; the gradient boosting
    baseline gets its one sentence (piecewise constant)."""
    test = parts["test"]
    rng = np.random.default_rng(1)
    net = _nnet.MLP(Xtr.shape[1], mlp_cfg["hidden"], 2, "relu", rng=rng)
    _nnet.train(
        net,
        Xtr,
        ytr,
        epochs=mlp_cfg["epochs"],
        batch_size=mlp_cfg["batch_size"],
        lr=mlp_cfg["lr"],
        l2=mlp_cfg["l2"],
        rng=rng,
    )

    def inputs(Z):
        frame = test.copy()
        frame[NUMERIC] = Z
        return design(frame, mu, sd)[0]

    def pattern(Z):
        h, on = inputs(Z), []
        for i in range(len(net.params) // 2 - 1):
            z = h @ net.params[2 * i] + net.params[2 * i + 1]
            on.append(z > 0)
            h = np.maximum(z, 0.0)
        return np.concatenate(on, axis=1)

    check_sensitivity(
        lambda Z: net.predict_proba(inputs(Z))[:, 1],
        test[NUMERIC],
        project=OUT,
        model="mlp",
        units=UNITS,
        pattern=pattern,
    )
    gbm = HistGradientBoostingClassifier(**gbm_cfg, early_stopping=False, random_state=1)
    input_sensitivity(OUT, "gbm", gbm.fit(Xtr, ytr), test[NUMERIC])


def write_checks(Xtr, ytr, cfg) -> None:
    """Rung-1 checks for the candidate, really run on the chosen architecture."""
    rng = np.random.default_rng(7)
    batch = rng.choice(len(ytr), size=256, replace=False)
    checks = OUT / "artefacts" / "checks"
    net = _nnet.MLP(Xtr.shape[1], cfg["hidden"], 2, "relu", rng=np.random.default_rng(1))
    res = _nnet.check_initial_loss(net, Xtr[batch], ytr[batch])
    write_json({"check": "initial_loss", "model": "mlp", **res}, checks / "initial_loss.json")
    net = _nnet.MLP(Xtr.shape[1], cfg["hidden"], 2, "relu", rng=np.random.default_rng(2))
    res = _nnet.check_gradient(net, Xtr[batch[:16]], ytr[batch[:16]], l2=cfg["l2"])
    write_json({"check": "gradient", "model": "mlp", **res}, checks / "gradient.json")
    net = _nnet.MLP(Xtr.shape[1], cfg["hidden"], 2, "relu", rng=np.random.default_rng(3))
    res = _nnet.check_overfit(
        net, Xtr[batch[:32]], ytr[batch[:32]], epochs=300, lr=1e-2, rng=np.random.default_rng(3)
    )
    write_json({"check": "overfit", "model": "mlp", **res}, checks / "overfit.json")
    net = _nnet.MLP(Xtr.shape[1], cfg["hidden"], 2, "relu", rng=np.random.default_rng(4))
    res = _nnet.check_shapes(net, Xtr[batch[:64]], ytr[batch[:64]])
    write_json({"check": "shapes", "model": "mlp", **res}, checks / "shapes.json")


def claimed_gap(tests: list[tuple[str, float]]) -> float:
    """The gap a hopeful author would quote: the best MLP seed against the GBM seed mean on test."""
    gbm = [v for m, v in tests if m == "gbm"]
    mlp = [v for m, v in tests if m == "mlp"]
    return float(np.mean(gbm) - min(mlp))


def write_toml(gap: float) -> None:
    text = f"""title  = "Weekly churn: MLP against gradient boosting"
author = "A. Student (synthetic example)"

{claim_table(f"The MLP beats gradient boosting by {gap:.3f} test log loss.", "mlp", "gbm", "log_loss", 0.005)}
{rule_table(RULE_WRITTEN, seeds_paired=False)}
[evaluation]
block        = "week"
slice        = "route"
not_worse_on = ["shifted"]
threshold    = "validation-cost"
bins         = 10

[costs]
false_positive   = 1.0
false_negative   = 3.0
unit             = "retention-offer costs (EUR 20 each)"
cases_per_period = 10000
period           = "week"

[reconsider]
when = ["twelve weeks of data after the shifted route's price change are in the training set"]

[evidence]
relevant = ["artefacts/cost-model.md"]

[models]
mlp = "MLP (1 x 32)"
gbm = "gradient boosting"
"""
    (OUT / "evreport.toml").write_text(text)


def write_texts() -> None:
    (OUT / "artefacts" / "cost-model.md").write_text(COST_MODEL)
    (OUT / "README.md").write_text(README)


COST_MODEL = """# Cost model: why a missed churner costs three false alarms

Each week about 10,000 customers are scored. Those with a churn probability at
or above the chosen threshold get a retention offer.

- **False positive** (offer sent to a customer who would have stayed): the offer
  itself, a EUR 20 discount plus handling. This is the unit: **1**.
- **False negative** (a churner who got no offer): the lost margin over the
  following quarter, about EUR 60, net of the offer's expected cost. **3** units.
- True positives and true negatives are counted as 0: the offer's cost for a
  saved customer is paid back by the margin kept, and we do not model the
  uplift of the offer itself.

So `[costs] false_positive = 1, false_negative = 3`, and the theoretical cutoff
is 1 / (1 + 3) = 0.25. Both models choose their own threshold on the validation
weeks (`threshold = "validation-cost"`).

`min_useful_effect = 0.005` (log loss): replacing the production gradient
boosting model with a network means a new serving path and retraining job; the
team agreed before the runs that a gain smaller than 0.005 test log loss is not
worth that.

These numbers are illustrative (this is a synthetic example project).
"""

README = """# weekly-churn (synthetic example)

A model-vs-baseline comparison in the form `evreport` reads: a small numpy MLP
(`examples/_nnet.py`, two ReLU layers, softmax cross-entropy, Adam) against
scikit-learn's `HistGradientBoostingClassifier`, on a synthetic weekly churn
task. Generated by `examples/make_weekly_churn.py` (`make examples` from the
repository root); regenerating gives byte-identical files.

- Data: weekly customer cohorts (80-120 rows a week). Train = weeks 1-20,
  validation = weeks 21-24, test = weeks 25-54 (30 weekly blocks). Column
  `route` is the acquisition route; on route `shifted` a price rise in the test
  period moves `monthly_charges` above anything seen in training and weakens
  the usage signal.
- Tuning: three MLP configs and two GBM configs, one run each (seed 1) on
  validation; the lowest validation log loss is chosen. The chosen config is run
  for seeds 1-6 on validation and test; seed 1 is the tuning run itself, so its
  test row shares that run id. Only the chosen config of each model has test rows.
- MLP seed 4 is recorded as a failed job (status `failed`, empty value, no
  predictions): a failure written in on purpose, to show that a failed run keeps
  its row.
- Predictions (`artefacts/predictions/<run_id>-<split>.csv`) hold `row_id, y, p`
  only; `week` and `route` are joined from the split files. `p` is clipped to
  [1e-6, 1 - 1e-6] and written with 6 decimals; each logged `value` is
  `sklearn.metrics.log_loss` of exactly the written `p`.
- `fit_seconds` is left empty on purpose: measured times would make the folder
  differ between regenerations.
- Rung-1 checks in `artefacts/checks/` were really run on the MLP code: loss of
  the untrained net, finite-difference gradient check (float64), overfitting 32
  rows, shape assertions. The cost model is `artefacts/cost-model.md`.

What to expect from the report: the MLP's seed-mean test log loss is slightly
better than the GBM's, but its validation gap is about one seed sd (not two), the
config was chosen on one lucky seed, and it is worse on the `shifted` route.
"""


if __name__ == "__main__":
    main()
