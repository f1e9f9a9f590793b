"""Where the tasks run: a pool of local worker processes, or an existing Dask cluster.

Both call ``on_row`` with each summary row as it arrives, in completion order.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

from reportgen.batch.build import error_row
from reportgen.batch.worker import Worker
from reportgen.errors import UsageError
from reportgen.words.i18n import _, speaking

DASK_CONNECT_TIMEOUT = "10s"


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1


def run_local(
    tasks: Sequence[dict[str, Any]],
    jobs: int,
    on_row: Callable[[dict[str, Any]], None],
    cwd: str | None = None,
    memory_mb: int | None = None,
) -> None:
    """Run tasks on ``jobs`` long-lived worker processes, one thread driving each."""
    workers: list[Worker] = []
    lock = threading.Lock()
    local = threading.local()

    def run(task: dict[str, Any]) -> dict[str, Any]:
        worker = getattr(local, "worker", None)
        if worker is None:
            worker = local.worker = Worker(task["build"], cwd, memory_mb)
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
_dask_workers: list[Worker] = []
_dask_lock = threading.Lock()


def dask_task(task: dict[str, Any]) -> dict[str, Any]:
    """What a Dask worker runs: build one task in this thread's evreport worker process."""
    workers = getattr(_dask_local, "workers", None)
    if workers is None:
        workers = _dask_local.workers = {}
    worker = workers.get(task["build"])
    if worker is None:
        worker = workers[task["build"]] = Worker(task["build"])
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


def run_dask(
    tasks: Sequence[dict[str, Any]], scheduler: str, on_row: Callable[[dict[str, Any]], None]
) -> None:
    """Run tasks on an existing Dask distributed cluster; paths must be on a shared filesystem."""
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise UsageError(
            _(
                "--executor dask needs Dask distributed: {command}",
                command="pip install 'evreport[distributed]'",
            )
        ) from None
    try:
        client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        raise UsageError(
            _("cannot reach the Dask scheduler at {address}: {why}", address=scheduler, why=str(e))
        ) from None
    try:
        futures = client.map(
            dask_task, list(tasks), pure=False, key=[f"evreport-{t['name']}-{id(t)}" for t in tasks]
        )
        by_key = {f.key: t for f, t in zip(futures, tasks, strict=True)}
        for fut in dask_completed(futures):
            try:
                row = fut.result()
            except Exception as e:  # the Dask worker itself was lost
                task = by_key[fut.key]
                why = f"{type(e).__name__}: {e}"
                with speaking(task.get("language")):
                    said = _("the Dask task failed: {why}", why=why)
                row = error_row(task, said)
            on_row(row)
    finally:
        try:
            client.run(close_dask_workers)
        except Exception:
            pass
        client.close()
