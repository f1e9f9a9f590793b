"""Re-grading only what changed: a hash of every file of a submission, kept beside its report.

Each report folder of a batch gets ``.evreport-inputs.json``: the submission's input hash
(every file of the folder, or the zip's bytes), the evreport version, the formats and the
summary row. A later batch into the same OUT reuses ``OUT/NAME`` when all of these are
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

from reportgen.safe import atomic_write

RECORD = ".evreport-inputs.json"
RECORD_SCHEMA = "evreport-batch-inputs/1"
#: a submission with more files or bytes than this is always rebuilt (never hashed)
MAX_FILES = 20_000
MAX_BYTES = 2 * 1024**3
_CHUNK = 1 << 20


def _hash_file(path: Path, h, budget: list[int]) -> bool:
    """Feed a regular file's bytes into ``h`` without following a link; False if over budget."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            h.update(b"not-regular")
            return True
        while chunk := f.read(_CHUNK):
            budget[0] -= len(chunk)
            if budget[0] < 0:
                return False
            h.update(chunk)
    return True


def input_hash(source: Path, kind: str) -> str | None:
    """sha256 over every file of a submission (names, types, link targets, bytes).

    A zip is hashed as its bytes. Links are never followed (their target text is hashed),
    special files count by type only. None when the submission cannot be read or is over
    MAX_FILES / MAX_BYTES: it is then always rebuilt.
    """
    h = hashlib.sha256()
    budget = [MAX_BYTES]
    try:
        if kind == "zip":
            h.update(b"zip\0")
            return h.hexdigest() if _hash_file(source, h, budget) else None
        files = 0
        root = os.fsencode(source)
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            dirnames.sort()
            rel_dir = os.path.relpath(dirpath, root)
            for name in sorted(
                filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
            ):
                files += 1
                if files > MAX_FILES:
                    return None
                path = os.path.join(dirpath, name)
                rel = os.path.normpath(os.path.join(rel_dir, name))
                st = os.lstat(path)
                h.update(b"\0entry\0" + rel + b"\0")
                if stat.S_ISLNK(st.st_mode):
                    h.update(b"link\0" + os.readlink(path))
                elif stat.S_ISREG(st.st_mode):
                    h.update(b"file\0")
                    if not _hash_file(Path(os.fsdecode(path)), h, budget):
                        return None
                else:
                    h.update(b"special\0" + str(stat.S_IFMT(st.st_mode)).encode())
            dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
    except OSError:
        return None
    return h.hexdigest()


def key(input_sha: str | None, version: str, formats: Sequence[str], build_ref: str) -> str | None:
    """What must be unchanged for a report to be reused (None: never reuse)."""
    if input_sha is None:
        return None
    return f"{input_sha}|evreport {version}|{','.join(sorted(formats))}|{build_ref}"


def write_record(folder: Path, reuse_key: str | None, row: dict) -> None:
    """Save the reuse key and the summary row beside the report (in its staging folder)."""
    if reuse_key is None or not folder.is_dir() or folder.is_symlink():
        return
    doc = {"schema": RECORD_SCHEMA, "key": reuse_key, "row": row}
    atomic_write(folder / RECORD, (json.dumps(doc, default=str) + "\n").encode("utf-8"))


def read_record(folder: Path) -> dict | None:
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


def reusable(out: Path, name: str, earlier: Sequence[str], reuse_key: str | None) -> dict | None:
    """The earlier row of ``OUT/name`` when its report may be reused, else None."""
    if reuse_key is None or name not in earlier:
        return None
    doc = read_record(out / name)
    if doc is None or doc["key"] != reuse_key or doc["row"].get("status") != "ok":
        return None
    return doc["row"]


def stage_copy(src: Path, dst: Path) -> None:
    """Put an earlier report into the staging folder: hard links where possible, else copies."""

    def link_or_copy(a: str, b: str) -> None:
        try:
            os.link(a, b, follow_symlinks=False)
        except OSError:
            shutil.copy2(a, b, follow_symlinks=False)

    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, symlinks=True, copy_function=link_or_copy)
