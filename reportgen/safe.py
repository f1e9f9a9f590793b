"""The safety helpers every part of evreport shares, one version of each (the strictest).

- ``escape_controls`` / ``replace_controls``: control characters in untrusted text, and
  the invisible ones that reorder or hide text (bidi overrides, zero-width characters);
- ``inert_markdown``: untrusted text as one Markdown line that forms no link (not even a
  bare URL under GitHub's renderer), image, HTML or structure;
- ``safe_file_name``: a name that can be a file name anywhere;
- ``csv_cell``: a cell a spreadsheet shows as text, never runs as a formula;
- ``atomic_write``: a file replaced whole or not at all, flushed to disk;
- ``exchange``: two folders swapped in one step (Linux), for a swap no kill can split;
- ``walk_tree``: the entries of an untrusted folder, links not followed, depth and count capped;
- ``lock_folder``: an advisory lock on a folder evreport writes, so two runs never interleave.

Only the standard library is imported here, so every module may use it.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import stat
import sys
import unicodedata
from collections.abc import Collection
from pathlib import Path

#: characters that change what a reader sees without being seen: the bidi marks, embeddings,
#: overrides and isolates (U+061C, U+200E/F, U+202A-202E, U+2066-2069, which can reorder a
#: line), and the zero-width ones (U+180E, U+200B-200D, U+2060-2064, U+FEFF), which can hide
#: a difference between two names
INVISIBLE = "\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
#: C0 controls, DEL, C1 controls, the line and paragraph separators, the invisible ones
#: above, lone surrogates (the undecodable bytes of a file name read with ``surrogateescape``)
CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{INVISIBLE}\ud800-\udfff]")
#: the same, but tab and newline: they are text in a page
_CONTROL_BUT_LINES = re.compile(
    f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029{INVISIBLE}\ud800-\udfff]"
)

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


#: what GitHub's renderer (cmark-gfm's autolink extension) turns into a link by itself:
#: ``scheme://`` (http, https, ftp and anything alike), ``www.`` after any character (cmark-gfm
#: links ``_www.x`` and ``\_www.x`` too), ``mailto:`` / ``xmpp:``, and every ``@`` before a name:
#: an e-mail address (``a@b.org``) and a mention GitHub would notify (``@everyone``)
_BARE_LINK = re.compile(
    r"(?P<sep>://)|(?P<www>www)\.(?=\w)|(?P<scheme>\b(?:mailto|xmpp)):|(?P<at>@)(?=[\w-])",
    re.IGNORECASE,
)
#: Markdown punctuation escaped in every mode: links, images, HTML, code
_MD_ACTIVE = "\\`[]<>"
#: and in ``strict`` mode also emphasis, headings, tables, entities
_MD_STRICT = _MD_ACTIVE + "*_{}()#+!|~&"


def _defang(m: re.Match) -> str:
    if m.group("sep"):
        return "[:]//"
    if m.group("www"):
        return m.group("www") + "[.]"
    if m.group("scheme"):
        return m.group("scheme") + "[:]"
    return "[@]"


def inert_markdown(text: str, strict: bool = False) -> str:
    r"""Untrusted text as one Markdown line that renders as itself and forms nothing.

    Line breaks become spaces, control and invisible characters visible escapes
    (``\u202e``), and what GitHub would link by itself is broken visibly:
    ``http://x`` shows as ``http[:]//x``, ``www.x`` as ``www[.]x`` (after any character),
    ``a@b.org`` as ``a[@]b.org`` and a mention ``@everyone`` as ``[@]everyone``. Then backslash, backtick and ``[ ] < >`` are backslash-escaped (``strict``: also
    ``* _ { } ( ) # + ! | ~ &``), so no link, image, raw HTML, code (nor, strict,
    emphasis or heading) can form.
    """
    s = " ".join(escape_controls(text.replace("\t", " ").replace("\n", " ")).split())
    s = _BARE_LINK.sub(_defang, s)
    active = _MD_STRICT if strict else _MD_ACTIVE
    return "".join("\\" + c if c in active else c for c in s)


#: what opens a block when it starts a line (a list item's or a quote's text too): a
#: heading (``# x``), a list item (``- x``, ``+ x``, ``1. x``, ``1) x``), a setext underline
_BLOCK_START = re.compile(r"#{1,6}(?=\s|$)|[-+=](?=[\s=+-]|$)|\d{1,9}(?=[.)](?:\s|$))")
#: an entity reference that would render as another character (``&lt;``, ``&#60;``)
_ENTITY = re.compile(r"&(?=#?\w+;)")
#: always escaped by ``plain_markdown``: code, link and image brackets, HTML, emphasis, tables
_MD_PLAIN = "`[]<>*~|"


def plain_markdown(text: str) -> str:
    r"""Untrusted text as one Markdown line that renders as itself, with as few escapes as that takes.

    As ``inert_markdown`` (one line, control characters visible, bare links broken), but
    only what could form a link, an image, raw HTML, code, emphasis, a table cell or a block
    is backslash-escaped: ``` ` [ ] < > * ~ | ``` always; ``_`` unless it stands inside a
    word (``log_loss`` cannot emphasise); ``\`` unless a letter, digit or space follows;
    ``&`` only where it starts an entity; and a heading, list or table mark only at the
    start. Plain punctuation (``+0.0088``, ``(5 seeds)``, ``#3``, ``!``) is left as it is.
    """
    s = " ".join(escape_controls(text.replace("\t", " ").replace("\n", " ")).split())
    s = _BARE_LINK.sub(_defang, s)
    out = []
    for i, c in enumerate(s):
        before = s[i - 1] if i else " "
        after = s[i + 1] if i + 1 < len(s) else " "
        if c in _MD_PLAIN:
            esc = True
        elif c == "_":
            esc = not (before.isalnum() and after.isalnum())
        elif c == "\\":
            esc = not (after.isalnum() or after == " ")
        elif c == "&":
            esc = _ENTITY.match(s, i) is not None
        else:
            esc = False
        out.append("\\" + c if esc else c)
    line = "".join(out)
    m = _BLOCK_START.match(line)
    if m is not None:
        at = m.end() if m.group(0).isdigit() else 0
        line = line[:at] + "\\" + line[at:]
    return line


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


def fsync_folder(folder: Path) -> None:
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
    fsync_folder(path.parent)


# ----------------------------------------------------------------------------- folders

#: renameat2's flag that swaps two existing paths (Linux 3.15+, most local file systems)
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _renameat2():
    """libc's renameat2, or None where there is none (not Linux, old glibc)."""
    import ctypes

    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


def exchange(a: Path, b: Path) -> bool:
    """Swap two existing entries of one file system in one step; False where unsupported.

    Linux ``renameat2(RENAME_EXCHANGE)``: at every moment both names exist, each holding
    one of the two. Where the platform or file system cannot (another OS, an old kernel,
    some network file systems) nothing is changed and False is returned, so the caller
    falls back to two renames. Any other failure raises OSError.
    """
    import ctypes
    import errno

    fn = _renameat2() if sys.platform.startswith("linux") else None
    if fn is None:
        return False
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(a), None, str(b))


