"""The built wheel and sdist, installed without -e into fresh virtualenvs, write every report.

The wheel and the sdist are built from this checkout (``python -m build``, no isolation:
hatchling is in the test extra); each goes into a new virtualenv with pip, offline, from a
wheelhouse repacked once from this virtualenv's installed distributions (see
wheelhouse.py). There, far from the repository (another working folder, no PYTHONPATH),
evreport validates an example, builds it in all four formats and grades a batch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.install.wheelhouse import wheelhouse

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
ALL_EXAMPLES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "evreport.toml").is_file())
#: the folders the wheel maps into the package, and the files it must carry
MAPPED = {"templates": "reportgen/templates", "styles": "reportgen/styles"}
PACKAGE_DATA = ["reportgen/report.schema.json"]


def _files(folder: str) -> list[str]:
    root = REPO / folder
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def _clean_env() -> dict[str, str]:
    """The environment of a user's shell: no PYTHONPATH or virtualenv of this test run."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")
    }
    return env


def _run(args: list, cwd: Path, ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess:
    r = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode in ok, f"{args}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> dict[str, Path]:
    """The sdist and the wheel, built from this checkout (the wheel from the sdist)."""
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, REPO], cwd=out)
    return {
        "wheel": next(out.glob("evreport-*.whl")),
        "sdist": next(out.glob("evreport-*.tar.gz")),
    }


@pytest.fixture(scope="module")
def house(tmp_path_factory) -> Path:
    """evreport's dependencies and the build backend as wheels, from this virtualenv."""
    in_venv = sys.prefix != sys.base_prefix
    cache = Path(sys.prefix) / ".wheelhouse" if in_venv else tmp_path_factory.mktemp("wh")
    return wheelhouse(cache, ["evreport", "hatchling"], exclude=("evreport",))


