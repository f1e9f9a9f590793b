"""evreport batch: many untrusted submissions in, one report each and a class summary out.

Steps, each a function you can call alone (modules in brackets):

    discover(paths) [intake] -> plan_tasks [build] -> run_local / run_dask [executors]
        -> rows -> write_summary [run: summary.csv, summary.json (summary), index.html (index)]

Every project is built by ``build_one`` [build] inside a separate worker process
[worker]: a long-lived interpreter that imports reportgen once and builds project after
project; when a project overruns ``timeout`` the worker is killed and replaced. The same
``build_one`` runs on a Dask cluster with ``executor="dask"``. OUT only ever loses or
replaces what an earlier batch's marker names [outdir].

``run_batch`` [run] takes the steps of a layer on top as a hooks object [hooks];
reportgen.grading implements them. This package never imports reportgen.grading.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportgen.batch.build import COLUMNS, RUNG_COLUMNS, WARM_MODULES, build_one, summary_fields
    from reportgen.batch.hooks import BatchHooks, NoHooks
    from reportgen.batch.index import index_context, render_index
    from reportgen.batch.intake import RESERVED, Submission, discover, safe_name, unique_names
    from reportgen.batch.outdir import MARKER, read_marker
    from reportgen.batch.progress import Progress
    from reportgen.batch.run import run_batch
    from reportgen.batch.summary import BatchResult, summary_csv, summary_json

#: each public name -> the module that defines it, imported on first use (PEP 562), so a
#: caller of one module (grading imports batch.intake) does not load the builder too
_WHERE = {
    "BatchHooks": "reportgen.batch.hooks",
    "BatchResult": "reportgen.batch.summary",
    "COLUMNS": "reportgen.batch.build",
    "MARKER": "reportgen.batch.outdir",
    "NoHooks": "reportgen.batch.hooks",
    "Progress": "reportgen.batch.progress",
    "RESERVED": "reportgen.batch.intake",
    "RUNG_COLUMNS": "reportgen.batch.build",
    "Submission": "reportgen.batch.intake",
    "WARM_MODULES": "reportgen.batch.build",
    "build_one": "reportgen.batch.build",
    "discover": "reportgen.batch.intake",
    "index_context": "reportgen.batch.index",
    "read_marker": "reportgen.batch.outdir",
    "render_index": "reportgen.batch.index",
    "run_batch": "reportgen.batch.run",
    "safe_name": "reportgen.batch.intake",
    "summary_csv": "reportgen.batch.summary",
    "summary_fields": "reportgen.batch.build",
    "summary_json": "reportgen.batch.summary",
    "unique_names": "reportgen.batch.intake",
}


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "COLUMNS",
    "MARKER",
    "RESERVED",
    "RUNG_COLUMNS",
    "WARM_MODULES",
    "BatchHooks",
    "BatchResult",
    "NoHooks",
    "Progress",
    "Submission",
    "build_one",
    "discover",
    "index_context",
    "read_marker",
    "render_index",
    "run_batch",
    "safe_name",
    "summary_csv",
    "summary_fields",
    "summary_json",
    "unique_names",
]
