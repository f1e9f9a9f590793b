"""Pieces the tests' synthetic-project builders (tests/checks/builder.py, tests/layouts/gen*.py)
write the same way: rung-1 check files, before-after predictions and their run-log rows."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

#: the four rung-1 check files of a model that passes them
RUNG1_CHECKS = (
    ("initial_loss", {"value": 0.70, "classes": 2}),
    ("gradient", {"max_relative_error": 1e-7}),
    ("overfit", {"rows": 32, "final_loss": 0.01, "accuracy": 1.0}),
    ("shapes", {"passed": True, "assertions": 12}),
)


def write_checks(root: Path, model: str) -> None:
    """artefacts/checks/*.json: ``model`` passes every rung-1 check."""
    for name, body in RUNG1_CHECKS:
        (root / "artefacts" / "checks" / f"{name}.json").write_text(
            json.dumps({"check": name, "model": model, **body})
        )


def question_frame(ids: list[str], correct, categories=None) -> pd.DataFrame:
    """A before-after predictions frame: row_id and correct, with category and text if given."""
    frame = pd.DataFrame({"row_id": ids, "correct": correct})
    if categories is not None:
        frame["category"] = categories
        frame["text"] = [f"{i}: question text" for i in ids]
    return frame


def one_run_row(model: str, split: str, value: str, started_at: str, predictions: str) -> dict:
    """The runs.csv row of a model's only run (seed 0) on ``split``, scored by accuracy."""
    return {
        "run_id": model,
        "model": model,
        "seed": 0,
        "split": split,
        "metric": "accuracy",
        "value": value,
        "status": "ok",
        "started_at": started_at,
        "predictions": predictions,
    }
