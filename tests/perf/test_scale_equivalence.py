"""The large-project fast path gives the report the code path without it gives.

The fixtures were written without the fast path, on projects from bench/scale_project.py
(2 models x 3 seeds x 20,000 validation and test rows; int64 ids in Parquet, string ids in
CSV). Regenerate only when the generator or the report's content changes on purpose:

    PYTHONPATH=. .venv/bin/python -m tests.perf.test_scale_equivalence
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.compare import differences

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CASES = {"int-parquet": ("int", "parquet"), "str-csv": ("str", "csv")}


def _scale_project(path: Path, ids: str, fmt: str) -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from scale_project import make_scale_project
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return make_scale_project(path, 20_000, 20_000, seeds=3, ids=ids, fmt=fmt)


def _report(project: Path) -> dict:
    from reportgen.checks import compute_report
    from reportgen.checks.jsonsafe import jsonable
    from reportgen.project import load_project

    report = json.loads(json.dumps(jsonable(compute_report(load_project(project), "cmd")[0])))
    for key in ("date", "libraries"):
        report["build"].pop(key)
    return report


@pytest.mark.parametrize("case", sorted(CASES))
def test_large_project_path_gives_the_original_report(tmp_path, case):
    ids, fmt = CASES[case]
    report = _report(_scale_project(tmp_path / case, ids, fmt))
    expected = json.loads((FIXTURES / f"scale-{case}.json").read_text(encoding="utf-8"))
    diffs = differences(report, expected)
    assert not diffs, "\n".join(diffs[:20])


if __name__ == "__main__":
    import tempfile

    for case, (ids, fmt) in sorted(CASES.items()):
        with tempfile.TemporaryDirectory(prefix="pytest-scale-") as tmp:
            report = _report(_scale_project(Path(tmp) / case, ids, fmt))
        out = FIXTURES / f"scale-{case}.json"
        out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print("wrote", out)
