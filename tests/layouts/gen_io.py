"""The files every layout generator writes alike: split parts' blocks and row ids, predictions
(CSV or Parquet), runs.csv rows and the head of evreport.toml."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from tests.layouts.gen import Gen

CAND, BASE = "net", "base"


def part_blocks(block_col: str, part: str, sizes: list[int]) -> np.ndarray:
    """Every row's block label in one part: train one block of 50, validation ten of 20."""
    sz = {"train": [50], "validation": [20] * 10}.get(part, sizes)
    off = {"train": 0, "validation": 100, "test": 200}[part]
    return np.repeat([f"{block_col}-{off + i + 1}" for i in range(len(sz))], sz)


def row_ids(part: str, n: int) -> list[str]:
    """The row ids of one split part: tr00000, va00000, te00000, ..."""
    pre = {"train": "tr", "validation": "va", "test": "te"}[part]
    return [f"{pre}{i:05d}" for i in range(n)]


def write_predictions(
    path: Path, name: str, frame: pd.DataFrame, fmt: str, float_format: str | None = None
) -> str:
    """Write ``artefacts/predictions/<name>`` as CSV or Parquet (``fmt``); return that path."""
    ext = "parquet" if fmt == "parquet" else "csv"
    rel = f"artefacts/predictions/{name}.{ext}"
    if ext == "csv":
        frame.to_csv(path / rel, index=False, float_format=float_format)
    else:
        frame.to_parquet(path / rel, index=False)
    return rel


def record_part(
    gen: Gen,
    model: str,
    seed: int,
    part: str,
    values: np.ndarray,
    cols: dict,
    float_format: str | None = None,
) -> str:
    """Keep one network's per-row metric on one part; write its predictions (row_id and
    ``cols``) when the cell has them there. Returns the file's path, "" when none."""
    cell, key = gen.cell, (model, seed, part)
    gen.per_row[key] = values
    gen.logged[key] = float(np.mean(values))
    if not cell["predictions"] or (cell["layout"] == "canonical" and part == "validation"):
        return ""
    frame = pd.DataFrame({"row_id": gen.parts[part]["row_id"], **cols})
    gen.with_predictions.add(key)
    return write_predictions(gen.path, f"{model}-s{seed}-{part}", frame, cell["fmt"], float_format)


def run_row(
    run_id: str,
    model: str,
    seed: int,
    split: str,
    metric: str,
    value: str,
    predictions: str,
    *,
    started_at: str = "2026-01-03T00:00:00Z",
    split_id: str = "s1",
    **extra,
) -> dict:
    """One runs.csv row of a generated network (config ``<model>-a``, features ``f1``)."""
    return {
        "run_id": run_id,
        "model": model,
        "seed": seed,
        "split": split,
        "metric": metric,
        "value": value,
        "status": "ok",
        "started_at": started_at,
        "config": f"{model}-a",
        "features": "f1",
        "split_id": split_id,
        "predictions": predictions,
        **extra,
    }


def toml_head(cell: dict, title: str, claim: list[str]) -> list[str]:
    """evreport.toml's lines up to [evaluation]'s block: ``claim`` follows the two models."""
    lines = [f'title = "{title}"', "", "[claim]", 'text = "net beats base"']
    lines += [f'candidate = "{CAND}"', f'baseline = "{BASE}"', *claim]
    if cell["min_useful_effect"] is not None:
        lines.append(f"min_useful_effect = {cell['min_useful_effect']}")
    lines += ["", "[rule]", "written = 2026-01-02", "resamples = 200"]
    lines.append(f"seeds_paired = {'true' if cell['paired'] else 'false'}")
    lines += ["", "[evaluation]"]
    if cell["blocks"] != "none":
        lines.append(f'block = "{cell["block_col"]}"')
    return lines
