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

from reportgen.batch.build import COLUMNS, RUNG_COLUMNS, WARM_MODULES, build_one, summary_fields
from reportgen.batch.hooks import BatchHooks, NoHooks
from reportgen.batch.index import index_context, render_index
from reportgen.batch.intake import RESERVED, Submission, discover, safe_name, unique_names
from reportgen.batch.outdir import MARKER, read_marker
from reportgen.batch.progress import Progress
from reportgen.batch.run import run_batch
from reportgen.batch.summary import BatchResult, summary_csv, summary_json

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
