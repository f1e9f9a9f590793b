"""Hostile projects: each case builds its input here and expects one clear line.

Reads never leave the project folder, writes never go through a symlink, names that are
not UTF-8 never crash, and nothing a student writes reaches a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MINI_CONFIG, REPO, cfg_problems, make_project, set_runs_cell, with_slug
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.cli import main
from reportgen.errors import InputError, Problem, clean_text, display_name, quote
from reportgen.outputs import atomic_write_dir, write_file_atomic
from reportgen.project import files as files_mod
from reportgen.project import inspect_project, load_project
from reportgen.project import tables as tables_mod
from reportgen.project.files import Reader, Refused, confine_file, read_confined
from reportgen.project.manifest import freeze

SECRET = "root:x:0:0:SECRET-LINE:/root:/bin/bash"


def run(*args, env=None):
    return CliRunner().invoke(main, [str(a) for a in args], env=env)


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder beside the project with a file that must never be read or written."""
    out = tmp_path / "outside"
    out.mkdir()
    (out / "passwd").write_text(SECRET + "\n")
    return out


# --------------------------------------------------------------------------- reads


@pytest.mark.parametrize("fixed", ["runs.csv", "evreport.toml", "split/manifest.json"])
def test_fixed_input_symlinked_outside_is_refused_and_never_echoed(mini, outside, fixed):
    (mini / fixed).unlink(missing_ok=True)
    os.symlink(outside / "passwd", mini / fixed)
    r = run("validate", mini)
    assert r.exit_code == 1
    assert "SECRET" not in r.output
    assert f"{fixed}: error: {fixed} leads outside the project folder" in r.output
    assert "[path-outside-project]" in r.output
    assert str(outside) not in r.output  # no path of the grader's machine either


@pytest.mark.parametrize("folder", ["artefacts/checks", "artefacts", "split"])
def test_symlinked_folder_outside_gives_no_credit(mini, outside, folder):
    (outside / "gradient.json").write_text(
        '{"check": "gradient", "model": "mlp", "max_relative_error": 0}'
    )
    for name in ("validation.csv", "test.csv"):
        (outside / name).write_bytes((mini / "split" / name).read_bytes())
    os.rename(mini / folder, mini.parent / "moved")
    os.symlink(outside, mini / folder)
    project, problems = inspect_project(mini)
    refused = with_slug(problems, "path-outside-project")
    assert refused, [str(p) for p in problems]
    assert project is None or not project.checks
    assert all("SECRET" not in str(p) for p in problems)


def test_symlink_loop_is_one_line(mini):
    (mini / "runs.csv").unlink()
    os.symlink("loop-b", mini / "runs.csv")
    os.symlink("runs.csv", mini / "loop-b")
    r = run("validate", mini)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "runs.csv: error: cannot read runs.csv: a symlink loop [unreadable]" in r.output


def test_fifo_is_not_read(mini):
    (mini / "runs.csv").unlink()
    os.mkfifo(mini / "runs.csv")
    with pytest.raises(Refused, match="runs.csv is not a regular file"):
        read_confined(mini, mini / "runs.csv", "runs.csv")


def test_confine_file_allows_links_that_stay_inside(mini):
    os.symlink("runs.csv", mini / "alias.csv")
    assert confine_file(mini, mini / "alias.csv") == (mini / "runs.csv").resolve()


def test_reader_display_never_follows_a_link(mini, outside):
    os.symlink(outside / "passwd", mini / "x.csv")
    assert Reader(mini).display(mini / "x.csv") == "x.csv"


# --------------------------------------------------------------------------- writes


@pytest.mark.parametrize("victim", ["runs.csv", "evreport.toml"])
def test_init_force_refuses_to_write_through_a_symlink(tmp_path, outside, victim):
    project = tmp_path / "p"
    project.mkdir()
    os.symlink(outside / "passwd", project / victim)
    r = run("init", "--force", project)
    assert r.exit_code == 1, r.output
    assert "is a symlink; refusing to write through it" in r.output
    assert (outside / "passwd").read_text() == SECRET + "\n"
    assert not (project / "split").exists()  # refused before anything was written


