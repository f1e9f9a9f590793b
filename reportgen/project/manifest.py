"""The frozen-split manifest: `freeze` writes it, `load_manifest` reads and verifies it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from reportgen.errors import InputError, Problem, clean_text, display_name, quote
from reportgen.project.config_toml import listed
from reportgen.project.files import Reader, Refused, confine_dir
from reportgen.project.rowkeys import duplicate_id_problems
from reportgen.project.tables import TABLE_SUFFIXES, TableError, read_table
from reportgen.words.i18n import _
from reportgen.words.numbers import count

MANIFEST = "split/manifest.json"
#: most parts a manifest may list, checked before any entry is read (a few parts are usual:
#: train, validation, test)
MAX_MANIFEST_PARTS = 1_000
PART_ALIASES = {"val": "validation", "valid": "validation"}


def canonical_part(name: str) -> str:
    return PART_ALIASES.get(name, name)


def parse_time(text: str) -> datetime:
    """ISO 8601 date or date-time; naive values are taken as UTC."""
    t = datetime.fromisoformat(text.strip())
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def time_resolution(text: str) -> timedelta:
    """How finely an ISO 8601 time is written: a day, an hour, a minute, a second or 10^-d s.

    A time written as ``10:00:00`` stands for some instant in [10:00:00, 10:00:01): clocks
    and ``isoformat`` cut, they do not round. Two times are ordered only when these
    intervals do not overlap.
    """
    date_clock = re.split(r"[Tt ]", text.strip(), maxsplit=1)
    if len(date_clock) == 1:
        return timedelta(days=1)
    clock = re.split(r"[zZ+-]", date_clock[1], maxsplit=1)[0]
    frac = re.search(r"[.,](\d+)", clock)
    if frac:
        return timedelta(microseconds=10 ** (6 - min(len(frac.group(1)), 6)))
    digits = len(re.sub(r"\D", "", clock))
    return {2: timedelta(hours=1), 4: timedelta(minutes=1)}.get(digits, timedelta(seconds=1))


def utc_stamp() -> str:
    """Now in UTC as ISO 8601 with microseconds (``2026-03-02T09:00:00.123456Z``).

    Microseconds, not whole seconds: a script that freezes the split and logs its first
    run within the same second must still show which came first.
    """
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def split_fingerprint(row_id: str, entries: list[tuple[str, str]]) -> str:
    """A short id of a frozen split: sha256 over its row-id column and each part's file hash.

    ``entries``: (part, sha256) per split file. The same files frozen again give the same
    id; a file edited, added or removed gives another. Written as ``split_id`` by Recorder.
    """
    import hashlib

    lines = [f"row_id\t{row_id}"] + [f"{p}\t{h.lower()}" for p, h in sorted(entries)]
    digest = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
    return f"sha256:{digest[:16]}"


def freeze(project_dir: Path | str, created: str | None = None, split_dir: str = "split") -> dict:
    """Hash every split file under ``split/`` into ``split/manifest.json`` and return the manifest.

    Split files are read like every project file (confined, capped, parsed as tables), and the
    manifest is written atomically, never through a symlink.
    """
    from reportgen.outputs import write_file_atomic

    project_dir = Path(project_dir)
    folder = project_dir / split_dir
    reader = Reader(project_dir)
    try:
        real = confine_dir(project_dir, folder, f"{split_dir}")
    except Refused as e:
        raise InputError(str(e), path=split_dir, slug="path-outside-project") from None
    if real is None:
        raise InputError(
            _("no {folder}/ folder with split files to freeze", folder=split_dir), path=split_dir
        )
    files = sorted(
        p for p in folder.iterdir() if p.suffix.lower() in TABLE_SUFFIXES and _is_file(p)
    )
    if not files:
        raise InputError(
            _("no .csv or .parquet split files in {folder}/", folder=split_dir), path=split_dir
        )
    if len(files) > MAX_MANIFEST_PARTS:  # a manifest that validate would refuse
        raise InputError(
            _(
                "{folder}/ holds {n} split files, over the limit of {limit} parts; none of them "
                "is read",
                folder=split_dir,
                n=count(len(files)),
                limit=count(MAX_MANIFEST_PARTS),
            ),
            path=split_dir,
            slug="too-large",
        )
    if created is None:
        created = utc_stamp()
    else:
        try:
            parse_time(created)
        except ValueError:
            raise InputError(
                _("--created {value} is not an ISO 8601 date-time", value=quote(created))
            ) from None
    entries, problems = [], []
    for p in files:
        if display_name(p.name) != p.name:  # the manifest could not name it again
            problems.append(
                Problem(
                    _(
                        "split file name {name} is not valid UTF-8; rename it",
                        name=quote(display_name(p.name)),
                    ),
                    f"{split_dir}/{display_name(p.name)}",
                    slug="bad-name",
                )
            )
            continue
        try:
            frame = read_table(reader, p)
        except TableError as e:
            problems.append(e.problem)
            continue
        name = reader.display(p)
        if canonical_part(p.stem) != "folds":  # split/folds.csv: each row once per repeat
            problems += duplicate_id_problems(frame, "row_id", name)
        entries.append(
            {
                "part": canonical_part(p.stem),
                "path": name,
                "sha256": reader.inputs[name][0],
                "rows": len(frame),
            }
        )
    if problems:
        raise InputError(problems)
    manifest = {"created": created, "row_id": "row_id", "files": entries}
    out = folder / "manifest.json"
    data = (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8", "replace")
    write_file_atomic(out, data, root=project_dir)
    return manifest


def _is_file(path: Path) -> bool:
    try:
        return path.is_file() or path.is_symlink()
    except OSError:
        return True


def json_reason(msg: str) -> str:
    """The json module's reason for a syntax error in the current language (English: as it
    is); one it does not know is left as written."""
    words = {
        "Expecting value": _("Expecting value"),
        "Expecting property name enclosed in double quotes": _(
            "Expecting property name enclosed in double quotes"
        ),
        "Expecting ',' delimiter": _("Expecting ',' delimiter"),
        "Expecting ':' delimiter": _("Expecting ':' delimiter"),
        "Extra data": _("Extra data"),
        "Unterminated string starting at": _("Unterminated string starting at"),
        "Invalid control character at": _("Invalid control character at"),
        "Invalid \\escape": _("Invalid \\escape"),
        "Illegal trailing comma before end of object": _(
            "Illegal trailing comma before end of object"
        ),
        "Illegal trailing comma before end of array": _(
            "Illegal trailing comma before end of array"
        ),
    }
    return words.get(msg, msg)


def parse_json(text: str, name: str, problems: list[Problem]):
    """json.loads with every failure as a Problem (bad syntax, deep nesting, huge integers).

    Returns the document, or ``_BAD`` after recording the problem.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        problems.append(
            Problem(
                _("not valid JSON: {reason}", reason=json_reason(e.msg)),
                name,
                e.lineno,
                e.colno,
                slug="bad-json",
            )
        )
    except RecursionError:
        problems.append(Problem(_("not readable JSON: nested too deeply"), name, slug="bad-json"))
    except ValueError as e:  # an integer with more than 4300 digits, among others
        problems.append(
            Problem(
                _("not readable JSON: {reason}", reason=clean_text(e, 200)), name, slug="bad-json"
            )
        )
    return BAD


