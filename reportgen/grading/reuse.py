"""Re-grading only what changed: a hash of every file of a submission, kept beside its report.

Each report folder of a batch gets ``.evreport-inputs.json``: the submission's input hash
(every file of the folder, or the zip's bytes), the evreport version, the formats, the
batch's --lang (when given) and the summary row. A later batch into the same OUT reuses ``OUT/NAME`` when all of these are
unchanged and the row was ``ok`` (``--force`` rebuilds everything).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reportgen.model import Report, ReportShapeError
from reportgen.safe import TreeTooLarge, atomic_write, walk_tree

RECORD = ".evreport-inputs.json"
RECORD_SCHEMA = "evreport-batch-inputs/1"
#: a submission with more files or bytes than this is always rebuilt (never hashed)
MAX_FILES = 20_000
MAX_BYTES = 2 * 1024**3
_CHUNK = 1 << 20
#: a report.json or report.html larger than this is not read
MAX_REPORT_BYTES = 200_000_000


def _file_digest(path: bytes, budget: list[int]) -> bytes | None:
    """sha256 of a regular file's bytes, opened without following a link; None if over budget."""
    h = hashlib.sha256()
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return hashlib.sha256(b"not-regular").digest()
        while chunk := f.read(_CHUNK):
            budget[0] -= len(chunk)
            if budget[0] < 0:
                return None
            h.update(chunk)
    return h.digest()


def _field(h: hashlib._Hash, data: bytes) -> None:
    """Feed one field with its length first, so no two sequences of fields give one stream."""
    h.update(len(data).to_bytes(8, "big"))
    h.update(data)


def input_hash(source: Path, kind: str) -> str | None:
    """sha256 over every entry of a submission: per entry its kind, name and content digest.

    Every field goes in with its length (``_field``) and a file as its own sha256, so two
    different layouts can never give the same stream (a crafted tail on runs.csv cannot
    pose as another file). A zip is hashed as its bytes. Links are never followed (their
    target text is hashed), special files count by type only. The folder is walked by
    ``safe.walk_tree`` (no recursion, depth and entries capped). None when the
    submission cannot be read or is over a cap: it is then always rebuilt.
    """
    h = hashlib.sha256()
    budget = [MAX_BYTES]
    try:
        if kind == "zip":
            _field(h, b"zip")
            digest = _file_digest(os.fsencode(source), budget)
            if digest is None:
                return None
            _field(h, digest)
            return h.hexdigest()
        _field(h, b"folder")
        root = os.fsencode(source)
        for rel, st in walk_tree(root, max_entries=MAX_FILES):
            path = os.path.join(root, rel)
            if stat.S_ISDIR(st.st_mode):
                _field(h, b"dir")
                _field(h, rel)
            elif stat.S_ISLNK(st.st_mode):
                _field(h, b"link")
                _field(h, rel)
                _field(h, os.readlink(path))
            elif stat.S_ISREG(st.st_mode):
                digest = _file_digest(path, budget)
                if digest is None:
                    return None
                _field(h, b"file")
                _field(h, rel)
                _field(h, digest)
            else:
                _field(h, b"special")
                _field(h, rel)
                _field(h, str(stat.S_IFMT(st.st_mode)).encode())
    except (OSError, TreeTooLarge):
        return None
    return h.hexdigest()


def key(
    input_sha: str | None,
    version: str,
    formats: Sequence[str],
    build_ref: str,
    language: str | None = None,
) -> str | None:
    """What must be unchanged for a report to be reused (None: never reuse). ``language``:
    the batch's --lang; None (each project's own ``[report] language``, which the input hash
    covers) keeps the key an earlier evreport wrote."""
    if input_sha is None:
        return None
    lang = f"|lang {language}" if language is not None else ""
    return f"{input_sha}|evreport {version}|{','.join(sorted(formats))}|{build_ref}{lang}"


def write_record(folder: Path, reuse_key: str | None, row: dict[str, Any]) -> None:
    """Save the reuse key and the summary row beside the report (in its staging folder)."""
    if reuse_key is None or not folder.is_dir() or folder.is_symlink():
        return
    doc = {"schema": RECORD_SCHEMA, "key": reuse_key, "row": row}
    atomic_write(folder / RECORD, (json.dumps(doc, default=str) + "\n").encode("utf-8"))


def read_record(folder: Path) -> dict[str, Any] | None:
    """The record an earlier batch left in OUT/NAME, or None when absent or not ours."""
    path = folder / RECORD
    try:
        if folder.is_symlink() or path.is_symlink() or not path.is_file():
            return None
        if path.stat().st_size > 50_000_000:
            return None
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or doc.get("schema") != RECORD_SCHEMA:
        return None
    if not isinstance(doc.get("row"), dict) or not isinstance(doc.get("key"), str):
        return None
    return doc


def read_report(folder: Path) -> Report | None:
    """``folder/report.json`` as a Report: the one way grading reads a report from disk.

    None when it is absent, a link, too large or not JSON. ReportShapeError when it is JSON
    but not the shape this evreport writes (a missing or unknown key, a wrong type).
    """
    path = folder / "report.json"
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_REPORT_BYTES:
            return None
        doc = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return Report.from_json(doc)


def report_reusable(folder: Path, formats: Sequence[str]) -> bool:
    """The earlier report.json in ``folder`` (when the formats include it) has this
    evreport's shape; an older shape is rebuilt, as a changed submission would be."""
    if "json" not in formats:
        return True
    try:
        return read_report(folder) is not None
    except ReportShapeError:
        return False


def reusable(
    out: Path, name: str, earlier: Sequence[str], reuse_key: str | None
) -> dict[str, Any] | None:
    """The earlier row of ``OUT/name`` when its report may be reused, else None."""
    if reuse_key is None or name not in earlier:
        return None
    doc = read_record(out / name)
    if doc is None or doc["key"] != reuse_key or doc["row"].get("status") != "ok":
        return None
    row: dict[str, Any] = doc["row"]
    return row


def stage_copy(src: Path, dst: Path) -> None:
    """Put an earlier report into the staging folder: hard links where possible, else copies."""

    def link_or_copy(a: str, b: str) -> None:
        try:
            os.link(a, b, follow_symlinks=False)
        except OSError:
            shutil.copy2(a, b, follow_symlinks=False)

    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, symlinks=True, copy_function=link_or_copy)
