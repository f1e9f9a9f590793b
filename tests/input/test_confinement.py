"""Paths named inside a project stay inside it; files over the size cap are refused by name."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import MINI_CONFIG, make_project, set_runs_cell, with_slug

from reportgen.errors import InputError, quote
from reportgen.project import files as files_mod
from reportgen.project import inspect_project, load_project
from reportgen.project.files import Refused, confine

# --------------------------------------------------------------------------- confine()


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "proj"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "f.csv").write_text("x")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.csv").write_text("s")
    return root, outside


@pytest.mark.parametrize(
    "rel,expect",
    [
        ("a/b/f.csv", "a/b/f.csv"),
        ("./a/b/f.csv", "a/b/f.csv"),
        ("a//b/f.csv", "a/b/f.csv"),
        ("a\\b\\f.csv", "a/b/f.csv"),
        ("a/new.csv", "a/new.csv"),
    ],
)
def test_confine_accepts_paths_inside(tree, rel, expect):
    root, _ = tree
    assert confine(root, rel) == root.resolve() / expect


def test_confine_root_itself_is_allowed(tree):
    root, _ = tree
    assert confine(root, ".") == root.resolve()


@pytest.mark.parametrize(
    "rel,needle",
    [
        ("", "empty path"),
        ("   ", "empty path"),
        ("a/\x00b", "contains a NUL byte"),
        ("/etc/passwd", "is absolute"),
        ("C:\\Windows\\x.csv", "is absolute"),
        ("C:x.csv", "is absolute"),
        ("\\\\server\\share\\x.csv", "is absolute"),
        ("../outside/secret.csv", "contains '..'"),
        ("a/../../outside/secret.csv", "contains '..'"),
        ("a\\..\\..\\outside\\secret.csv", "contains '..'"),
        ("a/b/..", "contains '..'"),
    ],
)
def test_confine_refuses(tree, rel, needle):
    root, _ = tree
    with pytest.raises(Refused) as e:
        confine(root, rel)
    assert needle in str(e.value)


def test_confine_refuses_non_string(tree):
    root, _ = tree
    with pytest.raises(Refused):
        confine(root, None)  # type: ignore[arg-type]


def test_confine_refuses_symlink_leading_outside(tree):
    root, outside = tree
    os.symlink(outside, root / "link")
    os.symlink(outside / "secret.csv", root / "a" / "file-link.csv")
    for rel in ("link/secret.csv", "a/file-link.csv", "link"):
        with pytest.raises(Refused) as e:
            confine(root, rel)
        assert "leads outside the project folder (through a symlink)" in str(e.value)


def test_confine_allows_symlink_staying_inside(tree):
    root, _ = tree
    os.symlink(root / "a" / "b", root / "alias")
    assert confine(root, "alias/f.csv") == (root / "a" / "b" / "f.csv").resolve()


def test_confine_works_when_root_is_itself_a_symlink(tree, tmp_path):
    root, _ = tree
    os.symlink(root, tmp_path / "root-link")
    assert confine(tmp_path / "root-link", "a/b/f.csv") == (root / "a" / "b" / "f.csv").resolve()


# --------------------------------------------------------------------------- through the loader


def outside_file(tmp_path) -> Path:
    out = tmp_path / "outside"
    out.mkdir(exist_ok=True)
    (out / "preds.csv").write_text("row_id,y,p\nt1,0,0.1\n")
    return out / "preds.csv"


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
def test_predictions_path_outside_project(mini, tmp_path, how):
    target = outside_file(tmp_path)
    if how == "dotdot":
        rel = "../outside/preds.csv"
    elif how == "absolute":
        rel = str(target)
    else:
        os.symlink(target, mini / "artefacts" / "predictions" / "link.csv")
        rel = "artefacts/predictions/link.csv"
    set_runs_cell(mini, 5, "predictions", rel)
    with pytest.raises(InputError) as e:
        load_project(mini)
    [p] = e.value.problems
    assert (p.path, p.line, p.slug) == ("runs.csv", 5, "path-outside-project")
    assert quote(rel) in p.message  # a long absolute path is cut as every quoted value is
    assert str(p).startswith("runs.csv:5: error: path ")


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
def test_evidence_path_outside_project(mini, tmp_path, how):
    target = outside_file(tmp_path)
    rel = {"dotdot": "../outside/preds.csv", "absolute": str(target), "symlink": "ev.csv"}[how]
    if how == "symlink":
        os.symlink(target, mini / "ev.csv")
    config = MINI_CONFIG + f'\n[evidence]\nrelevant = ["{rel}"]\n'
    (mini / "evreport.toml").write_text(config)
    with pytest.raises(InputError) as e:
        load_project(mini)
    [p] = e.value.problems
    assert (p.path, p.line, p.slug) == ("evreport.toml", 14, "path-outside-project")


def test_evidence_inside_is_credited_and_missing_is_a_warning(mini):
    (mini / "artefacts" / "cost.md").write_text("costs")
    (mini / "evreport.toml").write_text(
        MINI_CONFIG + '\n[evidence]\nrelevant = ["artefacts/cost.md", "artefacts/none.md"]\n'
    )
    project = load_project(mini)
    assert project.evidence == {"relevant": ["artefacts/cost.md"]}
    [w] = with_slug(project.warnings, "missing-evidence")
    assert (w.path, w.line) == ("evreport.toml", 14)
    assert "'artefacts/none.md', which does not exist" in w.message


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
def test_manifest_file_path_outside_project(example, tmp_path, how):
    root = example("moons-tie")
    real = root / "split" / "train.csv"
    target = tmp_path / "outside" / "train.csv"
    target.parent.mkdir()
    target.write_bytes(real.read_bytes())
    rel = {"dotdot": "../outside/train.csv", "absolute": str(target), "symlink": "split/t.csv"}[how]
    if how == "symlink":
        os.symlink(target, root / "split" / "t.csv")
    mpath = root / "split" / "manifest.json"
    doc = json.loads(mpath.read_text())
    doc["files"][1]["path"] = rel
    text = json.dumps(doc, indent=2)
    mpath.write_text(text)
    _, problems = inspect_project(root)
    [p] = with_slug(problems, "path-outside-project")
    assert p.path == "split/manifest.json"
    assert p.line == text.splitlines().index('      "part": "train",') + 1
    assert quote(rel) in p.message  # a long absolute path is cut as every quoted value is


def test_symlinked_check_file_outside_refused_absolute_root(example, tmp_path):
    root = example("moons-tie")
    evil = tmp_path / "evil.json"
    evil.write_text('{"check": "gradient", "model": "SECRET", "max_relative_error": 0}')
    os.symlink(evil, root / "artefacts" / "checks" / "zz.json")
    project, problems = inspect_project(root.resolve())
    assert project is None
    [p] = with_slug(problems, "path-outside-project")
    assert p.path.endswith("artefacts/checks/zz.json")


def test_symlinked_check_file_outside_refused_relative_root(example, tmp_path, monkeypatch):
    root = example("moons-tie", dest="proj")
    evil = tmp_path / "evil.json"
    evil.write_text('{"check": "gradient", "model": "SECRET", "max_relative_error": 0}')
    os.symlink(evil, root / "artefacts" / "checks" / "zz.json")
    monkeypatch.chdir(tmp_path)
    project, problems = inspect_project("proj")
    assert project is None or all(c.model != "SECRET" for c in project.checks)
    assert with_slug(problems, "path-outside-project")


def test_overlong_predictions_path_is_a_problem_not_a_crash(mini):
    set_runs_cell(mini, 2, "predictions", "artefacts/" + "a" * 300 + ".csv")
    project, problems = inspect_project(mini)
    assert project is None
    assert [p.path for p in problems if p.severity == "error"] == [
        "artefacts/" + "a" * 300 + ".csv"
    ]


# --------------------------------------------------------------------------- size cap


def test_size_cap_names_file_and_limit(mini, monkeypatch):
    monkeypatch.setattr(files_mod, "MAX_FILE_BYTES", 400)
    size = (mini / "runs.csv").stat().st_size
    assert size > 400 > (mini / "evreport.toml").stat().st_size
    project, problems = inspect_project(mini)
    assert project is None
    [p] = [p for p in problems if p.severity == "error"]
    assert (p.path, p.slug) == ("runs.csv", "unreadable")
    assert p.message == (
        f"file runs.csv is {size:,} bytes, over the 400-byte limit "
        "(set EVREPORT_MAX_FILE_BYTES to raise it)"
    )


def test_size_cap_on_predictions_cites_runs_line(mini, monkeypatch):
    rel = "artefacts/predictions/gbm-s1-test.csv"
    body = "row_id,y,p,notes\n" + "".join(f"t{i},0,0.5,{'x' * 500}\n" for i in range(1, 5))
    (mini / rel).write_text(body)
    monkeypatch.setattr(files_mod, "MAX_FILE_BYTES", 1500)
    with pytest.raises(InputError) as e:
        load_project(mini)
    [p] = e.value.problems
    assert p.path == rel
    assert "over the 1,500-byte limit" in p.message
    assert p.message.endswith("(cited at runs.csv:7)")


def test_size_cap_exactly_at_limit_is_read(mini, monkeypatch):
    monkeypatch.setattr(files_mod, "MAX_FILE_BYTES", (mini / "runs.csv").stat().st_size)
    project, problems = inspect_project(mini)
    assert project is not None, [str(p) for p in problems]


def test_bad_encoding_in_run_log_names_the_line(mini):
    data = (mini / "runs.csv").read_bytes().splitlines(keepends=True)
    data[2] = data[2].replace(b"mlp", b"ml\xff", 1)
    (mini / "runs.csv").write_bytes(b"".join(data))
    _, problems = inspect_project(mini)
    [p] = [p for p in problems if p.path == "runs.csv"]
    assert p.line == 3
    assert str(p).count("runs.csv") == 1


def test_make_project_sanity(tmp_path):
    # guards the helpers the tests above depend on
    root = make_project(tmp_path / "p")
    assert load_project(root).runs[4].line == 6
