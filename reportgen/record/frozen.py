"""The frozen split as the Recorder checks it: split/manifest.json as freeze wrote it, and the
row ids of each frozen part (every logged row must be one of them)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from reportgen.project.manifest import MANIFEST, canonical_part
from reportgen.record.io import check_logged_ids


def read_manifest(root: Path) -> dict | None:
    """split/manifest.json as written by freeze, or None when the split is not frozen yet."""
    path = root / MANIFEST
    if not path.exists():
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8-sig"))
        for f in doc["files"]:
            if not {"part", "path", "sha256"} <= set(f):
                raise KeyError("part, path and sha256")
            f["part"] = canonical_part(str(f["part"]))
        return doc
    except (ValueError, KeyError, TypeError):
        raise ValueError(f"{path} is not a readable manifest; re-run freeze") from None


class PartIds:
    """The row ids of each frozen part's split file, read once while the file is unchanged."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._cache: dict = {}

    def of(self, manifest: dict, part: str):
        """The row ids of ``part``'s split file as a unique pandas Index of stripped strings
        (as the report compares them), or None when the file cannot be read (build says why).

        Read like every project file (confined, capped).
        """
        import pandas as pd

        from reportgen.project.files import Reader
        from reportgen.project.tables import TableError, read_table

        entry = next(f for f in manifest["files"] if f["part"] == part)
        rid = str(manifest.get("row_id") or "row_id")
        path = self.root / str(entry["path"])
        try:
            st = path.stat()
        except OSError:
            return None
        key = (str(entry["path"]), rid, st.st_mtime_ns, st.st_size)
        if key not in self._cache:
            try:
                frame = read_table(Reader(self.root), path)
            except TableError:
                return None
            if rid not in frame.columns:
                return None
            col = frame[rid].astype(str).str.strip().to_numpy(dtype=object)
            self._cache = {key: pd.Index(col).unique()}
        return self._cache[key]

    def check(self, manifest: dict, part: str, ids: np.ndarray) -> None:
        """Every logged row_id is a row of the frozen ``part`` (ValueError naming the first that
        is not); a warning when rows of the part are left out."""
        known = self.of(manifest, part)
        if known is None:
            return
        entry = next(f for f in manifest["files"] if f["part"] == part)
        check_logged_ids(
            known,
            ids,
            f"the {part} split",
            named=f"the frozen {part} split ({entry['path']}, column "
            f"{manifest.get('row_id') or 'row_id'!r})",
            hint="",
            whole="each predictions file to cover its whole part",
        )
