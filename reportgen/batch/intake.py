"""What a batch grades: the command line's folders and zips expanded into submissions with
unique, safe names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportgen.errors import UsageError
from reportgen.safe import safe_file_name
from reportgen.words.i18n import _

#: names in OUT that a submission may not take (grades.csv: the grading steps write it)
RESERVED = frozenset({"summary.csv", "summary.json", "index.html", "grades.csv"})


@dataclass(frozen=True)
class Submission:
    """One thing to build: a project folder or a zip, and the unique name its report gets."""

    name: str
    source: Path  # as given on the command line (shown in the summary)
    kind: str  # "folder", "zip" or "link" (a symlink inside a folder of submissions)
    #: the folder's or zip's own name as text (``alice`` for ``alice.zip``), before
    #: ``safe_name``: what a roster is matched against exactly
    original: str = ""


def discover(paths: Sequence[str | Path]) -> list[Submission]:
    """Expand the command-line arguments into submissions with unique, safe names.

    An argument is a project folder (it has evreport.toml), a ``.zip``, or a folder whose
    sub-folders and zips are the submissions (hidden entries and other files ignored).
    """
    if not paths:
        raise UsageError(_("no submissions given: pass project folders, zips or folders of them"))
    found: list[tuple[Path, str]] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise UsageError(_("submission {path} does not exist", path=raw))
        if p.is_file():
            if p.suffix.lower() != ".zip":
                raise UsageError(_("submission {path} is a file but not a .zip", path=raw))
            found.append((p, "zip"))
        elif (p / "evreport.toml").is_file():
            found.append((p, "folder"))
        else:
            inner = _submissions_in(p)
            if not inner:
                raise UsageError(
                    _("{path} has no evreport.toml and no sub-folders or zips to grade", path=raw)
                )
            found.extend(inner)
    seen: set[Path] = set()
    unique = []
    for p, kind in sorted(found, key=lambda pk: str(pk[0])):
        key = p.absolute() if kind == "link" else p.resolve()
        if key not in seen:  # the same submission named twice is graded once
            seen.add(key)
            unique.append((p, kind))
    originals = [
        _readable(p.stem if kind == "zip" or _is_zip_link(p, kind) else p.name)
        for p, kind in unique
    ]
    names = unique_names([safe_name(o) for o in originals])
    subs = [
        Submission(n, p, kind, o) for n, (p, kind), o in zip(names, unique, originals, strict=True)
    ]
    return sorted(subs, key=lambda s: (s.name.casefold(), s.name))


def _is_zip_link(p: Path, kind: str) -> bool:
    return kind == "link" and p.suffix.lower() == ".zip" and not p.is_dir()


def _submissions_in(folder: Path) -> list[tuple[Path, str]]:
    out = []
    for child in sorted(folder.iterdir()):
        if child.name.startswith(".") or child.name == "__MACOSX":
            continue
        if child.is_symlink():  # unzip recreates links: a link is reported, never followed
            if child.is_dir() or child.suffix.lower() == ".zip":
                out.append((child, "link"))
            continue
        if child.is_dir():
            out.append((child, "folder"))
        elif child.is_file() and child.suffix.lower() == ".zip":
            out.append((child, "zip"))
    return out


def _readable(name: str) -> str:
    """A file name as text: undecodable bytes (a Latin-1 name from unzip) read as Windows-1252."""
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        raw = name.encode("utf-8", "surrogateescape")
        try:
            return raw.decode("cp1252")
        except UnicodeDecodeError:
            return raw.decode("latin-1")


def safe_name(raw: str) -> str:
    """A submission's name in OUT: a safe file name that is none of the batch's own files."""
    return safe_file_name(raw, reserved=RESERVED, empty="submission")


def unique_names(names: list[str]) -> list[str]:
    """Make names unique (ignoring case): the first keeps its name, later ones get -2, -3 ..."""
    taken = {n.casefold() for n in names}
    used: set[str] = set()
    out = []
    for n in names:
        candidate, k = n, 2
        while candidate.casefold() in used or (candidate != n and candidate.casefold() in taken):
            candidate, k = f"{n}-{k}", k + 1
        used.add(candidate.casefold())
        out.append(candidate)
    return out
