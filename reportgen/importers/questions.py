"""The questions an eval log must answer: the frozen split's part, or the split file to write
from the log when there is none (importers/evallog.py imports through here).

A log's sample ids are checked against the part's questions (`check_frozen`): a log of other
questions, a missing or extra question, a duplicated id is one sentence naming the first ids.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportgen.errors import EvreportError, quote

#: how many ids a message names before "and N more"
SHOWN_IDS = 5


class EvalLogError(EvreportError):
    """A log cannot be imported (bad status, truncated, other format, a sample without a score,
    questions that are not the frozen ones); nothing is written."""

    slug = "evallog-import"


def shown(ids: Sequence[Any], limit: int = SHOWN_IDS) -> str:
    """The first ids, quoted, and how many more: "'q1', 'q7' and 3 more"."""
    first = ", ".join(quote(str(i), 40) for i in list(ids)[:limit])
    more = len(ids) - limit
    return first + (f" and {more:,} more" if more > 0 else "")


@dataclass
class PartQuestions:
    """The questions a part already has: the frozen split file's, or an unfrozen split file's."""

    ids: list[str] | None  # stripped strings; None: no split file for the part
    where: str | None  # the split file
    manifest: dict | None  # split/manifest.json, None when the split is not frozen
    frozen: bool  # the manifest hashes the part's file


def read_ids(root: Path, rel: str, rid: str) -> list[str]:
    from reportgen.project.files import Reader
    from reportgen.project.tables import TableError, read_table

    try:
        frame = read_table(Reader(root), root / rel)
    except TableError as e:
        raise EvalLogError(f"{rel} cannot be read: {e.problem}") from None
    if rid not in frame.columns:
        raise EvalLogError(f"{rel} has no {rid!r} column")
    return [str(v).strip() for v in frame[rid].tolist()]


def part_questions(root: Path, part: str) -> PartQuestions:
    """The part's questions from the frozen manifest, else from split/<part>.csv (or .parquet)
    not yet frozen, else none. Read like every project file (confined, capped)."""
    import json

    from reportgen.project.manifest import MANIFEST, canonical_part

    manifest = None
    path = root / MANIFEST
    if path.exists():
        try:
            manifest = json.loads(path.read_text(encoding="utf-8-sig"))
            files = {canonical_part(str(f["part"])): str(f["path"]) for f in manifest["files"]}
        except (ValueError, KeyError, TypeError, AttributeError):
            raise EvalLogError(f"{MANIFEST} is not a readable manifest; freeze again") from None
        if part in files:
            rid = str(manifest.get("row_id") or "row_id")
            return PartQuestions(read_ids(root, files[part], rid), files[part], manifest, True)
    for ext in ("csv", "parquet"):
        rel = f"split/{part}.{ext}"
        if (root / rel).is_file():
            return PartQuestions(read_ids(root, rel, "row_id"), rel, manifest, False)
    return PartQuestions(None, None, manifest, False)


def check_frozen(ids: list[Any], frozen: list[str], where: str, source: str) -> str | None:
    """The log's questions against the frozen part's: one sentence naming the first ids that
    are missing, extra or duplicated, or None when they are the same questions."""
    dup = sorted((i for i, n in Counter(frozen).items() if n > 1), key=str)
    if dup:
        return f"{where} holds the id(s) {shown(dup)} more than once; a question is one row"
    have = {str(i).strip() for i in ids}
    ref = set(frozen)
    if not have & ref:
        return (
            f"{source} is a log of other questions: none of its {len(have):,} sample ids "
            f"({shown(sorted(have, key=str))}) is a question of {where}"
        )
    missing = sorted(ref - have, key=str)
    extra = sorted(have - ref, key=str)
    said = []
    if missing:
        said.append(f"lacks {len(missing):,} of its {len(ref):,} questions ({shown(missing)})")
    if extra:
        said.append(f"has {len(extra):,} sample id(s) that are not in it ({shown(extra)})")
    if said:
        return f"{source} does not answer the questions of {where}: it {' and '.join(said)}"
    return None


def frozen_before_runs(root: Path, manifest: dict) -> bool:
    """The manifest was written before every logged run: freezing again to add a part would lose
    that (a manifest already frozen after the runs loses nothing by it)."""
    from reportgen.project.manifest import parse_time

    try:
        created = parse_time(str(manifest.get("created", "")))
        starts = [parse_time(r["started_at"]) for r in logged(root) if r.get("started_at")]
    except ValueError:
        return True
    return bool(starts) and created < min(starts)


def logged(root: Path) -> list[dict[str, str]]:
    """The rows of the project's runs.csv as written so far (none without one)."""
    path = root / "runs.csv"
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8-sig")
    return list(csv.DictReader(io.StringIO(text, newline="")))


def write_split(root: Path, part: str, ids: list[Any], labels: dict[str, list[Any]]) -> None:
    """split/<part>.csv from the log's questions (row_id and the slice keys' labels)."""
    import numpy as np

    from reportgen.record.io import csv_bytes
    from reportgen.safe import atomic_write

    cols = {
        "row_id": np.asarray(ids, dtype=object),
        **{k: np.asarray(v, dtype=object) for k, v in labels.items()},
    }
    atomic_write(root / "split" / f"{part}.csv", csv_bytes(cols))
