"""The grading rubric: load and check rubric.toml, score one report, write the template.

A rubric has four tables, each optional (docs/batch.md, "Rubric and grades"):
``[rungs]`` points per rung status, ``[checks]`` points per passed check of
report.json ``checks[]``, ``[claim]`` points for an honest claim, and ``[deductions]``
per input warning and for runs started after ``--deadline``.
"""

from __future__ import annotations

import difflib
import fnmatch
import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from reportgen.errors import UsageError, clean_text
from reportgen.names import RUNG_KEYS
from reportgen.words import cells, count, count_noun
from reportgen.words.i18n import _, current, local_number, p_
from reportgen.words.rungs import rung_word, status_word

if TYPE_CHECKING:
    from reportgen.checks.ids import CheckId
    from reportgen.model import Report
    from reportgen.model.ladder import Rung

STATUSES = ("shown", "partly", "not shown")
TABLES = ("rungs", "checks", "claim", "deductions")
#: [rungs] credit: "credited" (default) scores the credited ladder, a rung above the lowest rung
#: that is not shown earning its not_shown points; "status" scores each rung's own status
CREDIT = ("credited", "status")
DEDUCTION_KEYS = ("per_warning", "max_warnings", "late")
#: each design's "why" of a check line that does not apply to it (left out of the maximum)
DESIGN_WORDS = {
    "split": lambda: _(
        "does not apply to a model against baseline comparison: left out of the maximum"
    ),
    "cv": lambda: _("does not apply to a cross-validated comparison: left out of the maximum"),
    "before-after": lambda: _(
        "does not apply to a before/after comparison: left out of the maximum"
    ),
}


#: the most points (or warnings) one rubric number may give: a total over every line stays
#: finite and prints as a plain number (1e308 points overflowed the total to inf)
MAX_POINTS = 1e6


@dataclass(frozen=True)
class Line:
    """One rubric line: a grades.csv column, what earns it, and its most (or least) points."""

    column: str
    kind: str  # rung | check | claim | warnings | late
    key: str  # rung number as text, check id or pattern, "honest", ...
    points: dict[str, float]  # rung: {status: points}; others: {"points": p} (deductions positive)
    label: str

    @property
    def max(self) -> float:
        if self.kind in ("warnings", "late"):
            return 0.0
        return max(self.points.values(), default=0.0)


def label_words(line: Line) -> str:
    """A rubric line's label as feedback prints it, in the language being written (the
    label Line keeps is the English one the rubric was read with)."""
    if line.kind == "rung":
        from reportgen.names import RUNG_NAMES

        i = int(line.key)
        return _("rung {n} ({name})", n=i, name=rung_word(RUNG_NAMES[i - 1]))
    if line.kind == "check":
        from reportgen.view.parts import check_label

        # the report's own label of the check ("logged equals recomputed"), not its id
        return _("check {name}", name=check_label(line.key))
    if line.kind == "claim":
        return _("an honest claim")
    if line.kind == "warnings":
        return _("input warnings")
    if line.kind == "late":
        return _("runs after the deadline")
    return line.label


@dataclass(frozen=True)
class Rubric:
    lines: tuple[Line, ...]
    source: str = "rubric.toml"
    #: how rung lines are scored: the credited ladder, or each rung's own status (CREDIT)
    credit: str = "credited"

    @property
    def max(self) -> float:
        return round(sum(line.max for line in self.lines), 4)

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(line.column for line in self.lines)


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UsageError(
            _("rubric {where} = {value} is not a number", where=where, value=_repr(value))
        )
    if isinstance(value, int) and abs(value) > MAX_POINTS:
        value = math.inf if value > 0 else -math.inf
    if math.isnan(value):
        raise UsageError(
            _("rubric {where} = {value} is not a number", where=where, value=_repr(value))
        )
    shown = f"{value:g}"  # as the rubric wrote it
    if value < 0:
        raise UsageError(
            _(
                "rubric {where} = {value} is negative; give points as positive numbers "
                "(deductions are subtracted)",
                where=where,
                value=shown,
            )
        )
    if value > MAX_POINTS:
        raise UsageError(
            _(
                "rubric {where} = {value} is over the limit of {limit}; give points from 0 "
                "to {limit}",
                where=where,
                value=shown,
                limit=local_number(f"{MAX_POINTS:g}"),
            )
        )
    return float(value)


