"""The safety helpers every part of evreport shares, one version of each (the strictest).

- ``escape_controls`` / ``replace_controls``: control characters in untrusted text;
- ``safe_file_name``: a name that can be a file name anywhere;
- ``csv_cell``: a cell a spreadsheet shows as text, never runs as a formula;
- ``atomic_write``: a file replaced whole or not at all, flushed to disk.

Only the standard library is imported here, so every module may use it.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import unicodedata
from collections.abc import Collection
from pathlib import Path

#: C0 controls, DEL, C1 controls, the line and paragraph separators, lone surrogates
#: (the undecodable bytes of a file name read with ``surrogateescape``)
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
#: the same, but tab and newline: they are text in a page
_CONTROL_BUT_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")

#: what a spreadsheet reads as the start of a formula
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

#: device names Windows reserves, with any extension
WINDOWS_RESERVED = frozenset(
    {"CON", "PRN", "AUX", "NUL"} | {f"{p}{i}" for p in ("COM", "LPT") for i in range(10)}
)
#: longest name ``safe_file_name`` returns
MAX_NAME = 80
#: prefix of every temporary entry evreport makes next to what it writes
TMP_PREFIX = ".evreport-"


def _escape(m: re.Match) -> str:
    c = m.group(0)
    if "\ud800" <= c <= "\udfff":  # an undecodable byte of a file name (surrogateescape)
        return f"\\x{ord(c) - 0xDC00:02x}" if ord(c) >= 0xDC80 else "\ufffd"
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def escape_controls(text: str, keep_lines: bool = False) -> str:
    """Control characters shown as escapes (``\\x1b``, ``\\u2028``; a file name's undecodable
    byte as ``\\xNN``); ``keep_lines`` leaves tab and newline as they are."""
    return (_CONTROL_BUT_LINES if keep_lines else CONTROL).sub(_escape, text)


def replace_controls(text: str, replacement: str = " ") -> str:
    """Every control character replaced by ``replacement``."""
    return CONTROL.sub(replacement, text)


def safe_file_name(
    raw: str, *, sep: str = "_", reserved: Collection[str] = (), empty: str | None = "file"
) -> str:
    """A file name of ``[A-Za-z0-9._-]`` only, never hidden, reserved or longer than MAX_NAME.

    Letters lose their accents (``Zoë`` is ``Zoe``); every other run of characters becomes
    ``sep``. A name in ``reserved`` (any case) or a Windows device name gets a trailing
    ``_``. Nothing left: ``empty``, or ValueError when ``empty`` is None.
    """
    ascii_ = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode()
    edges = "._-" + sep
    name = re.sub(r"[^A-Za-z0-9._-]+", sep, ascii_).strip(edges)[:MAX_NAME].rstrip(edges)
    if not name:
        if empty is None:
            raise ValueError(f"{raw!r} gives an empty file name")
        name = empty
    folded = {r.lower() for r in reserved}
    if name.lower() in folded or name.split(".")[0].upper() in WINDOWS_RESERVED:
        name += "_"
    return name


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: None is empty, a formula start gets a quote."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _fsync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename) to disk, where the platform allows it."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    with contextlib.suppress(OSError):
        fd = os.open(folder, flags)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _create_temp(path: Path) -> tuple[int, Path]:
    """A new, empty temporary file beside ``path``, created exclusively (never through a link)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    while True:
        tmp = path.with_name(f"{TMP_PREFIX}{path.name}.{secrets.token_hex(6)}.tmp")
        with contextlib.suppress(FileExistsError):
            return os.open(tmp, flags, 0o666), tmp


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` whole or not at all, through a new file in its folder.

    The temporary file is written and fsynced, then renamed over ``path`` (so a hard
    link or a symlink there is replaced, never written through), then the folder is
    fsynced. On any failure the temporary file is removed and the error raised. The file
    gets the usual permissions (0666 less the umask).
    """
    path = Path(path)
    fd, tmp = _create_temp(path)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_folder(path.parent)