#: what parse_json returns for a document it could not read
BAD = object()


@dataclass
class SplitFile:
    part: str
    path: str
    sha256: str
    rows: int
    line: int
    hash_ok: bool | None = None
    rows_ok: bool | None = None
    actual_rows: int | None = None
    frame: object = None  # pandas DataFrame of the split file (strings), when readable


@dataclass
class Manifest:
    path: str
    created: datetime | None
    created_text: str
    row_id: str
    files: list[SplitFile] = field(default_factory=list)

    @property
    def created_resolution(self) -> timedelta:
        """How finely ``created`` is written (see time_resolution)."""
        return time_resolution(self.created_text)

    def part(self, name: str) -> SplitFile | None:
        for f in self.files:
            if f.part == name:
                return f
        return None


def _entry_lines(text: str) -> list[int]:
    """Line of the opening brace of each entry of the "files" array (exact, by decoding in place)."""
    dec = json.JSONDecoder()
    m = re.search(r'"files"\s*:\s*\[', text)
    if not m:
        return []
    pos, lines = m.end(), list[int]()
    counted, line = 0, 1  # newlines are counted once, from the previous entry on
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return lines
        key = (
            pos + 1
        )  # cite the entry at its first key (its "part" in a manifest written by freeze)
        while key < len(text) and text[key] in " \t\r\n":
            key += 1
        line += text.count("\n", counted, key)
        counted = key
        lines.append(line)
        try:
            _doc, pos = dec.raw_decode(text, pos)
        except json.JSONDecodeError:
            return lines


def _line_of_key(text: str, needle: str, start: int = 0) -> int | None:
    pos = text.find(needle, start)
    return None if pos < 0 else text.count("\n", 0, pos) + 1


