"""The batch's output folder OUT: the marker that proves what is ours, the staging folder,
the swap of new reports into place, and the removal of reports that are gone.

Only entries an earlier batch named in its marker are ever removed or replaced.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from reportgen.batch.intake import RESERVED, Submission, safe_name
from reportgen.errors import InputError, UsageError, clean_text, display_name
from reportgen.safe import LOCK_NAME, TMP_PREFIX, atomic_write, exchange
from reportgen.words.i18n import _

TMP_NAME = ".evreport-tmp"
#: the marker an evreport batch leaves in OUT: its schema and every entry it created.
#: Only entries named in it are ever removed or replaced by a later batch.
MARKER = ".evreport-batch.json"
MARKER_SCHEMA = "evreport-batch-out/1"
#: inside TMP_NAME: the new reports ("new"), zip extraction ("zip"), replaced ones ("old")
STAGE, UNZIP, TRASH = "new", "zip", "old"
#: the random part of an ``atomic_write`` temporary file's name
_TEMP_TAG = re.compile(r"[0-9a-f]{12}")


def check_out(out: Path, submissions: Sequence[Submission], paths: Sequence[str | Path]) -> None:
    """Refuse an OUT that overlaps the submissions, or that holds something other than a batch."""
    out_r = out.resolve()
    for p in [Path(x) for x in paths] + [s.source for s in submissions if s.kind != "link"]:
        src = p.resolve()
        if src.is_dir() and out_r.is_relative_to(src):
            raise UsageError(
                _(
                    "--out {out} is inside the submission {path}; choose a folder outside it",
                    out=display_name(out),
                    path=display_name(p),
                )
            )
        if src.is_relative_to(out_r):
            raise UsageError(
                _(
                    "the submission {path} is inside --out {out}; choose another --out",
                    path=display_name(p),
                    out=display_name(out),
                )
            )
    if out.exists() and not out.is_dir():
        raise UsageError(_("--out {out} exists and is not a folder", out=display_name(out)))
    if out.is_dir() and any(p.name != LOCK_NAME for p in out.iterdir()):
        read_marker(out)  # raises unless an earlier batch's marker proves what is ours


def read_marker(out: Path) -> list[str]:
    """The entries an earlier batch created in ``out`` (from its marker); [] for a new OUT.

    A non-empty OUT without a valid marker is refused: only what a batch provably made
    may be replaced. Entries that are not plain names are dropped, never followed.
    """
    path = out / MARKER
    if not path.is_file() or path.is_symlink():
        # a batch killed while writing its very first marker leaves only that temp file
        if out.is_dir() and any(
            not (_marker_temp(p) or p.name == LOCK_NAME) for p in out.iterdir()
        ):
            raise UsageError(
                _(
                    "--out {out} is not empty and holds no {marker} from an earlier evreport "
                    "batch; choose a new or empty folder",
                    out=display_name(out),
                    marker=MARKER,
                )
            )
        return []
    try:
        doc = json.loads(path.read_bytes()[:10_000_000])
        ok = isinstance(doc, dict) and doc.get("schema") == MARKER_SCHEMA
        if not ok or not isinstance(doc.get("entries"), list):
            raise ValueError("not an evreport batch marker")
    except (OSError, ValueError, RecursionError) as e:
        raise UsageError(
            _(
                "--out {out} holds an unreadable {marker} ({why}); choose another folder",
                out=display_name(out),
                marker=MARKER,
                why=_marker_problem(e),
            )
        ) from None
    return [n for n in doc["entries"] if _own_entry(n)]


def _marker_problem(e: Exception) -> str:
    """Why the marker cannot be read, in the current language."""
    from reportgen.outputs import write_reason

    if isinstance(e, json.JSONDecodeError):
        return _("not valid JSON: line {line}, column {column}", line=e.lineno, column=e.colno)
    if isinstance(e, OSError):
        return clean_text(write_reason(e), 100)
    if isinstance(e, UnicodeDecodeError):
        return _("not UTF-8 text")
    return _("not an evreport batch marker")


def _temp_of(p: Path, names: Collection[str]) -> bool:
    """A temporary file ``atomic_write`` makes (or a killed batch left) for one of ``names``."""
    prefix, suffix = TMP_PREFIX, ".tmp"
    if not (p.name.startswith(prefix) and p.name.endswith(suffix)):
        return False
    target = p.name[len(prefix) : -len(suffix)]
    ours = any(
        target == n or (target.startswith(f"{n}.") and _TEMP_TAG.fullmatch(target[len(n) + 1 :]))
        for n in names
    )
    return ours and p.is_file() and not p.is_symlink()


def _marker_temp(p: Path) -> bool:
    return _temp_of(p, (MARKER,))


def clear_temp_files(out: Path) -> None:
    """Remove the temporary files of our own files (marker, summary ...) a killed batch left."""
    for p in out.iterdir():
        if _temp_of(p, (MARKER, *RESERVED)):
            p.unlink(missing_ok=True)


def _own_entry(name: object) -> bool:
    return isinstance(name, str) and (
        name in RESERVED or name == TMP_NAME or (safe_name(name) == name and name != MARKER)
    )


def write_marker(out: Path, entries: Sequence[str], state: str) -> None:
    """Record (atomically) which entries of ``out`` this batch may have created."""
    doc = {"schema": MARKER_SCHEMA, "state": state, "entries": sorted(set(entries))}
    atomic_write(out / MARKER, (json.dumps(doc, indent=1) + "\n").encode("utf-8"))


def remove(path: Path) -> None:
    """Remove a file, a symlink (never its target) or a folder of ours."""
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.is_dir():
        shutil.rmtree(path, ignore_errors=True)


def replace_folder(dst: Path, new: Path, trash: Path) -> None:
    """Put folder ``new`` at ``dst`` and the old ``dst`` at ``trash``; ``dst`` always exists.

    One ``renameat2(RENAME_EXCHANGE)`` where the system has it. Elsewhere two renames
    (old out, new in); a kill between them leaves the old one in ``trash``, where
    ``recover`` puts it back, and a failure of the second rename puts it back at once.
    """
    if exchange(new, dst):
        os.replace(new, trash)  # the old one, out of the staging folder
        return
    os.replace(dst, trash)
    try:
        os.replace(new, dst)
    except BaseException:
        os.replace(trash, dst)
        raise


def staging_inside(out: Path) -> bool:
    """The staging folder (if any) is OUT's own: no symlink, its real path inside OUT.

    A planted ``OUT/.evreport-tmp -> /elsewhere`` is never read from or moved out of;
    the batch removes the link (never its target) and makes its own folder.
    """
    tmp = out / TMP_NAME
    if tmp.is_symlink():
        return False
    if not tmp.exists():
        return True
    return Path(os.path.realpath(tmp)).parent == Path(os.path.realpath(out))


def recover(out: Path) -> list[str]:
    """Put back every old report a killed swap left in the trash while OUT/NAME is missing.

    Called before anything of the staging folder is removed, so the only copy of a
    report is never deleted. A trash entry whose OUT/NAME exists was replaced by a
    complete new one; it is left for the caller to remove. A staging folder that is a
    symlink, or leads outside OUT, is not read (``staging_inside``). Returns the names
    restored.
    """
    trash = out / TMP_NAME / TRASH
    restored: list[str] = []
    if not staging_inside(out):
        return restored
    try:
        entries = sorted(trash.iterdir()) if trash.is_dir() and not trash.is_symlink() else []
    except OSError:
        return restored
    for old in entries:
        dst = out / old.name
        if not _own_entry(old.name) or old.name in RESERVED or dst.exists() or dst.is_symlink():
            continue
        os.replace(old, dst)
        restored.append(old.name)
    return restored


def swap_in(
    out: Path, rows: list[dict[str, Any]], earlier: Sequence[str]
) -> tuple[list[str], list[str]]:
    """Move each new report from the staging folder into OUT, replacing only our own entries.

    Each ``OUT/NAME`` is replaced by ``replace_folder``, so a report folder is always a
    complete old or a complete new one and never missing. Returns ``(new, kept)``: the
    names swapped in, and the names whose build failed this time but whose earlier
    report stays (a failed rebuild never removes the old result; the row says so).
    """
    tmp = out / TMP_NAME
    trash = tmp / TRASH
    trash.mkdir(parents=True, exist_ok=True)
    ours = set(earlier)
    new, kept = [], []
    for row in rows:
        name, staged = row["name"], tmp / STAGE / row["name"]
        dst = out / name
        if not row.get("report") or not staged.is_dir():
            if name in ours and dst.is_dir() and not dst.is_symlink():
                kept.append(name)
                note = _("the earlier report in {name}/ is kept (this build failed)", name=name)
                row["notes"] = "; ".join(n for n in (row.get("notes"), note) if n)
            continue
        if dst.exists() or dst.is_symlink():
            if name not in ours:  # something of the user's: never replaced
                row.update(
                    status="error",
                    report=None,
                    error=_(
                        "{name} in OUT was not made by evreport batch; the report is not moved "
                        "there",
                        name=name,
                    ),
                )
                continue
            if dst.is_symlink() or not dst.is_dir():
                os.replace(staged, dst)  # a link or file of ours: replaced in one rename
            else:
                replace_folder(dst, staged, trash / name)
        else:
            os.replace(staged, dst)
        new.append(name)
    return new, kept


def retire(out: Path, earlier: Sequence[str], keep: set[str]) -> None:
    """Remove the entries an earlier batch made that this one neither replaced nor kept."""
    for name in earlier:
        if name in keep or name in RESERVED or name == TMP_NAME:
            continue
        remove(out / name)


def write_failed(out: Path, e: OSError) -> InputError:
    """An OSError while writing OUT as the batch's one-line error."""
    from reportgen.outputs import write_reason

    return InputError(
        _(
            "cannot write the batch into --out {out}: {why}",
            out=display_name(out),
            why=write_reason(e),
        ),
        slug="cannot-write",
    )
