"""Hostile submissions and settings.

A name built to steal a grade, a crafted file that poses as another layout, a folder
1,200 deep, numbers at the edge of what validate accepts, a hard link to a file outside,
and text that would link, reorder or hide itself where a grader reads it.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from reportgen.batch import run_batch
from reportgen.grading import GradingOptions, load_roster, match_roster
from reportgen.grading.feedback import md_escape
from reportgen.grading.reuse import input_hash
from reportgen.grading.rubric import parse_rubric
from reportgen.render.env import plain
from reportgen.safe import escape_controls, inert_markdown

from .conftest import make_project
from .grading_fakes import grading_build

REPO = Path(__file__).resolve().parents[2]
RUBRIC = {"rungs": {"correct": {"shown": 2}, "larger_than_noise": {"shown": 3}}}


def grades(out: Path) -> list[dict]:
    return list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))


def sources(out: Path) -> dict[str, str]:
    rows = json.loads((out / "summary.json").read_text(encoding="utf-8"))["submissions"]
    return {r["name"]: Path(r["source"]).name for r in rows}


# --------------------------------------------------------------------------- 5: the roster


@pytest.mark.parametrize("broken", ["_bob", "Bob", "-bob", " bob"])
def test_a_broken_look_alike_never_takes_the_real_students_grade(tmp_path, broken):
    subs = tmp_path / "subs"
    make_project(subs / "bob", rung=3)
    make_project(subs / broken, behaviour="broken")
    roster = tmp_path / "roster.csv"
    roster.write_text("submission,student\nbob,s-bob\n", encoding="utf-8")
    opts = GradingOptions(rubric=parse_rubric(RUBRIC), roster=load_roster(roster))
    out = tmp_path / "out"
    run_batch([subs], out, formats=("json",), jobs=1, build=grading_build, grading=opts)
    by_source = {sources(out)[g["name"]]: g for g in grades(out)}
    assert by_source["bob"]["student"] == "s-bob"
    assert by_source["bob"]["status"] == "ok" and by_source["bob"]["total"] == "5"
    assert by_source[broken]["student"] == "" and by_source[broken]["status"] == "error"


def test_an_ambiguous_roster_line_is_reported_never_guessed(tmp_path):
    subs = tmp_path / "subs"
    make_project(subs / "_bob")
    make_project(subs / "Bob")
    make_project(subs / "zoë smith")
    roster = tmp_path / "roster.csv"
    roster.write_text("submission,student\nbob,s-bob\nZoe_Smith,s-zoe\n", encoding="utf-8")
    opts = GradingOptions(rubric=parse_rubric(RUBRIC), roster=load_roster(roster))
    out = tmp_path / "out"
    result = run_batch([subs], out, formats=("json",), jobs=1, build=grading_build, grading=opts)
    g = {r["name"]: r for r in grades(out)}
    assert g["zoe_smith"]["student"] == "s-zoe"  # a unique loose match still counts
    assert g["Bob"]["student"] == g["bob-2"]["student"] == ""  # never guessed
    message = (
        "roster submission 'bob' matches 2 submissions (Bob, bob-2) and none exactly, so no "
        "grade goes to this student; write the submission's exact folder or zip name in the roster"
    )
    assert (g["bob"]["student"], g["bob"]["status"], g["bob"]["error"]) == (
        "s-bob",
        "ambiguous",
        message,
    )
    assert result.extra["roster_problems"] == [message]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["roster_problems"] == [message]


def test_roster_matching_rules():
    originals = {"bob": " bob", "bob-2": "bob", "Zoe": "Zoë", "x": "x", "x-2": "X"}
    m = match_roster({"bob": "s1", "zoe": "s2", "x": "s3", "nobody": "s4"}, originals)
    assert m.students == {"bob-2": "s1", "Zoe": "s2", "x": "s3"}
    assert [u.submission for u in m.missing] == ["nobody"]
    # two roster lines that both match one submission only loosely: neither gets it
    m = match_roster({"Bob": "s1", "BOB": "s2"}, {"bob": "bob"})
    assert m.students == {} and len(m.ambiguous) == 2
    assert "matches bob only loosely, and so does another roster line" in m.ambiguous[0].error


# --------------------------------------------------------------------------- 6: the fingerprint


def _unframed_input_hash(folder: Path) -> str:
    """A fingerprint of names and bytes joined without lengths, which a crafted tail collides."""
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(b"\0entry\0" + p.relative_to(folder).as_posix().encode() + b"\0")
            h.update(b"file\0" + p.read_bytes())
    return h.hexdigest()


def test_a_crafted_tail_on_runs_csv_no_longer_collides_with_another_layout(tmp_path):
    runs, tail = b"run_id,model\nr1,mlp\n", b"x,y\n"
    a, b = tmp_path / "a", tmp_path / "b"
    for folder in (a, b):
        folder.mkdir()
        (folder / "evreport.toml").write_bytes(b"title = 't'\n")
    (a / "runs.csv").write_bytes(runs)
    (a / "zz.csv").write_bytes(tail)
    (b / "runs.csv").write_bytes(runs + b"\0entry\0zz.csv\0file\0" + tail)  # the crafted tail
    assert _unframed_input_hash(a) == _unframed_input_hash(b)  # unframed: they collide
    assert input_hash(a, "folder") != input_hash(b, "folder")
    assert input_hash(a, "folder") == input_hash(a, "folder")


def test_a_changed_submission_with_a_crafted_tail_is_rebuilt(tmp_path):
    subs, out = tmp_path / "subs", tmp_path / "out"
    alice = make_project(subs / "alice")
    (alice / "zz.csv").write_bytes(b"x,y\n")
    opts = dict(formats=("json",), jobs=1, build=grading_build)
    run_batch([subs], out, **opts, grading=GradingOptions())
    runs = (alice / "runs.csv").read_bytes()
    (alice / "zz.csv").unlink()
    (alice / "runs.csv").write_bytes(runs + b"\0entry\0zz.csv\0file\0x,y\n")
    again = run_batch([subs], out, **opts, grading=GradingOptions())
    assert again.extra["reused"] == 0


# --------------------------------------------------------------------------- 7: deep folders


def _nest(folder: Path, depth: int) -> None:
    here = os.open(folder, os.O_RDONLY)
    try:  # one level at a time (the whole path would be longer than PATH_MAX)
        for _ in range(depth):
            os.mkdir("d", dir_fd=here)
            inner = os.open("d", os.O_RDONLY, dir_fd=here)
            os.close(here)
            here = inner
    finally:
        os.close(here)


def _unnest(folder: Path) -> None:
    """Flatten what ``_nest`` made, one level at a time (shutil.rmtree would recurse)."""
    top = folder / "d"
    while (top / "d").is_dir():
        os.rename(top / "d", folder / "inner")
        os.rmdir(top)
        os.rename(folder / "inner", top)
    top.rmdir()


@pytest.fixture
def deep_folder(tmp_path):
    """``tmp_path/subs/bob/artefacts`` 1,200 folders deep, flattened again afterwards."""
    deep = make_project(tmp_path / "subs" / "bob")
    (deep / "artefacts").mkdir()
    _nest(deep / "artefacts", 1200)
    yield deep
    _unnest(deep / "artefacts")


def test_1200_nested_folders_cost_one_row_and_the_class_is_built(tmp_path, fake_ref, deep_folder):
    subs = tmp_path / "subs"
    make_project(subs / "alice")
    out = tmp_path / "out"
    result = run_batch(  # with the grading hooks: the re-grading fingerprint walks it too
        [subs], out, formats=("json",), jobs=1, build=fake_ref, grading=GradingOptions()
    )
    rows = {r["name"]: r for r in result.rows}
    assert rows["alice"]["status"] == "ok"
    assert rows["bob"]["error"].startswith(
        "<project>: error: the submission folder has folders nested more than 64 deep "
        "(artefacts/d/d/d/d/"
    )
    assert rows["bob"]["error"].endswith(
        "...) (the limit for a zip too); it is not read [too-large]"
    )
    assert (out / "summary.csv").is_file() and not (out / ".evreport-tmp").exists()


def test_a_folder_of_more_than_10000_entries_costs_one_row(tmp_path, fake_ref):
    subs = tmp_path / "subs"
    make_project(subs / "alice")
    wide = make_project(subs / "carol")
    (wide / "artefacts").mkdir()
    for i in range(10_001):
        (wide / "artefacts" / f"{i}").touch()
    result = run_batch([subs], tmp_path / "out", formats=("json",), jobs=1, build=fake_ref)
    rows = {r["name"]: r for r in result.rows}
    assert rows["alice"]["status"] == "ok"
    assert rows["carol"]["error"] == (
        "<project>: error: the submission folder has more than 10,000 files and folders (the "
        "limit for a zip too); it is not read [too-large]"
    )


def test_walk_tree_is_sorted_does_not_follow_links_and_stops_at_its_caps(tmp_path):
    from reportgen.safe import TreeTooLarge, walk_tree

    (tmp_path / "b" / "c").mkdir(parents=True)
    (tmp_path / "a.txt").write_text("x")
    (tmp_path / "b" / "c" / "d.txt").write_text("y")
    os.symlink(tmp_path, tmp_path / "b" / "loop")
    assert [rel for rel, _ in walk_tree(tmp_path)] == [
        "a.txt",
        "b",
        "b/c",
        "b/loop",  # a folder's entries, then its sub-folders' (the link is not entered)
        "b/c/d.txt",
    ]
    with pytest.raises(TreeTooLarge, match="more than 4 files and folders"):
        list(walk_tree(tmp_path, max_entries=4))
    with pytest.raises(TreeTooLarge, match=r"folders nested more than 2 deep \(b/c\)"):
        list(walk_tree(tmp_path, max_depth=2))


# --------------------------------------------------------------------------- 9: numbers


def _weekly_churn(tmp_path: Path, changes: dict[str, str]) -> Path:
    root = tmp_path / "wc"
    shutil.copytree(
        REPO / "examples" / "weekly-churn", root, ignore=shutil.ignore_patterns("report")
    )
    text = (root / "evreport.toml").read_text(encoding="utf-8")
    for old, new in changes.items():
        assert old in text, old
        text = text.replace(old, new)
    (root / "evreport.toml").write_text(text, encoding="utf-8")
    return root


AT_THE_BOUNDS = {
    "min_useful_effect = 0.005": "min_useful_effect = 1e12",
    "seed_sd_multiple = 2.0": "seed_sd_multiple = 1e6",
    "confidence       = 0.95": "confidence = 0.9999",
    "random_seed      = 0": "random_seed = 9223372036854775807",
    "false_positive   = 1.0": "false_positive = 1e12",
    "false_negative   = 3.0": "false_negative = 1e12",
    "cases_per_period = 10000": "cases_per_period = 1e12",
    "bins         = 10": "bins = 1000\nnot_worse_margin = 1e12",
    'text              = "The MLP beats gradient boosting by 0.007 test log loss."': (
        'text = "The MLP beats it, see http://evil.example/x and www.evil.example, '
        'mail a@evil.example"'
    ),
}


@pytest.mark.parametrize(
    "key,value,message",
    [
        ("confidence", "0.9999999999999999", "rule.confidence = 0.9999999999999999 must be"),
        ("false_negative", "1e308", "costs.false_negative = 1e+308 must be at most 1e+12"),
        ("cases_per_period", "1e300", "costs.cases_per_period = 1e+300 must be at most 1e+12"),
        ("min_useful_effect", "1e13", "min_useful_effect = 10000000000000.0 must be at most 1e+12"),
        ("seed_sd_multiple", "1e7", "rule.seed_sd_multiple = 10000000.0 must be at most 1e+06"),
    ],
)
def test_validate_refuses_a_number_past_its_bound(tmp_path, key, value, message):
    from reportgen.project import inspect_project

    line = next(k for k in AT_THE_BOUNDS if k.startswith(key))
    root = _weekly_churn(tmp_path, {line: f"{key} = {value}"})
    _, problems = inspect_project(root)
    assert any(message in p.message for p in problems), [str(p) for p in problems]


def test_a_build_with_every_number_at_its_bound_is_whole(tmp_path):
    """Every number at the edge validate allows: a report, no internal error, no link."""
    from reportgen.api import build_report

    root = _weekly_churn(tmp_path, AT_THE_BOUNDS)
    result = build_report(root, tmp_path / "out", ("json", "md"))
    assert result.report.project.title
    md = (tmp_path / "out" / "decision-log.md").read_text(encoding="utf-8")
    assert "http[:]//evil" in md.replace("\\", "")
    cmarkgfm = pytest.importorskip("cmarkgfm")
    html = cmarkgfm.github_flavored_markdown_to_html(md)
    assert "<a " not in html and "evil.example" in html


def test_an_internal_error_reaches_the_summary_without_machine_paths(tmp_path, fake_ref):
    make_project(tmp_path / "subs" / "alice", behaviour="raise")
    out = tmp_path / "out"
    run_batch([tmp_path / "subs"], out, formats=("json",), jobs=1, build=fake_ref)
    [row] = json.loads((out / "summary.json").read_text(encoding="utf-8"))["submissions"]
    assert row["error"] == "internal error (ZeroDivisionError): boom"
    assert "Traceback" in row["detail"] and "fakes.py" in row["detail"]
    text = json.dumps(row) + (out / "summary.csv").read_text(encoding="utf-8")
    text = text.replace(row["source"], "")  # the path the grader gave on the command line
    for machine in {str(REPO), str(tmp_path), sys.prefix, str(Path.home())}:
        assert machine not in text


# --------------------------------------------------------------------------- 11: hard links


def test_a_hard_link_to_a_file_outside_is_never_read(tmp_path, fake_ref):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "notes.csv").write_text("run_id,model\nSECRET,grade-list\n")
    subs = tmp_path / "subs"
    make_project(subs / "alice")
    mallory = make_project(subs / "mallory")
    (mallory / "runs.csv").unlink()
    os.link(outside / "notes.csv", mallory / "runs.csv")
    out = tmp_path / "out"
    result = run_batch([subs], out, formats=("json",), jobs=1, build=fake_ref)
    rows = {r["name"]: r for r in result.rows}
    assert rows["alice"]["status"] == "ok"
    assert rows["mallory"]["error"] == (
        "runs.csv: error: a hard link (2 names for one file): it may be a file from outside "
        "the submission, so this submission is not read (submit a copy) [hard-link]"
    )
    for name in ("summary.csv", "summary.json", "index.html"):
        assert "SECRET" not in (out / name).read_text(encoding="utf-8")


# --------------------------------------------------------------------------- 13: text


INVISIBLE = "\u202e\u2066\u200b\u200d\ufeff"


def test_bidi_and_zero_width_characters_are_shown_escaped_everywhere(tmp_path, fake_ref):
    subs = tmp_path / "subs"
    make_project(subs / f"eve{INVISIBLE}", behaviour="broken", message=f"gbm{INVISIBLE}txt.exe")
    roster = tmp_path / "roster.csv"
    roster.write_text(f"submission,student\neve{INVISIBLE},s{INVISIBLE}1\n", encoding="utf-8")
    opts = GradingOptions(rubric=parse_rubric(RUBRIC), roster=load_roster(roster))
    out = tmp_path / "out"
    run_batch([subs], out, formats=("json",), jobs=1, build=grading_build, grading=opts)
    shown = "\\u202e\\u2066\\u200b\\u200d\\ufeff"
    for name in ("summary.csv", "index.html", "grades.csv", "summary.json"):
        text = (out / name).read_text(encoding="utf-8")
        assert not any(c in text for c in INVISIBLE), name
        assert shown in text.replace("\\\\", "\\"), name
    [g] = grades(out)
    assert g["student"] == f"s{shown}1" and g["name"] == "eve"


def test_validate_output_shows_invisible_characters(tmp_path):
    from click.testing import CliRunner
    from input.conftest import make_project as real_project

    from reportgen.cli import main

    root = real_project(tmp_path / f"proj{INVISIBLE}")
    r = CliRunner().invoke(main, ["validate", str(root)])
    assert r.exit_code == 0, r.output
    assert not any(c in r.output for c in INVISIBLE)
    assert "proj\\u202e\\u2066\\u200b\\u200d\\ufeff: valid" in r.output


BARE = [
    "see http://evil.example/x now",
    "HTTPS://evil.example",
    "ftp://evil.example/f",
    "visit www.evil.example today",
    "(www.evil.example)",
    "mail a.b+c@evil.example",
    "mailto:a@evil.example",
    "xmpp:a@evil.example",
    "<http://evil.example>",
    "[x](http://evil.example)",
    "![x](http://evil.example/p.png)",
    "<a href='http://evil.example'>x</a>",
    "`code` and ``more``",
]


@pytest.mark.parametrize("text", BARE)
def test_no_user_text_becomes_a_link_under_githubs_renderer(text):
    cmarkgfm = pytest.importorskip("cmarkgfm")
    for escaped in (plain(text), md_escape(text), inert_markdown(text)):
        html = cmarkgfm.github_flavored_markdown_to_html(escaped)
        assert "<a" not in html and "<img" not in html and "<code" not in html, (escaped, html)
        assert "evil" in html or "code" in html  # the text itself is still there
    raw = cmarkgfm.github_flavored_markdown_to_html(text)  # unescaped, each one does form
    assert any(tag in raw for tag in ("<a", "<img", "<code", "raw HTML omitted")), raw


def test_inert_markdown_breaks_links_visibly_and_keeps_the_rest():
    assert inert_markdown("see http://x.org and www.x.org") == (
        "see http\\[:\\]//x.org and www\\[.\\]x.org"
    )
    assert inert_markdown("a@b.org, mailto:c") == "a\\[@\\]b.org, mailto\\[:\\]c"
    assert inert_markdown("log_loss 0.5 (a) @ home x.www y") == "log_loss 0.5 (a) @ home x.www y"
    assert inert_markdown("@home x.www.y") == "\\[@\\]home x.www\\[.\\]y"
    assert inert_markdown("a_b", strict=True) == "a\\_b"
    assert inert_markdown("a\u202eb\nc") == r"a\\u202eb c"  # Markdown shows a\u202eb c
    assert escape_controls("Zoë\u200b") == "Zoë\\u200b"
