"""build --max-file-mb: the per-file cap as a deliberate option."""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _project(path: Path) -> Path:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from scale_project import make_scale_project
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return make_scale_project(path, 2_000, 200_000, seeds=1)


def test_max_file_mb_caps_and_names_the_file(tmp_path):
    project = _project(tmp_path / "p")
    big = max((project / "split").glob("*.parquet"), key=lambda p: p.stat().st_size)
    assert big.stat().st_size > 1024 * 1024
    out = tmp_path / "out"
    args = ["build", str(project), "--format", "json", "--out", str(out)]
    r = CliRunner().invoke(main, [*args, "--max-file-mb", "1"])
    assert r.exit_code == 1, r.output
    assert f"split/{big.name}" in r.output and "over the 1,048,576-byte limit" in r.output
    assert not out.exists()
    r = CliRunner().invoke(main, [*args, "--max-file-mb", "8"])
    assert r.exit_code == 0, r.output
    assert (out / "report.json").is_file()


def test_max_file_mb_must_be_positive(tmp_path):
    r = CliRunner().invoke(main, ["build", str(tmp_path), "--max-file-mb", "0"])
    assert r.exit_code == 2, r.output
    assert "--max-file-mb" in r.output