def test_freeze_refuses_a_symlinked_manifest(mini, outside):
    os.symlink(outside / "passwd", mini / "split" / "manifest.json")
    r = run("freeze", mini)
    assert r.exit_code == 1
    assert "manifest.json is a symlink; refusing to write through it" in r.output
    assert (outside / "passwd").read_text() == SECRET + "\n"


def test_freeze_writes_atomically_and_reads_through_confinement(mini, outside):
    os.symlink(outside / "passwd", mini / "split" / "leak.csv")
    with pytest.raises(InputError) as e:
        freeze(mini, "2026-01-01T00:00:00Z")
    assert "leads outside the project folder" in str(e.value)
    (mini / "split" / "leak.csv").unlink()
    m = freeze(mini, "2026-01-01T00:00:00Z")
    assert [f["rows"] for f in m["files"]] == [4, 4]
    assert sorted(p.name for p in (mini / "split").iterdir()) == [
        "manifest.json",
        "test.csv",
        "validation.csv",
    ]


@pytest.mark.parametrize(
    "content,needle",
    [
        ("row_id,y\n1,0\n".encode("utf-16"), "it looks like UTF-16"),
        (b'row_id,y\n1,"0\n2,1\n', "a quote is opened and never closed"),
        (b"row_id,y\nM\xfcller,1\n", "Latin-1"),
    ],
)
def test_freeze_on_a_bad_split_file_is_one_line(mini, content, needle):
    (mini / "split" / "train.csv").write_bytes(content)
    r = run("freeze", mini)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert needle in r.output


def test_freeze_on_a_truncated_parquet(mini):
    (mini / "split" / "train.parquet").write_bytes(b"PAR1\x00\x00")
    r = run("freeze", mini)
    assert r.exit_code == 1
    assert "split/train.parquet: error: not a readable Parquet file" in r.output


def test_write_file_atomic_refuses_a_symlinked_folder(tmp_path, outside):
    os.symlink(outside, tmp_path / "split")
    with pytest.raises(InputError, match="split is a symlink"):
        write_file_atomic(tmp_path / "split" / "manifest.json", b"{}", root=tmp_path)
    assert sorted(p.name for p in outside.iterdir()) == ["passwd"]


@pytest.mark.parametrize(
    "code,why", [(28, "the disk is full"), (30, "the file system is read-only")]
)
def test_full_or_read_only_out_is_one_line_and_leaves_no_temp(tmp_path, monkeypatch, code, why):
    out = tmp_path / "out"
    real_open = open

    def failing_open(path, mode="r", *a, **k):
        if "w" in mode and ".evreport-" in str(path):
            raise OSError(code, os.strerror(code))
        return real_open(path, mode, *a, **k)

    monkeypatch.setattr("builtins.open", failing_open)
    with pytest.raises(InputError) as e:
        atomic_write_dir(out, {"report.json": b"{}"})
    assert str(e.value).endswith(f"cannot write here: {why} [cannot-write]")
    assert [p.name for p in out.iterdir()] == [".evreport-lock"]  # no temporary entry


def test_stale_temp_folders_of_a_killed_build_are_cleaned(tmp_path):
    out = tmp_path / "out"
    stale = out / ".evreport-abc123xy"
    stale.mkdir(parents=True)
    (stale / "report.html").write_text("half")
    fresh = out / ".evreport-runs_now"  # an older evreport's build at this moment
    fresh.mkdir()
    batch = out / ".evreport-tmp"  # a killed batch's staging folder is never a build's
    batch.mkdir()
    link = out / ".evreport-report.html.0123456789ab.tmp"  # a killed build's link, on its way
    link.symlink_to(".evreport-current/report.html")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    os.utime(batch, (old, old))
    atomic_write_dir(out, {"report.json": b"{}"})
    assert sorted(p.name for p in out.iterdir()) == [
        ".evreport-builds",
        ".evreport-current",
        ".evreport-lock",
        ".evreport-runs_now",
        ".evreport-tmp",
        "report.json",
    ]


# --------------------------------------------------------------------------- names


