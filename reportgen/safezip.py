"""Extract an untrusted zip into a folder without letting it write anywhere else.

Students submit zips, so a zip is hostile until proven otherwise:

- every entry must land inside the destination: absolute names, ``..``, drive
  letters, colons, backslashes and NUL bytes are rejected;
- symlink entries (and any other non-regular file) are skipped, never created, and
  reported in ``Extracted.skipped``; nothing is ever followed;
- the entry count, the total uncompressed size and each entry's compression ratio
  are capped; sizes are counted while streaming, never taken from the headers.

Only regular files and directories are created, with default permissions.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import struct
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from reportgen.errors import EvreportError, clean_text, display_name, quote

MAX_BYTES = 200 * 1024 * 1024
MAX_FILES = 10_000
MAX_RATIO = 200
#: the ratio cap only applies once an entry has produced this many bytes: a few
#: kilobytes of blank lines legitimately compress more than 200 to 1
RATIO_FLOOR = 1024 * 1024
CHUNK = 64 * 1024
#: entries an archiver adds that are not part of the project
IGNORED_TOP = {"__MACOSX"}

_DRIVE = re.compile(r"^[A-Za-z]:")


class UnsafeZipError(EvreportError):
    """The zip is unreadable, hostile or too large; nothing of it is kept."""

    slug = "unsafe-zip"


class ExtractionFailed(EvreportError):
    """The zip could not be extracted for a reason of this machine (a full disk)."""

    slug = "cannot-write"


@dataclass
class Extracted:
    """Where the project landed and which entries were left out, and why."""

    root: Path
    project: Path | None
    files: int = 0
    bytes: int = 0
    skipped: list[str] = field(default_factory=list)


def entry_parts(name: str) -> list[str]:
    """The path components of a zip entry name; raise UnsafeZipError if it could escape."""
    if not name:
        raise UnsafeZipError("zip entry with an empty name")
    if "\x00" in name:
        raise UnsafeZipError(f"zip entry {quote(name)} has a NUL byte in its name")
    if "\\" in name:
        raise UnsafeZipError(
            f"zip entry {quote(name)} has a backslash in its name; zip names use '/' only"
        )
    if name.startswith("/"):
        raise UnsafeZipError(f"zip entry {quote(name)} is an absolute path")
    if _DRIVE.match(name) or ":" in name:
        raise UnsafeZipError(f"zip entry {quote(name)} has a drive letter or a colon in its name")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise UnsafeZipError(f"zip entry {quote(name)} climbs out of the folder with '..'")
    return parts


def _kind(info: zipfile.ZipInfo) -> str:
    """'dir', 'file', 'symlink' or 'special', from the Unix mode when the zip has one."""
    mode = info.external_attr >> 16
    if mode and stat.S_ISLNK(mode):
        return "symlink"
    if info.is_dir() or (mode and stat.S_ISDIR(mode)):
        return "dir"
    if mode and stat.S_IFMT(mode) and not stat.S_ISREG(mode):
        return "special"
    return "file"


def safe_extract(
    zip_path: str | Path,
    dest: str | Path,
    *,
    max_bytes: int = MAX_BYTES,
    max_files: int = MAX_FILES,
    max_ratio: float = MAX_RATIO,
    ratio_floor: int = RATIO_FLOOR,
) -> Extracted:
    """Extract ``zip_path`` into the empty or new folder ``dest`` and find the project in it.

    On any UnsafeZipError the partly extracted files are removed again. ``project`` is
    the folder holding ``evreport.toml``: ``dest`` itself or its single top folder, or
    None when neither has one.
    """
    zip_path, dest = Path(zip_path), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    if any(dest.iterdir()):
        raise ValueError(f"{dest} must be empty")
    root = dest.resolve()
    result = Extracted(root=root, project=None)
    count_entries(zip_path, max_files)  # before zipfile builds an object per entry
    try:
        with zipfile.ZipFile(zip_path) as zf:
            infos = zf.infolist()
            if len(infos) > max_files:
                raise UnsafeZipError(
                    f"{zip_path.name} has {len(infos)} entries; the limit is {max_files}"
                )
            for info in infos:
                _extract_entry(zf, info, root, result, max_bytes, max_ratio, ratio_floor)
    except UnsafeZipError:
        _empty(root)
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError) as e:
        _empty(root)
        raise UnsafeZipError(
            f"{_name(zip_path)} is not a readable zip: {clean_text(e, 200)}"
        ) from None
    except UnicodeDecodeError:  # an entry flagged UTF-8 whose name is not
        _empty(root)
        raise UnsafeZipError(
            f"{_name(zip_path)} has an entry name flagged as UTF-8 that is not valid UTF-8"
        ) from None
    except RuntimeError as e:  # encrypted entries
        _empty(root)
        msg = clean_text(e, 200)
        if "encrypted" in msg or "password" in msg:
            msg = "it is password-protected (encrypted); submit an unencrypted zip"
        raise UnsafeZipError(f"{_name(zip_path)} cannot be extracted: {msg}") from None
    except OSError as e:
        _empty(root)
        if e.errno in _MACHINE_ERRORS:  # the grader's disk, not the student's zip
            raise ExtractionFailed(
                f"cannot extract {_name(zip_path)}: {e.strerror} on the grading machine "
                "(not a problem with the zip)"
            ) from None
        # e.g. a file and a folder of the same name
        raise UnsafeZipError(f"{_name(zip_path)} cannot be extracted: {e.strerror}") from None
    result.project = find_project(root)
    return result


def _name(path: Path) -> str:
    return display_name(path.name)


#: OSError numbers that are the grading machine's problem, not the zip's
_MACHINE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO}

_EOCD = b"PK\x05\x06"
_EOCD64_LOCATOR = b"PK\x06\x07"
_EOCD64 = b"PK\x06\x06"


def count_entries(zip_path: Path, max_files: int) -> int:
    """The entry count from the zip's end-of-central-directory record, checked against the cap.

    Read from the last 64 KiB of the file and the ZIP64 end record wherever a reader may
    look for it, so a zip declaring a million entries in either record is refused before
    any of them is parsed.
    """
    try:
        with open(zip_path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            tail_len = min(size, 65_535 + 22)
            f.seek(size - tail_len)
            tail = f.read(tail_len)
            at = tail.rfind(_EOCD)
            if at < 0 or len(tail) - at < 22:
                raise UnsafeZipError(f"{_name(zip_path)} is not a readable zip: no end record")
            disk_entries, total, cd_size = struct.unpack("<HHI", tail[at + 8 : at + 16])
            count = max(disk_entries, total)
            loc = size - tail_len + at - 20  # where a ZIP64 locator sits, in the file
            locator = b""
            if loc >= 0:
                f.seek(loc)
                locator = f.read(20)
            if locator[:4] == _EOCD64_LOCATOR:
                # a ZIP64 record overrides the classic one whatever the latter says (zipfile
                # uses it even when the classic counts look small): Python's zipfile reads
                # it just before the locator, other tools where the locator points; the
                # larger count and size of all of them are checked
                (offset,) = struct.unpack("<Q", locator[8:16])
                for pos in sorted({loc - 56, offset}):
                    if not 0 <= pos <= size - 56:
                        continue
                    f.seek(pos)
                    rec = f.read(56)
                    if rec[:4] == _EOCD64:
                        d64, t64, cd64 = struct.unpack("<QQQ", rec[24:48])
                        count, cd_size = max(count, d64, t64), max(cd_size, cd64)
    except OSError as e:
        raise UnsafeZipError(f"{_name(zip_path)} cannot be read: {e.strerror}") from None
    if count > max_files:
        raise UnsafeZipError(f"{_name(zip_path)} has {count:,} entries; the limit is {max_files:,}")
    # a central directory far larger than max_files entries with sensible names is refused too
    if cd_size > max(max_files, 1) * 1100:
        raise UnsafeZipError(
            f"{_name(zip_path)} has a {cd_size:,}-byte list of entries, too large for "
            f"{max_files:,} entries"
        )
    return count


def _extract_entry(zf, info, root, result, max_bytes, max_ratio, ratio_floor) -> None:
    parts = entry_parts(info.filename)
    kind = _kind(info)
    if kind in ("symlink", "special"):
        result.skipped.append(f"{info.filename}: {kind} entry skipped (not extracted)")
        return
    if not parts:
        return
    target = root.joinpath(*parts)
    # belt and braces: the checks above already make this impossible
    if not target.resolve().is_relative_to(root):
        raise UnsafeZipError(f"zip entry {quote(info.filename)} would land outside the folder")
    if kind == "dir":
        target.mkdir(parents=True, exist_ok=True)
        return
    result.files += 1
    target.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    allowed = max(info.compress_size, 1) * max_ratio
    with zf.open(info) as src, open(target, "xb") as out:
        while chunk := src.read(CHUNK):
            written += len(chunk)
            if result.bytes + written > max_bytes:
                raise UnsafeZipError(
                    f"zip expands to more than {max_bytes // (1024 * 1024)} MB "
                    f"(stopped in {quote(info.filename)})"
                )
            if written > ratio_floor and written > allowed:
                raise UnsafeZipError(
                    f"zip entry {quote(info.filename)} expands more than {max_ratio:g} times "
                    "its compressed size (a zip bomb?)"
                )
            out.write(chunk)
    result.bytes += written


def find_project(root: Path) -> Path | None:
    """The folder with evreport.toml: ``root`` or its single top folder (archiver junk ignored)."""
    if (root / "evreport.toml").is_file():
        return root
    tops = [
        p
        for p in root.iterdir()
        if p.name not in IGNORED_TOP and not p.name.startswith(".") and p.is_dir()
    ]
    if len(tops) == 1 and (tops[0] / "evreport.toml").is_file():
        return tops[0]
    return None


def _empty(root: Path) -> None:
    for p in root.iterdir():
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