def _repr(value: object) -> str:
    """A rubric value as the rubric wrote it, for a message."""
    return clean_text(repr(value), 60)


#: the things a rubric may name that evreport does not know, said in the current language
UNKNOWN: dict[str, Callable[[str], str]] = {
    "table": lambda name: _("rubric: unknown table {name}", name=name),
    "rung": lambda name: _("rubric: unknown rung {name}", name=name),
    "check": lambda name: _("rubric: unknown check {name}", name=name),
    "claim": lambda name: _("rubric: unknown key in [claim] {name}", name=name),
    "deductions": lambda name: _("rubric: unknown key in [deductions] {name}", name=name),
}


def _unknown(what: str, name: str, valid: tuple[str, ...], rung: str | None = None) -> UsageError:
    """``name`` is not one of ``valid``: "rubric: unknown rung 'corect'; did you mean
    'correct'?"; ``what`` a key of UNKNOWN, or "status" (of rung ``rung``)."""
    close = difflib.get_close_matches(name, valid, n=1, cutoff=0.0)
    shown = repr(clean_text(name, 80))
    said = (
        _("rubric: unknown status of rung {rung} {name}", rung=rung, name=shown)
        if what == "status"
        else UNKNOWN[what](shown)
    )
    if close:
        said = _("{message}; did you mean {name}?", message=said, name=repr(close[0]))
    return UsageError(said)


def _registry() -> ModuleType:
    """reportgen.checks.registry, imported on first use: it loads all of checks (numpy,
    pandas), which `evreport rubric init` and importing grading do without."""
    from reportgen.checks import registry

    return registry


def known_check(name: str) -> bool:
    """True for a check id some design can write (checks/registry.py), or a ``*`` pattern
    matching one: the rubric is read before the reports, so any design's id is known."""
    return any(_names_meet(name, c) for checks in _registry().DESIGNS.values() for c in checks)


def _names_meet(name: str, check: CheckId) -> bool:
    """Whether the rubric's check name (an id, or a ``*`` pattern) can name the declared
    check id or family ``check`` (a CheckId)."""
    if "*" not in name:
        return check.matches(name)
    return _globs_meet(name, check.id)


def _globs_meet(a: str, b: str) -> bool:
    """Whether some id matches both ``*`` patterns (a ``*`` stands for any text, maybe none)."""
    # meet[j]: a[i:] and b[j:] match a common text, for the row i being filled (i from the end)
    meet = [False] * len(b) + [True]
    for j in range(len(b) - 1, -1, -1):
        meet[j] = b[j] == "*" and meet[j + 1]
    for i in range(len(a) - 1, -1, -1):
        row = [False] * len(b) + [a[i] == "*" and meet[len(b)]]
        for j in range(len(b) - 1, -1, -1):
            if a[i] == "*" or b[j] == "*":
                row[j] = meet[j] or row[j + 1]
            else:
                row[j] = a[i] == b[j] and meet[j + 1]
        meet = row
    return meet[0]


