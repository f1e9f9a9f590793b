"""`evreport batch` end to end through click, with the fake build swapped in."""

from __future__ import annotations

import functools
import json
import re

import pytest
from click.testing import CliRunner

import reportgen.batch
from reportgen.cli.batch import batch

from .conftest import make_project, zip_tree


@pytest.fixture
def fake_cli(monkeypatch, fake_ref):
    monkeypatch.setattr(
        reportgen.batch, "run_batch", functools.partial(reportgen.batch.run_batch, build=fake_ref)
    )


def test_all_built_exits_0(tmp_path, fake_cli):
    make_project(tmp_path / "subs" / "alice")
    zip_tree(make_project(tmp_path / "b"), tmp_path / "subs" / "bob.zip")
    r = CliRunner().invoke(
        batch,
        [str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--format", "json", "-j", "2"],
    )
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()  # not a terminal: one plain line per project, then the total
    pattern = re.compile(r"\[([12])/2\] (alice|bob): ok \(adopt MLP \(1 x 32\)\) \d+\.\d s")
    matches = [pattern.fullmatch(line) for line in lines[:2]]
    assert all(matches), lines
    assert sorted(m[1] for m in matches) == ["1", "2"] and sorted(m[2] for m in matches) == [
        "alice",
        "bob",
    ]
    assert lines[2].startswith("2 of 2 built, 0 failed")
    assert [
        r["status"]
        for r in json.loads((tmp_path / "out" / "summary.json").read_text())["submissions"]
    ] == [
        "ok",
        "ok",
    ]


def test_a_failure_exits_1_and_quiet_is_quiet(tmp_path, fake_cli):
    make_project(tmp_path / "subs" / "alice")
    make_project(tmp_path / "subs" / "broken", "broken")
    r = CliRunner().invoke(
        batch,
        [str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--format", "json", "--quiet"],
    )
    assert r.exit_code == 1, r.output
    assert r.output == ""
    rows = json.loads((tmp_path / "out" / "summary.json").read_text())["submissions"]
    assert [(x["name"], x["status"]) for x in rows] == [("alice", "ok"), ("broken", "error")]


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "Missing argument"),
        (["{p}"], "Missing option '--out'"),
        (["{p}", "--out", "{p}/out"], "inside the submission"),
        (["{tmp}/nope", "--out", "{tmp}/out"], "does not exist"),
        (["{p}", "--out", "{tmp}/out", "--format", "html,docx"], "docx is not a format"),
        (["{p}", "--out", "{tmp}/out", "--jobs", "0"], "--jobs 0 is not valid"),
        (["{p}", "--out", "{tmp}/out", "--timeout", "0"], "--timeout 0 is not valid"),
        (["{p}", "--out", "{tmp}/out", "--executor", "dask"], "--scheduler ADDRESS goes with"),
    ],
)
def test_usage_errors_exit_2(tmp_path, fake_cli, args, message):
    p = make_project(tmp_path / "p")
    argv = [a.format(p=p, tmp=tmp_path) for a in args]
    r = CliRunner().invoke(batch, argv)
    assert r.exit_code == 2, r.output
    assert message in r.output
    assert not (tmp_path / "out").exists() and not (p / "out").exists()


def test_help_documents_exit_codes():
    r = CliRunner().invoke(batch, ["--help"])
    assert r.exit_code == 0, r.output
    assert "1  at least one submission failed" in r.output
    assert "--timeout" in r.output and "--executor" in r.output


def test_cli_module_imports_only_click():
    import subprocess
    import sys

    code = (
        "import sys; import reportgen.cli.batch; "
        "heavy = [m for m in ('reportgen.batch', 'jinja2', 'pandas', 'numpy', 'distributed') if m in sys.modules]; "
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_ukrainian_batch_speaks_ukrainian_on_the_console(tmp_path, fake_cli):
    make_project(tmp_path / "subs" / "alice")
    out = str(tmp_path / "out")
    args = [str(tmp_path / "subs"), "--out", out, "--format", "json", "--lang", "uk"]
    r = CliRunner().invoke(batch, args)
    assert r.exit_code == 0, r.output
    progress, total = r.output.splitlines()
    assert re.fullmatch(r"\[1/1\] alice: зібрано \(прийняти MLP \(1 x 32\)\) \d+,\d с", progress)
    assert re.fullmatch(r"зібрано 1 з 1, з помилкою 0, за \d+,\d с; див\. .*index\.html", total)
    r = CliRunner().invoke(batch, [*args, "-j", "0"])
    assert r.exit_code == 2
    assert r.output.strip() == (
        "evreport batch: помилка: --jobs 0 — неприпустиме значення; має бути щонайменше 1 [usage]"
    )
