"""runs.csv, the run log: one row per (run, split, metric); every row citable as runs.csv:LINE."""

from __future__ import annotations

import csv
import difflib
import io
import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from reportgen.errors import Problem, said, said_ids
from reportgen.project.manifest import canonical_part, parse_time, time_resolution
from reportgen.project.tables import (
    MAX_MAGNITUDE,
    MAX_TABLE_COLUMNS,
    beyond_magnitude,
    csv_header_problem,
)
from reportgen.words import count
from reportgen.words.i18n import _, n_

REQUIRED = ("run_id", "model", "seed", "split", "metric", "value")
#: part names read case-insensitively ("Validation" is validation, with a warning)
KNOWN_PARTS = ("train", "validation", "val", "valid", "test")
OPTIONAL = (
    "status",
    "started_at",
    "config",
    "features",
    "split_id",
    "predictions",
    "fit_seconds",
    "env",
    "notes",
)
#: cross-validation columns (methods.md section 9): which repeat and fold a ``split = "fold"``
#: row scored, and how many rows trained it when fewer than the other folds hold
CV_COLUMNS = ("repeat", "fold", "train_rows")
STATUSES = ("ok", "failed")


@dataclass(frozen=True)
class RunRow:
    line: int
    run_id: str
    model: str
    seed: int
    split: str
    metric: str
    value: float | None
    status: str = "ok"
    started_at: datetime | None = None
    config: str | None = None
    features: str | None = None
    split_id: str | None = None
    predictions: str | None = None
    fit_seconds: float | None = None
    env: str | None = None
    notes: str | None = None
    repeat: int | None = None
    fold: int | None = None
    train_rows: int | None = None
    #: how finely started_at is written (a second for ``10:00:00Z``); None without started_at
    started_resolution: timedelta | None = None
    #: the value as written in the run log (its own digits: "0.290" has 3 decimals)
    value_text: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def cite(self, name: str = "runs.csv") -> str:
        return f"{name}:{self.line}"


def parse_runs(
    text: str, name: str, problems: list[Problem], warnings: list[Problem]
) -> list[RunRow]:
    """Parse the run log. Bad cells become Problems naming line and column; good rows are returned."""
    reader = csv.reader(io.StringIO(text, newline=""))
    header = _read_header(reader, text, name, problems, warnings)
    if header is None:
        return []
    col = {h: i for i, h in enumerate(header)}
    start_problems = len(problems)
    rows = _read_rows(reader, header, col, name, problems, warnings)
    if not rows and len(problems) == start_problems:
        problems.append(Problem(_("the run log has a header but no rows"), name, 2, slug="empty"))
    _check_runs_consistent(rows, col, name, problems)
    return rows


def csv_reason(error: csv.Error) -> str:
    """The csv module's reason in the language being written (the one a run log can meet:
    a field over the field limit); any other reason as the module words it."""
    m = re.fullmatch(r"field larger than field limit \((\d+)\)", str(error))
    if m:
        return _("field larger than field limit ({limit})", limit=m.group(1))
    return str(error)


def _read_header(
    reader, text: str, name: str, problems: list[Problem], warnings: list[Problem]
) -> list[str] | None:
    """The header's stripped names, or None after recording why the log cannot be read."""
    try:
        header = next(reader)
    except StopIteration:
        problems.append(
            Problem(
                _(
                    "the run log is empty; expected a header with {columns}",
                    columns=said_ids(REQUIRED),
                ),
                name,
                1,
                slug="empty",
            )
        )
        return None
    except csv.Error as e:
        problems.append(
            Problem(_("malformed CSV: {reason}", reason=csv_reason(e)), name, 1, slug="bad-csv")
        )
        return None
    if len(header) > MAX_TABLE_COLUMNS:  # before any per-column work (names, suggestions)
        problems.append(
            Problem(
                n_(
                    "the header has {n} column, over the limit of {limit}",
                    "the header has {n} columns, over the limit of {limit}",
                    len(header),
                    limit=count(MAX_TABLE_COLUMNS),
                ),
                name,
                1,
                slug="too-large",
            )
        )
        return None
    header = [h.strip() for h in header]
    col = {h: i for i, h in enumerate(header)}
    if len(col) != len(header) and header[-1] == "":
        problems.append(
            csv_header_problem(header, text, name) or Problem(_("empty column"), name, 1)
        )
        return None
    if len(col) != len(header):
        dup = next(h for h in header if header.count(h) > 1)
        msg = _("duplicate column {column} in the header", column=said(dup))
        problems.append(Problem(msg, name, 1, header.index(dup) + 1, slug="duplicate-column"))
        return None
    missing = [c for c in REQUIRED if c not in col]
    hint = csv_header_problem(header, text, name)
    if hint is not None and (missing or hint.slug == "empty-column"):
        problems.append(hint)
        return None
    if missing:
        problems.append(
            Problem(
                (
                    _(
                        "missing required column(s) {missing}; the header has {header}",
                        missing=said_ids(missing),
                        header=said_ids(header),
                    )
                    if header
                    else _(
                        "missing required column(s) {missing}; the header has nothing",
                        missing=said_ids(missing),
                    )
                ),
                name,
                1,
                slug="missing-column",
            )
        )
        return None
    _warn_unknown_columns(header, name, warnings)
    return header


