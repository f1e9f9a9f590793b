"""Build the report fixtures in tests/fixtures/ through the real pipeline (run: make fixtures).

Each ``report-NAME.json`` is what ``evreport build examples/NAME`` writes as report.json
(load_project, then compute_report), with the build date fixed by SOURCE_DATE_EPOCH and the
library versions replaced by a placeholder, so the files are the same on every machine and
name no machine path. ``report-minimal.json`` is built the same way from a tiny project
written here (a run log and nothing else: one run per model, no predictions, no manifest),
so the view's empty branches are exercised.

tests/test_fixtures.py fails when a fixture is not what this script makes today; after a
change to what report.json says, run ``make fixtures`` and then ``make golden``, and review
both diffs.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
#: the example projects under examples/ that get a fixture, report-NAME.json each
EXAMPLES = (
    "weekly-churn",
    "moons-tie",
    "breast-cancer",
    "tuned-no-replay",
    "tuned-replay",
    "diabetes-regression",
    "digits-multiclass",
)
MINIMAL = "minimal"
#: a generated regression project with a block column, a slice and a unit (the examples have
#: no blocks, so this one reaches the residuals-by-block branch of the regression section)
REGRESSION_BLOCKS = "regression-blocks"
GENERATED = (REGRESSION_BLOCKS,)
#: 2025-12-01T00:00:00Z: the build date every fixture says
SOURCE_DATE_EPOCH = "1764547200"
#: what a fixture says for each library version (the real ones differ between machines)
VERSION = "VERSION"

MINIMAL_FILES = {
    "evreport.toml": """title = "Minimal: a run log and nothing else"

[claim]
text      = "The new model is better."
kind      = "model-vs-baseline"
candidate = "new"
baseline  = "old"
metric    = "accuracy"
""",
    "runs.csv": """run_id,model,seed,split,metric,value
old-1,old,1,validation,accuracy,0.79
old-1,old,1,test,accuracy,0.80
new-1,new,1,validation,accuracy,0.80
new-1,new,1,test,accuracy,0.81
""",
}


@contextmanager
def fixed_build_date() -> Iterator[None]:
    """SOURCE_DATE_EPOCH set while the reports are computed, as it was before afterwards."""
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("SOURCE_DATE_EPOCH")
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


def project_report(folder: Path, name: str, command: str) -> dict:
    """report.json of the project in ``folder`` as ``command`` makes it, machine-free."""
    from reportgen.checks import compute_report
    from reportgen.project import ProjectPaths, load_project

    with fixed_build_date():
        project = load_project(folder, ProjectPaths())
        report, _ = compute_report(project, command=command)
    report["build"]["libraries"] = dict.fromkeys(report["build"]["libraries"], VERSION)
    text = json.dumps(report)
    for machine in {str(folder.resolve()), str(folder), str(ROOT)}:
        if machine in text:
            raise AssertionError(f"the {name} report names the machine path {machine}")
    return report


def minimal_report() -> dict:
    """The report of a tiny generated project: a run log only, one run per model."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / MINIMAL
        folder.mkdir()
        for file, text in MINIMAL_FILES.items():
            (folder / file).write_text(text, encoding="utf-8")
        return project_report(folder, MINIMAL, f"evreport build {MINIMAL}")


def regression_blocks_report() -> dict:
    """The report of a generated regression project (tests/layouts/gen_tasks.py): weekly
    blocks, a slice, [claim] unit."""
    if str(ROOT) not in sys.path:  # run as a script: the repository's tests package
        sys.path.insert(0, str(ROOT))
    from tests.layouts.gen_tasks import make_task_project

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / REGRESSION_BLOCKS
        make_task_project(folder, task="regression", unit="mmHg", blocks="equal")
        return project_report(folder, REGRESSION_BLOCKS, f"evreport build {REGRESSION_BLOCKS}")


def fixture_reports() -> dict[str, dict]:
    """{fixture file name: report dict}: every fixture this script writes."""
    out = {
        f"report-{name}.json": project_report(
            ROOT / "examples" / name, name, f"evreport build examples/{name}"
        )
        for name in EXAMPLES
    }
    out[f"report-{MINIMAL}.json"] = minimal_report()
    out[f"report-{REGRESSION_BLOCKS}.json"] = regression_blocks_report()
    return out


def fixture_bytes(report: dict) -> bytes:
    """A fixture file's bytes: exactly the report.json a build writes."""
    from reportgen.render import report_json

    return report_json(report)


def main() -> None:
    FIXTURES.mkdir(exist_ok=True)
    reports = fixture_reports()
    for stale in sorted(set(p.name for p in FIXTURES.glob("report-*.json")) - set(reports)):
        (FIXTURES / stale).unlink()
        print(f"removed tests/fixtures/{stale}")
    for name, report in reports.items():
        data = fixture_bytes(report)
        path = FIXTURES / name
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            print(f"wrote tests/fixtures/{name} ({len(data):,} bytes)")
    print(f"{len(reports)} fixtures in tests/fixtures/", file=sys.stderr)


if __name__ == "__main__":
    main()
