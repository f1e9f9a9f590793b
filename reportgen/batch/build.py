"""One submission: the task a worker gets, ``build_one`` that builds it, and its summary row."""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import re
import shutil
import stat
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reportgen.batch.intake import Submission
from reportgen.batch.outdir import STAGE, TMP_NAME, UNZIP
from reportgen.errors import EvreportError, InputError, clean_text, display_name
from reportgen.model import Report
from reportgen.model.enums import IntervalSource
from reportgen.names import RUNG_NAMES
from reportgen.safe import TreeTooLarge, walk_tree
from reportgen.words.i18n import _, local_number, n_, speaking
from reportgen.words.numbers import count

RUNG_COLUMNS = tuple(f"rung{i}_{n.replace(' ', '_')}" for i, n in enumerate(RUNG_NAMES, 1))
COLUMNS = (
    "name",
    "source",
    "status",
    "error",
    "verdict",
    "recommend",
    "supported_rung",
    *RUNG_COLUMNS,
    "gap_kind",
    "gap",
    "gap_low",
    "gap_high",
    "seed_gap_in_sd",
    "seconds",
    "warnings",
    "notes",
    "report",
)
#: longest error message kept in a summary row
MAX_ERROR_CHARS = 1000
#: imported by each worker before it says it is ready (the PDF library only when needed)
WARM_MODULES = (
    "reportgen.api",
    "reportgen.project",
    "reportgen.checks",
    "reportgen.render",
    "reportgen.charts",
    "pandas",
    "pyarrow",
    "altair",
    "vl_convert",
)


def build_ref(fn: Callable) -> str:
    """The importable name of a top-level function, ``module:qualname``."""
    return f"{fn.__module__}:{fn.__qualname__}"


def resolve(ref: str) -> Callable:
    """The function a ``build_ref`` names (imported in the process that calls it)."""
    module, _sep, qualname = ref.partition(":")
    obj: Any = importlib.import_module(module)  # then whatever the attributes hold
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def plan_tasks(
    subs: Sequence[Submission],
    out: Path,
    formats: Sequence[str],
    timeout: float,
    build: str,
    after_build: str | None = None,
    language: str | None = None,
) -> list[dict]:
    """One JSON-able task per submission: everything a worker needs, as absolute paths.

    ``build`` and ``after_build`` are function references (``build_ref``): the build, and
    the hook that adds keys to the row after a successful build (None: none). ``language``:
    the language of every report (None: each project's own ``[report] language``).
    """
    out = out.resolve()
    return [
        {
            "name": s.name,
            "source": display_name(s.source),
            "path": str(s.source if s.kind == "link" else s.source.resolve()),
            "kind": s.kind,
            "out_dir": str(out / TMP_NAME / STAGE / s.name),
            "tmp_dir": str(out / TMP_NAME / UNZIP / s.name),
            "formats": list(formats),
            "timeout": timeout,
            "build": build,
            "after_build": after_build,
            "command": f"evreport batch {display_name(s.source)}",
            "language": language,
        }
        for s in subs
    ]


def empty_row(task: dict) -> dict:
    """A summary row with every column present and nothing known yet."""
    row = dict.fromkeys(COLUMNS)
    row.update(name=task["name"], source=task["source"], status="error", error=None)
    row.update(warnings=0, notes="", seconds=None)
    return row


def error_row(task: dict, message: str, seconds: float | None = None) -> dict:
    row = empty_row(task)
    row.update(error=message, seconds=seconds)
    return row


def _project_folder(task: dict, notes: list[str]) -> Path:
    """The project to build: the submitted folder, or the zip extracted into tmp_dir."""
    if task["kind"] == "link":
        raise InputError(
            _("the submission is a symlink; it is not followed (submit a folder or a zip)"),
            slug="symlink",
        )
    if task["kind"] == "zip":
        from reportgen.safezip import safe_extract

        tmp = Path(task["tmp_dir"])
        shutil.rmtree(tmp, ignore_errors=True)
        extracted = safe_extract(task["path"], tmp)
        notes += extracted.skipped
        if extracted.project is None:
            raise InputError(
                _("no evreport.toml at the zip root or in a single top folder"),
                slug="no-project",
            )
        return extracted.project
    project = Path(task["path"])
    toml = project / "evreport.toml"
    if not (toml.is_file() or toml.is_symlink()):  # a link is read (and refused) later
        raise InputError(_("no evreport.toml in this folder"), slug="no-project")
    check_folder(project)
    return project


