"""Build small synthetic model-vs-baseline projects with controlled evidence, for ladder/decision tests."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from reportgen.record import Recorder
from tests.synthetic import write_checks


def _p(signal, strength, noise, rng):
    z = strength * signal + noise * rng.normal(size=signal.shape)
    return np.clip(1 / (1 + np.exp(-z)), 1e-6, 1 - 1e-6).round(6)


def make_project(
    root: Path,
    *,
    seeds=5,
    cand_strength=2.0,
    base_strength=1.0,
    seed_jitter=0.02,
    predictions=True,
    checks=True,
    manifest=True,
    test_configs=1,
    shifted_worse=False,
    min_useful_effect=0.01,
    blocks=30,
    rows_per_block=40,
    not_worse_on=("shifted",),
    features_differ=False,
    seed_rows=None,
) -> Path:
    """A project whose candidate is better by an amount set by the strengths; returns its folder."""
    rec = Recorder(root, predictions="csv")
    rng = np.random.default_rng(7)
    parts = {}
    for part, nb, off in (("train", 10, 0), ("validation", 10, 10), ("test", blocks, 20)):
        n = nb * rows_per_block
        signal = rng.normal(size=n)
        y = (rng.random(n) < 1 / (1 + np.exp(-2 * signal))).astype(int)
        week = np.repeat(np.arange(off + 1, off + nb + 1), rows_per_block)
        route = np.where(rng.random(n) < 0.25, "shifted", np.where(rng.random(n) < 0.5, "a", "b"))
        ids = [f"{part[:2]}{i:05d}" for i in range(n)]
        df = pd.DataFrame(
            {"row_id": ids, "week": week, "route": route, "signal": signal.round(6), "y": y}
        )
        df.to_csv(rec.root / "split" / f"{part}.csv", index=False)
        parts[part] = df
    if manifest:
        rec.freeze(created="2026-01-01T00:00:00Z")
    line_seed = 0
    with warnings.catch_warnings():
        if not manifest:  # the point of manifest=False
            warnings.filterwarnings("ignore", message=".*freeze the split")
        for model, strength in (("net", cand_strength), ("base", base_strength)):
            configs = [f"{model}-a", f"{model}-b"]
            for seed in range(1, seeds + 1):
                line_seed += 1
                srng = np.random.default_rng(1000 + line_seed)
                s = strength * (1 + seed_jitter * srng.normal())
                for part in ("validation", "test"):
                    df = parts[part]
                    p = _p(df["signal"].to_numpy(), s, 0.3, srng)
                    if shifted_worse and model == "net" and part == "test":
                        sh = (df["route"] == "shifted").to_numpy()
                        p[sh] = _p(df["signal"].to_numpy()[sh], 0.3 * s, 0.3, srng)
                    cfgs = configs[:test_configs] if part == "test" else configs[:1]
                    for k, cfg in enumerate(cfgs):
                        rec.log(
                            model=model,
                            seed=seed,
                            split=part,
                            metric="log_loss",
                            row_id=df["row_id"],
                            y=df["y"],
                            p=p,
                            # tests read artefacts/predictions/{model}-{seed}-{part}.csv
                            run_id=f"{model}-{seed}" + (f"-{cfg}" if k else ""),
                            config=cfg,
                            features="f2" if (features_differ and model == "base") else "f1",
                            split_id="s1",
                            started_at="2026-01-03T00:00:00Z",
                            env="",
                        )
    if not predictions:
        _drop_predictions(rec.root)
    if checks:
        write_checks(rec.root, "net")
    nwo = ", ".join(f'"{s}"' for s in not_worse_on)
    mue = f"min_useful_effect = {min_useful_effect}\n" if min_useful_effect is not None else ""
    (rec.root / "evreport.toml").write_text(f"""title = "Synthetic"
[claim]
text = "net beats base"
candidate = "net"
baseline = "base"
metric = "log_loss"
{mue}
[rule]
written = 2026-01-02
resamples = 500
[evaluation]
block = "week"
slice = "route"
not_worse_on = [{nwo}]
[costs]
false_positive = 1
false_negative = 2
unit = "calls"
cases_per_period = 1000
period = "week"
""")
    return rec.root


def _drop_predictions(root: Path) -> None:
    """Empty runs.csv's predictions column and delete the files: a run-log-only project."""
    # raw write: Recorder writes predictions with every run it logs
    runs = pd.read_csv(root / "runs.csv", dtype=str, keep_default_na=False)
    runs["predictions"] = ""
    runs.to_csv(root / "runs.csv", index=False)
    for f in (root / "artefacts" / "predictions").iterdir():
        f.unlink()