def parse_rubric(doc: dict[str, Any], source: str = "rubric.toml") -> Rubric:
    """A Rubric from the parsed TOML; UsageError names the bad table, key or value."""
    for table in doc:
        if table not in TABLES:
            raise _unknown("table", f"[{table}]", tuple(f"[{t}]" for t in TABLES))
    lines: list[Line] = []
    rungs = doc.get("rungs", {})
    if not isinstance(rungs, dict):
        raise UsageError(_("rubric {table} must be a table", table="[rungs]"))
    credit = rungs.get("credit", "credited")
    if credit not in CREDIT:
        raise UsageError(
            _(
                "rubric [rungs] credit = {value} is not one of {choices}",
                value=_repr(credit),
                choices=", ".join(repr(c) for c in CREDIT),
            )
        )
    for key, value in rungs.items():
        if key == "credit":
            continue
        if key not in RUNG_KEYS:
            raise _unknown("rung", key, RUNG_KEYS)
        if isinstance(value, int | float) and not isinstance(value, bool):
            value = {"shown": value}
        if not isinstance(value, dict):
            raise UsageError(
                _(
                    "rubric [rungs] {key} must be {example}",
                    key=key,
                    example="{ shown = 3, partly = 1 }",
                )
            )
        pts = {}
        for status, p in value.items():
            status_ = status.replace("_", " ")
            if status_ not in STATUSES:
                raise _unknown("status", status, ("shown", "partly", "not_shown"), rung=key)
            pts[status_] = _number(p, f"[rungs] {key}.{status}")
        i = RUNG_KEYS.index(key) + 1
        lines.append(
            Line(f"rung{i}_{key}", "rung", str(i), pts, f"rung {i} ({key.replace('_', ' ')})")
        )
    lines.sort(key=lambda line: int(line.key))
    checks = doc.get("checks", {})
    if not isinstance(checks, dict):
        raise UsageError(_("rubric {table} must be a table", table="[checks]"))
    for name, p in checks.items():
        if not known_check(name):
            raise _unknown("check", name, _registry().all_ids())
        lines.append(
            Line(
                f"check_{name}",
                "check",
                name,
                {"points": _number(p, f"[checks] {name}")},
                f"check {name}",
            )
        )
    claim = doc.get("claim", {})
    if not isinstance(claim, dict):
        raise UsageError(_("rubric {table} must be a table", table="[claim]"))
    for key, p in claim.items():
        if key != "honest":
            raise _unknown("claim", key, ("honest",))
        lines.append(
            Line(
                "honest_claim",
                "claim",
                "honest",
                {"points": _number(p, "[claim] honest")},
                "an honest claim",
            )
        )
    ded = doc.get("deductions", {})
    if not isinstance(ded, dict):
        raise UsageError(_("rubric {table} must be a table", table="[deductions]"))
    for key in ded:
        if key not in DEDUCTION_KEYS:
            raise _unknown("deductions", key, DEDUCTION_KEYS)
    if "per_warning" in ded:
        per = _number(ded["per_warning"], "[deductions] per_warning")
        cap = (
            _number(ded["max_warnings"], "[deductions] max_warnings")
            if "max_warnings" in ded
            else math.inf
        )
        lines.append(
            Line(
                "warnings", "warnings", "per_warning", {"points": per, "cap": cap}, "input warnings"
            )
        )
    elif "max_warnings" in ded:
        raise UsageError(_("rubric [deductions] max_warnings needs per_warning"))
    if "late" in ded:
        lines.append(
            Line(
                "late",
                "late",
                "late",
                {"points": _number(ded["late"], "[deductions] late")},
                "runs after the deadline",
            )
        )
    if not lines:
        raise UsageError(
            _(
                "rubric {source} gives no points: add [rungs], [checks] or [claim] lines",
                source=source,
            )
        )
    return Rubric(tuple(lines), source, credit)


def load_rubric(path: str | Path) -> Rubric:
    """Read and check rubric.toml (the operator's file); UsageError on any problem."""
    p = Path(path)
    try:
        doc = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(_("--rubric {path} does not exist", path=clean_text(p, 200))) from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise UsageError(
            _(
                "--rubric {path} cannot be read: {why}",
                path=clean_text(p, 200),
                why=clean_text(e, 200),
            )
        ) from None
    return parse_rubric(doc, p.name)


