"""evreport batch: many untrusted submissions in, one report each and a class summary out.

Steps, each a function you can call alone:

    discover(paths) -> submissions -> plan_tasks -> run (local pool or Dask) -> rows
        -> write_summary (summary.csv, summary.json, index.html)

Every project is built by ``build_one`` inside a separate worker process (see
``_Worker``): a long-lived interpreter that imports reportgen once and builds project
after project; when a project overruns ``timeout`` the worker is killed and replaced.
The same ``build_one`` runs on a Dask cluster with ``executor="dask"``.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import math
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
import traceback
import unicodedata
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from reportgen.errors import (
    EXIT_INPUT,
    EXIT_OK,
    EvreportError,
    InputError,
    UsageError,
    clean_text,
    display_name,
)
from reportgen.names import RUNG_NAMES

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
SUMMARY_SCHEMA = "evreport-batch/1"
#: per-row keys of summary.json beyond COLUMNS (issue 14: reuse and rubric points)
EXTRA_ROW_KEYS = ("reused", "total", "max")
#: names in OUT that a submission may not take
RESERVED = {"summary.csv", "summary.json", "index.html", "grades.csv"}  # grades.csv: issue 14
_WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL"} | {
    f"{p}{i}" for p in ("COM", "LPT") for i in range(10)
}
TMP_NAME = ".evreport-tmp"
#: the marker an evreport batch leaves in OUT: its schema and every entry it created.
#: Only entries named in it are ever removed or replaced by a later batch.
MARKER = ".evreport-batch.json"
MARKER_SCHEMA = "evreport-batch-out/1"
#: inside TMP_NAME: the new reports ("new"), zip extraction ("zip"), replaced ones ("old")
STAGE, UNZIP, TRASH = "new", "zip", "old"
DEFAULT_TIMEOUT = 120.0
#: address-space limit of each local worker process, in MiB (EVREPORT_WORKER_MEMORY_MB)
DEFAULT_WORKER_MEMORY_MB = 4096
#: longest error message kept in a summary row
MAX_ERROR_CHARS = 1000
#: how long a fresh worker may take to import reportgen before it counts as broken
STARTUP_TIMEOUT = 120.0
DASK_CONNECT_TIMEOUT = "10s"
#: imported by each worker before it says it is ready (the PDF library only when needed)
_WARM_MODULES = (
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
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


@dataclass(frozen=True)
class Submission:
    """One thing to build: a project folder or a zip, and the unique name its report gets."""

    name: str
    source: Path  # as given on the command line (shown in the summary)
    kind: str  # "folder", "zip" or "link" (a symlink inside a folder of submissions)


@dataclass
class BatchResult:
    """The rows of the summary, in name order, and what the batch exits with."""

    out: Path
    rows: list[dict]
    seconds: float = 0.0
    #: top-level keys the grading steps add to summary.json (reused, duplicates)
    extra: dict = field(default_factory=dict)

    @property
    def failed(self) -> int:
        return sum(r["status"] != "ok" for r in self.rows)

    @property
    def exit_code(self) -> int:
        return EXIT_INPUT if self.failed else EXIT_OK


# --------------------------------------------------------------------------- discover


def discover(paths: Sequence[str | Path]) -> list[Submission]:
    """Expand the command-line arguments into submissions with unique, safe names.

    An argument is a project folder (it has evreport.toml), a ``.zip``, or a folder whose
    sub-folders and zips are the submissions (hidden entries and other files ignored).
    """
    if not paths:
        raise UsageError("no submissions given: pass project folders, zips or folders of them")
    found: list[tuple[Path, str]] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise UsageError(f"submission {raw} does not exist")
        if p.is_file():
            if p.suffix.lower() != ".zip":
                raise UsageError(f"submission {raw} is a file but not a .zip")
            found.append((p, "zip"))
        elif (p / "evreport.toml").is_file():
            found.append((p, "folder"))
        else:
            inner = _submissions_in(p)
            if not inner:
                raise UsageError(f"{raw} has no evreport.toml and no sub-folders or zips to grade")
            found.extend(inner)
    seen: set[Path] = set()
    unique = []
    for p, kind in sorted(found, key=lambda pk: str(pk[0])):
        key = p.absolute() if kind == "link" else p.resolve()
        if key not in seen:  # the same submission named twice is graded once
            seen.add(key)
            unique.append((p, kind))
    names = unique_names(
        [
            safe_name(_readable(p.stem if kind == "zip" or _is_zip_link(p, kind) else p.name))
            for p, kind in unique
        ]
    )
    subs = [Submission(n, p, kind) for n, (p, kind) in zip(names, unique, strict=True)]
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
    """A file name made of ``[A-Za-z0-9._-]`` only, never hidden, reserved or empty."""
    ascii_ = unicodedata.normalize("NFKD", raw).encode("ascii", "ignore").decode()
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", ascii_).strip("._-")[:80].rstrip("._-")
    if not name:
        name = "submission"
    if name.lower() in RESERVED or name.split(".")[0].upper() in _WINDOWS_RESERVED:
        name += "_"
    return name


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


def check_out(out: Path, submissions: Sequence[Submission], paths: Sequence[str | Path]) -> None:
    """Refuse an OUT that overlaps the submissions, or that holds something other than a batch."""
    out_r = out.resolve()
    for p in [Path(x) for x in paths] + [s.source for s in submissions if s.kind != "link"]:
        src = p.resolve()
        if src.is_dir() and out_r.is_relative_to(src):
            raise UsageError(
                f"--out {display_name(out)} is inside the submission {display_name(p)}; "
                "choose a folder outside it"
            )
        if src.is_relative_to(out_r):
            raise UsageError(
                f"the submission {display_name(p)} is inside --out {display_name(out)}; "
                "choose another --out"
            )
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {display_name(out)} exists and is not a folder")
    if out.is_dir() and any(out.iterdir()):
        read_marker(out)  # raises unless an earlier batch's marker proves what is ours


def read_marker(out: Path) -> list[str]:
    """The entries an earlier batch created in ``out`` (from its marker); [] for a new OUT.

    A non-empty OUT without a valid marker is refused: only what a batch provably made
    may be replaced. Entries that are not plain names are dropped, never followed.
    """
    path = out / MARKER
    if not path.is_file() or path.is_symlink():
        # a batch killed while writing its very first marker leaves only that temp file
        if out.is_dir() and any(not _marker_temp(p) for p in out.iterdir()):
            raise UsageError(
                f"--out {display_name(out)} is not empty and holds no {MARKER} from an earlier "
                "evreport batch; choose a new or empty folder"
            )
        return []
    try:
        doc = json.loads(path.read_bytes()[:10_000_000])
        if doc.get("schema") != MARKER_SCHEMA or not isinstance(doc.get("entries"), list):
            raise ValueError("not an evreport batch marker")
    except (OSError, ValueError, AttributeError, RecursionError) as e:
        raise UsageError(
            f"--out {display_name(out)} holds an unreadable {MARKER} ({clean_text(e, 100)}); "
            "choose another folder"
        ) from None
    return [n for n in doc["entries"] if _own_entry(n)]


def _marker_temp(p: Path) -> bool:
    return p.name == f".evreport-{MARKER}.tmp" and p.is_file() and not p.is_symlink()


def _own_entry(name: object) -> bool:
    return isinstance(name, str) and (
        name in RESERVED or name == TMP_NAME or (safe_name(name) == name and name != MARKER)
    )


def write_marker(out: Path, entries: Sequence[str], state: str) -> None:
    """Record (atomically) which entries of ``out`` this batch may have created."""
    doc = {"schema": MARKER_SCHEMA, "state": state, "entries": sorted(set(entries))}
    _write_atomic(out / MARKER, (json.dumps(doc, indent=1) + "\n").encode("utf-8"))


def _remove(path: Path) -> None:
    """Remove a file, a symlink (never its target) or a folder of ours."""
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.is_dir():
        shutil.rmtree(path, ignore_errors=True)


def swap_in(out: Path, rows: list[dict], earlier: Sequence[str]) -> list[str]:
    """Move each new report from the staging folder into OUT, replacing only our own entries.

    Each ``OUT/NAME`` is replaced by two renames (old out of the way, new in), so a report
    folder is always a complete old or a complete new one. Reports of submissions that
    failed or are gone this time are removed after the new summary is in place.
    """
    tmp = out / TMP_NAME
    trash = tmp / TRASH
    trash.mkdir(parents=True, exist_ok=True)
    ours = set(earlier)
    new = []
    for row in rows:
        name, staged = row["name"], tmp / STAGE / row["name"]
        if not row.get("report") or not staged.is_dir():
            continue
        dst = out / name
        if dst.exists() or dst.is_symlink():
            if name not in ours:  # something of the user's: never replaced
                row.update(
                    status="error",
                    report=None,
                    error=f"{name} in OUT was not made by evreport batch; the report is not "
                    "moved there",
                )
                continue
            if dst.is_symlink():
                dst.unlink()
            else:
                os.replace(dst, trash / name)
        os.replace(staged, dst)
        new.append(name)
    return new


def _retire(out: Path, earlier: Sequence[str], keep: set[str]) -> None:
    """Remove the entries an earlier batch made that this one did not replace."""
    for name in earlier:
        if name in keep or name in RESERVED or name == TMP_NAME:
            continue
        _remove(out / name)


# --------------------------------------------------------------------------- one project


def plan_tasks(
    subs: Sequence[Submission], out: Path, formats: Sequence[str], timeout: float, build_ref: str
) -> list[dict]:
    """One JSON-able task per submission: everything a worker needs, as absolute paths."""
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
            "build": build_ref,
            "command": f"evreport batch {display_name(s.source)}",
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


def build_one(task: dict) -> dict:
    """Build one submission's report into ``task["out_dir"]`` and return its summary row.

    Never raises for a bad submission: the failure becomes the row's error message.
    """
    start = time.perf_counter()
    row = empty_row(task)
    notes: list[str] = []
    tmp = Path(task["tmp_dir"]) if task["kind"] == "zip" else None
    try:
        if task["kind"] == "link":
            raise InputError(
                "the submission is a symlink; it is not followed (submit a folder or a zip)",
                slug="symlink",
            )
        if tmp is not None:
            from reportgen.safezip import safe_extract

            shutil.rmtree(tmp, ignore_errors=True)
            extracted = safe_extract(task["path"], tmp)
            notes += extracted.skipped
            if extracted.project is None:
                raise InputError(
                    "no evreport.toml at the zip root or in a single top folder", slug="no-project"
                )
            project = extracted.project
        else:
            project = Path(task["path"])
            toml = project / "evreport.toml"
            if not (toml.is_file() or toml.is_symlink()):  # a link is read (and refused) later
                raise InputError("no evreport.toml in this folder", slug="no-project")
        from reportgen.api import build_report

        result = build_report(
            project, out=task["out_dir"], formats=tuple(task["formats"]), command=task["command"]
        )
        row.update(summary_fields(result.report))
        # grading hook (issue 14): what copied-work detection and a deadline need
        from reportgen.grading.duplicates import safe_fingerprint

        row["fingerprint"] = safe_fingerprint(Path(project), result.report)
        row["warnings"] = len(result.warnings)
        row["report"] = _report_link(task)
        if result.render_problems:
            row["error"] = "; ".join(str(p) for p in result.render_problems)
        else:
            row["status"] = "ok"
    except EvreportError as e:
        row["error"] = error_message(e)
    except MemoryError:
        row["error"] = "ran out of memory (the worker's memory limit) while building this project"
    except RecursionError:
        row["error"] = "an input is nested too deeply to read"
    except Exception as e:  # a crash on a student's project is our bug, but never stops the batch
        row["error"] = f"internal error ({type(e).__name__}): {clean_text(e, 300)}"
        row["detail"] = traceback.format_exc(limit=-8)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    if row["error"]:
        row["error"] = _relative(row["error"], task)
    row["notes"] = "; ".join(notes)
    row["seconds"] = round(time.perf_counter() - start, 3)
    return row


build_one.warm_modules = _WARM_MODULES


def _relative(text: str, task: dict) -> str:
    """A message without the grader's absolute paths (OUT, the zip's extraction folder)."""
    for path, short in (
        (task["tmp_dir"], "<zip>"),
        (task["out_dir"], task["name"]),
        (task["path"], "<submission>"),
    ):
        text = text.replace(path, short)
    return clean_text(text, MAX_ERROR_CHARS)


def error_message(e: EvreportError, limit: int = 5) -> str:
    """The error as one line: the first ``limit`` problems of an InputError, then a count."""
    problems = getattr(e, "problems", None)
    if not problems:
        return clean_text(str(e) or type(e).__name__, MAX_ERROR_CHARS)
    shown = [str(p) for p in problems[:limit]]
    if len(problems) > limit:
        shown.append(f"(and {len(problems) - limit} more)")
    return "; ".join(shown)


def _report_link(task: dict) -> str | None:
    for name in ("report.html", "report.json", "report.pdf", "decision-log.md"):
        if (Path(task["out_dir"]) / name).is_file():
            return f"{task['name']}/{name}"
    return None


def _get(d, *keys):
    for k in keys:
        if not isinstance(d, dict):
            return None
        d = d.get(k)
    if isinstance(d, float) and not math.isfinite(d):
        return None  # the contract says null; never let NaN reach the summary
    return d


def summary_fields(report: dict) -> dict:
    """The summary columns taken from one report.json (see docs/report-json.md)."""
    statuses = {r.get("rung"): r.get("status") for r in report.get("ladder") or []}
    fields = {
        "verdict": _get(report, "decision", "verdict"),
        "recommend": _get(report, "decision", "recommend"),
        "supported_rung": _get(report, "claim", "supported_rung"),
        "seed_gap_in_sd": _get(report, "noise", "seed", "gap_in_sd"),
    }
    for i, col in enumerate(RUNG_COLUMNS, 1):
        fields[col] = statuses.get(i)
    before_after = report.get("before_after")
    block = _get(report, "noise", "block")
    if isinstance(before_after, dict):
        fields.update(
            gap_kind="before_after",
            gap=_get(before_after, "difference"),
            gap_low=_get(before_after, "low"),
            gap_high=_get(before_after, "high"),
        )
    elif isinstance(block, dict):
        fields.update(
            gap_kind="block",
            gap=_get(block, "gap"),
            gap_low=_get(block, "low"),
            gap_high=_get(block, "high"),
        )
    return fields


# --------------------------------------------------------------------------- workers


def _build_ref(fn: Callable[[dict], dict]) -> str:
    return f"{fn.__module__}:{fn.__qualname__}"


def _resolve(ref: str) -> Callable[[dict], dict]:
    import importlib

    module, _, qualname = ref.partition(":")
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def limit_memory(megabytes: int) -> bool:
    """Cap this process's data segment (heap and private mappings) at ``megabytes`` MiB.

    RLIMIT_DATA rather than RLIMIT_AS: the chart engine reserves tens of GB of address
    space it never uses. A build that needs more gets MemoryError (an error row) or dies
    (a "worker died" row); the machine and the other workers are safe. False where the
    platform has no such limit.
    """
    if megabytes <= 0:
        return False
    try:
        import resource

        limit = megabytes * 1024 * 1024
        _, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))
        return True
    except (ImportError, AttributeError, ValueError, OSError):
        return False


def worker_memory_mb() -> int:
    """The per-worker memory limit: EVREPORT_WORKER_MEMORY_MB, or the default (0 = none)."""
    raw = os.environ.get("EVREPORT_WORKER_MEMORY_MB")
    if raw is None:
        return DEFAULT_WORKER_MEMORY_MB
    try:
        return max(0, int(raw))
    except ValueError:
        raise UsageError(
            f"EVREPORT_WORKER_MEMORY_MB={clean_text(raw, 40)!r} is not a whole number of MiB"
        ) from None


def _worker_main(build_ref: str, memory_mb: int = 0) -> None:
    """Entry point of a worker process: JSON task lines on stdin, JSON row lines on fd 1."""
    import importlib

    limit_memory(memory_mb)

    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # stray prints from libraries must not corrupt the protocol
    builds: dict[str, Callable[[dict], dict]] = {}
    try:
        builds[build_ref] = _resolve(build_ref)
        warm = getattr(builds[build_ref], "warm_modules", ())
    except Exception:
        warm = ()  # reported per project below
    for module in warm:  # import the heavy parts once, before the first clock starts
        try:
            importlib.import_module(module)
        except Exception:
            pass  # a real problem shows up, per project, in build_one
    proto.write(json.dumps({"ready": True}) + "\n")
    proto.flush()
    for line in sys.stdin:
        task = json.loads(line)
        try:
            if task["build"] not in builds:
                builds[task["build"]] = _resolve(task["build"])
            row = builds[task["build"]](task)
            text = json.dumps(row, allow_nan=False, default=str)
        except BaseException as e:  # noqa: B036 - SystemExit from a library must not kill the worker
            text = json.dumps(error_row(task, f"internal error ({type(e).__name__}): {e}"))
        proto.write(text + "\n")
        proto.flush()


class _Worker:
    """One long-lived worker process; ``run`` kills and replaces it when a project overruns."""

    def __init__(self, build_ref: str, cwd: str | None = None, memory_mb: int | None = None):
        self.build_ref = build_ref
        self.cwd = cwd
        self.memory_mb = worker_memory_mb() if memory_mb is None else memory_mb
        self.proc: subprocess.Popen | None = None
        self.lines: queue.Queue = queue.Queue()

    def _start(self) -> None:
        code = (
            "import sys, json; sys.path[:0] = json.loads(sys.argv[1]); "
            "from reportgen.batch import _worker_main; _worker_main(sys.argv[2], int(sys.argv[3]))"
        )
        path = [p for p in sys.path if p]
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-I",
                "-c",
                code,
                json.dumps(path),
                self.build_ref,
                str(self.memory_mb),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=self.cwd,
            text=True,
            encoding="utf-8",
        )
        self.lines = queue.Queue()
        threading.Thread(target=_pump, args=(self.proc.stdout, self.lines), daemon=True).start()
        hello = self._receive(STARTUP_TIMEOUT)
        if hello is None or not hello.get("ready"):
            self.kill()
            raise RuntimeError("the worker process did not start")

    def _receive(self, timeout: float) -> dict | None:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        return None if line is None else json.loads(line)

    def run(self, task: dict, timeout: float) -> dict:
        try:
            if self.proc is None or self.proc.poll() is not None:
                self._start()
            self.proc.stdin.write(json.dumps(task) + "\n")
            self.proc.stdin.flush()
        except (OSError, RuntimeError) as e:
            self.kill()
            return error_row(task, f"could not start a worker process: {e}")
        start, proc = time.perf_counter(), self.proc
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            _discard_partial(task)
            return error_row(
                task, f"timed out after {timeout:g} s; the project was stopped", timeout
            )
        if line is None:
            code = proc.wait()
            self.proc = None
            _discard_partial(task)
            return error_row(
                task,
                f"the worker process died (exit code {code}) while building this project",
                round(time.perf_counter() - start, 3),
            )
        return json.loads(line)

    def kill(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None:
            proc.kill()
            proc.wait()

    def close(self) -> None:
        if self.proc is None:
            return
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()


def _pump(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _discard_partial(task: dict) -> None:
    """After a killed worker: remove its half-written report and extraction folder."""
    shutil.rmtree(task["out_dir"], ignore_errors=True)
    shutil.rmtree(task["tmp_dir"], ignore_errors=True)


def run_local(
    tasks: Sequence[dict],
    jobs: int,
    on_row: Callable[[dict], None],
    cwd: str | None = None,
    memory_mb: int | None = None,
) -> None:
    """Run tasks on ``jobs`` long-lived worker processes, one thread driving each."""
    workers: list[_Worker] = []
    lock = threading.Lock()
    local = threading.local()

    def run(task: dict) -> dict:
        worker = getattr(local, "worker", None)
        if worker is None:
            worker = local.worker = _Worker(task["build"], cwd, memory_mb)
            with lock:
                workers.append(worker)
        return worker.run(task, task["timeout"])

    pool = ThreadPoolExecutor(max_workers=max(1, min(jobs, len(tasks))))
    try:
        futures = [pool.submit(run, t) for t in tasks]
        for fut in as_completed(futures):
            on_row(fut.result())
    except BaseException:  # Ctrl-C or a failing callback: stop every worker now
        pool.shutdown(wait=False, cancel_futures=True)
        with lock:
            for w in workers:
                w.kill()
        raise
    finally:
        pool.shutdown(wait=True)
        with lock:
            for w in workers:
                w.close()


# Dask: each Dask worker process keeps its own long-lived evreport workers, one per thread.
_dask_local = threading.local()
_dask_workers: list[_Worker] = []
_dask_lock = threading.Lock()


def dask_task(task: dict) -> dict:
    """What a Dask worker runs: build one task in this thread's evreport worker process."""
    workers = getattr(_dask_local, "workers", None)
    if workers is None:
        workers = _dask_local.workers = {}
    worker = workers.get(task["build"])
    if worker is None:
        worker = workers[task["build"]] = _Worker(task["build"])
        with _dask_lock:
            _dask_workers.append(worker)
    return worker.run(task, task["timeout"])