def check_folder(project: Path) -> None:
    """Refuse a submitted folder that is too deep or large, or that holds a hard link.

    The same caps as a zip's (``safe.walk_tree``: 10,000 entries, 64 folders deep). A
    regular file with more than one link may be the same file as one outside the
    submission (``ln /elsewhere/notes.csv runs.csv``), so the whole submission is refused
    before anything is read; a copy of the file is fine.
    """
    try:
        for rel, st in walk_tree(project):
            if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
                raise InputError(
                    _(
                        "a hard link ({n} names for one file): it may be a file from outside "
                        "the submission, so this submission is not read (submit a copy)",
                        n=local_number(str(st.st_nlink)),
                    ),
                    path=display_name(rel),
                    slug="hard-link",
                )
    except TreeTooLarge as e:
        raise InputError(
            _(
                "the submission folder has {what} (the limit for a zip too); it is not read",
                what=_tree_limit(e),
            ),
            slug="too-large",
        ) from None


def _tree_limit(e: TreeTooLarge) -> str:
    """safe.walk_tree's reason in the current language, from the facts it carries (safe.py
    imports only the standard library, so its own message is English)."""
    if e.nested is None:
        return _("more than {n} files and folders", n=count(e.limit))
    return _("folders nested more than {n} deep ({path})", n=str(e.limit), path=e.nested)


def build_one(task: dict) -> dict:
    """Build one submission's report into ``task["out_dir"]`` and return its summary row.

    Never raises for a bad submission: the failure becomes the row's error message.
    """
    with speaking(task.get("language")):  # its errors in the build's language
        return _build_one(task)


def _build_one(task: dict) -> dict:
    start = time.perf_counter()
    row = empty_row(task)
    notes: list[str] = []
    try:
        project = _project_folder(task, notes)
        from reportgen.api import build_report

        result = build_report(  # plain files: the batch swaps the whole folder in at once
            project,
            out=task["out_dir"],
            formats=tuple(task["formats"]),
            command=task["command"],
            versioned=False,
            links=False,  # built in a staging folder, and a zip's project is temporary
            language=task.get("language"),
        )
        row.update(summary_fields(result.report))
        if task.get("after_build"):  # e.g. the grading steps' fingerprint of the project
            row.update(resolve(task["after_build"])(Path(project), result.report))
        row["warnings"] = len(result.warnings)
        row["report"] = _report_link(task)
        if result.render_problems:
            row["error"] = "; ".join(str(p) for p in result.render_problems)
        else:
            row["status"] = "ok"
    except EvreportError as e:
        row["error"] = error_message(e)
    except MemoryError:
        row["error"] = _(
            "ran out of memory (the worker's memory limit) while building this project"
        )
    except RecursionError:
        row["error"] = _("an input is nested too deeply to read")
    except Exception as e:  # a crash on a student's project is our bug, but never stops the batch
        row["error"] = internal_error(e, task)
        row["detail"] = scrub_paths(traceback.format_exc(limit=-8), task)
    finally:
        if task["kind"] == "zip":
            shutil.rmtree(task["tmp_dir"], ignore_errors=True)
    if row["error"]:
        row["error"] = _relative(row["error"], task)
    row["notes"] = "; ".join(notes)
    row["seconds"] = round(time.perf_counter() - start, 3)
    return row


# what worker_main imports before its first project (it reads the attribute with getattr)
build_one.__dict__["warm_modules"] = WARM_MODULES


def _relative(text: str, task: dict) -> str:
    """A message without the grader's absolute paths (OUT, the zip's extraction folder)."""
    for path, short in (
        (task["tmp_dir"], "<zip>"),
        (task["out_dir"], task["name"]),
        (task["path"], "<submission>"),
    ):
        text = text.replace(path, short)
    return clean_text(text, MAX_ERROR_CHARS)


def internal_error(e: BaseException, task: dict) -> str:
    """The one line for a crash (our bug): its type and message, without machine paths."""
    message = _(
        "internal error ({kind}): {message}", kind=type(e).__name__, message=clean_text(e, 300)
    )
    return scrub_paths(message, task)


#: what is left of an absolute path once the known folders are replaced: its folders
_ABS_DIRS = re.compile(r"(?<![\w.~<>-])/(?:[^\s'\"/:<>]+/)+")