# ----------------------------------------------------------------------------- scoring


@dataclass(frozen=True)
class Score:
    """One line's points for one submission, and why (for feedback.md)."""

    line: Line
    points: float
    why: str
    #: False for a check line no check of the report's kind of comparison can match: it is
    #: left out of the submission's maximum (docs/batch.md)
    applies: bool = True


def _check_passed(report: Report, pattern: str) -> tuple[bool, str]:
    found = [c for c in report.checks if fnmatch.fnmatchcase(c.id, pattern)]
    if not found:
        return False, _("this check is not in your report")
    failed = [c for c in found if c.passed is not True]
    if not failed:
        return True, p_("check outcome", "passed")
    c = failed[0]
    state = p_("check outcome", "not shown") if c.passed is None else p_("check outcome", "failed")
    return False, f"{state}: {c.text}" if c.text else state


def _check_applies(report: Report, pattern: str) -> bool:
    """A check line applies unless the report's design never lists a check it names
    (fair-test-opened-once-candidate in a before-after report, test-interval-excludes-zero in
    a cross-validated one), or the design lists it only when it measured something and this
    report did not (fair-test-opened-once-candidate in a cross-validated report without a
    held-out test part)."""
    registry = _registry()
    design = registry.design_of(report)
    named = [c for c in registry.DESIGNS[design] if _names_meet(pattern, c)]
    if design == "cv" and named and all(c.id in registry.CV_ONLY_WHEN_MEASURED for c in named):
        # listed only with a held-out test part: it applies when the report has it
        return any(fnmatch.fnmatchcase(c.id, pattern) for c in report.checks)
    return bool(named)


def max_points(rubric: Rubric, scores: list[Score] | None) -> float:
    """The most a submission can earn: the rubric's maximum without the lines that do not apply."""
    if scores is None:
        return rubric.max
    return round(sum(s.line.max for s in scores if s.applies), 4)


def lowest_unshown(ladder: Mapping[int, Rung]) -> int | None:
    """The lowest rung (1 to 5) whose status is not "shown" (a missing rung counts), or None."""
    return next((i for i in range(1, 6) if i not in ladder or not ladder[i].shown), None)


def _rung_score(
    rubric: Rubric, line: Line, ladder: Mapping[int, Rung], lowest: int | None
) -> Score:
    """A rung line's points: its status's, except that on the credited ladder a rung above the
    lowest unshown one earns the points of "not shown" (it keeps its status, not its credit)."""
    i = int(line.key)
    if i not in ladder:
        return Score(line, 0.0, _("not in the report"))
    status = str(ladder[i].status)
    if rubric.credit == "credited" and lowest is not None and i > lowest:
        below = (
            status_word(str(ladder[lowest].status)) if lowest in ladder else _("not in the report")
        )
        return Score(
            line,
            line.points.get("not shown", 0.0),
            _(
                "{status}, not credited: rung {n} below it is {below}",
                status=status_word(status),
                n=count(lowest),
                below=below,
            ),
        )
    return Score(line, line.points.get(status, 0.0), status_word(status))


def late_runs(latest: str | None, deadline: datetime | None) -> bool:
    """True when the latest ``started_at`` in runs.csv is after the deadline."""
    if deadline is None or not latest:
        return False
    from reportgen.project.manifest import parse_time

    try:
        return parse_time(latest) > deadline
    except (ValueError, TypeError):
        return False


def _claim_score(line: Line, report: Report) -> Score:
    """The honest-claim line: the claim as written against the rung the evidence supports."""
    from reportgen.grading.claim import claimed_rung, honest

    text = report.project.claim
    supported = report.claim.supported_rung
    reach = claimed_rung(text)
    fields = dict(rung=reach.rung, supported=supported)
    if reach.words:
        said = ", ".join(reach.words)
        said = f"'{said}'" if current() == "en" else f"«{said}»"
        why = _(
            "your claim ({words}) reaches rung {rung}; the evidence supports rung {supported}",
            words=said,
            **fields,
        )
    else:
        why = _("your claim reaches rung {rung}; the evidence supports rung {supported}", **fields)
    return Score(line, line.points["points"] if honest(text, supported) else 0.0, why)


