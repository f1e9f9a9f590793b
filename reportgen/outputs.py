"""Atomic writes: a build's files land together or not at all; nothing outside the output folder."""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from pathlib import Path

from reportgen.errors import InputError, display_name
from reportgen.safe import TMP_PREFIX, atomic_write


def write_error(path: Path, e: OSError) -> InputError:
    """An OSError while writing as one clear line (read-only folder, full disk ...)."""
    why = {
        errno.ENOSPC: "the disk is full",
        errno.EDQUOT: "the disk quota is exceeded",
        errno.EROFS: "the file system is read-only",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
    }.get(e.errno, e.strerror or type(e).__name__)
    name = display_name(path)
    return InputError(f"cannot write here: {why}", path=name, slug="cannot-write")


def refuse_symlinks(path: Path, root: Path | None) -> None:
    """Refuse ``path`` if it, or a folder between ``root`` and it, is a symlink."""
    path = Path(path)
    chain = [path]
    if root is not None:
        root = Path(root)
        p = path.parent
        while p != root and root in p.parents:
            chain.append(p)
            p = p.parent
    for p in chain:
        if p.is_symlink():
            name = display_name(p)
            raise InputError(
                f"{name} is a symlink; refusing to write through it", path=name, slug="symlink"
            )


def write_file_atomic(path: Path, data: bytes, root: Path | None = None) -> None:
    """Write one file by temp file + rename in its folder; never through a symlink.

    ``root``: the project folder; no folder between it and ``path`` may be a symlink either.
    On failure (read-only, full disk) the temporary file is removed and InputError raised.
    """
    path = Path(path)
    refuse_symlinks(path, root)
    if path.is_dir():
        raise InputError(f"{display_name(path)} is a folder", path=display_name(path))
    try:
        atomic_write(path, data)  # replaces a symlink created meanwhile, never its target
    except OSError as e:
        raise write_error(path, e) from None


#: a temporary folder older than this is left over from a killed build (a build's own
#: temporary folder lives for the seconds its files take to write)
STALE_SECONDS = 600


def clean_stale(out_dir: Path, older_than: float = STALE_SECONDS) -> list[str]:
    """Remove temporary folders an interrupted earlier build left in ``out_dir``; their names.

    Only folders named ``.evreport-*`` and older than ``older_than`` seconds, so a build
    running at the same moment into the same folder keeps its own.
    """
    import time

    removed = []
    try:
        entries = list(Path(out_dir).iterdir())
    except OSError:
        return removed
    now = time.time()
    for p in entries:
        try:
            st = p.lstat()
        except OSError:
            continue
        if (
            p.name.startswith(TMP_PREFIX)
            and not p.is_symlink()
            and p.is_dir()
            and now - st.st_mtime > older_than
        ):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p.name)
    return removed


def atomic_write_dir(out_dir: Path, files: dict[str, bytes]) -> list[Path]:
    """Write ``files`` into ``out_dir``: all into a temporary folder inside it, then each renamed into place.

    Files of an earlier build that this build does not produce are left as they are.
    A read-only or full output folder is an InputError, and no temporary file is left.
    """
    out_dir = Path(out_dir)
    shown = display_name(out_dir)
    if out_dir.is_symlink():
        raise InputError(
            f"output folder {shown} is a symlink; refusing to write through it", path=shown
        )
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"output path {shown} exists and is not a folder", path=shown)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise write_error(out_dir, e) from None
    clean_stale(out_dir)
    for name in files:
        if "/" in name or "\\" in name or name.startswith("."):
            raise ValueError(f"bad output name {name!r}")
    blocked = [out_dir / n for n in files if (out_dir / n).is_symlink() or (out_dir / n).is_dir()]
    if blocked:  # checked before anything is written: all or nothing
        b = display_name(blocked[0])
        raise InputError(f"{b} is a symlink or folder; refusing to replace it", path=b)
    tmp = None
    written = []
    try:
        tmp = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=out_dir))
        for name, data in files.items():
            with open(tmp / name, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        for name in files:
            target = out_dir / name
            os.replace(tmp / name, target)
            written.append(target)
    except OSError as e:
        raise write_error(out_dir, e) from None
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return written