def close_dask_workers() -> int:
    """Stop the evreport worker processes of this Dask worker (run via ``client.run``)."""
    with _dask_lock:
        workers, _dask_workers[:] = list(_dask_workers), []
    for w in workers:
        w.close()
    return len(workers)


def run_dask(tasks: Sequence[dict], scheduler: str, on_row: Callable[[dict], None]) -> None:
    """Run tasks on an existing Dask distributed cluster; paths must be on a shared filesystem."""
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise UsageError(
            "--executor dask needs Dask distributed: pip install 'evreport[distributed]'"
        ) from None
    try:
        client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    try:
        futures = client.map(
            dask_task, list(tasks), pure=False, key=[f"evreport-{t['name']}-{id(t)}" for t in tasks]
        )
        by_key = {f.key: t for f, t in zip(futures, tasks, strict=True)}
        for fut in dask_completed(futures):
            try:
                row = fut.result()
            except Exception as e:  # the Dask worker itself was lost
                row = error_row(by_key[fut.key], f"the Dask task failed: {type(e).__name__}: {e}")
            on_row(row)
    finally:
        try:
            client.run(close_dask_workers)
        except Exception:
            pass
        client.close()


# --------------------------------------------------------------------------- orchestrate


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1


def run_batch(
    paths: Sequence[str | Path],
    out: str | Path,
    *,
    formats: Sequence[str] = ("html", "pdf", "json", "md"),
    jobs: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    executor: str = "local",
    scheduler: str | None = None,
    progress: Callable[[int, int, dict], None] | None = None,
    build: Callable[[dict], dict] = build_one,
    memory_mb: int | None = None,
    grading=None,
) -> BatchResult:
    """Grade every submission in ``paths`` into ``out`` and write the class summary.

    ``build`` is the per-project function (an importable top-level function; tests swap it).
    ``memory_mb`` caps each local worker's memory (default EVREPORT_WORKER_MEMORY_MB or
    4096 MiB; 0 for no limit). ``grading`` (a reportgen.grading.GradingOptions) adds the
    rubric, feedback, copied-work and reuse steps of issue 14.
    Raises UsageError for a bad command line; a bad submission only makes an error row.
    """
    start = time.perf_counter()
    out = Path(out)
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise UsageError(f"--jobs {jobs} is not valid; it must be at least 1")
    if not (timeout > 0 and math.isfinite(timeout)):
        raise UsageError(
            f"--timeout {timeout:g} is not valid; it must be a finite number of seconds above 0"
        )
    if executor not in ("local", "dask"):
        raise UsageError(f"--executor {executor} is not valid; use local or dask")
    if (executor == "dask") != (scheduler is not None):
        raise UsageError("--scheduler ADDRESS goes with --executor dask, and only with it")
    memory_mb = worker_memory_mb() if memory_mb is None else memory_mb
    subs = discover(paths)
    check_out(out, subs, paths)
    earlier = read_marker(out) if out.is_dir() else []
    tmp_root = out / TMP_NAME
    try:
        out.mkdir(parents=True, exist_ok=True)
        # first of all: say what this batch may create, so a rerun after a crash may clear it
        write_marker(out, [*earlier, TMP_NAME], "running")
        _remove(tmp_root)  # an interrupted earlier batch's leftovers (named in its marker)
        for sub in (STAGE, UNZIP, TRASH):
            (tmp_root / sub).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        _remove(tmp_root)
        raise _write_failed(out, e) from None
    # grading hook (issue 14): a rubric needs report.json; unchanged submissions are reused
    from reportgen.grading import GradingOptions, finish, prepare, write

    grading = GradingOptions() if grading is None else grading
    formats = grading.formats(formats)
    try:
        reused = prepare(grading, out, subs, earlier, formats, _build_ref(build), tmp_root / STAGE)
    except OSError as e:
        _remove(tmp_root)
        raise _write_failed(out, e) from None
    skip = {r["name"] for r in reused}
    tasks = plan_tasks(
        [s for s in subs if s.name not in skip], out, formats, timeout, _build_ref(build)
    )
    rows: list[dict] = [clean_row(r) for r in reused]

    def on_row(row: dict) -> None:
        row = clean_row(row)
        rows.append(row)
        if progress is not None:
            progress(len(rows), len(tasks) + len(reused), row)

    try:
        if executor == "dask":
            run_dask(tasks, scheduler, on_row)
        else:
            run_local(tasks, jobs, on_row, cwd=str(tmp_root.resolve()), memory_mb=memory_mb)
        rows.sort(key=lambda r: (r["name"].casefold(), r["name"]))
        extra = finish(grading, rows, tmp_root / STAGE)  # grading hook (issue 14)
        names = [r["name"] for r in rows]
        write_marker(out, [*earlier, *names, *RESERVED, TMP_NAME], "swapping")
        new = swap_in(out, rows, earlier)
        result = BatchResult(out, rows, round(time.perf_counter() - start, 3), extra)
        write_summary(result)
        write(grading, out)  # grading hook (issue 14): grades.csv
        _retire(out, earlier, set(new))
        write_marker(out, [*new, *RESERVED], "done")
    except OSError as e:
        raise _write_failed(out, e) from None
    finally:
        _remove(tmp_root)
    return result