def load_manifest(reader: Reader, path: Path, problems: list[Problem]) -> Manifest | None:
    """Read the manifest and verify hashes and row counts of the split files it names."""
    name = reader.display(path)
    try:
        text = reader.read_text(path)
    except Refused as e:
        problems.append(Problem(str(e), name, e.line, slug=e.slug))
        return None
    doc = parse_json(text, name, problems)
    if doc is BAD:
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("files"), list):
        problems.append(
            Problem(
                _('expected an object with "created", "row_id" and a "files" list'),
                name,
                1,
                slug="bad-manifest",
            )
        )
        return None
    created_text, created = _created(doc, text, name, problems)
    row_id = doc.get("row_id", "row_id")
    if not isinstance(row_id, str) or not row_id:
        problems.append(
            Problem(
                _('"row_id" must be a column name'),
                name,
                _line_of_key(text, '"row_id"'),
                slug="bad-manifest",
            )
        )
        row_id = "row_id"
    if len(doc["files"]) > MAX_MANIFEST_PARTS:
        problems.append(
            Problem(
                _(
                    '"files" lists {n} parts, over the limit of {limit}; none of them is read',
                    n=count(len(doc["files"])),
                    limit=count(MAX_MANIFEST_PARTS),
                ),
                name,
                _line_of_key(text, '"files"'),
                slug="too-large",
            )
        )
        return None
    manifest = Manifest(name, created, created_text, row_id)
    _read_entries(reader, manifest, doc["files"], _entry_lines(text), problems)
    return manifest


def _created(
    doc: dict, text: str, name: str, problems: list[Problem]
) -> tuple[str, datetime | None]:
    """The manifest's "created" as written ("" when not a string) and as a time (None if bad)."""
    created_text = doc.get("created")
    if not isinstance(created_text, str):
        problems.append(
            Problem(
                _('"created" must be an ISO 8601 date-time string'),
                name,
                _line_of_key(text, '"created"'),
                slug="bad-manifest",
            )
        )
        return "", None
    try:
        return created_text, parse_time(created_text)
    except ValueError:
        problems.append(
            Problem(
                _('"created" = {value} is not an ISO 8601 date-time', value=quote(created_text)),
                name,
                _line_of_key(text, '"created"'),
                slug="bad-time",
            )
        )
        return created_text, None


def _entry(
    entry: object, i: int, line: int, name: str, problems: list[Problem]
) -> SplitFile | None:
    """files[i] as a SplitFile, or None after recording why it is malformed."""
    if not isinstance(entry, dict):
        msg = _("files[{i}] must be an object", i=i)
        problems.append(Problem(msg, name, line, slug="bad-manifest"))
        return None
    missing = [k for k in ("part", "path", "sha256", "rows") if k not in entry]
    if missing:
        problems.append(
            Problem(
                _("files[{i}] lacks {keys}", i=i, keys=listed(missing)),
                name,
                line,
                slug="bad-manifest",
            )
        )
        return None
    if not isinstance(entry["rows"], int) or isinstance(entry["rows"], bool) or entry["rows"] < 0:
        problems.append(
            Problem(
                _("files[{i}].rows must be a whole number", i=i), name, line, slug="bad-manifest"
            )
        )
        return None
    part = canonical_part(str(entry["part"]))
    return SplitFile(part, str(entry["path"]), str(entry["sha256"]).lower(), entry["rows"], line)


def _read_entries(
    reader: Reader,
    manifest: Manifest,
    entries: list,
    entry_lines: list[int],
    problems: list[Problem],
) -> None:
    """Each entry of "files": parsed, its file read once, its hash and row count checked."""
    name = manifest.path
    targets: dict[str, Path] = {}  # a split file named by many parts is confined once
    seen_parts: set[str] = set()
    for i, entry in enumerate(entries):
        line = entry_lines[i] if i < len(entry_lines) else 1
        sf = _entry(entry, i, line, name, problems)
        if sf is None:
            continue
        if sf.part in seen_parts:
            problems.append(
                Problem(
                    _("part {part} is listed twice", part=quote(sf.part)),
                    name,
                    line,
                    slug="bad-manifest",
                )
            )
            continue
        seen_parts.add(sf.part)
        manifest.files.append(sf)
        target = targets.get(sf.path) or reader.project_path(
            sf.path, source=name, line=line, problems=problems
        )
        if target is None:
            continue
        targets[sf.path] = target
        _verify_file(reader, sf, target, manifest.row_id, problems)


def _verify_file(
    reader: Reader, sf: SplitFile, target: Path, row_id: str, problems: list[Problem]
) -> None:
    """Read one split file: its hash, its row count and its row-id column."""
    try:
        frame = read_table(reader, target)
    except TableError as e:
        sf.hash_ok = False
        problems.append(e.problem)
        return
    sf.hash_ok = reader.inputs[reader.display(target)][0] == sf.sha256
    sf.frame = frame
    sf.actual_rows = len(frame)
    sf.rows_ok = sf.actual_rows == sf.rows
    if row_id not in frame.columns:
        problems.append(
            Problem(
                _(
                    "split file has no {column} column (the manifest's row_id)",
                    column=quote(row_id),
                ),
                reader.display(target),
                1,
                slug="missing-column",
            )
        )