def _fresh_venv(folder: Path, target: Path, house: Path) -> Path:
    """A new virtualenv with ``target`` pip-installed (offline, from the wheelhouse); its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", folder], check=True)
    python = folder / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", python]
    quiet = ["--quiet", "--disable-pip-version-check"]
    _run(
        [*pip, "install", *quiet, "--no-index", "--find-links", house, "--no-compile", target],
        cwd=folder,
    )
    _run([*pip, "check", *quiet], cwd=folder)
    return python


def test_wheel_and_sdist_carry_templates_styles_and_schema(dists):
    with zipfile.ZipFile(dists["wheel"]) as z:
        names = set(z.namelist())
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    for folder, inside in MAPPED.items():
        wanted = {f"{inside}/{f}" for f in _files(folder)}
        assert wanted and wanted <= names, sorted(wanted - names)
    assert set(PACKAGE_DATA) <= names
    assert "reportgen/templates/report.html" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert not [n for n in names if n.startswith(("tests/", "examples/", "templates/"))]
    assert "License-Expression: MIT" in meta
    # the eval-log importers, and the [inspect] extra that brings inspect_ai's reader
    assert {
        "reportgen/importers/evallog.py",
        "reportgen/importers/inspect_log.py",
        "reportgen/importers/lm_eval_log.py",
    } <= names
    assert "Provides-Extra: inspect" in meta
    assert "inspect-ai>=0.3.100; extra == 'inspect'" in meta.replace('"', "'")
    with tarfile.open(dists["sdist"]) as t:
        members = {m.name.split("/", 1)[1] for m in t.getmembers() if "/" in m.name}
    for folder in MAPPED:
        assert {f"{folder}/{f}" for f in _files(folder)} <= members
    assert {"pyproject.toml", "README.md", *PACKAGE_DATA} <= members


def _use(python: Path, work: Path, example: str) -> dict:
    """Validate and build ``example`` with the installed evreport; the report.json it wrote."""
    bin_ = python.parent
    where = _run(
        [python, "-c", "import reportgen.resources as r; print(r.resource_dir('templates'))"],
        cwd=work,
    ).stdout.strip()
    site = python.parent.parent / "lib"
    assert Path(where).is_relative_to(site) and where.endswith("reportgen/templates"), where
    _run([bin_ / "evreport", "validate", EXAMPLES / example], cwd=work)
    out = work / "report"
    ci = ["--junit", work / "junit.xml", "--summary", work / "summary.md", "--require-rung", "1"]
    r = _run([bin_ / "evreport", "build", EXAMPLES / example, "--out", out, *ci], cwd=work)
    assert "verdict:" in r.stdout
    assert (work / "junit.xml").read_bytes().startswith(b"<?xml")
    assert (work / "summary.md").read_text(encoding="utf-8").startswith("## evreport: ")
    files = {p.name: p for p in out.iterdir() if not p.name.startswith(".")}  # not the build store
    assert set(files) == {"report.html", "report.pdf", "report.json", "decision-log.md"}
    assert files["report.pdf"].read_bytes().startswith(b"%PDF-")
    html = files["report.html"].read_text(encoding="utf-8")
    assert "@page" in html and "<svg" in html  # print.css inlined, charts drawn
    assert files["decision-log.md"].read_text(encoding="utf-8").startswith("## ")
    report = json.loads(files["report.json"].read_text(encoding="utf-8"))
    _schema_valid(report)
    return report


def _schema_valid(report: dict) -> None:
    import jsonschema

    from reportgen.resources import schema_path

    jsonschema.validate(report, json.loads(schema_path().read_text(encoding="utf-8")))


def _batch(python: Path, work: Path, examples: list[str], formats: str) -> dict:
    """Grade ``examples`` as a batch with a rubric; summary.json."""
    bin_ = python.parent
    rubric = work / "rubric.toml"
    _run([bin_ / "evreport", "rubric", "init", rubric], cwd=work)
    out = work / "batch"
    _run(
        [bin_ / "evreport", "batch", *(EXAMPLES / e for e in examples), "--out", out]
        + ["--format", formats, "--rubric", rubric, "--quiet", "--jobs", "2"],
        cwd=work,
    )
    assert (out / "index.html").read_text(encoding="utf-8").count("<style") >= 1
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["counts"]["ok"] == len(examples), summary["submissions"]
    for e in examples:
        assert (out / e / "report.json").is_file(), sorted(p.name for p in out.iterdir())
        assert (out / e / "feedback.md").is_file()
    return summary


def _wheel_flow(wheel: Path, house: Path, tmp: Path) -> None:
    """The wheel: validate and build weekly-churn in four formats, grade every example (JSON, MD)."""
    python = _fresh_venv(tmp / "venv", wheel, house)
    work = tmp / "work"
    work.mkdir()
    report = _use(python, work, "weekly-churn")
    assert report["decision"]["verdict"] and report["claim"]["supported_rung"] is not None
    # every example through the checks and the Markdown template (HTML and PDF of both kinds
    # of report are drawn above and in the sdist flow)
    summary = _batch(python, work, ALL_EXAMPLES, "json,md")
    assert len(summary["submissions"]) == len(ALL_EXAMPLES) >= 5


def _sdist_flow(sdist: Path, house: Path, tmp: Path) -> None:
    """The sdist (pip builds it with hatchling from the wheelhouse): the same on moons-tie; a
    model-vs-baseline and a before-after project graded (HTML, JSON, MD)."""
    python = _fresh_venv(tmp / "venv", sdist, house)
    work = tmp / "work"
    work.mkdir()
    _use(python, work, "moons-tie")
    summary = _batch(python, work, ["moons-tie", "tuned-replay"], "html,json,md")
    assert len(summary["submissions"]) == 2


def test_wheel_and_sdist_in_fresh_venvs_build_validate_and_grade(dists, house, tmp_path):
    """Both flows at once (each is mostly waiting on one subprocess): about half the time."""
    from concurrent.futures import ThreadPoolExecutor

    (tmp_path / "wheel").mkdir()
    (tmp_path / "sdist").mkdir()
    with ThreadPoolExecutor(2) as pool:
        wheel = pool.submit(_wheel_flow, dists["wheel"], house, tmp_path / "wheel")
        sdist = pool.submit(_sdist_flow, dists["sdist"], house, tmp_path / "sdist")
        wheel.result()
        sdist.result()
