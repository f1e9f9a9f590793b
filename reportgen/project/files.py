"""Reading untrusted project files: confined to the project folder, size-capped, hashed."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath

from reportgen.errors import Problem

#: Largest input file evreport reads, in bytes (a clear error beyond it).
MAX_FILE_BYTES = int(os.environ.get("EVREPORT_MAX_FILE_BYTES", 256 * 1024 * 1024))


class Refused(Exception):
    """A path or file that must not be read; carries the message (and line, if known) for a Problem."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


def confine(root: Path, rel: str) -> Path:
    """Resolve ``rel`` inside ``root``; refuse absolute paths, ``..`` and symlinks leading out."""
    if not isinstance(rel, str) or not rel.strip():
        raise Refused("empty path")
    if "\x00" in rel:
        raise Refused(f"path {rel!r} contains a NUL byte")
    if (
        PurePosixPath(rel).is_absolute()
        or PureWindowsPath(rel).is_absolute()
        or PureWindowsPath(rel).drive
    ):
        raise Refused(f"path {rel!r} is absolute; paths must be relative to the project folder")
    parts = PurePosixPath(rel.replace("\\", "/")).parts
    if ".." in parts:
        raise Refused(f"path {rel!r} contains '..'; paths must stay inside the project folder")
    try:
        root_real = root.resolve()
        target = (root / Path(*parts)).resolve()
    except OSError as e:
        raise Refused(f"path {rel[:80]!r} cannot be resolved: {e.strerror or e}") from None
    if target != root_real and root_real not in target.parents:
        raise Refused(f"path {rel!r} leads outside the project folder (through a symlink)")
    return target


def inside_folder(path: Path, folder: Path, name: str) -> Path:
    """Refuse a file found in ``folder`` whose real location (after symlinks) is outside it."""
    try:
        real, base = path.resolve(), folder.resolve()
    except OSError as e:
        raise Refused(f"{name} cannot be resolved: {e.strerror or e}") from None
    if base not in real.parents:
        raise Refused(f"{name} leads outside {folder.name}/ (through a symlink); it is not read")
    return real


@dataclass
class Reader:
    """Reads files of one project, recording path, sha256 and size of every file read."""

    root: Path
    inputs: dict[str, tuple[str, int]] = field(default_factory=dict)

    def display(self, path: Path) -> str:
        """The path as a user should see it: relative to the project folder when inside it."""
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return str(path)

    def read_bytes(self, path: Path) -> bytes:
        """Read a file (capped at MAX_FILE_BYTES) and record its hash. Raises Refused."""
        name = self.display(path)
        try:
            if not path.exists():
                raise Refused(f"file {name} does not exist")
            if not path.is_file():
                raise Refused(f"{name} is not a regular file")
            size = path.stat().st_size
        except OSError as e:
            raise Refused(f"cannot read {name}: {e.strerror or e}") from None
        if size > MAX_FILE_BYTES:
            raise Refused(
                f"file {name} is {size:,} bytes, over the {MAX_FILE_BYTES:,}-byte limit "
                "(set EVREPORT_MAX_FILE_BYTES to raise it)"
            )
        try:
            data = path.read_bytes()
        except OSError as e:
            raise Refused(f"cannot read {name}: {e.strerror or e}") from None
        self.inputs[name] = (hashlib.sha256(data).hexdigest(), len(data))
        return data

    def read_text(self, path: Path) -> str:
        """Read a UTF-8 text file (a BOM is tolerated). Raises Refused on bad encoding."""
        data = self.read_bytes(path)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            line = data[: e.start].count(b"\n") + 1
            raise Refused(f"not valid UTF-8 (byte {e.start})", line=line) from None

    def project_path(
        self,
        rel: str,
        *,
        source: str,
        line: int | None = None,
        column: int | None = None,
        problems: list[Problem],
    ) -> Path | None:
        """Confine a path named inside an input file; on refusal record a Problem and return None."""
        try:
            return confine(self.root, rel)
        except Refused as e:
            problems.append(Problem(str(e), source, line, column, slug="path-outside-project"))
            return None


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()