def test_non_utf8_file_and_project_names_build(tmp_path, stub_renderer):
    root = make_project(Path(os.fsdecode(os.fsencode(tmp_path) + b"/M\xfcller")))
    (root / "artefacts" / "checks" / os.fsdecode(b"shapes\xff.json")).write_text(
        '{"check": "shapes", "model": "mlp", "passed": true}'
    )
    r = run("build", root, "--format", "json")
    assert r.exit_code == 0, r.output
    report = json.loads((root / "report" / "report.json").read_text(encoding="utf-8"))
    assert "artefacts/checks/shapes\ufffd.json" in [i["path"] for i in report["inputs"]]


def test_build_report_with_a_non_utf8_path_writes_report_json(tmp_path, stub_renderer):
    from reportgen.api import build_report

    root = make_project(Path(os.fsdecode(os.fsencode(tmp_path) + b"/M\xfcller")))
    result = build_report(root, formats=("json",))
    assert "M\ufffdller" in result.report.build.command
    json.loads((root / "report" / "report.json").read_text(encoding="utf-8"))


def test_display_and_clean_text_never_raise_on_undecodable_names():
    name = os.fsdecode(b"M\xfcller")
    assert display_name(name) == "M\ufffdller"
    assert clean_text(name) == "M\\xfcller"
    clean_text(name).encode("utf-8")
    str(Problem("bad", name)).encode("utf-8")


# --------------------------------------------------------------------------- parsing


def test_deeply_nested_toml_is_one_problem():
    text = MINI_CONFIG + "\nx = " + "[" * 100_000 + "]" * 100_000 + "\n"
    cfg, problems = cfg_problems(text)
    assert cfg is None
    [p] = problems
    assert p.slug == "bad-toml"


@pytest.mark.parametrize(
    "doc,needle",
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"created": ' + "9" * 5000 + "}", "not readable JSON"),
    ],
)
def test_deep_or_huge_json_manifest_is_one_problem(mini, doc, needle):
    (mini / "split" / "manifest.json").write_text(doc)
    _, problems = inspect_project(mini)
    [p] = with_slug(problems, "bad-json")
    assert needle in p.message and p.path == "split/manifest.json"


