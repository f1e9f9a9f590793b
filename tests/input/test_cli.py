"""The evreport command line end to end with CliRunner: init, freeze, validate, build, help, version."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from conftest import (
    EXAMPLE_NAMES,
    cfg_problems,
    listing,
    report_view,
    requires_renderer,
    set_runs_cell,
)

from reportgen import __version__
from reportgen.cli import main
from reportgen.project.runs import OPTIONAL, REQUIRED

#: FILE:LINE:COLUMN: error: message [slug]
PROBLEM_LINE = re.compile(r"^(?P<path>[^:\s]+):(?P<line>\d+):(?P<col>\d+): error: .+ \[[a-z-]+\]$")


@pytest.fixture
def runner():
    return CliRunner()


# --------------------------------------------------------------------------- init


def test_init_scaffolds_a_project(runner, tmp_path):
    proj = tmp_path / "new"
    r = runner.invoke(main, ["init", str(proj)])
    assert r.exit_code == 0, r.output
    assert (proj / "runs.csv").read_text() == ",".join(REQUIRED + OPTIONAL) + "\n"
    assert (proj / "split").is_dir() and (proj / "artefacts" / "checks").is_dir()
    cfg, problems = cfg_problems((proj / "evreport.toml").read_text())
    assert problems == [], [str(p) for p in problems]
    assert (cfg.candidate, cfg.baseline, cfg.metric) == ("net", "baseline", "log_loss")
    assert f"wrote {proj / 'evreport.toml'}" in r.output
    assert f"evreport freeze {proj}" in r.output


def test_init_template_names_the_task_keys(runner, tmp_path):
    """The template lists every task's metrics and the task and unit keys, commented; a
    regression project is the template with those lines filled in."""
    proj = tmp_path / "new"
    assert runner.invoke(main, ["init", str(proj)]).exit_code == 0
    text = (proj / "evreport.toml").read_text()
    assert "regression: squared_error | absolute_error" in text
    new = {"task": '"regression"', "unit": '"kWh"', "metric": '"squared_error"'}
    lines = []
    for line in text.splitlines():
        key = line.lstrip("# ").split(" ")[0]
        if key in new and "=" in line and not line.startswith("# unit             ="):
            line = f"{key} = {new.pop(key)}"
        lines.append(line)
    assert new == {}
    cfg, problems = cfg_problems("\n".join(lines) + "\n")
    assert problems == [], [str(p) for p in problems]
    assert (cfg.task, cfg.claim_unit, cfg.metric_words) == (
        "regression",
        "kWh",
        "mean squared error in kWh²",
    )


def test_init_refuses_to_overwrite_without_force(runner, tmp_path):
    proj = tmp_path / "p"
    assert runner.invoke(main, ["init", str(proj)]).exit_code == 0
    (proj / "evreport.toml").write_text("# mine\n")
    r = runner.invoke(main, ["init", str(proj)])
    assert r.exit_code == 2, r.output
    assert "already exists; use --force to overwrite" in r.output
    assert (proj / "evreport.toml").read_text() == "# mine\n"
    r = runner.invoke(main, ["init", str(proj), "--force"])
    assert r.exit_code == 0, r.output
    assert (proj / "evreport.toml").read_text().startswith("# evreport.toml")


def test_init_into_folder_with_unrelated_files(runner, tmp_path):
    (tmp_path / "notes.txt").write_text("keep")
    r = runner.invoke(main, ["init", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "notes.txt").read_text() == "keep"


# --------------------------------------------------------------------------- freeze


def test_freeze_writes_manifest(runner, mini):
    r = runner.invoke(main, ["freeze", str(mini), "--created", "2026-02-28T09:00:00Z"])
    assert r.exit_code == 0, r.output
    m = json.loads((mini / "split" / "manifest.json").read_text())
    assert m["created"] == "2026-02-28T09:00:00Z"
    assert [(f["part"], f["path"], f["rows"]) for f in m["files"]] == [
        ("test", "split/test.csv", 4),
        ("validation", "split/validation.csv", 4),
    ]
    assert all(re.fullmatch(r"[0-9a-f]{64}", f["sha256"]) for f in m["files"])
    assert "created 2026-02-28T09:00:00Z" in r.output
    assert "split/test.csv  4 rows  sha256 " + m["files"][0]["sha256"][:12] in r.output


def test_freeze_default_created_is_now_utc(runner, mini):
    r = runner.invoke(main, ["freeze", str(mini)])
    assert r.exit_code == 0, r.output
    created = json.loads((mini / "split" / "manifest.json").read_text())["created"]
    # microseconds: a run logged within the same second still shows it came after
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", created)


def test_freeze_bad_created(runner, mini):
    r = runner.invoke(main, ["freeze", str(mini), "--created", "soon"])
    assert r.exit_code == 1, r.output
    assert "--created 'soon' is not an ISO 8601 date-time" in r.output
    assert not (mini / "split" / "manifest.json").exists()


def test_freeze_without_split_folder(runner, tmp_path):
    r = runner.invoke(main, ["freeze", str(tmp_path)])
    assert r.exit_code == 1, r.output
    assert "no split/ folder with split files to freeze" in r.output


def test_freeze_missing_project_is_a_usage_error(runner, tmp_path):
    r = runner.invoke(main, ["freeze", str(tmp_path / "nope")])
    assert r.exit_code == 2
    assert "does not exist" in r.output


def test_freeze_then_validate_is_clean(runner, mini):
    assert runner.invoke(main, ["freeze", str(mini), "--created", "2026-02-01"]).exit_code == 0
    r = runner.invoke(main, ["validate", str(mini)])
    assert r.exit_code == 0, r.output
    assert "0 warning(s)" in r.output


# --------------------------------------------------------------------------- validate


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_validate_examples(runner, example, name):
    root = example(name)
    r = runner.invoke(main, ["validate", str(root)])
    assert r.exit_code == 0, r.output
    m = re.search(
        r": valid \((\d+) run-log rows, (\d+) predictions files, (\d+) check files", r.output
    )
    assert m, r.output
    checks = len(list((root / "artefacts" / "checks").glob("*.json")))
    assert checks >= 4  # the four rung-1 checks, and sensitivity files where recorded
    assert int(m.group(1)) > 0 and int(m.group(2)) > 0 and int(m.group(3)) == checks


def test_validate_mini_warns_about_missing_manifest(runner, mini):
    r = runner.invoke(main, ["validate", str(mini)])
    assert r.exit_code == 0, r.output
    assert "split/manifest.json: warning: no frozen-split manifest" in r.output
    assert "8 run-log rows, 8 predictions files, 0 check files, 1 warning(s)" in r.output


def test_validate_broken_copy_lists_every_problem(runner, example):
    root = example("moons-tie")
    toml = (root / "evreport.toml").read_text()
    (root / "evreport.toml").write_text(toml.replace("resamples ", "resampels ", 1))
    set_runs_cell(root, 4, "status", "okay")
    (root / "artefacts" / "checks" / "shapes.json").write_text('{"check": "shapes",\n  passed}')
    r = runner.invoke(main, ["validate", str(root)])
    assert r.exit_code == 1, r.output
    problem_lines = [ln for ln in r.stderr.splitlines() if ": error: " in ln]
    assert len(problem_lines) == 3, r.stderr
    parsed = [PROBLEM_LINE.match(ln) for ln in problem_lines]
    assert all(parsed), problem_lines
    where = sorted((m["path"], int(m["line"]), int(m["col"])) for m in parsed)
    toml_line = toml.splitlines().index(
        next(ln for ln in toml.splitlines() if ln.startswith("resamples "))
    )
    assert where == [
        ("artefacts/checks/shapes.json", 2, 3),
        ("evreport.toml", toml_line + 1, 1),
        ("runs.csv", 4, 7),
    ]
    assert "did you mean 'resamples'?" in r.stderr
    assert r.stderr.rstrip().endswith(f"evreport: 3 error(s), 0 warning(s) in {root}")


def test_validate_with_renamed_run_log(runner, mini):
    (mini / "runs.csv").rename(mini / "log.csv")
    r = runner.invoke(main, ["validate", str(mini)])
    assert r.exit_code == 1
    assert "runs.csv: error: missing runs.csv [missing-file]" in r.output
    r = runner.invoke(main, ["validate", str(mini), "--runs", "log.csv"])
    assert r.exit_code == 0, r.output


def test_validate_bad_value_in_run_log(runner, mini):
    set_runs_cell(mini, 7, "value", "n/a")
    r = runner.invoke(main, ["validate", str(mini)])
    assert r.exit_code == 1
    assert "runs.csv:7:6: error: value = 'n/a' is not a finite number [bad-value]" in r.stderr


def test_validate_missing_folder_is_a_usage_error(runner, tmp_path):
    r = runner.invoke(main, ["validate", str(tmp_path / "nope")])
    assert r.exit_code == 2


# --------------------------------------------------------------------------- help and version

EXIT_LINES = (
    "0  built (or valid)",
    "1  input errors",
    "2  usage errors",
    "3  a CI gate failed: --strict",
    "--require-rung N",
)


def test_main_help_lists_commands_and_exit_codes(runner):
    r = runner.invoke(main, ["--help"])
    assert r.exit_code == 0, r.output
    for cmd in ("init", "freeze", "validate", "build"):
        assert re.search(rf"^\s+{cmd}\s", r.output, re.M), cmd
    for line in EXIT_LINES:
        assert line in r.output
    assert "reviewer's report" in r.output


@pytest.mark.parametrize(
    "cmd,does",
    [
        ("validate", "list every problem at once"),
        ("build", "write the report"),
        pytest.param(
            "init",
            "Scaffold a project folder",
        ),
        pytest.param(
            "freeze",
            "Hash the split files",
        ),
    ],
)
def test_command_help_says_what_and_exit_codes(runner, cmd, does):
    r = runner.invoke(main, [cmd, "--help"])
    assert r.exit_code == 0, r.output
    assert does in " ".join(r.output.split())
    assert "Exit codes:" in r.output
    assert "0  " in r.output and "1  " in r.output and "2  " in r.output


def test_batch_help_has_exit_codes_when_registered(runner):
    if "batch" not in main.commands:
        pytest.skip("batch not registered in this build")
    r = runner.invoke(main, ["batch", "--help"])
    assert r.exit_code == 0, r.output
    assert "Exit codes:" in r.output


def test_version(runner):
    r = runner.invoke(main, ["--version"])
    assert r.exit_code == 0, r.output
    assert r.output.strip() == f"evreport, version {__version__}"


def test_unknown_command_and_option(runner):
    assert runner.invoke(main, ["buidl"]).exit_code == 2
    assert runner.invoke(main, ["validate", "--nope", "."]).exit_code == 2


# --------------------------------------------------------------------------- build


@pytest.fixture(params=["stub", pytest.param("real", marks=requires_renderer)])
def renderer(request):
    """Build with the stub renderer (always) and with the real one (once it exists)."""
    if request.param == "stub":
        request.getfixturevalue("stub_renderer")
    return request.param


def test_build_writes_report_json(runner, renderer, example, tmp_path):
    root = example("moons-tie")
    out = tmp_path / "out"
    r = runner.invoke(main, ["build", str(root), "--format", "json", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert sorted(report_view(out)) == ["report.json"]
    report = json.loads((out / "report.json").read_text())
    assert report["decision"]["verdict"] != "adopt"
    assert [rung["rung"] for rung in report["ladder"]] == [1, 2, 3, 4, 5]
    assert f"wrote {out / 'report.json'}" in r.output
    assert re.search(r"verdict: \S+ \(recommend .+\); supported rung \d of 5", r.output)


def test_build_default_out_is_project_report(runner, renderer, example):
    root = example("moons-tie")
    r = runner.invoke(main, ["build", str(root), "--format", "json"])
    assert r.exit_code == 0, r.output
    assert (root / "report" / "report.json").is_file()


def test_build_strict_exits_3_after_writing(runner, renderer, example, tmp_path):
    root = example("weekly-churn")
    out = tmp_path / "out"
    r = runner.invoke(main, ["build", str(root), "--format", "json", "--out", str(out), "--strict"])
    assert r.exit_code == 3, r.output
    verdict = json.loads((out / "report.json").read_text())["decision"]["verdict"]
    assert verdict != "adopt"
    assert f"evreport: --strict: verdict is {verdict!r}, not 'adopt'" in r.stderr


def test_build_broken_project_exits_1_and_keeps_earlier_report(runner, renderer, example, tmp_path):
    root = example("moons-tie")
    out = tmp_path / "out"
    r = runner.invoke(main, ["build", str(root), "--format", "json", "--out", str(out)])
    assert r.exit_code == 0, r.output
    before = listing(out)
    set_runs_cell(root, 6, "value", "x0.5")
    r = runner.invoke(main, ["build", str(root), "--format", "json", "--out", str(out)])
    assert r.exit_code == 1, r.output
    assert re.search(r"^runs\.csv:6:6: error: value = 'x0\.5' is not", r.stderr, re.M), r.stderr
    assert "1 problem; see docs/format.md" in r.stderr
    assert listing(out) == before


def test_build_leaves_project_folder_unchanged(runner, renderer, example, tmp_path):
    root = example("weekly-churn")
    before = listing(root)
    out = tmp_path / "elsewhere" / "out"
    r = runner.invoke(main, ["build", str(root), "--format", "json", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert listing(root) == before
    assert [p.name for p in (tmp_path / "elsewhere").iterdir()] == ["out"]
    assert sorted(report_view(out)) == ["report.json"]


@pytest.mark.parametrize("fmt", ["docx", "json,xml", ","])
def test_build_bad_format_is_a_usage_error(runner, example, tmp_path, fmt):
    root = example("moons-tie")
    r = runner.invoke(main, ["build", str(root), "--format", fmt, "--out", str(tmp_path / "o")])
    assert r.exit_code == 2, r.output
    assert "is not a format; choose from html, pdf, json, md" in r.output
    assert not (tmp_path / "o").exists()
