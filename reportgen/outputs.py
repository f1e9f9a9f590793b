"""Atomic writes: a build's files land together or not at all; nothing outside the output folder."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import tempfile
from pathlib import Path

from reportgen.errors import InputError, display_name
from reportgen.safe import TMP_PREFIX, FolderBusy, atomic_write, fsync_folder, lock_folder
from reportgen.words.i18n import _


def write_reason(e: OSError) -> str:
    """Why a write failed, in the current language: "the disk is full", "permission denied"."""
    reasons: dict[int | None, str] = {
        errno.ENOSPC: _("the disk is full"),
        errno.EDQUOT: _("the disk quota is exceeded"),
        errno.EROFS: _("the file system is read-only"),
        errno.EACCES: _("permission denied"),
        errno.EPERM: _("permission denied"),
    }
    return reasons.get(e.errno, e.strerror or type(e).__name__)


def write_error(path: Path, e: OSError) -> InputError:
    """An OSError while writing as one clear line (read-only folder, full disk ...)."""
    why = write_reason(e)
    name = display_name(path)
    return InputError(_("cannot write here: {why}", why=why), path=name, slug="cannot-write")


def _busy(e: FolderBusy) -> str:
    """safe.lock_folder's reason in the current language, from the pid it carries (safe.py
    imports only the standard library, so its own message is English)."""
    if e.pid:
        return _("in use by another evreport process (pid {pid})", pid=e.pid)
    return _("in use by another evreport process")


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
                _("{path} is a symlink; refusing to write through it", path=name),
                path=name,
                slug="symlink",
            )


def write_file_atomic(path: Path, data: bytes, root: Path | None = None) -> None:
    """Write one file by temp file + rename in its folder; never through a symlink.

    ``root``: the project folder; no folder between it and ``path`` may be a symlink either.
    On failure (read-only, full disk) the temporary file is removed and InputError raised.
    """
    path = Path(path)
    refuse_symlinks(path, root)
    if path.is_dir():
        raise InputError(_("{path} is a folder", path=display_name(path)), path=display_name(path))
    try:
        atomic_write(path, data)  # replaces a symlink created meanwhile, never its target
    except OSError as e:
        raise write_error(path, e) from None


#: a temporary folder older than this is left over from a killed build (a build's own
#: temporary folder lives for the seconds its files take to write)
STALE_SECONDS = 600
#: a build's temporary folder (``tempfile.mkdtemp(prefix=".evreport-")``) and symlink
_TEMP_FOLDER = re.compile(r"\.evreport-[a-z0-9_]{8}")
_TEMP_LINK = re.compile(r"\.evreport-.+\.[0-9a-f]{12}\.tmp")


def clean_stale(out_dir: Path, older_than: float = STALE_SECONDS) -> list[str]:
    """Remove temporary entries an interrupted earlier build left in ``out_dir``; their names.

    Folders named as a build's temporary folder (``.evreport-`` and 8 characters, never
    a batch's ``.evreport-tmp`` or the build store) older than ``older_than`` seconds, so
    an older evreport writing at the same moment keeps its own; and the temporary
    symlinks of a versioned build (``.evreport-NAME.HEX.tmp``), at once: the caller
    holds the folder's lock, so no build of ours is making one.
    """
    import time

    removed: list[str] = []
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
        if _TEMP_LINK.fullmatch(p.name) and p.is_symlink():  # made on its way into place
            p.unlink(missing_ok=True)
            removed.append(p.name)
            continue
        if (
            _TEMP_FOLDER.fullmatch(p.name)
            and not p.is_symlink()
            and p.is_dir()
            and now - st.st_mtime > older_than
        ):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p.name)
    return removed


#: inside --out: one folder per build, each a complete set of that build's files
STORE = ".evreport-builds"
#: inside --out: the one symlink that says which build is current; every report file at
#: the top of --out is a symlink through it, so one rename switches them all at once
CURRENT = ".evreport-current"
#: what the platform or file system says when it has no symlinks (FAT, Windows users)
_NO_SYMLINKS = {errno.EPERM, errno.EACCES, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP}


def atomic_write_dir(out_dir: Path, files: dict[str, bytes], versioned: bool = True) -> list[Path]:
    """Write ``files`` into ``out_dir`` so that they appear all at once, or not at all.

    ``versioned`` (``evreport build``): the files go into a new folder
    ``.evreport-builds/ID/``; then the symlink ``.evreport-current`` is switched to it by
    one rename, and each top-level name (``report.html``) is a symlink
    ``.evreport-current/report.html``. A reader therefore sees every file of the old
    build or every file of the new one, whenever the build is killed. Files of an
    earlier build that this build does not produce are carried into the new folder as
    they were (hard links); files of anyone else are left alone; earlier builds' folders
    are removed after the switch. Where the file system has no symlinks, and with
    ``versioned=False`` (a batch's fresh staging folder, swapped whole), the files are
    written into a temporary folder and renamed into place one by one.

    With ``versioned``, ``out_dir`` is locked while writing (``safe.lock_folder``; another
    process writing it is waited for up to 10 s). A read-only or full output folder is an
    InputError, and no temporary file is left.
    """
    out_dir = Path(out_dir)
    shown = display_name(out_dir)
    if out_dir.is_symlink():
        raise InputError(
            _("output folder {path} is a symlink; refusing to write through it", path=shown),
            path=shown,
        )
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(_("output path {path} exists and is not a folder", path=shown), path=shown)
    for name in files:
        if "/" in name or "\\" in name or name.startswith("."):
            raise ValueError(f"bad output name {name!r}")
    blocked = [out_dir / n for n in files if _in_the_way(out_dir / n)]
    if blocked:  # checked before anything is written: all or nothing
        b = display_name(blocked[0])
        raise InputError(_("{path} is a symlink or folder; refusing to replace it", path=b), path=b)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        # a batch's staging folder is its own: the batch holds OUT's lock
        lock = lock_folder(out_dir, wait=LOCK_WAIT) if versioned else contextlib.nullcontext()
        with lock:
            clean_stale(out_dir)
            if versioned and _switch(out_dir, files):
                return [out_dir / n for n in files]
            return _rename_each(out_dir, files)
    except FolderBusy as e:
        raise InputError(
            _(
                "output folder {path} is {state}; wait for it to finish and build again",
                path=shown,
                state=_busy(e),
            ),
            path=shown,
            slug="out-in-use",
        ) from None
    except OSError as e:
        raise write_error(out_dir, e) from None


#: seconds a build waits for another evreport process writing the same --out
LOCK_WAIT = 10.0


def _ours(link: Path) -> bool:
    """A top-level symlink a versioned build made: ``NAME -> .evreport-current/NAME``."""
    try:
        return link.is_symlink() and os.readlink(link) == f"{CURRENT}/{link.name}"
    except OSError:
        return False


_CURRENT_TARGET = re.compile(re.escape(STORE) + r"/[0-9a-f]{12}")


def _current_ours(current: Path) -> bool:
    """``.evreport-current`` is a link a build made: to one of the store's own folders."""
    try:
        return current.is_symlink() and bool(_CURRENT_TARGET.fullmatch(os.readlink(current)))
    except OSError:
        return False


def _in_store(entry: Path, store: Path) -> bool:
    """A top-level link that leads to a regular file inside the store (never elsewhere)."""
    real = Path(os.path.realpath(entry))
    return real.is_file() and real.is_relative_to(os.path.realpath(store))


def _check_store_inside(out_dir: Path, store: Path, current: Path) -> None:
    """Refuse a build folder, or a current link, whose real path is not inside the store.

    A committed or planted ``.evreport-builds/ID -> /elsewhere`` (and ``.evreport-current``
    naming it) would otherwise have the build write its files through the link.
    """
    base = os.path.realpath(store)
    folders = []
    if current.is_symlink():
        folders.append(out_dir / os.readlink(current))
    if store.is_dir():
        folders.extend(store.iterdir())
    for folder in folders:
        real = Path(os.path.realpath(folder))
        if folder.is_symlink() or str(real.parent) != base:
            where = display_name(out_dir)
            raise InputError(
                _(
                    "{store} or {current} in {path} leads outside {store}; refusing to write "
                    "through it",
                    store=STORE,
                    current=CURRENT,
                    path=where,
                ),
                path=where,
            )


def _in_the_way(target: Path) -> bool:
    """Something at a report file's name that a build must not replace: a folder, a link not ours."""
    if target.is_symlink():
        return not _ours(target)
    return target.is_dir()


def _rename_each(out_dir: Path, files: dict[str, bytes]) -> list[Path]:
    """All files into a temporary folder inside ``out_dir``, then each renamed into place."""
    tmp = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=out_dir))
    written = []
    try:
        _write_all(tmp, files)
        for name in files:
            target = out_dir / name
            if _ours(target):  # an earlier versioned build's link: replaced by the file
                target.unlink()
            os.replace(tmp / name, target)
            written.append(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return written


def _write_all(folder: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        with open(folder / name, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())


def _link_or_copy(src: Path, dst: Path) -> None:
    """``dst`` as a hard link of the file ``src`` is (or leads to), else a copy of it."""
    real = os.path.realpath(src)  # os.link does not follow a link on every platform
    try:
        os.link(real, dst)
    except OSError:
        shutil.copy2(real, dst)


def _new_folder(store: Path) -> Path:
    """A new, uniquely named build folder with the usual permissions (0777 less the umask)."""
    while True:
        folder = store / os.urandom(6).hex()
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder)
            return folder


def _symlink(target: str, at: Path) -> None:
    """Make (or replace, in one rename) the symlink ``at -> target``."""
    tmp = at.with_name(f"{TMP_PREFIX}{at.name}.{os.urandom(6).hex()}.tmp")
    os.symlink(target, tmp)
    try:
        os.replace(tmp, at)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _symlinks_work(out_dir: Path) -> bool:
    """Whether ``out_dir``'s file system (and this user) can make symlinks."""
    probe = out_dir / f"{TMP_PREFIX}probe.{os.urandom(6).hex()}.tmp"
    try:
        os.symlink(CURRENT, probe)
    except OSError as e:
        if e.errno in _NO_SYMLINKS:
            return False
        raise
    probe.unlink()
    return True


def _switch(out_dir: Path, files: dict[str, bytes]) -> bool:
    """The versioned write (see ``atomic_write_dir``); False, with nothing changed, without symlinks."""
    store, current = out_dir / STORE, out_dir / CURRENT
    if (
        store.is_symlink()
        or (store.exists() and not store.is_dir())
        or ((current.exists() or current.is_symlink()) and not _current_ours(current))
    ):
        where = display_name(out_dir)
        raise InputError(
            _(
                "{store} or {current} in {path} is not evreport's; refusing to write",
                store=STORE,
                current=CURRENT,
                path=where,
            ),
            path=where,
        )
    _check_store_inside(out_dir, store, current)
    if not _symlinks_work(out_dir):
        return False
    store.mkdir(exist_ok=True)
    new = _new_folder(store)
    switched = False
    try:
        _write_all(new, files)
        # earlier versioned files this build does not make stay as they were
        for entry in sorted(out_dir.iterdir()):
            if _ours(entry) and entry.name not in files and _in_store(entry, store):
                _link_or_copy(entry, new / entry.name)
        fsync_folder(new)
        _adopt_plain(out_dir, files)
        _symlink(f"{STORE}/{new.name}", current)  # the switch: one rename
        switched = True
        fsync_folder(out_dir)
    except BaseException:
        if not switched:
            shutil.rmtree(new, ignore_errors=True)
            with contextlib.suppress(OSError):
                store.rmdir()  # only when empty: the first build into this folder failed
        raise
    for name in files:  # names new in this build (the current set already has them)
        if not _ours(out_dir / name):
            _symlink(f"{CURRENT}/{name}", out_dir / name)
    for old in store.iterdir():  # earlier builds' folders
        if old.name != new.name:
            shutil.rmtree(old, ignore_errors=True)
    return True


def _adopt_plain(out_dir: Path, files: dict[str, bytes]) -> None:
    """Make the current set hold every plain report file at ``files``' names, then link them.

    An OUT written by an older evreport (plain files) becomes a versioned one without a
    visible change: each file is hard-linked (same bytes) into the current build's
    folder, and only then replaced by a symlink through ``.evreport-current``.
    """
    plain = [n for n in files if (out_dir / n).is_file() and not (out_dir / n).is_symlink()]
    if not plain:
        return
    current = out_dir / CURRENT
    if current.is_symlink() and current.is_dir():
        folder = current.resolve()
    else:
        folder = _new_folder(out_dir / STORE)
        for entry in sorted(out_dir.iterdir()):  # the names already linked, if any
            if _ours(entry) and _in_store(entry, out_dir / STORE):
                _link_or_copy(entry, folder / entry.name)
        _symlink(f"{STORE}/{folder.name}", current)
    for n in plain:
        if not (folder / n).exists():
            _link_or_copy(out_dir / n, folder / n)
        _symlink(f"{CURRENT}/{n}", out_dir / n)