def _write_failed(out: Path, e: OSError) -> InputError:
    from reportgen.outputs import write_error

    err = write_error(out, e)
    return InputError(
        f"cannot write the batch into --out {display_name(out)}: "
        f"{err.problems[0].message.removeprefix('cannot write here: ')}",
        slug="cannot-write",
    )


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


# --------------------------------------------------------------------------- summary


def write_summary(result: BatchResult) -> None:
    """Write summary.csv, summary.json and index.html into the batch folder, each atomically."""
    out = result.out
    _write_atomic(out / "summary.csv", summary_csv(result.rows).encode("utf-8"))
    _write_atomic(out / "summary.json", summary_json(result).encode("utf-8"))
    _write_atomic(out / "index.html", render_index(index_context(result)).encode("utf-8"))


def _write_atomic(path: Path, data: bytes) -> None:
    """Temp file + rename in the same folder; the temp file never outlives a failure."""
    tmp = path.with_name(f".evreport-{path.name}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


def _csv_cell(value) -> object:
    # a spreadsheet runs a cell that starts with = + - @ as a formula; student text must not
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return "" if value is None else value


def summary_csv(rows: Sequence[dict]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow([_csv_cell(r.get(c)) for c in COLUMNS])
    return buf.getvalue()


def counts(rows: Sequence[dict]) -> dict:
    """How many submissions built, failed, and reached each rung (supported_rung >= k)."""
    ok = [r for r in rows if r["status"] == "ok"]
    reached = {
        name: sum(
            1 for r in ok if isinstance(r.get("supported_rung"), int) and r["supported_rung"] >= k
        )
        for k, name in enumerate(RUNG_NAMES, 1)
    }
    return {
        "submissions": len(rows),
        "ok": len(ok),
        "errors": len(rows) - len(ok),
        "reached": reached,
    }


def summary_json(result: BatchResult) -> str:
    from reportgen import __version__

    doc = {
        "schema": SUMMARY_SCHEMA,
        "tool": {"name": "evreport", "version": __version__},
        "columns": list(COLUMNS),
        "counts": counts(result.rows),
        "submissions": [
            {c: r.get(c) for c in (*COLUMNS, *EXTRA_ROW_KEYS, "detail") if c in r}
            for r in result.rows
        ],
        **result.extra,
    }
    return json.dumps(doc, indent=2, allow_nan=False, default=str) + "\n"


# index.html: a context built here, printed by templates/batch/index.html


@dataclass(frozen=True)
class RungCell:
    status: str  # shown | partly | not shown | "" (unknown)
    css: str


@dataclass(frozen=True)
class IndexRow:
    name: str
    href: str | None
    status: str
    error: str
    verdict: str
    recommend: str
    supported_rung: str
    rungs: list[RungCell]
    gap: str
    seed_gap_in_sd: str
    seconds: str
    notes: str


@dataclass(frozen=True)
class IndexContext:
    title: str
    version: str
    total: int
    ok: int
    errors: int
    reached: list[tuple[int, str, int]]  # (rung, name, how many reached it)
    rung_names: tuple[str, ...]
    rows: list[IndexRow] = field(default_factory=list)
    #: the class overview of issue 14 (reportgen.grading.overview.Overview), or None
    overview: object = None


def _num(x, fmt: str = ".4g") -> str:
    return format(x, fmt) if isinstance(x, int | float) and not isinstance(x, bool) else "–"


def _gap_text(r: dict) -> str:
    if r.get("gap") is None:
        return "–"
    return f"{_num(r['gap'], '+.4g')} [{_num(r.get('gap_low'))}, {_num(r.get('gap_high'))}]"


def index_context(result: BatchResult) -> IndexContext:
    from reportgen import __version__

    c = counts(result.rows)
    rows = []
    for r in result.rows:
        rungs = []
        for col in RUNG_COLUMNS:
            s = r.get(col) or ""
            rungs.append(
                RungCell(
                    s,
                    {"shown": "shown", "partly": "partly", "not shown": "not-shown"}.get(
                        s, "unknown"
                    ),
                )
            )
        rows.append(
            IndexRow(
                name=r["name"],
                href=r.get("report"),
                status=r["status"],
                error=_CONTROL.sub(" ", r.get("error") or ""),
                verdict=r.get("verdict") or "–",
                recommend=r.get("recommend") or "–",
                supported_rung=_num(r.get("supported_rung"), "d"),
                rungs=rungs,
                gap=_gap_text(r),
                seed_gap_in_sd=_num(r.get("seed_gap_in_sd"), ".2f"),
                seconds=_num(r.get("seconds"), ".1f"),
                notes=_CONTROL.sub(" ", r.get("notes") or ""),
            )
        )
    return IndexContext(
        title="evreport batch: class overview",
        version=__version__,
        total=c["submissions"],
        ok=c["ok"],
        errors=c["errors"],
        reached=[(k, n, c["reached"][n]) for k, n in enumerate(RUNG_NAMES, 1)],
        rung_names=RUNG_NAMES,
        rows=rows,
        overview=_overview(result),
    )


def _overview(result: BatchResult):
    # grading hook (issue 14): the class at a glance, above the table
    from reportgen.grading.overview import overview_context

    return overview_context(result.rows, result.extra)


@functools.lru_cache(maxsize=1)
def batch_environment():
    """The batch pages' jinja environment: autoescape, undefined names are errors, control
    characters in user text shown as escapes (as in the reports)."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    from reportgen.render.html import _visible

    return Environment(
        loader=FileSystemLoader(TEMPLATES / "batch"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_visible,
    )


def render_index(ctx: IndexContext) -> str:
    return batch_environment().get_template("index.html").render(ctx=ctx)


# --------------------------------------------------------------------------- progress


class Progress:
    """Progress on stderr: a bar redrawn in place on a terminal, one plain line per project otherwise."""

    def __init__(self, stream=None, width: int = 30):
        self.stream = stream if stream is not None else sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.width = width

    @staticmethod
    def line(done: int, total: int, row: dict) -> str:
        if row["status"] == "ok":
            what = f"ok ({row.get('verdict') or '?'})"
        else:
            msg = _CONTROL.sub(" ", row.get("error") or "")
            what = f"error: {msg[:100]}{'…' if len(msg) > 100 else ''}"
        secs = row.get("seconds")
        took = f" {secs:.1f} s" if isinstance(secs, int | float) else ""
        return f"[{done}/{total}] {row['name']}: {what}{took}"

    def __call__(self, done: int, total: int, row: dict) -> None:
        text = self.line(done, total, row)
        if self.tty:
            filled = self.width * done // max(total, 1)
            bar = "#" * filled + "." * (self.width - filled)
            cols = shutil.get_terminal_size((100, 20)).columns
            self.stream.write(f"\r{bar} {text}"[: cols + 1] + "\x1b[K")
            if done == total:
                self.stream.write("\n")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