def score(
    rubric: Rubric,
    report: Report,
    warnings: int = 0,
    latest_started_at: str | None = None,
    deadline: datetime | None = None,
) -> list[Score]:
    """Every rubric line's points for one built report."""
    ladder = ladder_by_rung(report)
    lowest = lowest_unshown(ladder)
    out = []
    for line in rubric.lines:
        if line.kind == "rung":
            out.append(_rung_score(rubric, line, ladder, lowest))
        elif line.kind == "check" and not _check_applies(report, line.key):
            design = _registry().design_of(report)
            declared = any(_names_meet(line.key, c) for c in _registry().DESIGNS[design])
            why = (
                _(
                    "does not apply to a cross-validated comparison without a held-out test "
                    "part: left out of the maximum"
                )
                if declared
                else DESIGN_WORDS[design]()
            )
            out.append(Score(line, 0.0, why, applies=False))
        elif line.kind == "check":
            ok, why = _check_passed(report, line.key)
            out.append(Score(line, line.points["points"] if ok else 0.0, why))
        elif line.kind == "claim":
            out.append(_claim_score(line, report))
        elif line.kind == "warnings":
            n = warnings if isinstance(warnings, int) and warnings > 0 else 0
            pts = min(n * line.points["points"], line.points["cap"])
            out.append(Score(line, 0.0 - pts + 0.0, count_noun(n, "input warning")))
        elif line.kind == "late":
            late = late_runs(latest_started_at, deadline)
            why = (
                _(
                    "a run started at {started}, after the deadline {deadline}",
                    started=cells.timestamp(latest_started_at),
                    deadline=cells.timestamp(deadline.isoformat()) if deadline else "",
                ).rstrip()
                if late
                else _("on time")
            )
            out.append(Score(line, -line.points["points"] if late else 0.0, why))
    return out


def ladder_by_rung(report: Report) -> dict[int, Rung]:
    """The report's ladder rows by rung number."""
    return {r.rung: r for r in report.ladder}


def total(scores: list[Score]) -> float:
    """The sum of the lines, never below 0."""
    return round(max(0.0, sum(s.points for s in scores)), 4)


TEMPLATE = """\
# evreport rubric: points for each submission of `evreport batch --rubric rubric.toml`.
# Every table is optional; remove the lines you do not grade. See docs/batch.md.
# grades.csv gets one column per line (rung1_correct, check_<id>, honest_claim,
# warnings, late), then total and max. Points are numbers >= 0; deductions are subtracted.

[rungs]
# Points per rung status in the report's ladder: shown, partly, not_shown.
# The credited ladder: a rung above the lowest rung that is not shown earns its not_shown
# points (it is "shown, not credited" in the report). credit = "status" scores each rung's
# own status instead.
credit            = "credited"
correct           = { shown = 2, partly = 1 }
fair              = { shown = 2, partly = 1 }
larger_than_noise = { shown = 3, partly = 1 }
relevant          = { shown = 2, partly = 1 }
bounded           = { shown = 1 }

[checks]
# Points when the named check of report.json checks[] passed (failed or missing: 0).
# A * pattern earns its points when at least one check matches and all that match passed.
logged-equals-recomputed        = 1
fair-test-opened-once-candidate = 1
# "not-worse-on-*"              = 1

[claim]
# Points when the claim as written does not outrun the rung the evidence supports.
honest = 2

[deductions]
per_warning  = 0.5   # for each non-fatal input warning in the report
max_warnings = 2     # at most this much off for warnings
late         = 2     # a run in runs.csv started after --deadline
"""
