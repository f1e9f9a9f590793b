"""``run_batch``: discover, stage, build every submission, then swap the reports into OUT
and write the class summary, with the hooks (reportgen.batch.hooks) called on the way."""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from reportgen.batch.build import build_one, build_ref, clean_row, plan_tasks
from reportgen.batch.executors import default_jobs, run_dask, run_local
from reportgen.batch.hooks import BatchHooks, NoHooks
from reportgen.batch.index import index_context, render_index
from reportgen.batch.intake import RESERVED, discover
from reportgen.batch.outdir import (
    STAGE,
    TMP_NAME,
    TRASH,
    UNZIP,
    check_out,
    clear_temp_files,
    read_marker,
    recover,
    remove,
    retire,
    swap_in,
    write_failed,
    write_marker,
)
from reportgen.batch.summary import BatchResult, summary_csv, summary_json
from reportgen.batch.worker import worker_memory_mb
from reportgen.errors import BusyError, UsageError, display_name
from reportgen.safe import FolderBusy, atomic_write, lock_folder
from reportgen.words.i18n import _, local_number, speaking

DEFAULT_TIMEOUT = 120.0


def _check_options(jobs: int, timeout: float, executor: str, scheduler: str | None) -> None:
    if jobs < 1:
        raise UsageError(_("--jobs {jobs} is not valid; it must be at least 1", jobs=jobs))
    if not (timeout > 0 and math.isfinite(timeout)):
        raise UsageError(
            _(
                "--timeout {timeout} is not valid; it must be a finite number of seconds above 0",
                timeout=local_number(f"{timeout:g}"),
            )
        )
    if executor not in ("local", "dask"):
        raise UsageError(
            _("--executor {executor} is not valid; use local or dask", executor=executor)
        )
    if (executor == "dask") != (scheduler is not None):
        raise UsageError(_("--scheduler ADDRESS goes with --executor dask, and only with it"))


def _open_out(out: Path, earlier: Sequence[str]) -> Path:
    """Create OUT and its empty staging folder, first saying in the marker what is ours."""
    tmp_root = out / TMP_NAME
    try:
        out.mkdir(parents=True, exist_ok=True)
        clear_temp_files(out)
        # first of all: say what this batch may create, so a rerun after a crash may clear it
        write_marker(out, [*earlier, TMP_NAME], "running")
        recover(out)  # a report a killed swap left in the trash goes back first
        remove(tmp_root)  # an interrupted earlier batch's leftovers (named in its marker)
        for sub in (STAGE, UNZIP, TRASH):
            (tmp_root / sub).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        _close_out(out, tmp_root)
        raise write_failed(out, e) from None
    return tmp_root


def _close_out(out: Path, tmp_root: Path) -> None:
    """Remove the staging folder, after putting back any report only its trash still holds."""
    try:
        recover(out)
    except OSError:
        return  # keep the staging folder (and the old reports in it) for the next run
    remove(tmp_root)


def write_summary(result: BatchResult) -> None:
    """Write summary.csv, summary.json and index.html into the batch folder, each atomically."""
    out = result.out
    atomic_write(out / "summary.csv", summary_csv(result.rows).encode("utf-8"))
    atomic_write(out / "summary.json", summary_json(result).encode("utf-8"))
    atomic_write(out / "index.html", render_index(index_context(result)).encode("utf-8"))


def run_batch(
    paths: Sequence[str | Path],
    out: str | Path,
    *,
    formats: Sequence[str] = ("html", "pdf", "json", "md"),
    jobs: int | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    executor: str = "local",
    scheduler: str | None = None,
    progress: Callable[[int, int, dict[str, Any]], None] | None = None,
    build: Callable[[dict[str, Any]], dict[str, Any]] = build_one,
    memory_mb: int | None = None,
    grading: BatchHooks | None = None,
    language: str | None = None,
) -> BatchResult:
    """Build every submission in ``paths`` into ``out`` and write the class summary.

    ``build`` is the per-project function (an importable top-level function; tests swap it).
    ``memory_mb`` caps each local worker's memory (default EVREPORT_WORKER_MEMORY_MB or
    4096 MiB; 0 for no limit). ``grading``: the hooks of a layer on top (a
    reportgen.grading.GradingOptions adds the rubric, feedback, copied work and reuse);
    None is the plain batch. ``language``: every report, the index, feedback and grade
    comments in "en" or "uk" (None: each report in its own ``[report] language``, the
    class's pages in English).
    Raises UsageError for a bad command line; a bad submission only makes an error row.
    """
    with speaking(language):  # the batch's own lines; each build speaks its task's language
        start = time.perf_counter()
        out = Path(out)
        jobs = default_jobs() if jobs is None else jobs
        _check_options(jobs, timeout, executor, scheduler)
        memory_mb = worker_memory_mb() if memory_mb is None else memory_mb
        hooks: BatchHooks = NoHooks() if grading is None else grading
        subs = discover(paths)
        check_out(out, subs, paths)
        with _locked(out):
            earlier = read_marker(out) if out.is_dir() else []
            tmp_root = _open_out(out, earlier)
            try:
                formats = hooks.formats(formats)
                stage = tmp_root / STAGE
                reused = hooks.prepare(
                    out, subs, earlier, formats, build_ref(build), stage, language=language
                )
                skip = {r["name"] for r in reused}
                todo = [s for s in subs if s.name not in skip]
                tasks = plan_tasks(
                    todo, out, formats, timeout, build_ref(build), hooks.after_build, language
                )
                rows: list[dict[str, Any]] = [clean_row(r) for r in reused]

                def on_row(row: dict[str, Any]) -> None:
                    row = clean_row(row)
                    rows.append(row)
                    if progress is not None:
                        with speaking(language):  # wherever the executor calls it back
                            progress(len(rows), len(tasks) + len(reused), row)

                if executor == "dask":
                    assert scheduler is not None  # _check_options: dask goes with --scheduler
                    run_dask(tasks, scheduler, on_row)
                else:
                    run_local(tasks, jobs, on_row, cwd=str(tmp_root.resolve()), memory_mb=memory_mb)
                rows.sort(key=lambda r: (r["name"].casefold(), r["name"]))
                extra = hooks.finish(rows, stage)
                names = [r["name"] for r in rows]
                write_marker(out, [*earlier, *names, *RESERVED, TMP_NAME], "swapping")
                new, kept = swap_in(out, rows, earlier)
                result = BatchResult(out, rows, round(time.perf_counter() - start, 3), extra)
                write_summary(result)
                hooks.write(out)
                retire(out, earlier, {*new, *kept})
                write_marker(out, [*new, *kept, *RESERVED], "done")
            except OSError as e:
                raise write_failed(out, e) from None
            finally:
                _close_out(out, tmp_root)
        return result


@contextlib.contextmanager
def _locked(out: Path) -> Iterator[None]:
    """OUT, created, with its lock held: a second batch (or build) into it stops with one line."""
    lock = lock_folder(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        lock.__enter__()
    except FolderBusy as e:
        from reportgen.outputs import _busy

        raise BusyError(
            _(
                "--out {out} is {state}; wait for it to finish or choose another folder",
                out=display_name(out),
                state=_busy(e),
            )
        ) from None
    except OSError as e:
        raise write_failed(out, e) from None
    with contextlib.ExitStack() as stack:
        stack.push(lock)
        yield