def test_deep_json_check_file_is_one_problem(mini):
    (mini / "artefacts" / "checks" / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    _, problems = inspect_project(mini)
    [p] = with_slug(problems, "bad-json")
    assert p.path == "artefacts/checks/deep.json"


def test_malformed_max_file_bytes(monkeypatch):
    monkeypatch.setenv("EVREPORT_MAX_FILE_BYTES", "12x")
    cap, problem = files_mod._env_cap()
    assert cap == files_mod.DEFAULT_MAX_FILE_BYTES
    assert problem.startswith("EVREPORT_MAX_FILE_BYTES='12x' is not a positive whole number")
    monkeypatch.setattr(files_mod, "ENV_PROBLEM", problem)
    r = run("validate", REPO / "examples" / "moons-tie")
    assert r.exit_code == 1
    assert r.output.strip().splitlines() == [f"evreport: error: {problem} [environment]"]


def test_resamples_are_capped():
    cfg, problems = cfg_problems(MINI_CONFIG + "\n[rule]\nresamples = 1000000\n")
    assert cfg is None
    assert problems[0].message.startswith("rule.resamples = 1000000 must be between 100 and 100000")


def test_toml_with_20k_unknown_keys_is_fast_and_capped():
    text = MINI_CONFIG + "\n[rule]\n" + "".join(f"key_{i} = 1\n" for i in range(20_000))
    start = time.perf_counter()
    cfg, problems = cfg_problems(text)
    assert time.perf_counter() - start < 5  # 289 s before the line index
    assert cfg is None
    assert len(problems) == 101
    assert problems[-1].message == "(and 19,900 more problems in this file)"
    assert problems[0].line == 14


def test_dotted_key_errors_have_a_line():
    text = MINI_CONFIG.replace("\n\n[claim]", "\nrule.seed_sd_mulitple = 2\n\n[claim]", 1)
    _, problems = cfg_problems(text)
    [p] = with_slug(problems, "unknown-key")
    assert p.line == text.splitlines().index("rule.seed_sd_mulitple = 2") + 1


# --------------------------------------------------------------------------- echoed text


def test_quoted_values_and_messages_are_capped(mini):
    set_runs_cell(mini, 3, "value", "x" * 100_000)
    _, problems = inspect_project(mini)
    [p] = [p for p in problems if p.path == "runs.csv"]
    assert len(str(p)) < 300
    assert "(100,000 characters)" in p.message
    assert quote("abc") == "'abc'"


def test_control_characters_cannot_forge_lines(mini):
    set_runs_cell(mini, 3, "seed", "1\nruns.csv:1:1: error: forged\x1b[2J")
    _, problems = inspect_project(mini)
    [p] = [p for p in problems if p.path == "runs.csv"]
    line = str(p)
    assert "\n" not in line and "\x1b" not in line
    assert "\\x1b[2J" in line


# --------------------------------------------------------------------------- CSV hints


def test_semicolon_separated_predictions_suggest_the_delimiter(mini):
    rel = mini / "artefacts" / "predictions" / "mlp-s1-test.csv"
    rel.write_text("row_id;y;p\nt1;0;0.1\n")
    _, problems = inspect_project(mini)
    [p] = with_slug(problems, "delimiter")
    assert "seems to use ';' as the delimiter" in p.message


def test_excel_trailing_commas_are_named(mini):
    rel = mini / "artefacts" / "predictions" / "mlp-s1-test.csv"
    rel.write_text("row_id,y,p,,\nt1,0,0.1,,\n")
    _, problems = inspect_project(mini)
    [p] = with_slug(problems, "empty-column")
    assert "trailing commas" in p.message and p.line == 1


def test_semicolon_run_log_suggests_the_delimiter(mini):
    text = (mini / "runs.csv").read_text().replace(",", ";")
    (mini / "runs.csv").write_text(text)
    _, problems = inspect_project(mini)
    assert any("';' as the delimiter" in p.message for p in problems)


def test_latin1_run_log_names_the_encoding(mini):
    data = (mini / "runs.csv").read_bytes().replace(b"mlp-s1", b"ml\xe9-s1", 1)
    (mini / "runs.csv").write_bytes(data)
    _, problems = inspect_project(mini)
    [p] = [p for p in problems if p.path == "runs.csv"]
    assert "Latin-1" in p.message and (p.line, p.column) == (2, 1)


# --------------------------------------------------------------------------- Parquet


def _parquet_project(mini: Path, table) -> Path:
    import pyarrow.parquet as pq

    rel = "artefacts/predictions/mlp-s1-test.parquet"
    pq.write_table(table, mini / rel)
    set_runs_cell(mini, 4, "predictions", rel)
    return mini / rel


def test_parquet_bomb_is_refused_from_its_metadata(mini, monkeypatch):
    import pyarrow as pa

    n = 50_000
    table = pa.table({"row_id": pa.array(["t1"] * n), "y": pa.array([0] * n), "p": [0.5] * n})
    path = _parquet_project(mini, table)
    assert path.stat().st_size < 20_000  # a few KB that describe 50,000 rows
    monkeypatch.setattr(tables_mod, "MAX_TABLE_ROWS", 10_000)
    _, problems = inspect_project(mini)
    [p] = with_slug(problems, "too-large")
    assert p.message == "the Parquet file describes 50,000 rows, over the limit of 10,000"


def test_parquet_repeated_long_strings_stay_small(mini):
    import pyarrow as pa

    n = 20_000
    long = "x" * 10_000  # 200 MB if every row got its own copy
    table = pa.table(
        {
            "row_id": pa.array([f"t{i}" for i in range(n)]),
            "y": pa.array([0] * n),
            "p": [0.5] * n,
            "text": pa.array([long] * n),
        }
    )
    _parquet_project(mini, table)
    reader = Reader(mini)
    frame = tables_mod.read_table(reader, mini / "artefacts/predictions/mlp-s1-test.parquet")
    assert len(frame) == n and frame["text"].iloc[-1] == long
    assert len({id(v) for v in frame["text"]}) == 1  # one string object, shared


def test_parquet_row_id_with_nulls_is_a_problem(mini):
    import pyarrow as pa

    table = pa.table(
        {"row_id": pa.array(["t1", None, "t3", "t4"]), "y": [0, 1, 0, 1], "p": [0.1] * 4}
    )
    _parquet_project(mini, table)
    _, problems = inspect_project(mini)
    [p] = [p for p in problems if p.path.endswith(".parquet")]
    assert (p.slug, p.line) == ("empty-cell", 2)


def test_manifest_naming_one_file_for_many_parts_reads_it_once(mini):
    freeze(mini, "2026-01-01T00:00:00Z")
    doc = json.loads((mini / "split" / "manifest.json").read_text())
    entry = doc["files"][0]
    doc["files"] = [dict(entry, part=f"p{i}") for i in range(990)] + doc["files"]
    (mini / "split" / "manifest.json").write_text(json.dumps(doc))
    start = time.perf_counter()
    project = load_project(mini)
    assert time.perf_counter() - start < 10
    frames = {id(f.frame) for f in project.manifest.files}
    assert len(frames) == 2  # test.csv (991 parts) and validation.csv, each read once
    assert len({id(k) for k in project.part_keys.values()}) == 2  # and keyed once


# --------------------------------------------------------------------------- charts


def test_control_characters_in_names_do_not_kill_chart_drawing(tmp_path):
    """vl-convert aborts the process on some control characters: run it in a child process."""
    fixture = REPO / "tests" / "fixtures" / "report-weekly-churn.json"
    code = (
        "import json, sys\n"
        f"rep = json.load(open({str(fixture)!r}))\n"
        "rep['project']['candidate'] = 'm\\x0blp\\x07\\x1b\\x00 javascript:x' + 'y' * 300\n"
        "from reportgen.charts.specs import build_charts\n"
        "from reportgen.model import Report\n"
        "svgs = build_charts(Report.from_json(rep))\n"
        "print(len(svgs), max(len(s) for s in svgs.values()) > 0)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split()[1] == "True"


NONCHARACTERS = "ml\ufffep\uffff"


def _noncharacter_project(root: Path) -> Path:
    """The mini project with the candidate named with U+FFFE and U+FFFF."""
    make_project(root, MINI_CONFIG.replace('candidate = "mlp"', f'candidate = "{NONCHARACTERS}"'))
    runs = (root / "runs.csv").read_text(encoding="utf-8").splitlines()
    body = [line.replace(",mlp,", f",{NONCHARACTERS},", 1) for line in runs[1:]]
    (root / "runs.csv").write_text("\n".join([runs[0], *body]) + "\n", encoding="utf-8")
    return root


def _build(project: Path, out: Path, junit: Path, env: dict | None = None):
    return subprocess.run(
        [sys.executable, "-m", "reportgen", "build", str(project), "--out", str(out)]
        + ["--format", "html,json,md", "--junit", str(junit)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
        timeout=300,
    )


def test_noncharacters_in_a_model_name_do_not_kill_the_chart_engine(tmp_path):
    project = _noncharacter_project(tmp_path / "p")
    r = _build(project, tmp_path / "out", tmp_path / "junit.xml")
    assert "crashed" not in r.stderr and r.returncode != 1, r.stderr[-2000:]
    assert {"report.html", "report.json", "decision-log.md"} <= set(os.listdir(tmp_path / "out"))
    assert (tmp_path / "junit.xml").exists()


def test_a_crashing_chart_engine_still_writes_the_other_formats_and_junit(tmp_path):
    """The chart helper's engine really aborts: a sitecustomize on its path undoes the label
    rule there, so U+FFFE reaches vl-convert."""
    undo = tmp_path / "undo"
    undo.mkdir()
    (undo / "sitecustomize.py").write_text(
        "import reportgen.charts.svg as svg\nsvg.chart_label = lambda text: text\n"
    )
    project = _noncharacter_project(tmp_path / "p")
    r = _build(
        project,
        tmp_path / "out",
        tmp_path / "junit.xml",
        {"PYTHONPATH": os.pathsep.join([str(REPO), str(undo)])},
    )
    assert r.returncode == 1
    [line] = [x for x in r.stderr.splitlines() if "error" in x]
    assert "the chart engine crashed (signal 6)" in line
    assert line.endswith("report.html not written (written: report.json, decision-log.md)")
    files = set(os.listdir(tmp_path / "out"))
    assert {"report.json", "decision-log.md"} <= files and "report.html" not in files
    assert "failure" in (tmp_path / "junit.xml").read_text(encoding="utf-8")


def test_chart_label_rules():
    from reportgen.charts.svg import MAX_LABEL, chart_label, sanitise_spec

    assert chart_label("a\x0bb\x00") == "a\ufffdb\ufffd"
    assert chart_label("x\ufffe\uffff\ufdd0\U0010ffff\ud800") == "x" + "\ufffd" * 5
    assert len(chart_label("y" * 20_000)) == MAX_LABEL
    assert "javascript:" not in chart_label("javascript:alert(1)").lower()
    assert sanitise_spec({"k": ["\x07", 1, {"t": "ok"}]}) == {"k": ["\ufffd", 1, {"t": "ok"}]}


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["javascript", "HRef", "a", ":", " ", "\x00", "\x7f", "\x1b", "é", "\ufffe"]
        ),
        max_size=12,
    ).map("".join)
    | st.text(max_size=30)
)
def test_chart_labels_fast_path_changes_nothing(text):
    """The shortcut for plain printable ASCII gives exactly what the full rule gives."""
    import re

    from reportgen.charts.svg import _LABEL_ACTIVE, _NONCHARACTER, chart_label
    from reportgen.safe import replace_controls

    s = _NONCHARACTER.sub("\ufffd", replace_controls(text, "\ufffd"))
    assert chart_label(text) == _LABEL_ACTIVE.sub("\\1\u200b", s)
    assert re.search("(?i)javascript|href", chart_label(text)) is None or "\u200b" in chart_label(
        text
    )


