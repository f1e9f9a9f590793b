"""Helpers for the batch tests: synthetic projects, zips of them, and a tree snapshot."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest


def make_project(folder: Path, behaviour: str = "ok", **fake) -> Path:
    """A synthetic project folder; its [fake] table drives tests/batch/fakes.py."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ['title = "synthetic"', "[fake]", f'behaviour = "{behaviour}"']
    for k, v in fake.items():
        lines.append(f"{k} = {v!r}" if not isinstance(v, str) else f'{k} = "{v}"')
    (folder / "evreport.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "runs.csv").write_text("run_id,model,seed,split,metric,value\n", encoding="utf-8")
    return folder


def zip_tree(folder: Path, zip_path: Path, top: str | None = None) -> Path:
    """Zip a folder, at the zip root or inside one top folder."""
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as zf:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                rel = p.relative_to(folder).as_posix()
                zf.write(p, f"{top}/{rel}" if top else rel)
    return zip_path


def raw_zip(zip_path: Path, entries: list[tuple[str, bytes]]) -> Path:
    """A zip with arbitrary (even hostile) entry names."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data)
    zip_path.write_bytes(buf.getvalue())
    return zip_path


def snapshot(root: Path, skip: Path | None = None) -> dict[str, tuple[int, int]]:
    """Every path under root (except under skip) with its size and mtime."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        d = Path(dirpath)
        if skip is not None and (d == skip or skip in d.parents):
            dirnames[:] = []
            continue
        for n in dirnames + filenames:
            p = d / n
            if skip is not None and p == skip:
                continue
            st = p.lstat()
            out[str(p.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return out


@pytest.fixture
def fake_ref():
    from batch.fakes import fake_build

    return fake_build
