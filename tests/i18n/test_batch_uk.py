"""A batch with --lang uk: the class index, feedback.md and grades.csv comments in Ukrainian
(no common English word in the text this area writes), numbers with a decimal comma; and the
language is part of the reuse key."""

from __future__ import annotations

import os
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from reportgen.batch import run_batch
from reportgen.grading import GradingOptions
from reportgen.grading.rubric import TEMPLATE, parse_rubric

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ENGLISH = {
    "the",
    "and",
    "of",
    "is",
    "not",
    "shown",
    "rung",
    "points",
    "why",
    "fix",
    "interval",
    "general",
    "set",
    "held",
    "submission",
    "verdict",
    "passed",
    "feedback",
    "missing",
    "report",
    "first",
    "claim",
    "your",
}


def _english(text: str) -> set[str]:
    return {w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH}


@pytest.mark.skipif(
    not (EXAMPLES / "tuned-no-replay" / "evreport.toml").is_file(), reason="examples"
)
def test_uk_batch_writes_index_and_feedback_in_ukrainian(tmp_path):
    subs = tmp_path / "subs"
    shutil.copytree(
        EXAMPLES / "tuned-no-replay", subs / "bob", ignore=shutil.ignore_patterns("report")
    )
    opts = GradingOptions(rubric=parse_rubric(tomllib.loads(TEMPLATE)))
    out = tmp_path / "out"
    run_batch(
        [subs], out, formats=("html", "json"), jobs=1, timeout=300, grading=opts, language="uk"
    )
    fb = (out / "bob" / "feedback.md").read_text()
    # our own lines of feedback.md (headings, table, what to fix); report text quoted in
    # it comes from other areas and from the user's claim
    ours = [
        ln for ln in fb.splitlines() if ln.startswith(("#", "**", "| щабель", "Найнижчий", "Чого"))
    ]
    assert ours and not _english("\n".join(ours)), ours
    assert "0,277" in fb
    soup = BeautifulSoup((out / "index.html").read_text(), "html.parser")
    assert soup.html["lang"] == "uk"
    heads = " ".join(th.get_text() for th in soup.find_all(["th", "h1", "h2", "h3"]))
    assert not _english(heads), heads
    grades = (out / "grades.csv").read_text()
    assert "bob" in grades


def test_reuse_key_carries_the_language():
    from reportgen.grading.reuse import key

    assert key("abc", "1", ("json",), "ref") == "abc|evreport 1|json|ref"
    assert key("abc", "1", ("json",), "ref", "uk") != key("abc", "1", ("json",), "ref", "en")


# ------------------------------------------------------------------ the batch's own lines

ROW = {
    "name": "alice",
    "status": "ok",
    "verdict": "keep-baseline",
    "seconds": 2.04,
    "display": {"candidate": "MLP (1 x 32)", "baseline": "gradient boosting"},
}


def test_progress_lines_say_the_verdict_in_words_in_the_batch_s_language():
    from reportgen.batch import Progress
    from reportgen.words.i18n import speaking

    assert Progress.line(1, 2, ROW) == "[1/2] alice: ok (keep gradient boosting) 2.0 s"
    failed = {"name": "bob", "status": "error", "error": "x" * 120, "seconds": 1.0}
    assert Progress.line(2, 2, failed) == f"[2/2] bob: error: {'x' * 100}… 1.0 s"
    with speaking("uk"):
        ok, error = Progress.line(1, 2, ROW), Progress.line(2, 2, failed)
    assert ok == "[1/2] alice: зібрано (залишити gradient boosting) 2,0 с", ok
    assert "keep" not in ok and "error" not in error and "1,0 с" in error


def _said(tmp_path: Path, make, **options) -> tuple[str, str]:
    """The one line run_batch raises for a bad command line, in English and in Ukrainian."""
    from reportgen.errors import EvreportError

    said = []
    for language in (None, "uk"):
        paths, out = make(tmp_path / (language or "en"))
        with pytest.raises(EvreportError) as raised:
            run_batch(paths, out, formats=("json",), language=language, **options)
        said.append(str(raised.value))
    return said[0], said[1]


def _project(root: Path) -> Path:
    p = root / "subs" / "alice"
    p.mkdir(parents=True)
    (p / "evreport.toml").write_text("", encoding="utf-8")
    return p


def _out_file(root):
    _project(root)
    (root / "out").write_text("x", encoding="utf-8")
    return [root / "subs"], root / "out"


def _out_foreign(root):
    _project(root)
    (root / "out").mkdir()
    (root / "out" / "notes.txt").write_text("mine", encoding="utf-8")
    return [root / "subs"], root / "out"


def _out_bad_marker(root):
    _project(root)
    (root / "out").mkdir()
    (root / "out" / ".evreport-batch.json").write_text("{", encoding="utf-8")
    return [root / "subs"], root / "out"


def _out_inside(root):
    return [_project(root).parent], root / "subs" / "out"


def _sub_inside(root):
    p = _project(root / "out")
    return [p], root / "out"


def _no_such(root):
    root.mkdir()
    return [root / "nobody"], root / "out"


def _not_zip(root):
    root.mkdir()
    (root / "alice.txt").write_text("x", encoding="utf-8")
    return [root / "alice.txt"], root / "out"


def _empty_folder(root):
    (root / "subs").mkdir(parents=True)
    return [root / "subs"], root / "out"


def _nothing(root):
    root.mkdir()
    return [], root / "out"


def _fine(root):
    _project(root)
    return [root / "subs"], root / "out"