def test_markdown_in_user_text_is_escaped():
    from reportgen.render.env import plain

    out = plain("![x](http://host/p.png) and [x](javascript:alert(1)) <b>\x1b[31m")
    assert "![x]" not in out and "[x](" not in out and "<b>" not in out
    assert "\x1b" not in out


def test_a_chart_engine_crash_names_the_chart():
    from reportgen.render.svg_process import ChartProcessError, SvgProcess

    helper = SvgProcess()
    helper._proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, sys; sys.stdin.read(); sys.stderr.write(\"drawing chart 'slices'\\n\"); "
            "sys.stderr.flush(); os.abort()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    helper.submit({"slices": {}})
    with pytest.raises(ChartProcessError) as e:
        helper.result()
    assert str(e.value) == (
        "chart conversion failed in the helper process: "
        "the chart engine crashed (signal 6) drawing chart 'slices'"
    )


def test_paths_the_operator_names_on_the_command_line_are_read(mini, tmp_path):
    from reportgen.project import ProjectPaths

    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "checks").mkdir(parents=True)
    (elsewhere / "checks" / "shapes.json").write_text(
        '{"check": "shapes", "model": "mlp", "passed": true}'
    )
    os.rename(mini / "runs.csv", elsewhere / "runs.csv")
    paths = ProjectPaths(runs=str(elsewhere / "runs.csv"), artefacts=str(elsewhere))
    project = load_project(mini, paths)
    assert [c.check for c in project.checks] == ["shapes"]
    assert len(project.runs) == 8


