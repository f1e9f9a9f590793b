"""Reading untrusted project files: confined to the project folder, size-capped, hashed.

Every file evreport reads from a project goes through ``confine_file`` (via
``Reader.read_bytes``): its real path must lie inside the project folder's real path
(so no symlink component leads out), it must be a regular file, and it is read through
one descriptor checked again after opening. Paths written *inside* input files go
through ``confine`` first, which also refuses absolute paths and ``..``.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath

from reportgen.errors import Problem, SetupError, display_name, quote
from reportgen.words.i18n import _, current
from reportgen.words.numbers import count

DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024


def _env_cap() -> tuple[int, str | None]:
    raw = os.environ.get("EVREPORT_MAX_FILE_BYTES")
    if raw is None:
        return DEFAULT_MAX_FILE_BYTES, None
    try:
        value = int(raw.strip().replace("_", ""))
        if value <= 0:
            raise ValueError
    except ValueError:
        return DEFAULT_MAX_FILE_BYTES, (
            f"EVREPORT_MAX_FILE_BYTES={quote(raw)} is not a positive whole number of bytes "
            f"(default {DEFAULT_MAX_FILE_BYTES})"
        )
    return value, None


#: Largest input file evreport reads, in bytes (a clear error beyond it).
MAX_FILE_BYTES, ENV_PROBLEM = _env_cap()
_ENV_RAW = os.environ.get("EVREPORT_MAX_FILE_BYTES", "")  # as ENV_PROBLEM read it


def env_problem() -> str | None:
    """ENV_PROBLEM (worked out at import, in English) in the current language."""
    if ENV_PROBLEM is None or current() == "en" or not _ENV_RAW:
        return ENV_PROBLEM
    return _(
        "EVREPORT_MAX_FILE_BYTES={value} is not a positive whole number of bytes (default "
        "{default})",
        value=quote(_ENV_RAW),
        default=DEFAULT_MAX_FILE_BYTES,
    )


def check_environment() -> None:
    """Raise SetupError when an EVREPORT_* variable is malformed (checked once per command)."""
    if ENV_PROBLEM:
        raise SetupError(env_problem() or ENV_PROBLEM)


class Refused(Exception):
    """A path or file that must not be read; carries the message (and line, if known) for a
    Problem, and its slug: "path-outside-project" when it leads out of the project folder
    (the message is in the build's language, so the slug says it, not the words)."""

    def __init__(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        slug: str = "unreadable",
    ):
        super().__init__(message)
        self.line = line
        self.column = column
        self.slug = slug


def _resolve(path: Path | str) -> Path:
    """The real path; raise Refused on a symlink loop or an unresolvable path."""
    try:
        return Path(os.path.realpath(path, strict=False))
    except (OSError, RuntimeError, ValueError) as e:
        raise Refused(
            _("{path} cannot be resolved: {reason}", path=display_name(path), reason=_reason(e))
        ) from None


def _reason(e: BaseException) -> str:
    """Why the system refused, in the current language where it is a common reason (the
    system's own words otherwise)."""
    if isinstance(e, OSError) and e.errno == errno.ELOOP:
        return _("a symlink loop")
    if isinstance(e, RuntimeError) and "loop" in str(e).lower():
        return _("a symlink loop")
    said = getattr(e, "strerror", None)
    if isinstance(e, OSError) and said:
        words = {
            errno.ENOENT: _("No such file or directory"),
            errno.EACCES: _("Permission denied"),
            errno.EPERM: _("Operation not permitted"),
            errno.EISDIR: _("Is a directory"),
            errno.ENOTDIR: _("Not a directory"),
            errno.ENAMETOOLONG: _("File name too long"),
        }
        # the system's words when it said something else than the usual text of the errno
        if said == os.strerror(e.errno or 0) and e.errno in words:
            return words[e.errno]
    return said or type(e).__name__


def confine(root: Path, rel: str) -> Path:
    """Resolve ``rel`` inside ``root``; refuse absolute paths, ``..`` and symlinks leading out."""
    if not isinstance(rel, str) or not rel.strip():
        raise Refused(_("empty path"))
    if "\x00" in rel:
        raise Refused(_("path {path} contains a NUL byte", path=quote(rel)))
    if (
        PurePosixPath(rel).is_absolute()
        or PureWindowsPath(rel).is_absolute()
        or PureWindowsPath(rel).drive
    ):
        raise Refused(
            _(
                "path {path} is absolute; paths must be relative to the project folder",
                path=quote(rel),
            )
        )
    parts = PurePosixPath(rel.replace("\\", "/")).parts
    if ".." in parts:
        raise Refused(
            _(
                "path {path} contains '..'; paths must stay inside the project folder",
                path=quote(rel),
            )
        )
    try:
        root_real = _resolve(root)
        target = _resolve(Path(root) / Path(*parts))
    except Refused as e:
        raise Refused(
            _(
                "path {path} cannot be resolved: {reason}",
                path=quote(rel),
                reason=str(e).rsplit(": ", 1)[-1],
            )
        ) from None
    if not _inside(target, root_real):
        raise Refused(
            _(
                "path {path} leads outside the project folder (through a symlink)",
                path=quote(rel),
            ),
            slug="path-outside-project",
        )
    return target


def _inside(real: Path, root_real: Path) -> bool:
    """``real`` is the resolved project folder itself or lies below it."""
    return real == root_real or root_real in real.parents


def _confined(root: Path, path: Path, outside: str) -> Path:
    """The real path of ``path``; Refused with the message ``outside`` when it leads out of ``root``."""
    real = _resolve(path)
    if not _inside(real, _resolve(root)):
        raise Refused(outside, slug="path-outside-project")
    return real


def confine_file(root: Path, path: Path, name: str | None = None) -> Path:
    """The real path of ``path`` if it is a regular file inside ``root``; else raise Refused.

    The one check every project file passes before it is read: resolved path inside the
    resolved project folder (a symlink anywhere on the way may not lead out), no symlink
    loop, and a regular file (not a folder, FIFO or device).
    """
    name = name or display_name(path)
    outside = _(
        "{path} leads outside the project folder (through a symlink); it is not read", path=name
    )
    real = _confined(root, path, outside)
    try:
        st = os.stat(real)
    except FileNotFoundError:
        raise Refused(_("file {path} does not exist", path=name)) from None
    except OSError as e:
        raise Refused(_("cannot read {path}: {reason}", path=name, reason=_reason(e))) from None
    if not stat.S_ISREG(st.st_mode):
        raise Refused(_("{path} is not a regular file", path=name))
    return real


def confine_dir(root: Path, path: Path, name: str | None = None) -> Path | None:
    """The real path of folder ``path`` inside ``root``; None when absent; Refused when it leads out."""
    name = name or display_name(path)
    outside = _(
        "folder {path}/ leads outside the project folder (through a symlink); nothing in it is "
        "read",
        path=name,
    )
    real = _confined(root, path, outside)
    return real if real.is_dir() else None


def read_confined(root: Path, path: Path, name: str | None = None, cap: int | None = None) -> bytes:
    """Read a regular file inside ``root`` through one descriptor, at most ``cap`` bytes."""
    name = name or display_name(path)
    if ENV_PROBLEM:
        raise Refused(env_problem() or ENV_PROBLEM)
    cap = MAX_FILE_BYTES if cap is None else cap
    real = confine_file(root, path, name)
    try:
        fd = os.open(
            real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
    except OSError as e:
        raise Refused(_("cannot read {path}: {reason}", path=name, reason=_reason(e))) from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):  # swapped between the check and the open
            raise Refused(_("{path} is not a regular file", path=name))
        if st.st_size > cap:
            raise Refused(
                _(
                    "file {path} is {size} bytes, over the {cap}-byte limit "
                    "(set EVREPORT_MAX_FILE_BYTES to raise it)",
                    path=name,
                    size=count(st.st_size),
                    cap=count(cap),
                )
            )
        try:
            data = f.read(cap + 1)
        except OSError as e:
            raise Refused(_("cannot read {path}: {reason}", path=name, reason=_reason(e))) from None
    if len(data) > cap:
        raise Refused(
            _(
                "file {path} is over the {cap}-byte limit (set EVREPORT_MAX_FILE_BYTES to raise it)",
                path=name,
                cap=count(cap),
            )
        )
    return data


@dataclass
class Reader:
    """Reads files of one project, recording path, sha256 and size of every file read.

    ``trusted`` holds paths the operator named on the command line outside the project
    (``--runs /data/runs.csv``): those are only checked to be regular files.
    """

    root: Path
    inputs: dict[str, tuple[str, int]] = field(default_factory=dict)
    trusted: frozenset[str] = frozenset()
    #: real path -> parsed table, so a file named many times is read once
    tables: dict[str, object] = field(default_factory=dict)
    #: per-file byte cap (``--max-file-mb``); None: MAX_FILE_BYTES
    max_file_bytes: int | None = None

    def display(self, path: Path) -> str:
        """The path as a user should see it: relative to the project folder when inside it.

        Lexical (symlinks are not followed), so a link never shows where it points.
        """
        a, r = os.path.abspath(path), os.path.abspath(self.root)
        try:
            rel = Path(a).relative_to(r).as_posix()
        except ValueError:
            rel = str(path)
        return display_name(rel)

    def read_bytes(self, path: Path) -> bytes:
        """Read a file (capped at max_file_bytes or MAX_FILE_BYTES) and record its hash. Raises Refused."""
        name = self.display(path)
        root = Path(os.sep) if str(path) in self.trusted else self.root
        data = read_confined(root, Path(path), name, cap=self.max_file_bytes)
        self.inputs[name] = (hashlib.sha256(data).hexdigest(), len(data))
        return data

    def read_text(self, path: Path) -> str:
        """Read a UTF-8 text file (a BOM is tolerated). Raises Refused on bad encoding."""
        data = self.read_bytes(path)
        return decode_text(data)

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

    def folder(self, path: Path, problems: list[Problem]) -> Path | None:
        """A folder whose files are read (split/, artefacts/checks/), refused if it leads out."""
        name = self.display(path)
        try:
            confine_dir(self.root, path, name)
        except Refused as e:
            problems.append(Problem(str(e), name, slug="path-outside-project"))
            return None
        return path if path.is_dir() else None


def is_file(path: Path) -> bool:
    """Path.is_file, False where the path cannot even be looked at."""
    try:
        return path.is_file()
    except OSError:
        return False


def exists(path: Path) -> bool:
    """Whether there is anything at ``path`` (a dangling link counts: reading it says why)."""
    try:
        return path.exists() or path.is_symlink()
    except OSError:
        return True  # e.g. a symlink loop: reading it gives the clear message


def decode_text(data: bytes) -> str:
    """UTF-8 (a BOM is tolerated); otherwise Refused naming the likely encoding and the line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        # for a CSV file, the field holding the bad byte (commas before it on its line)
        column = data[data.rfind(b"\n", 0, e.start) + 1 : e.start].count(b",") + 1
        raise Refused(
            _("not valid UTF-8 (byte {offset})", offset=e.start) + encoding_hint(data),
            line=line,
            column=column,
        ) from None


def encoding_hint(data: bytes) -> str:
    """A hint naming the encoding a non-UTF-8 text file probably has."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(data) > 3 and data[1:4:2] == b"\x00\x00"):
        return _("; it looks like UTF-16: save it as UTF-8")
    return _("; it may be Latin-1 or Windows-1252: save it as UTF-8")


def combined_digest(inputs: dict[str, tuple[str, int]]) -> str:
    """One SHA-256 over every input file (``inputs``: path -> (sha256, bytes)): of the lines
    ``sha256sum`` prints for them ("<sha256>  <path>"), sorted by path in byte order, so that
    ``sha256sum FILES | LC_ALL=C sort -k2 | sha256sum`` in the project folder reproduces it."""
    lines = "".join(f"{inputs[p][0]}  {p}\n" for p in sorted(inputs, key=lambda p: p.encode()))
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()
