"""The before-after half of the layout-matrix generator (tests/layouts/gen.py documents the keys)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from reportgen.project.manifest import freeze
from tests.layouts.gen import (
    BA_BASE,
    BA_CAND,
    Gen,
    _edit_after_freeze,
    block_sizes,
)
from tests.layouts.gen_io import write_predictions
from tests.synthetic import one_run_row, question_frame

CATEGORIES = ("dates", "units", "names", "places")


def _answers(
    cell: dict, rng: np.random.Generator, cat: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Correct before and after per frozen question: exactly ``fixed`` and ``broken`` questions,
    the broken ones all in ``broken_category`` when given (``category_before`` of its questions
    right before, the fixed ones all outside it)."""
    n = cell["questions"]
    before = np.zeros(n, dtype=int)
    before[rng.permutation(n)[: n // 2]] = 1
    hurt = cell["broken_category"]
    inside = cat == hurt if hurt is not None else np.zeros(n, dtype=bool)
    if hurt is not None and cell["category_before"] is not None:
        where = np.flatnonzero(inside)
        before[where] = 0
        before[where[: cell["category_before"]]] = 1
    after = before.copy()
    wrong = np.flatnonzero((before == 0) & ~inside)
    right = np.flatnonzero((before == 1) & (inside if hurt is not None else True))
    after[rng.permutation(wrong)[: cell["fixed"]]] = 1
    after[rng.permutation(right)[: cell["broken"]]] = 0
    if cell["fixed_in_small_blocks"]:
        # every question after the first block is fixed; the first (large) block only breaks
        s0 = block_sizes(cell["blocks"])[0]
        before[s0:], after[s0:] = 0, 1
        after[:s0] = before[:s0]
        after[rng.permutation(np.flatnonzero(before[:s0] == 1))[: cell["broken"]]] = 0
    return before, after


def _general_answers(cell: dict) -> dict[str, tuple[list[str], np.ndarray]]:
    """Each version's general questions and answers. With ``general_shift`` the after version
    answers other questions: before g0..g(G-1) right from 10% on, after shifted by the shift and
    wrong on its last 30% (0.9 before, 0.7 after, every shared question right on both)."""
    g, shift = cell["general_questions"], cell["general_shift"]
    if shift:
        b_ids = [f"g{i:04d}" for i in range(g)]
        a_ids = [f"g{i:04d}" for i in range(shift, g + shift)]
        b_vals = (np.arange(g) >= round(0.1 * g)).astype(int)
        a_vals = (np.arange(g) < g - round(0.3 * g)).astype(int)
        return {BA_BASE: (b_ids, b_vals), BA_CAND: (a_ids, a_vals)}
    ids = [f"g{i:04d}" for i in range(g)]
    g_before = (np.arange(g) < round(0.9 * g)).astype(int)
    g_after = g_before.copy()
    g_after[: cell["general_broken"]] = 0
    keep = g - cell["general_unanswered"]  # the after version leaves the last ones unanswered
    return {BA_BASE: (ids, g_before), BA_CAND: (ids[:keep], g_after[:keep])}


def _manifest_by_hand(path: Path) -> None:
    """split/manifest.json as `freeze` writes it, for split files `freeze` refuses (a repeated id):
    the project of an older evreport that froze them."""
    import hashlib

    files = []
    for f in sorted((path / "split").glob("*.csv")):
        files.append(
            {
                "part": f.stem,
                "path": f"split/{f.name}",
                "sha256": hashlib.sha256(f.read_bytes()).hexdigest(),
                "rows": len(pd.read_csv(f, dtype=str)),
            }
        )
    doc = {"created": "2026-01-01T00:00:00Z", "row_id": "row_id", "files": files}
    (path / "split" / "manifest.json").write_text(json.dumps(doc, indent=2) + "\n")


def make_ba(path: Path, cell: dict) -> Gen:
    """The before-after project of one cell (the cell keys: gen.py's docstring)."""
    rng = np.random.default_rng(cell["seed"])
    gen = Gen(path, cell, True, BA_CAND, BA_BASE)
    n = cell["questions"]
    ids = np.array([f"q{i:04d}" for i in range(n)], dtype=object)
    cat = np.array([CATEGORIES[i % len(CATEGORIES)] for i in range(n)], dtype=object)
    before, after = _answers(cell, rng, cat)
    bcol = cell["block_col"]
    test = pd.DataFrame({"row_id": ids})
    if cell["category"]:
        test["category"] = cat
    if cell["blocks"] != "none":
        sizes = [n // 20] * 20 if cell["blocks"] == "equal" else block_sizes(cell["blocks"])
        if sum(sizes) != n:
            raise ValueError("before-after block sizes must add up to the question count")
        test[bcol] = np.repeat([f"{bcol}-{i + 1}" for i in range(len(sizes))], sizes)
    gen.parts["test"] = test
    if cell["duplicate_id"]:  # one more question under an id another question has (q0150)
        extra = test.iloc[[0]].assign(row_id=ids[min(150, n - 1)])
        if cell["category"]:
            extra["category"] = "other"
        test = pd.concat([test, extra], ignore_index=True)
    test.to_csv(path / "split" / "test.csv", index=False)
    answers = _general_answers(cell)
    if cell["general"] and cell["general_in_split"]:
        gids = sorted(set(answers[BA_BASE][0]) | set(answers[BA_CAND][0]))
        general = pd.DataFrame({"row_id": gids})
        if cell["general_blocks"]:
            general[bcol] = [f"{bcol}-{i % 15 + 1}" for i in range(len(gids))]
        general.to_csv(path / "split" / "general.csv", index=False)
        gen.parts["general"] = general
    pd.DataFrame({"row_id": [f"t{i}" for i in range(50)]}).to_csv(
        path / "split" / "train.csv", index=False
    )
    if cell["duplicate_id"]:
        _manifest_by_hand(path)
    else:
        freeze(path, created="2026-01-01T00:00:00Z")
    if cell["edit_after_freeze"]:
        _edit_after_freeze(path)
    answered = n - cell["unanswered"]  # the after version leaves the last ones unanswered
    rows = []
    for model, q, day in ((BA_BASE, before, 3), (BA_CAND, after, 4)):
        keep = slice(None) if model == BA_BASE else slice(0, answered)
        splits = [("test", ids[keep], q[keep])]
        if cell["general"]:
            splits.append(("general", *answers[model]))
        for split, ids_, vals in splits:
            pred_path = ""
            if cell["predictions"]:
                frame = question_frame(
                    ids_, vals, cat[keep] if split == "test" and cell["category"] else None
                )
                pred_path = write_predictions(path, f"{model}-{split}", frame, cell["fmt"])
                gen.with_predictions.add((model, 0, split))
            gen.per_row[(model, 0, split)] = vals.astype(float)
            gen.logged[(model, 0, split)] = float(np.mean(vals))
            value, started = repr(float(np.mean(vals))), f"2026-01-0{day}T00:00:00Z"
            rows.append(one_run_row(model, split, value, started, pred_path))
    pd.DataFrame(rows).to_csv(path / "runs.csv", index=False)
    if cell["checks"]:
        (path / "artefacts" / "checks" / "shapes.json").write_text(
            json.dumps({"check": "shapes", "model": BA_CAND, "passed": True, "assertions": 8})
        )
    _write_ba_toml(path, cell)
    return gen


def _write_ba_toml(path: Path, cell: dict) -> None:
    lines = ['title = "Layout matrix before-after cell"', "", "[claim]", 'text = "tuning helps"']
    lines += ['kind = "before-after"', f'candidate = "{BA_CAND}"', f'baseline = "{BA_BASE}"']
    lines.append('metric = "accuracy"')
    if cell["min_useful_effect"] is not None:
        lines.append(f"min_useful_effect = {cell['min_useful_effect']}")
    lines += ["", "[rule]", "written = 2026-01-02", "resamples = 200", ""]
    evaluation = []
    if cell["blocks"] != "none":
        evaluation.append(f'block = "{cell["block_col"]}"')
    if cell["slice_required"] is not None:
        evaluation += ['slice = "category"', f'not_worse_on = ["{cell["slice_required"]}"]']
    if cell["not_worse_margin"] is not None:
        evaluation.append(f"not_worse_margin = {cell['not_worse_margin']}")
    if evaluation:
        lines += ["[evaluation]", *evaluation, ""]
    lines += ["[general]", 'split = "general"', f"max_drop = {cell['max_drop']}", ""]
    (path / "evreport.toml").write_text("\n".join(lines))