class TreeTooLarge(ValueError):
    """An untrusted folder deeper or with more entries than ``walk_tree`` allows. Its message
    is English; ``limit`` and ``nested`` (the too-deep folder, shortened; None when the entry
    count was the limit) let a caller say it in another language."""

    def __init__(self, message: str, limit: int, nested: str | None = None) -> None:
        super().__init__(message)
        self.limit = limit
        self.nested = nested


#: how deep and how large an untrusted folder may be (the same entry cap as a zip)
MAX_TREE_DEPTH = 64
MAX_TREE_ENTRIES = 10_000


def walk_tree(
    root: str | bytes | Path,
    max_depth: int = MAX_TREE_DEPTH,
    max_entries: int = MAX_TREE_ENTRIES,
):
    """Yield ``(relative path, lstat)`` of every entry under ``root``, sorted, links not followed.

    Iterative (no recursion, so a folder nested 100,000 deep cannot crash it); raises
    TreeTooLarge past ``max_depth`` folders or ``max_entries`` entries, before reading
    further. Paths are bytes when ``root`` is bytes, else str.
    """
    is_bytes = isinstance(root, bytes)
    root = os.fsencode(root)
    sep = os.fsencode(os.sep)
    stack: list[tuple[bytes, int]] = [(b"", 0)]
    seen = 0
    while stack:
        rel_dir, depth = stack.pop()
        try:
            names = sorted(os.listdir(os.path.join(root, rel_dir) if rel_dir else root))
        except OSError:
            continue
        subdirs = []
        for name in names:
            seen += 1
            if seen > max_entries:
                raise TreeTooLarge(f"more than {max_entries:,} files and folders", max_entries)
            rel = rel_dir + sep + name if rel_dir else name
            try:
                st = os.lstat(os.path.join(root, rel))
            except OSError:
                continue
            yield (rel if is_bytes else os.fsdecode(rel)), st
            if stat.S_ISDIR(st.st_mode):
                if depth + 1 >= max_depth:
                    shown = os.fsdecode(rel)
                    shown = f"{shown[:60]}{'...' if len(shown) > 60 else ''}"
                    raise TreeTooLarge(
                        f"folders nested more than {max_depth} deep ({shown})", max_depth, shown
                    )
                subdirs.append(rel)
        stack.extend((d, depth + 1) for d in reversed(subdirs))


class FolderBusy(OSError):
    """Another evreport process holds the lock of a folder it writes. Its message is English;
    ``pid`` (the holder's, when its lock file names one) lets a caller say it in another
    language."""

    def __init__(self, message: str, pid: str | None = None) -> None:
        super().__init__(message)
        self.pid = pid


#: the lock file evreport keeps in every folder it writes (--out of build and batch)
LOCK_NAME = ".evreport-lock"


@contextlib.contextmanager
def lock_folder(folder: Path, wait: float = 0.0):
    """Hold an exclusive advisory lock (``flock``) on ``folder/.evreport-lock`` while inside.

    Waits up to ``wait`` seconds for another holder, then raises FolderBusy naming its
    process id. The lock goes with the process: a killed holder never leaves it taken.
    The file itself stays (removing a lock file races with the next taker). Where the
    platform has no ``fcntl`` (Windows) nothing is locked.
    """
    import time

    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    path = Path(folder) / LOCK_NAME
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o666)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
                    pid = holder if holder.isdigit() else None
                    raise FolderBusy(
                        f"in use by another evreport process{f' (pid {pid})' if pid else ''}", pid
                    ) from None
                time.sleep(0.05)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # releases the lock


#: the most folders a report's links climb from its folder up to the project's
MAX_LINK_UP = 2


def project_link(project_dir: str | Path, out_dir: str | Path) -> str | None:
    """The link prefix from ``out_dir`` to ``project_dir`` ("../" for the project's report/
    folder, "" for the project itself), or None: more than MAX_LINK_UP folders up, or no common
    folder but the file system's root (an --out in /tmp for a project in a home folder)."""
    project = Path(project_dir).resolve()
    out = Path(out_dir).resolve()
    try:
        common = Path(os.path.commonpath([project, out]))
    except ValueError:  # different drives
        return None
    if common == Path(common.anchor):
        return None
    parts = Path(os.path.relpath(project, out)).parts
    if sum(p == ".." for p in parts) > MAX_LINK_UP:
        return None
    return "".join(p + "/" for p in parts if p != ".")
