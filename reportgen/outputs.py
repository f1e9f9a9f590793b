"""Atomic writes: a build's files land together or not at all; nothing outside the output folder."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from reportgen.errors import InputError


def atomic_write_dir(out_dir: Path, files: dict[str, bytes]) -> list[Path]:
    """Write ``files`` into ``out_dir``: all into a temporary folder inside it, then each renamed into place.

    Files of an earlier build that this build does not produce are left as they are.
    """
    out_dir = Path(out_dir)
    if out_dir.is_symlink():
        raise InputError(
            f"output folder {out_dir} is a symlink; refusing to write through it", path=str(out_dir)
        )
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"output path {out_dir} exists and is not a folder", path=str(out_dir))
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".evreport-", dir=out_dir))
    written = []
    try:
        for name, data in files.items():
            if "/" in name or "\\" in name or name.startswith("."):
                raise ValueError(f"bad output name {name!r}")
            with open(tmp / name, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        blocked = [
            out_dir / n for n in files if (out_dir / n).is_symlink() or (out_dir / n).is_dir()
        ]
        if blocked:  # checked before any file is replaced: all or nothing
            raise InputError(
                f"{blocked[0]} is a symlink or folder; refusing to replace it", path=str(blocked[0])
            )
        for name in files:
            target = out_dir / name
            os.replace(tmp / name, target)
            written.append(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return written