def test_freeze_refuses_a_split_file_name_that_is_not_utf8(mini):
    os.rename(
        mini / "split" / "test.csv", Path(os.fsdecode(os.fsencode(mini) + b"/split/t\xe9st.csv"))
    )
    r = run("freeze", mini)
    assert r.exit_code == 1
    assert (
        "split/t\ufffdst.csv: error: split file name 't\ufffdst.csv' is not valid UTF-8" in r.output
    )


@pytest.mark.parametrize(
    "extra,needle",
    [
        ("[rule]\nresamples = " + "9" * 5000, "not readable TOML: Exceeds the limit (4300 digits)"),
        ("[costs]\nfalse_positive = " + "9" * 400, "must be a number"),
    ],
)
def test_huge_toml_integers_are_one_problem(extra, needle):
    cfg, problems = cfg_problems(MINI_CONFIG + "\n" + extra + "\n")
    assert cfg is None
    [p] = problems
    assert needle in p.message and len(str(p)) < 300


def test_huge_integers_in_check_files_are_not_credited(mini):
    (mini / "artefacts" / "checks" / "loss.json").write_text(
        '{"check": "initial_loss", "model": "mlp", "value": ' + "9" * 4000 + ', "classes": 2}'
    )
    project = load_project(mini)
    [c] = project.checks
    assert c.passed is None
    [w] = with_slug(project.warnings, "bad-check")
    assert "needs a numeric value" in w.message
