"""Shared fixtures of the layout matrix: build a cell once per session, the shipped schema."""

from __future__ import annotations

import json
import re
import traceback
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from tests.forbidden import leaves
from tests.layouts.gen import Gen, make_project

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "reportgen" / "report.schema.json"


@dataclass
class Built:
    """One cell built through the CLI: exit code, output, report.json (None when not written)."""

    gen: Gen
    exit_code: int
    stdout: str
    stderr: str
    report: dict | None
    raw: str | None
    traceback: str | None
    error: BaseException | None = None

    def describe(self) -> str:
        return f"exit {self.exit_code}\nstderr: {self.stderr.strip()[:2000]}\n" + (
            f"traceback:\n{self.traceback}" if self.traceback else ""
        )

    def crash(self) -> str | None:
        """One line: the deepest reportgen frame and the exception, or None."""
        if self.error is None:
            return None
        frames = [
            f for f in traceback.extract_tb(self.error.__traceback__) if "/reportgen/" in f.filename
        ]
        where = (
            f"{frames[-1].filename.split('/reportgen/')[-1]}:{frames[-1].lineno}" if frames else "?"
        )
        line = f"reportgen/{where}: {type(self.error).__name__}: {self.error}"
        if "JSON" in str(self.error):
            line += f" (at {', '.join(non_json_paths(self.gen.path)[:3]) or '?'})"
        return line


def non_json_paths(project: Path) -> list[str]:
    """Diagnosis only: where the report dict holds a value plain JSON cannot carry."""
    import math

    from reportgen.checks import compute_report
    from reportgen.project import ProjectPaths, load_project

    try:
        report, _ = compute_report(load_project(project, ProjectPaths()))
    except Exception as e:  # noqa: BLE001 - a diagnosis must not raise
        return [f"compute_report raised {type(e).__name__}"]
    out: list[str] = []

    def walk(v, path):
        if isinstance(v, dict):
            for k, x in v.items():
                walk(x, f"{path}.{k}")
        elif isinstance(v, list | tuple):
            for i, x in enumerate(v):
                walk(x, f"{path}[{i}]")
        elif isinstance(v, float) and not math.isfinite(v):
            out.append(f"{path}={v}")
        elif v is not None and not isinstance(v, str | int | float | bool):
            out.append(f"{path}: {type(v).__name__}")

    walk(report, "report")
    return out


def _refuse_constant(name: str):
    raise ValueError(f"report.json holds {name}, not plain JSON")


def build(path: Path, cell: dict, formats: str = "json") -> Built:
    """Generate the cell's project under ``path`` and run `evreport build --format <formats>`
    on it (report.json always among them)."""
    gen = make_project(path / "project", **cell)
    out = path / "out"
    result = CliRunner().invoke(
        main,
        ["build", str(gen.path), "--format", formats, "--out", str(out)],
        catch_exceptions=True,
    )
    tb = err = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        err = result.exception
        tb = "".join(traceback.format_exception(err))
    raw = report = None
    if (out / "report.json").exists():
        raw = (out / "report.json").read_text()
        report = json.loads(raw, parse_constant=_refuse_constant)
    return Built(gen, result.exit_code, result.stdout, result.stderr, report, raw, tb, err)


@pytest.fixture(scope="session")
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


@pytest.fixture(scope="session")
def validator(schema):
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.fixture(scope="session")
def built_cells(tmp_path_factory):
    """A session cache: ``built_cells(cell)`` builds each distinct cell once."""
    cache: dict[str, Built] = {}

    def get(cell: dict) -> Built:
        key = json.dumps(cell, sort_keys=True, default=str)
        if key not in cache:
            name = re.sub(r"[^A-Za-z0-9_.-]+", "-", cell.get("id", "cell"))[:60]
            cache[key] = build(tmp_path_factory.mktemp(name), cell)
        return cache[key]

    return get


def cell_params(cells: list[dict]) -> list:
    """pytest params with the cell's readable id."""
    return [pytest.param(c, id=c["id"]) for c in cells]


def built_report(built_cells, cell: dict) -> dict:
    """The cell's report.json; skips the test when it did not build (test_matrix reports that)."""
    b = built_cells(cell)
    if b.report is None:
        pytest.skip("did not build: see test_cell_builds_and_validates")
    return b.report


def built_ok(built_cells, cell):
    """The built cell; fails with one line when it did not build (exit != 0 or a traceback)."""
    b = built_cells(cell)
    if b.traceback is not None:
        pytest.fail(f"build crashed: {b.crash()}", pytrace=False)
    if b.exit_code != 0 or b.report is None:
        first = (b.stderr.strip().splitlines() or ["(no message)"])[0]
        pytest.fail(f"build exited {b.exit_code}: {first}", pytrace=False)
    return b


def expected_test_gap(gen) -> float:
    """Row-weighted test metric difference of the seed-averaged networks (methods.md section 3)."""
    c = gen.seed_mean_rows(gen.candidate, "test")
    b = gen.seed_mean_rows(gen.baseline, "test")
    return gen.sign(float(np.mean(c)), float(np.mean(b)))


# --------------------------------------------------------------------------- (a) the block estimand


def useful_band(report: dict, cell: dict) -> float | None:
    """The useful effect of a report (relevance section), else the cell's."""
    rel = report.get("relevance") or {}
    m = rel.get("min_useful_effect")
    return m if m is not None else cell.get("min_useful_effect")


def strings(obj, path: str = ""):
    """Every string in a JSON value, with its path: (path, text)."""
    return ((p, v) for p, v in leaves(obj, path) if isinstance(v, str))


def keys(obj, path: str = ""):
    """Every (path, key, value) in a JSON value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield f"{path}.{k}", k, v
            yield from keys(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from keys(v, f"{path}[{i}]")
