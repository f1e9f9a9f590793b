"""Small synthetic before-after projects: a frozen question set, a general set, controlled changes."""

from __future__ import annotations

import csv
import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from reportgen.record import Recorder
from reportgen.record.io import csv_bytes

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
    rec = Recorder(root, predictions="csv")
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
    _write_split(rec.root, ids, gids, cat)
    rec.freeze(created="2026-01-01T00:00:00Z")
    _write_config(rec.root, min_useful_effect, max_drop)
    labels = {"category": cat, "text": [f"{i}: question text" for i in ids]}
    for model, q, g in (("before", before, g_before), ("after", after, g_after)):
        _log(rec, model, "test", dict(zip(ids, q, strict=True)), **labels)
        _log(rec, model, "general", dict(zip(gids, g, strict=True)))
    if checks:
        _write_shapes(rec.root)
    return rec.root


def _write_split(root: Path, test_ids, general_ids, category=None) -> None:
    """split/test.csv (with ``category`` when given), split/general.csv unless there are no
    general ids, and a 50-row split/train.csv."""
    test = pd.DataFrame({"row_id": test_ids})
    if category is not None:
        test["category"] = category
    test.to_csv(root / "split" / "test.csv", index=False)
    if len(general_ids):
        pd.DataFrame({"row_id": general_ids}).to_csv(root / "split" / "general.csv", index=False)
    pd.DataFrame({"row_id": [f"t{i}" for i in range(50)]}).to_csv(
        root / "split" / "train.csv", index=False
    )


def _log(rec: Recorder, model: str, split: str, got: dict[str, int], **labels) -> None:
    """Record ``model``'s only run (seed 0, run id = model) on ``split``: its answers ``got``
    (question id -> correct) scored by accuracy, with per-question ``labels`` (category, text)."""
    started = f"2026-01-0{3 if model == 'before' else 4}T00:00:00Z"
    frozen = _frozen_ids(rec.root, split)
    if frozen is None or not set(got) <= frozen:
        # raw write: Recorder refuses answers outside the frozen split; coverage tests need them
        _write_unfrozen(rec.root, model, split, got, started, labels)
        return
    with warnings.catch_warnings():
        # questions left unanswered: the point of the coverage tests
        warnings.filterwarnings("ignore", message=".* rows of .* logged: the report's fairness")
        rec.log(
            model=model,
            seed=0,
            split=split,
            metric="accuracy",
            row_id=list(got),
            correct=list(got.values()),
            **labels,
            run_id=model,
            split_id="",  # none, as a run log written before split fingerprints
            started_at=started,
            env="",
        )


def _frozen_ids(root: Path, split: str) -> set[str] | None:
    """The row ids of ``split`` in the manifest, or None when it is not frozen."""
    manifest = json.loads((root / "split" / "manifest.json").read_text())
    entry = next((f for f in manifest["files"] if f["part"] == split), None)
    if entry is None:
        return None
    return set(pd.read_csv(root / entry["path"], dtype=str)["row_id"])


def _write_unfrozen(root: Path, model: str, split: str, got, started: str, labels) -> None:
    """The predictions file and runs.csv row Recorder would write, for answers it refuses."""
    path = f"artefacts/predictions/{model}-{split}.csv"
    frame = {"row_id": np.array(list(got), dtype=object), "correct": np.array(list(got.values()))}
    frame |= {k: np.asarray(v, dtype=object) for k, v in labels.items()}
    (root / path).write_bytes(csv_bytes(frame))
    with (root / "runs.csv").open(newline="") as f:
        header = next(csv.reader(f))
    row = {
        "run_id": model,
        "model": model,
        "seed": 0,
        "split": split,
        "metric": "accuracy",
        "value": repr(float(np.mean(list(got.values())))),
        "status": "ok",
        "started_at": started,
        "predictions": path,
    }
    with (root / "runs.csv").open("a", newline="") as f:
        csv.writer(f, lineterminator="\n").writerow([row.get(c, "") for c in header])


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
    rec = Recorder(root, predictions="csv")
    test_ids = test_ids if test_ids is not None else sorted(set(before) | set(after))
    general_ids = (
        general_ids if general_ids is not None else sorted(set(general_before) | set(general_after))
    )
    cats = [category[i] for i in test_ids] if category is not None else None
    _write_split(rec.root, test_ids, general_ids, cats)
    rec.freeze(created="2026-01-01T00:00:00Z")
    _write_config(rec.root, min_useful_effect, max_drop, evaluation)
    for model, answers in (
        ("before", {"test": before, "general": general_before}),
        ("after", {"test": after, "general": general_after}),
    ):
        for split, got in answers.items():
            labels = {}
            if split == "test" and category is not None:
                labels["category"] = [category[i] for i in got]
            _log(rec, model, split, got, **labels)
    _write_shapes(rec.root)
    return rec.root