def _warn_unknown_columns(header: list[str], name: str, warnings: list[Problem]) -> None:
    """A column close to a known name is probably a typo: say so (it is ignored)."""
    known = REQUIRED + OPTIONAL + CV_COLUMNS
    for h in header:
        if h not in known:
            close = difflib.get_close_matches(h, known, n=1, cutoff=0.75)
            if close:
                msg = _(
                    "unknown column {column} (did you mean {known}?); it is ignored",
                    column=said(h),
                    known=said(close[0]),
                )
                at = header.index(h) + 1
                warnings.append(
                    Problem(msg, name, 1, at, slug="unknown-column", severity="warning")
                )


def _read_rows(
    reader,
    header: list[str],
    col: dict[str, int],
    name: str,
    problems: list[Problem],
    warnings: list[Problem],
) -> list[RunRow]:
    """Every data row that parses; one row per run, split and metric."""
    rows: list[RunRow] = []
    seen: dict[tuple, int] = {}
    recased: set[tuple[str, str]] = set()
    prev_end = reader.line_num
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            problems.append(
                Problem(
                    _("malformed CSV: {reason}", reason=csv_reason(e)),
                    name,
                    reader.line_num,
                    slug="bad-csv",
                )
            )
            break
        line = prev_end + 1
        prev_end = reader.line_num
        if not cells or all(not c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            problems.append(
                Problem(
                    # TRANSLATORS: {fields} counts the row's fields, {header} the header's
                    n_(
                        "{fields} fields, but the header has {header}",
                        "{fields} fields, but the header has {header}",
                        len(cells),
                        fields=len(cells),
                        header=len(header),
                    ),
                    name,
                    line,
                    slug="field-count",
                )
            )
            continue
        row = _parse_row(cells, line, col, name, problems, recased, warnings)
        if row is None:
            continue
        split = row.split
        key = (row.run_id, split, row.metric, row.repeat, row.fold)
        if key in seen:
            words = {"run": said(key[0]), "split": said(split), "metric": said(key[2])}
            msg = (
                _(
                    "run {run} has a second row for split {split} and metric {metric} (first at "
                    "line {first})",
                    first=seen[key],
                    **words,
                )
                if row.fold is None
                else _(
                    "run {run} has a second row for split {split} and metric {metric} in repeat "
                    "{repeat} fold {fold} (first at line {first})",
                    repeat=row.repeat or 1,
                    fold=row.fold,
                    first=seen[key],
                    **words,
                )
            )
            problems.append(
                Problem(
                    msg,
                    name,
                    line,
                    col["run_id"] + 1,
                    slug="duplicate-row",
                )
            )
            continue
        seen[key] = line
        rows.append(row)
    return rows


def _parse_row(
    cells: list[str],
    line: int,
    col: dict[str, int],
    name: str,
    problems: list[Problem],
    recased: set[tuple[str, str]],
    warnings: list[Problem],
) -> RunRow | None:
    """One data row as a RunRow, or None after recording its bad cells."""
    before = len(problems)

    def get(c: str) -> str | None:
        i = col.get(c)
        if i is None:
            return None
        v = cells[i].strip()
        return v or None

    def bad(c: str, msg: str, slug: str = "bad-value") -> None:
        problems.append(Problem(msg, name, line, col[c] + 1, slug=slug))

    for c in ("run_id", "model", "split", "metric"):
        if get(c) is None:
            bad(c, _("{column} is empty", column=c), "empty-cell")
    seed = None
    s = get("seed")
    if s is None:
        bad("seed", _("{column} is empty", column="seed"), "empty-cell")
    else:
        try:
            seed = int(s)
        except ValueError:
            bad("seed", _("seed = {value} is not a whole number", value=said(s)))
    status = (get("status") or "ok").lower()
    if status not in STATUSES:
        bad(
            "status",
            _(
                "status = {value} must be one of {allowed}",
                value=said(get("status")),
                allowed=said_ids(STATUSES),
            ),
        )
    value = None
    v = get("value")
    if v is None:
        if status == "ok":
            bad(
                "value",
                _("value is empty in a run whose status is ok (mark failed runs status=failed)"),
                "empty-cell",
            )
    else:
        try:
            value = float(v)
            if not math.isfinite(value):
                raise ValueError
        except ValueError:
            bad("value", _("value = {value} is not a finite number", value=said(v)))
        else:
            if abs(value) > MAX_MAGNITUDE:
                bad("value", beyond_magnitude("value", v))
                value = None
    started = None
    started_text = get("started_at")
    if started_text is not None:
        try:
            started = parse_time(started_text)
        except ValueError:
            bad(
                "started_at",
                _(
                    "started_at = {value} is not an ISO 8601 date-time (e.g. 2026-09-02T10:00:00Z)",
                    value=said(started_text),
                ),
                "bad-time",
            )
    fit = None
    fit_text = get("fit_seconds")
    if fit_text is not None:
        try:
            fit = float(fit_text)
        except ValueError:
            bad("fit_seconds", _("fit_seconds = {value} is not a number", value=said(fit_text)))
    cv = {c: _positive_int(get(c), c, bad) for c in CV_COLUMNS}
    run_id, model, split, metric = get("run_id"), get("model"), get("split"), get("metric")
    if len(problems) > before:
        return None
    # each of these, when empty, recorded a problem above
    assert run_id is not None and model is not None and split is not None
    assert metric is not None and seed is not None
    return RunRow(
        line,
        run_id,
        model,
        seed,
        _canonical_split(split, line, col, name, recased, warnings),
        metric,
        value,
        status,
        started,
        get("config"),
        get("features"),
        get("split_id"),
        get("predictions"),
        fit,
        get("env"),
        get("notes"),
        cv["repeat"],
        cv["fold"],
        cv["train_rows"],
        started_resolution=time_resolution(started_text) if started_text is not None else None,
        value_text=v if value is not None else None,
    )


#: the largest repeat, fold or train_rows cell: 18 digits
MAX_CV_NUMBER = 10**18 - 1


def _positive_int(text: str | None, column: str, bad) -> int | None:
    """A cross-validation cell (repeat, fold, train_rows): empty, or a whole number from 1."""
    if text is None:
        return None
    n = (
        int(text)
        if len(text) <= len(str(MAX_CV_NUMBER)) and text.isascii() and text.isdigit()
        else 0
    )
    if n < 1:
        bad(
            column,
            _("{column} = {value} is not a whole number from 1", column=column, value=said(text)),
        )
        return None
    return n


def _canonical_split(
    raw_split: str,
    line: int,
    col: dict[str, int],
    name: str,
    recased: set[tuple[str, str]],
    warnings: list[Problem],
) -> str:
    """The part name as analysed: aliases resolved, known names read case-insensitively."""
    split = canonical_part(raw_split)
    if split.lower() in KNOWN_PARTS and split not in KNOWN_PARTS:
        # "Validation", "TEST": the known part names are lower case; read as meant, say so once
        fixed = canonical_part(split.lower())
        if (raw_split, fixed) not in recased:
            recased.add((raw_split, fixed))
            warnings.append(
                Problem(
                    _(
                        "split {split} read as {part} (part names are lower case)",
                        split=said(raw_split),
                        part=said(fixed),
                    ),
                    name,
                    line,
                    col["split"] + 1,
                    slug="split-case",
                    severity="warning",
                )
            )
        split = fixed
    return split


def _check_runs_consistent(
    rows: list[RunRow], col: dict[str, int], name: str, problems: list[Problem]
) -> None:
    """A run's model and seed must not change between its rows."""
    first: dict[str, RunRow] = {}
    for r in rows:
        f = first.setdefault(r.run_id, r)
        if (f.model, f.seed) != (r.model, r.seed):
            problems.append(
                Problem(
                    _(
                        "run {run} is model {model} seed {seed} here but model {first_model} "
                        "seed {first_seed} at line {line}",
                        run=said(r.run_id),
                        model=said(r.model),
                        seed=r.seed,
                        first_model=said(f.model),
                        first_seed=f.seed,
                        line=f.line,
                    ),
                    name,
                    r.line,
                    col["model"] + 1,
                    slug="inconsistent-run",
                )
            )
