"""Helpers for the input-side tests: a small synthetic project, copies of the examples, parsers."""

from __future__ import annotations

import csv
import hashlib
import importlib
import io
import json
import math
import os
import shutil
import sys
import types
from pathlib import Path

import pytest

from reportgen.errors import Problem
from reportgen.project.config import parse_config
from reportgen.project.runs import parse_runs

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
#: the committed examples every test may copy (never modified in place)
EXAMPLE_NAMES = ("weekly-churn", "moons-tie")


def renderer_available() -> bool:
    """True when reportgen.render really provides render_outputs.

    An empty reportgen/render/ folder is importable as a namespace package, so
    ``importlib.util.find_spec`` alone is not enough.
    """
    try:
        mod = importlib.import_module("reportgen.render")
    except ImportError:
        return False
    return hasattr(mod, "render_outputs")


requires_renderer = pytest.mark.skipif(
    not renderer_available(), reason="renderer not yet available"
)


# --------------------------------------------------------------------------- parsing helpers


def cfg_problems(text: str, name: str = "evreport.toml"):
    """parse_config on text: (config or None, problems)."""
    problems: list[Problem] = []
    cfg = parse_config(text, name, problems)
    return cfg, problems


def runs_problems(text: str, name: str = "runs.csv"):
    """parse_runs on text: (rows, problems, warnings)."""
    problems: list[Problem] = []
    warnings: list[Problem] = []
    rows = parse_runs(text, name, problems, warnings)
    return rows, problems, warnings


def with_slug(problems, slug: str) -> list[Problem]:
    return [p for p in problems if p.slug == slug]


def errors(problems) -> list[Problem]:
    return [p for p in problems if p.severity == "error"]


# --------------------------------------------------------------------------- a small project

MINI_CONFIG = """\
title = "Mini project"

[claim]
text      = "The MLP beats GBM on log loss."
candidate = "mlp"
baseline  = "gbm"
metric    = "log_loss"

[evaluation]
block = "week"
slice = "route"
"""

RUNS_HEADER = [
    "run_id",
    "model",
    "seed",
    "split",
    "metric",
    "value",
    "status",
    "started_at",
    "predictions",
]

#: row ids, week and route of each evaluation part
SPLIT_ROWS = {
    "validation": [("v1", "1", "a"), ("v2", "1", "b"), ("v3", "2", "a"), ("v4", "2", "b")],
    "test": [("t1", "3", "a"), ("t2", "3", "b"), ("t3", "4", "a"), ("t4", "4", "b")],
}


def csv_text(rows: list[list[str]]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def make_project(root: Path, config: str = MINI_CONFIG) -> Path:
    """A valid project: mlp vs gbm, seeds 1 and 2, validation and test predictions (no manifest).

    Predictions carry row_id, y and p only: week and route come from the split files.
    """
    root.mkdir(parents=True, exist_ok=True)
    (root / "evreport.toml").write_text(config, encoding="utf-8")
    (root / "split").mkdir(exist_ok=True)
    (root / "artefacts" / "predictions").mkdir(parents=True, exist_ok=True)
    (root / "artefacts" / "checks").mkdir(parents=True, exist_ok=True)
    for part, rows in SPLIT_ROWS.items():
        body = [["row_id", "y", "week", "route"]] + [
            [rid, str(i % 2), w, r] for i, (rid, w, r) in enumerate(rows)
        ]
        (root / "split" / f"{part}.csv").write_text(csv_text(body), encoding="utf-8")
    runs = [RUNS_HEADER]
    for model, shift in (("mlp", 0.1), ("gbm", 0.2)):
        for seed in (1, 2):
            for part, rows in SPLIT_ROWS.items():
                rel = f"artefacts/predictions/{model}-s{seed}-{part}.csv"
                body = [["row_id", "y", "p"]] + [
                    [rid, str(i % 2), f"{abs(i % 2 - shift - 0.01 * seed):.3f}"]
                    for i, (rid, _, _) in enumerate(rows)
                ]
                # the logged value is the log loss of exactly these predictions
                ys = [int(r[1]) for r in body[1:]]
                ps = [float(r[2]) for r in body[1:]]
                value = -sum(
                    y * math.log(p) + (1 - y) * math.log(1 - p) for y, p in zip(ys, ps, strict=True)
                ) / len(ys)
                (root / rel).write_text(csv_text(body), encoding="utf-8")
                runs.append(
                    [
                        f"{model}-s{seed}",
                        model,
                        str(seed),
                        part,
                        "log_loss",
                        repr(value),
                        "ok",
                        f"2026-03-0{seed}T10:00:00Z",
                        rel,
                    ]
                )
    (root / "runs.csv").write_text(csv_text(runs), encoding="utf-8")
    return root


def set_runs_cell(root: Path, line: int, column: str, value: str) -> None:
    """Rewrite one cell of runs.csv (line numbers are file lines; 1 is the header)."""
    path = root / "runs.csv"
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))
    rows[line - 1][rows[0].index(column)] = value
    path.write_text(csv_text(rows), encoding="utf-8")


