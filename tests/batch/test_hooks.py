"""The hooks protocol of run_batch (reportgen.batch.hooks): when each hook runs and what it
may add; without hooks the batch is plain (no grading keys, no class overview)."""

from __future__ import annotations

import json
import os

from bs4 import BeautifulSoup

from reportgen.batch import MARKER, NoHooks, run_batch
from reportgen.safe import TMP_PREFIX

from .conftest import make_project


class RecordingHooks(NoHooks):
    """Records every call; adds a format, a reused-looking row key and a summary key."""

    after_build = "batch.fakes:after_build_hook"

    def __init__(self):
        self.calls = []

    def formats(self, formats):
        self.calls.append(("formats", tuple(formats)))
        return (*formats, "html")

    def prepare(self, out, subs, earlier, formats, build_ref, stage, language=None):
        self.calls.append(("prepare", [s.name for s in subs], tuple(formats), stage.is_dir()))
        return []

    def finish(self, rows, stage):
        staged = sorted(p.name for p in stage.iterdir())
        self.calls.append(("finish", [r.pop("seen_by_hook", None) for r in rows], staged))
        return {"from_hooks": 42}

    def write(self, out):
        self.calls.append(("write", (out / "summary.json").is_file()))


def test_hooks_run_in_order_and_add_what_they_return(tmp_path, fake_ref):
    make_project(tmp_path / "subs" / "alice")
    make_project(tmp_path / "subs" / "bob", verdict="roll-back")
    out = tmp_path / "out"
    hooks = RecordingHooks()
    result = run_batch(
        [tmp_path / "subs"], out, formats=("json",), jobs=1, build=fake_ref, grading=hooks
    )
    assert result.exit_code == 0
    assert hooks.calls == [
        ("formats", ("json",)),
        ("prepare", ["alice", "bob"], ("json", "html"), True),
        ("finish", ["alice:adopt", "bob:roll-back"], ["alice", "bob"]),
        ("write", True),
    ]
    assert (out / "alice" / "report.html").is_file()  # the format the hook added
    summary = json.loads((out / "summary.json").read_text())
    assert summary["from_hooks"] == 42 and result.extra == {"from_hooks": 42}
    assert all("seen_by_hook" not in r for r in summary["submissions"])


def test_without_hooks_the_batch_is_plain(tmp_path, fake_ref):
    make_project(tmp_path / "p")
    out = tmp_path / "out"
    result = run_batch([tmp_path / "p"], out, formats=("json",), jobs=1, build=fake_ref)
    assert result.extra == {} and result.exit_code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert list(summary) == ["schema", "tool", "columns", "counts", "submissions"]
    # no reused/total/max; the metric and display names for index.html only
    assert list(summary["submissions"][0]) == [*summary["columns"], "metric", "display"]
    assert not (out / "p" / ".evreport-inputs.json").exists()  # no reuse record
    soup = BeautifulSoup((out / "index.html").read_text(), "html.parser")
    assert soup.select(".overview") == [] and len(soup.select("#by-name tbody tr")) == 1
    # the error cell spans verdict, supported rung, five rungs and two gaps
    assert [th.get_text() for th in soup.select("#by-name th")][4:9] == [
        "1 correct",
        "2 fair",
        "3 larger than noise",
        "4 relevant",
        "5 bounded",
    ]


def test_temp_files_a_killed_batch_left_are_removed(tmp_path, fake_ref):
    make_project(tmp_path / "p")
    out = tmp_path / "out"
    run_batch([tmp_path / "p"], out, formats=("json",), jobs=1, build=fake_ref)
    left = [
        f"{TMP_PREFIX}summary.csv.0123456789ab.tmp",
        f"{TMP_PREFIX}{MARKER}.ba9876543210.tmp",
        f"{TMP_PREFIX}index.html.tmp",  # the name an older evreport used
    ]
    for name in left:
        (out / name).write_text("half")
    os.symlink(tmp_path / "p" / "runs.csv", out / f"{TMP_PREFIX}grades.csv.0123456789ab.tmp")
    (out / f"{TMP_PREFIX}notes.txt.0123456789ab.tmp").write_text("not ours")
    run_batch([tmp_path / "p"], out, formats=("json",), jobs=1, build=fake_ref)
    names = sorted(p.name for p in out.iterdir() if p.name.endswith(".tmp"))
    # a link or an entry for another name is not ours to remove
    assert names == [
        f"{TMP_PREFIX}grades.csv.0123456789ab.tmp",
        f"{TMP_PREFIX}notes.txt.0123456789ab.tmp",
    ]
    assert (tmp_path / "p" / "runs.csv").is_file()
