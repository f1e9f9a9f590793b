"""Small synthetic before-after projects: a frozen question set, a general set, controlled changes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from reportgen.project.manifest import freeze
from tests.synthetic import one_run_row, project_folder, question_frame

CATEGORIES = ("dates", "units", "names", "places")
#: write_ba_project's general set when a test gives none: both versions 270 of 300 right
GENERAL = {f"g{i:04d}": int(i % 10 != 0) for i in range(300)}
#: a harm on 300 frozen questions: 150 right before; 5 fixed and 40 broken after
#: (−0.117, t interval −0.159 to −0.075)
Q300 = [f"q{i:04d}" for i in range(300)]
HARM = (
    {q: int(i < 150) for i, q in enumerate(Q300)},
    {q: int(40 <= i < 155) for i, q in enumerate(Q300)},
)


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
    root = project_folder(root)
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
        _write_shapes(root)
    _write_config(root, min_useful_effect, max_drop)
    return root


def _write_shapes(root: Path) -> None:
    """The after version's one rung-1 check file (shapes)."""
    (root / "artefacts" / "checks" / "shapes.json").write_text(
        json.dumps({"check": "shapes", "model": "after", "passed": True, "assertions": 8})
    )


def _write_config(root: Path, min_useful_effect, max_drop, evaluation: str | None = None) -> None:
    """evreport.toml of a before-after project; an [evaluation] table when ``evaluation`` is given."""
    mue = f"min_useful_effect = {min_useful_effect}\n" if min_useful_effect is not None else ""
    table = f"[evaluation]\n{evaluation}\n" if evaluation is not None else ""
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
{table}[general]
split = "general"
max_drop = {max_drop}
""")


def write_ba_project(
    root: Path,
    *,
    before: dict[str, int],
    after: dict[str, int],
    general_before: dict[str, int] = GENERAL,
    general_after: dict[str, int] = GENERAL,
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
    root = project_folder(root)
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
            value = repr(float(np.mean(list(got.values()))))
            started = f"2026-01-0{3 if model == 'before' else 4}T00:00:00Z"
            rows.append(one_run_row(model, split, value, started, path))
    pd.DataFrame(rows).to_csv(root / "runs.csv", index=False)
    _write_shapes(root)
    _write_config(root, min_useful_effect, max_drop, evaluation)
    return root