@pytest.fixture
def mini(tmp_path) -> Path:
    return make_project(tmp_path / "mini")


# --------------------------------------------------------------------------- example copies


@pytest.fixture(scope="session")
def _example_cache(tmp_path_factory) -> Path:
    """One snapshot of the examples per session, so every test copies the same bytes."""
    cache = tmp_path_factory.mktemp("examples")
    for name in EXAMPLE_NAMES:
        shutil.copytree(EXAMPLES / name, cache / name, ignore=_NO_REPORT)
    return cache


#: an example built in place has a report/ folder (its own build store): never copied
_NO_REPORT = shutil.ignore_patterns("report")


@pytest.fixture
def example(tmp_path, _example_cache):
    """example("moons-tie") -> a private copy of that example under tmp_path."""

    def copy(name: str, dest: str | None = None) -> Path:
        target = tmp_path / (dest or name)
        shutil.copytree(_example_cache / name, target, symlinks=True)
        return target

    return copy


# --------------------------------------------------------------------------- builds


#: what a versioned build keeps in its --out besides the report files (reportgen.outputs)
OWN_ENTRIES = (".evreport-builds", ".evreport-current", ".evreport-lock")


def report_view(out: Path) -> dict[str, str]:
    """What a reader of --out sees: each top-level file (through its link) with its sha256.

    Hidden entries are evreport's own (the store, the lock, a killed write's temporary
    entries, which the next build removes) and are left out.
    """
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.iterdir())
        if not p.name.startswith(".") and p.is_file()
    }


def listing(root: Path) -> dict[str, str]:
    """Every file under root (relative path) with its sha256; folders as "<dir>"; symlinks by target.

    Lock files are left out: they hold the process id of the last writer.
    """
    out: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        d = Path(dirpath)
        for n in dirnames:
            out[(d / n).relative_to(root).as_posix()] = "<dir>"
        for n in filenames:
            if n == ".evreport-lock":
                continue
            p = d / n
            rel = p.relative_to(root).as_posix()
            if p.is_symlink():
                out[rel] = "-> " + os.readlink(p)
            else:
                out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def _stub_render_outputs(report, formats, **_options):
    files = {}
    if "json" in formats:
        files["report.json"] = (json.dumps(report.to_json(), indent=1) + "\n").encode()
    if "md" in formats:
        files["decision-log.md"] = b"# decision log (stub)\n"
    return files, []


@pytest.fixture
def stub_renderer(monkeypatch):
    """Replace reportgen.render with a stub that writes report.json (and a stub decision-log.md).

    Lets the build pipeline (load -> checks -> write) be tested without the real renderer.
    """
    mod = types.ModuleType("reportgen.render")
    mod.render_outputs = _stub_render_outputs
    mod.Helpers = types.SimpleNamespace(for_fresh_process=lambda formats: None)  # in-process
    monkeypatch.setitem(sys.modules, "reportgen.render", mod)
    return mod
