"""Cross-validation on the recording side: split/folds.csv from a scikit-learn splitter, and the
repeat and fold of a ``split="fold"`` row (docs/recording.md, methods.md section 9)."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from reportgen.project.folds import FOLDS_PART
from reportgen.record.io import check_logged_ids
from reportgen.safe import atomic_write

FOLDS_FILE = "split/folds.csv"


class Fold(NamedTuple):
    """One fold of one repeat: the rows that train its models and the rows it holds out."""

    repeat: int
    fold: int
    train: np.ndarray
    test: np.ndarray


def folds_of(splitter: Any, X: Any, y: Any = None, groups: Any = None) -> list[Fold]:
    """The folds of a scikit-learn splitter (``KFold``, ``StratifiedKFold``, ``GroupKFold``,
    ``RepeatedKFold``, ``RepeatedStratifiedKFold``), numbered from 1 within each repeat.

    A repeat ends when its test sets have covered every row once; a splitter whose test sets
    overlap within a repeat, or leave rows out, is not a k-fold and raises ValueError.
    """
    n = len(X)
    covered = np.zeros(n, dtype=bool)
    out: list[Fold] = []
    repeat, fold = 1, 0
    for train, test in splitter.split(X, y, groups):
        test = np.asarray(test)
        if covered.all():
            repeat, fold = repeat + 1, 0
            covered[:] = False
        if covered[test].any():
            raise ValueError(
                f"{type(splitter).__name__}: test sets overlap within a repeat (fold {fold + 1} of "
                f"repeat {repeat}); give a k-fold splitter such as KFold, StratifiedKFold, "
                "GroupKFold or RepeatedStratifiedKFold"
            )
        covered[test] = True
        fold += 1
        out.append(Fold(repeat, fold, np.asarray(train), test))
    if not out or not covered.all():
        raise ValueError(
            f"{type(splitter).__name__}: {int((~covered).sum())} rows are in no test set of "
            f"repeat {repeat}; every row must be held out once per repeat"
        )
    return out


def folds_csv(folds: list[Fold], row_id: Any) -> bytes:
    """split/folds.csv: ``row_id, repeat, fold`` for every row of every repeat, in row order."""
    ids = np.asarray(row_id)
    where = np.zeros((max(f.repeat for f in folds), len(ids)), dtype=np.int64)
    for f in folds:
        where[f.repeat - 1, f.test] = f.fold
    out = io.StringIO(newline="")
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["row_id", "repeat", "fold"])
    for r, row in enumerate(where, 1):
        w.writerows((str(i), r, int(k)) for i, k in zip(ids.tolist(), row.tolist(), strict=True))
    return out.getvalue().encode("utf-8")


def write_folds(
    root: str | os.PathLike,
    splitter: Any,
    X: Any,
    y: Any = None,
    groups: Any = None,
    row_id: Any = None,
) -> list[Fold]:
    """Write ``split/folds.csv`` of the project at ``root`` from a splitter and return its folds.

    ``row_id`` names the rows of ``X`` (default 0, 1, ...); freeze the split afterwards
    (``Recorder.freeze``), before the first run.
    """
    folds = folds_of(splitter, X, y, groups)
    ids = np.arange(len(X)) if row_id is None else np.asarray(row_id)
    if len(ids) != len(X):
        raise ValueError(f"row_id has {len(ids)} values but X has {len(X)} rows")
    if len(set(map(str, ids.tolist()))) != len(ids):
        raise ValueError("row_id has duplicate values; each row once")
    target = Path(root) / FOLDS_FILE
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(target, folds_csv(folds, ids))
    return folds


def same_fold(row: dict[str, str], cv: dict[str, int | None]) -> bool:
    """Whether a runs.csv row (strings) is of the repeat and fold in ``cv`` (None: not a fold row)."""
    if cv["fold"] is None:
        return True
    repeat = (row.get("repeat") or "").strip() or "1"
    return (row.get("fold") or "").strip() == str(cv["fold"]) and repeat == str(cv["repeat"])


def fold_members(root: Path, manifest: dict, cache: dict) -> dict | None:
    """(repeat, fold) -> the row ids it holds out (a pandas Index of stripped strings), from the
    frozen split/folds.csv; None when there is none or it cannot be read (build says why).

    Read like every project file (confined, capped); kept in ``cache`` while it is unchanged.
    """
    import pandas as pd

    from reportgen.project.files import Reader
    from reportgen.project.tables import TableError, read_table

    entry = next((f for f in manifest["files"] if f["part"] == FOLDS_PART), None)
    if entry is None:
        return None
    rid = str(manifest.get("row_id") or "row_id")
    path = root / str(entry["path"])
    try:
        st = path.stat()
    except OSError:
        return None
    key = ("folds", str(entry["path"]), rid, st.st_mtime_ns, st.st_size)
    if key not in cache:
        try:
            frame = read_table(Reader(root), path)
        except TableError:
            return None
        if rid not in frame.columns or "fold" not in frame.columns:
            return None
        ids = frame[rid].astype(str).str.strip()
        repeat = frame["repeat"] if "repeat" in frame.columns else pd.Series(1, index=frame.index)
        where = pd.DataFrame(
            {
                "id": ids,
                "repeat": pd.to_numeric(repeat, errors="coerce"),
                "fold": pd.to_numeric(frame["fold"], errors="coerce"),
            }
        )
        if where[["repeat", "fold"]].isna().any().any():
            return None
        cache.clear()
        cache[key] = {
            (int(r), int(k)): pd.Index(g["id"].to_numpy(dtype=object))
            for (r, k), g in where.groupby(["repeat", "fold"], sort=True)
        }
    return cache[key]


def check_fold_rows(members: dict, cv: dict[str, int | None], ids: Any, path: str) -> None:
    """Every logged row_id is a row of the fold it says it held out (ValueError naming the first
    that is not); a warning when rows of the fold are left out."""
    key = (cv["repeat"], cv["fold"])
    if key not in members:
        folds = sorted(k for r, k in members if r == key[0])
        where = f"its folds in repeat {key[0]}: {folds}" if folds else "no such repeat"
        raise ValueError(f"repeat={key[0]}, fold={key[1]} is not a fold of {path} ({where})")
    check_logged_ids(
        members[key],
        ids,
        f"repeat {key[0]} fold {key[1]}",
        named=f"repeat {key[0]} fold {key[1]} in {path}",
        hint=" (log the fold's test rows)",
        whole="each fold's predictions to cover the whole fold",
    )
