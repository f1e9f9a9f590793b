"""A small binary-classification project written through Recorder, for the recording tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

CREATED = "2020-01-01T00:00:00Z"

TOML = """title = "Recorder test"

[claim]
text      = "mlp beats lr"
candidate = "mlp"
baseline  = "lr"
metric    = "{metric}"

[evaluation]
threshold = "validation-cost"

[costs]
false_positive = 1.0
false_negative = 2.0
"""


def write_split(root: Path, n: int = 60, seed: int = 0) -> dict[str, pd.DataFrame]:
    """Three split files (train/validation/test) with a binary label; returns them."""
    rng = np.random.default_rng(seed)
    (root / "split").mkdir(parents=True, exist_ok=True)
    parts = {}
    start = 1000
    for part, size in (("train", n), ("validation", n), ("test", n)):
        df = pd.DataFrame(
            {
                "row_id": np.arange(start, start + size),
                "x": rng.normal(size=size).round(4),
                "y": rng.integers(0, 2, size=size),
            }
        )
        df.to_csv(root / "split" / f"{part}.csv", index=False, lineterminator="\n")
        parts[part] = df
        start += size
    return parts


def fake_p(y: np.ndarray, skill: float, seed: int) -> np.ndarray:
    """Probabilities that lean towards the label by ``skill``, never exactly 0 or 1."""
    rng = np.random.default_rng(seed)
    z = skill * (2 * y - 1) + rng.normal(size=len(y))
    return 1 / (1 + np.exp(-z))


def log(rec, **kwargs):
    """``rec.log`` of model "mlp", seed 1 and the log loss, unless the call says otherwise."""
    return rec.log(**{"model": "mlp", "seed": 1, "metric": "log_loss", **kwargs})


def log_both(rec, parts, skill: float, seeds=(1, 2, 3), **kwargs) -> None:
    """Log mlp (leaning ``skill`` towards the label) and lr (1.0) on validation and test,
    one run per seed, with configs mlp-a and lr-a on features x."""
    for model, lean in (("mlp", skill), ("lr", 1.0)):
        for seed in seeds:
            for split in ("validation", "test"):
                y = parts[split]["y"].to_numpy()
                p = fake_p(y, lean, 10 * seed + (split == "test"))
                log(
                    rec,
                    model=model,
                    seed=seed,
                    split=split,
                    row_id=parts[split]["row_id"],
                    y=y,
                    p=p,
                    config=f"{model}-a",
                    features="x",
                    **kwargs,
                )


@pytest.fixture
def project(tmp_path):
    """A project folder with a frozen split and a log-loss claim, no runs yet."""
    from reportgen.record import Recorder

    root = tmp_path / "proj"
    root.mkdir()
    (root / "evreport.toml").write_text(TOML.format(metric="log_loss"))
    parts = write_split(root)
    rec = Recorder(root)
    rec.freeze(CREATED)
    return root, rec, parts
