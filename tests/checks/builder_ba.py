"""Small synthetic before-after projects: a frozen question set, a general set, controlled changes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from reportgen.project.manifest import freeze
from tests.synthetic import one_run_row, question_frame

CATEGORIES = ("dates", "units", "names", "places")


def make_ba_project(
    root: Path,
    *,
    questions=400,
    before_acc=0.5,
    fixed=120,
    broken=20,
    general=300,
    general_before=0.9,
    general_drop=0.0,
    min_useful_effect=None,
    max_drop=0.02,
    broken_category=None,
    checks=True,
) -> Path:
    """before/after answers with exactly ``fixed`` and ``broken`` questions; the general set drops by ``general_drop``."""
    root = Path(root)
    (root / "split").mkdir(parents=True)
    (root / "artefacts" / "predictions").mkdir(parents=True)
    (root / "artefacts" / "checks").mkdir(parents=True)
    rng = np.random.default_rng(11)
    ids = [f"q{i:04d}" for i in range(questions)]
    cat = np.array([CATEGORIES[i % len(CATEGORIES)] for i in range(questions)], dtype=object)
    before = np.zeros(questions, dtype=int)
    before[rng.permutation(questions)[: int(before_acc * questions)]] = 1
    after = before.copy()
    wrong, right = np.flatnonzero(before == 0), np.flatnonzero(before == 1)
    after[rng.permutation(wrong)[:fixed]] = 1
    pool = right if broken_category is None else right[cat[right] == broken_category]
    after[rng.permutation(pool)[:broken]] = 0
    gids = [f"g{i:04d}" for i in range(general)]
    g_before = (np.arange(general) < round(general_before * general)).astype(int)
    g_after = (np.arange(general) < round((general_before - general_drop) * general)).astype(int)
    pd.DataFrame({"row_id": ids, "category": cat}).to_csv(root / "split" / "test.csv", index=False)
    pd.DataFrame({"row_id": gids}).to_csv(root / "split" / "general.csv", index=False)
    pd.DataFrame({"row_id": [f"t{i}" for i in range(50)]}).to_csv(
        root / "split" / "train.csv", index=False
    )
    freeze(root, created="2026-01-01T00:00:00Z")
    rows = []
    for model, q, g in (("before", before, g_before), ("after", after, g_after)):
        for split, ids_, vals in (("test", ids, q), ("general", gids, g)):
            path = f"artefacts/predictions/{model}-{split}.csv"
            question_frame(ids_, vals, cat if split == "test" else None).to_csv(
                root / path, index=False
            )
            day = 3 if model == "before" else 4
            started = f"2026-01-0{day}T00:00:00Z"
            rows.append(one_run_row(model, split, f"{vals.mean():.12g}", started, path))
    pd.DataFrame(rows).to_csv(root / "runs.csv", index=False)
    if checks:
        (root / "artefacts" / "checks" / "shapes.json").write_text(
            json.dumps({"check": "shapes", "model": "after", "passed": True, "assertions": 8})
        )
    mue = f"min_useful_effect = {min_useful_effect}\n" if min_useful_effect is not None else ""
    (root / "evreport.toml").write_text(f"""title = "Synthetic before-after"
[claim]
text = "tuning helps"
kind = "before-after"
candidate = "after"
baseline = "before"
metric = "accuracy"
{mue}
[rule]
written = 2026-01-02
resamples = 500
[general]
split = "general"
max_drop = {max_drop}
""")
    return root


def write_ba_project(
    root: Path,
    *,
    before: dict[str, int],
    after: dict[str, int],
    general_before: dict[str, int],
    general_after: dict[str, int],
    test_ids: list[str] | None = None,
    general_ids: list[str] | None = None,
    category: dict[str, str] | None = None,
    evaluation: str = "",
    min_useful_effect=None,
    max_drop=0.02,
) -> Path:
    """A before-after project from explicit answers (question id -> correct) per version and set.

    ``test_ids`` / ``general_ids``: the split files' ids (default: every id either version
    answered; ``general_ids=[]`` leaves split/general.csv out of the split and the manifest);
    ``category``: a category column for the test split and predictions; ``evaluation``: lines of
    the [evaluation] table.
    """
    root = Path(root)
    (root / "split").mkdir(parents=True)
    (root / "artefacts" / "predictions").mkdir(parents=True)
    (root / "artefacts" / "checks").mkdir(parents=True)
    test_ids = test_ids if test_ids is not None else sorted(set(before) | set(after))
    general_ids = (
        general_ids if general_ids is not None else sorted(set(general_before) | set(general_after))
    )
    test = pd.DataFrame({"row_id": test_ids})
    if category is not None:
        test["category"] = [category[i] for i in test_ids]
    test.to_csv(root / "split" / "test.csv", index=False)
    if general_ids:
        pd.DataFrame({"row_id": general_ids}).to_csv(root / "split" / "general.csv", index=False)
    pd.DataFrame({"row_id": [f"t{i}" for i in range(50)]}).to_csv(
        root / "split" / "train.csv", index=False
    )
    freeze(root, created="2026-01-01T00:00:00Z")
    rows = []
    for model, answers in (
        ("before", {"test": before, "general": general_before}),
        ("after", {"test": after, "general": general_after}),
    ):
        for split, got in answers.items():
            path = f"artefacts/predictions/{model}-{split}.csv"
            frame = pd.DataFrame({"row_id": list(got), "correct": list(got.values())})
            if split == "test" and category is not None:
                frame["category"] = [category[i] for i in got]
            frame.to_csv(root / path, index=False)
            rows.append(
                {
                    "run_id": model,
                    "model": model,
                    "seed": 0,
                    "split": split,
                    "metric": "accuracy",
                    "value": repr(float(np.mean(list(got.values())))),
                    "status": "ok",
                    "started_at": f"2026-01-0{3 if model == 'before' else 4}T00:00:00Z",
                    "predictions": path,
                }
            )
    pd.DataFrame(rows).to_csv(root / "runs.csv", index=False)
    (root / "artefacts" / "checks" / "shapes.json").write_text(
        json.dumps({"check": "shapes", "model": "after", "passed": True, "assertions": 8})
    )
    mue = f"min_useful_effect = {min_useful_effect}\n" if min_useful_effect is not None else ""
    (root / "evreport.toml").write_text(f"""title = "Synthetic before-after"
[claim]
text = "tuning helps"
kind = "before-after"
candidate = "after"
baseline = "before"
metric = "accuracy"
{mue}
[rule]
written = 2026-01-02
resamples = 500
[evaluation]
{evaluation}
[general]
split = "general"
max_drop = {max_drop}
""")
    return root
