"""Grading a class on top of `evreport batch`: rubric and grades.csv, feedback.md,
copied work, re-grading only what changed, and the class overview's figures.

``GradingOptions`` is the hooks object of ``reportgen.batch.run_batch`` (the protocol is
``reportgen.batch.hooks.BatchHooks``); ``run_batch`` calls, in this order:

    formats(...)   which formats to build: a rubric needs report.json
    prepare(...)   before the workers start: hash every submission, stage reusable reports
    after_build    in each worker: the submission's fingerprint (grading.duplicates)
    finish(...)    after the last row, before the swap: records, feedback.md, grades, duplicates
    write(...)     beside summary.json: grades.csv

This package imports reportgen.batch, never the other way round; cli/batch.py wires them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from reportgen.batch.intake import safe_name
from reportgen.errors import UsageError, clean_text, display_name
from reportgen.grading.reuse import MAX_REPORT_BYTES, read_report
from reportgen.grading.rubric import Rubric
from reportgen.safe import atomic_write, csv_cell
from reportgen.words import points_value
from reportgen.words.i18n import _, p_
from reportgen.words.rungs import quoted

if TYPE_CHECKING:
    from reportgen.grading.feedback import Feedback

GRADES = "grades.csv"
FEEDBACK = "feedback.md"


@dataclass
class GradingOptions:
    """What the grading steps of a batch need from the command line."""

    rubric: Rubric | None = None
    #: the roster's submission names, as written (``.zip`` dropped), -> student id
    roster: dict[str, str] | None = None
    deadline: datetime | None = None
    force: bool = False
    #: filled in while the batch runs
    keys: dict[str, str | None] = field(default_factory=dict)
    grades: list[dict] = field(default_factory=list)
    #: each submission's name in OUT -> its own name before safe_name (``Submission.original``)
    originals: dict[str, str] = field(default_factory=dict)
    #: the roster matched to the submissions (``match_roster``), after ``finish``
    matched: RosterMatch | None = None
    #: the batch hook each worker runs after a build: the copied-work fingerprint
    after_build: ClassVar[str] = "reportgen.grading.duplicates:fingerprint_row"

    def formats(self, formats: Sequence[str]) -> tuple[str, ...]:
        """The report formats to build: a rubric needs report.json."""
        formats = tuple(formats)
        return formats if self.rubric is None or "json" in formats else (*formats, "json")

    def prepare(
        self,
        out: Path,
        subs: Sequence,
        earlier: Sequence[str],
        formats: Sequence[str],
        build_ref: str,
        stage: Path,
        language: str | None = None,
    ) -> list[dict]:
        """Hash every submission; stage each reusable earlier report and return its row
        (only one written in ``language``, the batch's --lang: it is part of the reuse key)."""
        from reportgen import __version__
        from reportgen.grading import reuse

        rows = []
        for sub in subs:
            self.originals[sub.name] = sub.original or sub.name
            key = reuse.key(
                reuse.input_hash(sub.source, sub.kind), __version__, formats, build_ref, language
            )
            self.keys[sub.name] = key
            if self.force:
                continue
            prev = reuse.reusable(out, sub.name, earlier, key)
            if prev is None or not reuse.report_reusable(out / sub.name, formats):
                continue
            try:
                reuse.stage_copy(out / sub.name, stage / sub.name)
            except OSError:
                continue  # then it is simply rebuilt
            row = {k: v for k, v in prev.items() if k not in ("total", "max", "late", "student")}
            row.update(name=sub.name, source=display_name(sub.source), reused=True)
            rows.append(row)
        return rows

    def finish(self, rows: list[dict], stage: Path) -> dict:
        """After every row is in: records, grades, feedback.md, duplicates.

        Returns the keys added to summary.json. Rows keep their columns; ``fingerprint``
        is taken out of them (it goes to the record beside the report only). A bug in a
        grading step never loses the batch: that row's grade says so, the rest go on.
        """
        from reportgen.grading import reuse
        from reportgen.grading.duplicates import find_duplicates
        from reportgen.grading.overview import common_missing

        fingerprints = {}
        self.grades = []
        for row in rows:
            fp = row.pop("fingerprint", None)
            row.setdefault("reused", False)
            folder = stage / row["name"]
            staged = bool(row["report"]) and folder.is_dir() and not folder.is_symlink()
            if row["status"] == "ok":
                fingerprints[row["name"]] = fp
                if staged and not row["reused"]:
                    reuse.write_record(
                        folder, self.keys.get(row["name"]), {**row, "fingerprint": fp}
                    )
            if self.rubric is None:
                continue
            try:
                _grade(self, row, fp, folder if staged else None)
            except Exception as e:  # our bug: visible in grades.csv, never a lost batch
                grade: dict[str, object] = dict.fromkeys(self.rubric.columns, 0.0)
                grade.update(
                    name=row["name"],
                    status="error",
                    total=0.0,
                    error=f"internal error while grading ({type(e).__name__}): {clean_text(e, 200)}",
                )
                self.grades.append(grade)
        try:
            groups, common = find_duplicates(fingerprints)
            missing = common_missing(fingerprints)
        except Exception:  # pragma: no cover - a bug here must not lose the reports
            groups, common, missing = [], [], {}
        extra = {
            "missing_by_rung": missing,
            "reused": sum(1 for r in rows if r["reused"]),
            "duplicates": groups,
            "duplicates_common": common,
        }
        if self.roster is not None:
            names = {r["name"]: self.originals.get(r["name"], r["name"]) for r in rows}
            self.matched = match_roster(self.roster, names)
            extra["roster_problems"] = [a.error for a in self.matched.ambiguous]
            for r in rows:
                r["student"] = self.matched.students.get(r["name"], "")
            left = [(u, "missing") for u in self.matched.missing]
            left += [(u, "ambiguous") for u in self.matched.ambiguous]
            extra["roster_missing"] = [
                {
                    "name": safe_name(u.submission),
                    "student": clean_text(u.student, 200),
                    "status": status,
                    "error": u.error,
                }
                for u, status in sorted(
                    left, key=lambda us: (us[0].submission.casefold(), us[0].submission)
                )
            ]
        return extra

    def write(self, out: Path) -> None:
        """Write grades.csv (atomically) when a rubric was given."""
        if self.rubric is not None:
            atomic_write(out / GRADES, grades_csv(self).encode("utf-8"))


# ----------------------------------------------------------------------------- options


def load_roster(path: str | Path) -> dict[str, str]:
    """Read roster.csv: a ``submission`` (or ``name``) column and a ``student`` column."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(_("--roster {path} does not exist", path=clean_text(p, 200))) from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(
            _(
                "--roster {path} cannot be read: {why}",
                path=clean_text(p, 200),
                why=clean_text(e, 200),
            )
        ) from None
    reader = csv.reader(io.StringIO(text))
    header = [h.strip().lower() for h in next(reader, [])]
    sub_col = next((header.index(c) for c in ("submission", "name") if c in header), None)
    stu_col = next(
        (header.index(c) for c in ("student", "student_id", "id", "email") if c in header), None
    )
    if sub_col is None or stu_col is None:
        raise UsageError(
            _(
                "--roster {path} needs a header with a 'submission' (or 'name') column and a "
                "'student' column; it has {columns}",
                path=clean_text(p, 200),
                columns=", ".join(header) or p_("roster columns", "none"),
            )
        )
    roster: dict[str, str] = {}
    for i, row in enumerate(reader, 2):
        if not row or all(not c.strip() for c in row):
            continue
        if max(sub_col, stu_col) >= len(row):
            raise UsageError(
                _(
                    "--roster {path} line {line} has too few columns",
                    path=clean_text(p, 200),
                    line=i,
                )
            )
        raw = row[sub_col].strip()
        raw = raw[:-4] if raw.lower().endswith(".zip") else raw  # alice.zip is graded as alice
        if raw in roster:
            raise UsageError(
                _(
                    "--roster {path} line {line}: submission {name} is listed twice",
                    path=clean_text(p, 200),
                    line=i,
                    name=repr(clean_text(row[sub_col], 80)),
                )
            )
        roster[raw] = row[stu_col].strip()
    return roster


@dataclass(frozen=True)
class Unmatched:
    """A roster line no submission is given to: none matches (missing) or several (ambiguous)."""

    submission: str  # as the roster writes it
    student: str
    error: str


@dataclass
class RosterMatch:
    """Which student each submission's grade goes to, and the roster lines left over."""

    students: dict[str, str]  # name in OUT -> student id
    missing: list[Unmatched]
    ambiguous: list[Unmatched]


def _loose(name: str) -> str:
    return safe_name(name).casefold()


def match_roster(roster: dict[str, str], originals: dict[str, str]) -> RosterMatch:
    """Match roster lines to submissions: exact first, then only an unambiguous loose match.

    ``originals``: each submission's name in OUT -> its own name (``Submission.original``).
    A roster line matches a submission whose own name is exactly the line's (``bob`` is
    the folder ``bob``, never ``_bob`` or ``Bob``). Failing that, the names are compared
    the way OUT names are made, ignoring case (``Zoë Smith`` matches ``Zoe_Smith``), among
    the submissions no line matched exactly; that counts only when exactly one submission
    matches and no other line wants it. Anything else is reported, never guessed.
    """
    by_own: dict[str, list[str]] = {}
    for name, own in originals.items():
        by_own.setdefault(own, []).append(name)
    students: dict[str, str] = {}
    pending: list[tuple[str, str, list[str]]] = []
    for raw, student in roster.items():
        exact = by_own.get(raw, [])
        if len(exact) == 1:
            students[exact[0]] = student
        else:
            pending.append((raw, student, exact))
    free = [n for n in originals if n not in students]
    candidates = {
        raw: exact or [n for n in free if _loose(originals[n]) == _loose(raw)]
        for raw, _, exact in pending
    }
    wanted: dict[str, int] = {}
    for names in candidates.values():
        for n in names:
            wanted[n] = wanted.get(n, 0) + 1
    missing, ambiguous = [], []
    for raw, student, _exact in pending:
        names = candidates[raw]
        shown = clean_text(raw, 80)
        if len(names) == 1 and wanted[names[0]] == 1:
            students[names[0]] = student
        elif not names:
            missing.append(Unmatched(raw, student, _("no submission with this name")))
        else:
            if len(names) > 1:
                why = _(
                    "matches {n} submissions ({names}) and none exactly",
                    n=len(names),
                    names=", ".join(sorted(names)),
                )
            else:
                why = _(
                    "matches {name} only loosely, and so does another roster line", name=names[0]
                )
            ambiguous.append(
                Unmatched(
                    raw,
                    student,
                    _(
                        "roster submission {submission} {why}, so no grade goes to this student; "
                        "write the submission's exact folder or zip name in the roster",
                        submission=quoted(shown),
                        why=why,
                    ),
                )
            )
    return RosterMatch(students, missing, ambiguous)


def parse_deadline(text: str) -> datetime:
    """An ISO 8601 date-time (naive is UTC); UsageError otherwise."""
    from reportgen.project.manifest import parse_time

    try:
        return parse_time(text)
    except (ValueError, TypeError):
        raise UsageError(
            _(
                "--deadline {value} is not an ISO 8601 date-time such as {example}",
                value=repr(clean_text(text, 60)),
                example="2026-03-10T23:59:00Z",
            )
        ) from None


# ----------------------------------------------------------------------------- grades


def _grade(opts: GradingOptions, row: dict, fp: dict | None, folder: Path | None) -> None:
    """One row's grade (into opts.grades and the row), feedback.md and the HTML section."""
    from reportgen.grading.feedback import feedback_data, render_markdown
    from reportgen.grading.rubric import max_points, score, total

    rubric = opts.rubric
    assert rubric is not None  # GradingOptions.run grades only with a rubric
    report = read_report(folder) if folder is not None else None
    if row["status"] == "ok" and report is not None:
        scores = score(
            rubric,
            report,
            warnings=row["warnings"] or 0,
            latest_started_at=(fp or {}).get("latest_started_at"),
            deadline=opts.deadline,
        )
        points = total(scores)
        error = ""
    else:
        scores, points = None, 0.0
        error = row["error"] or _("the report could not be read")
    most = max_points(rubric, scores)
    grade = {
        "name": row["name"],
        "status": row["status"],
        "total": points,
        "max": most,
        "error": error,
    }
    for line in rubric.lines:
        grade[line.column] = 0.0
    for s in scores or []:
        grade[s.line.column] = s.points if s.applies else ""  # not applicable: an empty cell
    opts.grades.append(grade)
    row["total"], row["max"] = points, most
    late = next((sc for sc in scores or [] if sc.line.kind == "late"), None)
    if late is not None:
        row["late"] = {"points": late.points, "why": clean_text(late.why, 200)}
    if folder is not None:
        fb = feedback_data(
            row["name"],
            report if row["status"] == "ok" else None,
            scores,
            points,
            most,
            error=error,
        )
        atomic_write(folder / FEEDBACK, render_markdown(fb).encode("utf-8"))
        _add_html_section(folder / "report.html", fb)


def _add_html_section(path: Path, fb: Feedback) -> None:
    """Put the feedback first in report.html's body (a new file renamed over the old one)."""
    from reportgen.grading.feedback import render_html_section, with_feedback_section

    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_REPORT_BYTES:
            return
        html = with_feedback_section(path.read_text(encoding="utf-8"), render_html_section(fb))
    except (OSError, UnicodeDecodeError):
        return
    if html is not None:
        atomic_write(path, html.encode("utf-8"))


def grades_csv(opts: GradingOptions) -> str:
    """grades.csv: name, student, one column per rubric line, total, max, status, error."""
    assert opts.rubric is not None
    cols = ["name", "student", *opts.rubric.columns, "total", "max", "status", "error"]
    matched = opts.matched
    if matched is None:
        originals = {g["name"]: opts.originals.get(g["name"], g["name"]) for g in opts.grades}
        matched = match_roster(opts.roster or {}, originals)
    rows = []
    for g in opts.grades:
        student = matched.students.get(g["name"], "")
        rows.append({"max": opts.rubric.max, **g, "student": student})
    left = [(u, "missing") for u in matched.missing] + [(u, "ambiguous") for u in matched.ambiguous]
    for u, status in sorted(left, key=lambda us: (us[0].submission.casefold(), us[0].submission)):
        # on the roster, but no grade goes to it
        row: dict[str, object] = {c: 0.0 for c in opts.rubric.columns}
        row.update(
            name=safe_name(u.submission),
            student=u.student,
            total=0.0,
            max=opts.rubric.max,
            status=status,
            error=u.error,
        )
        rows.append(row)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(cols)
    for r in rows:
        writer.writerow([_cell(_gradebook(r[c])) for c in cols])
    return buf.getvalue()


def _gradebook(value: object) -> object:
    """A grade sheet cell: points as words.points_value has them (2 not 2.0, at most 4
    decimals, never -0, a plain minus a spreadsheet reads as a number); other values as they are."""
    return points_value(value) if isinstance(value, float) else value


def _cell(value: object) -> object:
    """A cell a spreadsheet shows as text: no control characters, no formula (= + - @ first)."""
    return csv_cell(clean_text(value, 1000) if isinstance(value, str) else value)
