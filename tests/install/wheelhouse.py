"""A local wheelhouse repacked from this virtualenv's installed distributions.

A fresh virtualenv then installs evreport's dependencies with ``pip --no-index
--find-links WHEELHOUSE``: offline, and without downloading or building anything. Each
wheel holds exactly the files its distribution's RECORD lists inside site-packages (no
byte code, no scripts: pip writes those again), stored uncompressed so that packing and
unpacking cost a file copy. The wheelhouse is made once per set of installed versions.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import zipfile
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

#: dist-info files that describe one installation, not the distribution
_LOCAL = {"INSTALLER", "REQUESTED", "RECORD", "direct_url.json"}


def closure(requirements: list[str]) -> dict[str, metadata.Distribution]:
    """The installed distributions ``requirements`` need, with their own (markers and extras honoured)."""
    found: dict[str, metadata.Distribution] = {}
    seen: set[tuple[str, str]] = set()  # (distribution, extra) done; extra "" is the base
    todo = [Requirement(r) for r in requirements]
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        new = {e for e in {"", *req.extras} if (name, e) not in seen}
        if not new:
            continue
        seen.update((name, e) for e in new)
        dist = found.setdefault(name, metadata.distribution(req.name))
        for line in dist.requires or []:
            sub = Requirement(line)
            if any(sub.marker is None or sub.marker.evaluate({"extra": e}) for e in new):
                todo.append(sub)
    return found


def _tags(dist: metadata.Distribution) -> str:
    """The compressed tag set of a wheel file name (``cp311-cp311-manylinux_2_28_x86_64``)."""
    tags = [
        line.split(":", 1)[1].strip()
        for line in (dist.read_text("WHEEL") or "").splitlines()
        if line.startswith("Tag:")
    ]
    if not tags:
        return "py3-none-any"
    parts = [sorted({t.split("-")[i] for t in tags}) for i in range(3)]
    return "-".join(".".join(p) for p in parts)


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def repack(dist: metadata.Distribution, folder: Path) -> Path:
    """One installed distribution as a wheel in ``folder`` (the files its RECORD lists in site-packages)."""
    name = canonicalize_name(dist.metadata["Name"]).replace("-", "_")
    version = dist.version
    target = folder / f"{name}-{version}-{_tags(dist)}.whl"
    info = next((f for f in dist.files or [] if f.parts[0].endswith(".dist-info")), None)
    if info is None:
        raise RuntimeError(f"{dist.metadata['Name']} has no RECORD to repack")
    info_dir = info.parts[0]
    records = []
    tmp = target.with_suffix(".part")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as z:
        for f in dist.files:
            rel = f.as_posix()
            if rel.startswith("..") or "__pycache__" in f.parts or rel.endswith(".pyc"):
                continue
            if f.parts[0] == info_dir and f.name in _LOCAL:
                continue
            path = Path(dist.locate_file(f))
            if not path.is_file():
                continue
            data = path.read_bytes()
            z.writestr(rel, data)
            records.append(_record_line(rel, data))
        records.append(f"{info_dir}/RECORD,,")
        z.writestr(f"{info_dir}/RECORD", "\n".join(records) + "\n")
    os.replace(tmp, target)
    return target


def wheelhouse(cache: Path, requirements: list[str], exclude: tuple[str, ...] = ()) -> Path:
    """A folder of wheels for ``requirements`` and their dependencies but ``exclude``, made
    once per set of versions."""
    dists = {n: d for n, d in closure(requirements).items() if n not in exclude}
    key = hashlib.sha256(
        json.dumps(sorted((n, d.version) for n, d in dists.items())).encode()
    ).hexdigest()[:16]
    folder = cache / f"wheelhouse-{key}"
    if (folder / "COMPLETE").exists():
        return folder
    if cache.exists():
        for old in cache.glob("wheelhouse-*"):
            shutil.rmtree(old, ignore_errors=True)
    folder.mkdir(parents=True)
    for dist in dists.values():
        repack(dist, folder)
    (folder / "COMPLETE").write_text("\n".join(sorted(dists)) + "\n")
    return folder