@pytest.mark.parametrize(
    ("make", "options", "english"),
    [
        (_fine, {"jobs": 0}, "--jobs 0 is not valid; it must be at least 1"),
        (_fine, {"timeout": 0.0}, "--timeout 0 is not valid"),
        (_fine, {"executor": "ssh"}, "--executor ssh is not valid; use local or dask"),
        (_fine, {"scheduler": "tcp://x:1"}, "--scheduler ADDRESS goes with --executor dask"),
        (_out_file, {}, "exists and is not a folder"),
        (_out_foreign, {}, "is not empty and holds no .evreport-batch.json"),
        (_out_bad_marker, {}, "holds an unreadable .evreport-batch.json"),
        (_out_inside, {}, "is inside the submission"),
        (_sub_inside, {}, "is inside --out"),
        (_no_such, {}, "does not exist"),
        (_not_zip, {}, "is a file but not a .zip"),
        (_empty_folder, {}, "has no evreport.toml and no sub-folders or zips to grade"),
        (_nothing, {}, "no submissions given"),
    ],
)
def test_a_ukrainian_batch_refuses_a_bad_command_line_in_ukrainian(
    tmp_path, make, options, english
):
    from tests.i18n.english import english_runs

    en, uk = _said(tmp_path, make, **options)
    assert english in en, en
    assert english_runs(uk, "") == [] and english not in uk, uk


def test_a_ukrainian_batch_says_a_busy_or_unwritable_out_in_ukrainian(tmp_path):
    import errno

    from reportgen.batch.outdir import write_failed
    from reportgen.errors import BusyError
    from reportgen.safe import lock_folder
    from reportgen.words.i18n import speaking
    from tests.i18n.english import english_runs

    _project(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    said = []
    with lock_folder(out):
        for language in (None, "uk"):
            with pytest.raises(BusyError) as raised:
                run_batch([tmp_path / "subs"], out, formats=("json",), language=language)
            said.append(str(raised.value))
    assert "is in use by another evreport process (pid" in said[0], said[0]
    assert english_runs(said[1], "") == [] and str(os.getpid()) in said[1], said[1]
    full = OSError(errno.ENOSPC, "No space left on device")
    assert str(write_failed(out, full).problems[0].message).startswith(
        f"cannot write the batch into --out {out}: the disk is full"
    )
    with speaking("uk"):
        message = write_failed(out, full).problems[0].message
    assert english_runs(message, "") == [] and "--out" in message, message


@pytest.mark.parametrize(
    ("doc", "english"),
    [
        ({"rungs": {"corect": 1}}, "rubric: unknown rung 'corect'; did you mean 'correct'?"),
        ({"rungs": {"correct": {"shwn": 1}}}, "unknown status of rung correct 'shwn'"),
        ({"rungs": {"correct": -1}}, "rubric [rungs] correct.shown = -1 is negative"),
        ({"rungs": {"correct": "x"}}, "rubric [rungs] correct must be { shown = 3, partly = 1 }"),
        (
            {"rungs": {"correct": {"shown": "x"}}},
            "rubric [rungs] correct.shown = 'x' is not a number",
        ),
        ({"rungs": {"credit": "ladder"}}, "credit = 'ladder' is not one of 'credited', 'status'"),
        ({"checks": {"no-such-check": 1}}, "rubric: unknown check 'no-such-check'"),
        ({"claim": {"honesty": 1}}, "rubric: unknown key in [claim] 'honesty'"),
        ({"deductions": {"late": 1, "max_warnings": 2}}, "max_warnings needs per_warning"),
        ({"rungs": []}, "rubric [rungs] must be a table"),
        ({"extra": {}}, "rubric: unknown table '[extra]'"),
        ({}, "gives no points"),
    ],
)
def test_a_bad_rubric_is_refused_in_the_batch_s_language(doc, english):
    from reportgen.errors import UsageError
    from reportgen.words.i18n import speaking
    from tests.i18n.english import english_runs

    with pytest.raises(UsageError) as raised:
        parse_rubric(doc)
    assert english in str(raised.value), raised.value
    with speaking("uk"), pytest.raises(UsageError) as raised:
        parse_rubric(doc)
    said = str(raised.value)
    assert said.startswith("рубрика") and english_runs(said, "") == [], said


def test_a_bad_roster_or_deadline_is_refused_in_the_batch_s_language(tmp_path):
    from reportgen.errors import UsageError
    from reportgen.grading import load_roster, parse_deadline
    from reportgen.grading.rubric import load_rubric
    from reportgen.words.i18n import speaking
    from tests.i18n.english import english_runs

    (tmp_path / "no-header.csv").write_text("foo,bar\n1,2\n", encoding="utf-8")
    (tmp_path / "short.csv").write_text("submission,student\nalice\n", encoding="utf-8")
    (tmp_path / "twice.csv").write_text("submission,student\na,1\na,2\n", encoding="utf-8")
    calls = [
        (lambda: load_roster(tmp_path / "none.csv"), "does not exist"),
        (lambda: load_roster(tmp_path / "no-header.csv"), "needs a header"),
        (lambda: load_roster(tmp_path / "short.csv"), "line 2 has too few columns"),
        (lambda: load_roster(tmp_path / "twice.csv"), "submission 'a' is listed twice"),
        (lambda: parse_deadline("Friday"), "is not an ISO 8601 date-time such as"),
        (lambda: load_rubric(tmp_path / "none.toml"), "does not exist"),
    ]
    for call, english in calls:
        with pytest.raises(UsageError) as raised:
            call()
        assert english in str(raised.value), raised.value
        with speaking("uk"), pytest.raises(UsageError) as raised:
            call()
        said = str(raised.value)
        assert english not in said and english_runs(said, "") == [], said