def _known_folders(task: dict) -> list[tuple[str, str]]:
    """The grading machine's folders a message may hold, each with what it is shown as."""
    import sysconfig

    import reportgen

    pairs = [
        (task["tmp_dir"], "<zip>"),
        (task["out_dir"], task["name"]),
        (task["path"], "<submission>"),
        (str(Path(reportgen.__file__).resolve().parent), "<evreport>"),
        (str(Path(reportgen.__file__).parent), "<evreport>"),
    ]
    for key in ("purelib", "platlib", "stdlib", "platstdlib"):
        with contextlib.suppress(KeyError, OSError):
            pairs.append((sysconfig.get_paths()[key], "<python>"))
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix}:
        pairs.append((prefix, "<python>"))
    with contextlib.suppress(RuntimeError, KeyError, OSError):
        pairs.append((str(Path.home()), "~"))
    # longest first, so a folder inside another is replaced as itself
    return sorted({(a, b) for a, b in pairs if a and a != os.sep}, key=lambda ab: -len(ab[0]))


def scrub_paths(text: str, task: dict) -> str:
    """``text`` (a crash's message or traceback) without the grading machine's absolute paths.

    The submission, its zip folder and its report folder become ``<submission>``, ``<zip>``
    and NAME; evreport's and Python's own folders ``<evreport>`` and ``<python>``; the
    home folder ``~``; the folders of any other absolute path ``.../`` (its file name stays).
    """
    for path, short in _known_folders(task):
        text = text.replace(path, short)
    return _ABS_DIRS.sub(".../", text)


def error_message(e: EvreportError, limit: int = 5) -> str:
    """The error as one line: the first ``limit`` problems of an InputError, then a count."""
    problems = getattr(e, "problems", None)
    if not problems:
        return clean_text(str(e) or type(e).__name__, MAX_ERROR_CHARS)
    shown = [str(p) for p in problems[:limit]]
    if len(problems) > limit:
        more = len(problems) - limit
        shown.append(n_("(and {n} more)", "(and {n} more)", more, n=local_number(str(more))))
    return "; ".join(shown)


def _report_link(task: dict) -> str | None:
    for name in ("report.html", "report.json", "report.pdf", "decision-log.md"):
        if (Path(task["out_dir"]) / name).is_file():
            return f"{task['name']}/{name}"
    return None


def _finite(x: float | None) -> float | None:
    """A number for the summary: None for NaN or an infinity (the contract says null)."""
    return x if x is None or math.isfinite(x) else None


def summary_fields(report: Report) -> dict[str, Any]:
    """The summary columns taken from one report (see docs/report-json.md)."""
    statuses = {r.rung: str(r.status) for r in report.ladder}
    seed = report.noise.seed
    fields: dict[str, Any] = {
        "verdict": str(report.decision.verdict),
        "recommend": report.decision.recommend,
        "supported_rung": report.claim.supported_rung,
        "seed_gap_in_sd": _finite(seed.gap_in_sd) if seed is not None else None,
    }
    for i, col in enumerate(RUNG_COLUMNS, 1):
        fields[col] = statuses.get(i)
    # for index.html (summary.json only): the metric in words and the models' display names
    from reportgen.view.parts import ids, metric_name, names

    (cand_id, base_id) = ids(report)
    cand, base = (clean_text(n, 200) for n in names(report))
    rec = report.decision.recommend
    fields["metric"] = clean_text(metric_name(report), 200)
    fields["display"] = {
        "candidate": cand,
        "baseline": base,
        "recommend": {cand_id: cand, base_id: base}.get(rec, rec) if rec else None,
    }
    # the gap the summary reports: a before-after difference, else the test block line's,
    # else (cross-validated without a test part) the corrected cross-validation interval
    ba, block, iv = report.before_after, report.noise.block, report.noise.interval
    gap: tuple[str, float | None, float | None, float | None] | None = None
    if ba is not None:
        gap = ("before_after", ba.difference, ba.low, ba.high)
    elif block is not None:
        gap = ("block", block.gap, block.low, block.high)
    elif iv is not None and iv.source == IntervalSource.CV_CORRECTED:
        gap = ("cv", iv.gap, iv.low, iv.high)
    if gap is not None:
        kind, value, low, high = gap
        fields.update(
            gap_kind=kind, gap=_finite(value), gap_low=_finite(low), gap_high=_finite(high)
        )
    return fields


def clean_row(row: dict) -> dict:
    """A summary row whose text is always writable: no undecodable names, no control characters."""
    out = {}
    for k, v in row.items():
        if isinstance(v, str):
            v = display_name(v)
            if k == "error":
                v = clean_text(v, MAX_ERROR_CHARS)
            elif k != "detail":
                v = clean_text(v, None)
        out[k] = v
    return out
