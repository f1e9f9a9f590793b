"""evreport batch: discovery, names, a mixed batch with hostile and hung projects, the summary."""

from __future__ import annotations

import csv
import io
import json
import time
from dataclasses import replace
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from reportgen.batch import (
    COLUMNS,
    Progress,
    discover,
    run_batch,
    safe_name,
    summary_csv,
    unique_names,
)
from reportgen.errors import UsageError
from reportgen.model.enums import RungStatus

from .conftest import make_project, raw_zip, snapshot, zip_tree
from .fakes import fixture_report


@pytest.mark.parametrize(
    "raw, safe",
    [
        ("alice", "alice"),
        ("Zoë Smith (v2)", "Zoe_Smith_v2"),
        ("../../etc", "etc"),
        ("...", "submission"),
        ("<script>", "script"),
        ("index.html", "index.html_"),
        ("CON", "CON_"),
        ("a" * 200, "a" * 80),
    ],
)
def test_safe_name(raw, safe):
    assert safe_name(raw) == safe


def test_unique_names_are_stable_and_ignore_case():
    assert unique_names(["alice", "bob", "Alice", "alice", "alice-2"]) == [
        "alice",
        "bob",
        "Alice-3",
        "alice-4",
        "alice-2",
    ]


def test_discover_sorts_and_dedupes(tmp_path):
    subs = tmp_path / "subs"
    make_project(subs / "bob")
    make_project(subs / "alice")
    zip_tree(make_project(tmp_path / "z"), subs / "alice.zip")
    (subs / "README.txt").write_text("ignored")
    (subs / ".hidden").mkdir()
    (subs / "carol").mkdir()  # no evreport.toml: still a submission, it will fail visibly
    found = discover([subs, subs / "bob"])
    assert [(s.name, s.kind, s.source.name) for s in found] == [
        ("alice", "folder", "alice"),
        ("alice-2", "zip", "alice.zip"),
        ("bob", "folder", "bob"),
        ("carol", "folder", "carol"),
    ]


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "no submissions"),
        (["missing"], "does not exist"),
        (["notes.txt"], "not a .zip"),
        (["empty"], "no evreport.toml and no sub-folders"),
    ],
)
def test_discover_usage_errors(tmp_path, args, message):
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match=message):
        discover([tmp_path / a for a in args])


def mixed_submissions(root: Path) -> Path:
    """Good folders, a good zip, a broken project, a zip-slip zip, a hung and a crashing one."""
    subs = root / "subs"
    make_project(subs / "alice", verdict="adopt", rung=3, gap=0.004)
    make_project(subs / "bob", verdict="keep-baseline", rung=1, gap=-0.002)
    make_project(subs / "before", verdict="adopt", rung=5, kind="before-after")
    make_project(subs / "broken", "broken", message="value <b>NaN</b> is not a number")
    make_project(subs / "hung", "sleep", seconds=60)
    make_project(subs / "crashes", "crash")
    make_project(subs / "zz-raises", "raise")
    zip_tree(make_project(root / "c", verdict="adopt", rung=2), subs / "carol.zip", top="carol")
    raw_zip(
        subs / "mallory.zip", [("evreport.toml", b'title = "x"'), ("../../escaped.txt", b"evil")]
    )
    return subs


def test_mixed_batch(tmp_path, fake_ref):
    subs = mixed_submissions(tmp_path)
    out = tmp_path / "out"
    before = snapshot(tmp_path, skip=out)
    seen = []
    start = time.perf_counter()
    result = run_batch(
        [subs],
        out,
        formats=("html", "json"),
        jobs=2,
        timeout=2.0,
        build=fake_ref,
        progress=lambda done, total, row: seen.append((done, total, row["name"])),
    )
    took = time.perf_counter() - start
    assert took < 30, "the hung project was not stopped"
    rows = {r["name"]: r for r in result.rows}
    assert [r["name"] for r in result.rows] == sorted(rows)
    assert result.exit_code == 1 and result.failed == 5
    assert {n: r["status"] for n, r in rows.items()} == {
        "alice": "ok",
        "before": "ok",
        "bob": "ok",
        "broken": "error",
        "carol": "ok",
        "crashes": "error",
        "hung": "error",
        "mallory": "error",
        "zz-raises": "error",
    }
    assert rows["broken"]["error"] == (
        "runs.csv:14:3: error: value <b>NaN</b> is not a number [bad-value]"
    )
    assert rows["hung"]["error"] == "timed out after 2 s; the project was stopped"
    assert rows["crashes"]["error"].startswith("the worker process died (exit code 7)")
    assert (
        rows["mallory"]["error"]
        == "zip entry '../../escaped.txt' climbs out of the folder with '..'"
    )
    assert rows["zz-raises"]["error"] == "internal error (ZeroDivisionError): boom"
    assert "ZeroDivisionError" in rows["zz-raises"]["detail"]
    assert sorted(d for d, _, _ in seen) == list(range(1, 10)) and {t for _, t, _ in seen} == {9}

    # nothing written outside OUT, no temporary folders left inside it
    assert snapshot(tmp_path, skip=out) == before
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [
            ".evreport-batch.json",
            ".evreport-lock",
            "alice",
            "before",
            "bob",
            "carol",
            "index.html",
            "summary.csv",
            "summary.json",
        ]
    )

    # the summary matches each project's report.json
    summary = json.loads((out / "summary.json").read_text())
    assert summary["schema"] == "evreport-batch/1"
    assert summary["counts"] == {
        "submissions": 9,
        "ok": 4,
        "errors": 5,
        "reached": {"correct": 4, "fair": 3, "larger than noise": 2, "relevant": 1, "bounded": 1},
    }
    for row in summary["submissions"]:
        if row["status"] != "ok":
            assert row["report"] is None and row["verdict"] is None
            continue
        report = json.loads((out / row["name"] / "report.json").read_text())
        assert row["verdict"] == report["decision"]["verdict"]
        assert row["supported_rung"] == report["claim"]["supported_rung"]
        assert row["seed_gap_in_sd"] == report["noise"]["seed"]["gap_in_sd"]
        assert [
            row[f"rung{i}_{n}"]
            for i, n in enumerate(
                ["correct", "fair", "larger_than_noise", "relevant", "bounded"], 1
            )
        ] == [r["status"] for r in report["ladder"]]
        if report["before_after"]:
            assert (row["gap_kind"], row["gap"]) == (
                "before_after",
                report["before_after"]["difference"],
            )
        elif report["noise"]["block"]:
            assert (row["gap_kind"], row["gap"]) == ("block", report["noise"]["block"]["gap"])
        else:
            assert (row["gap_kind"], row["gap"]) == ("cv", report["noise"]["interval"]["gap"])
    assert rows["carol"]["source"] == str(subs / "carol.zip")

    table = list(csv.DictReader(io.StringIO((out / "summary.csv").read_text())))
    assert [r["name"] for r in table] == [r["name"] for r in summary["submissions"]]
    assert list(table[0]) == list(COLUMNS)
    assert table[0]["gap"] == "0.004" and table[0]["status"] == "ok"

    # the index parses, escapes student text and links to existing reports
    html = (out / "index.html").read_text()
    assert "<b>NaN</b>" not in html and "&lt;b&gt;NaN&lt;/b&gt;" in html
    soup = BeautifulSoup(html, "html.parser")
    links = [
        a["href"] for a in soup.select("#by-name tbody tr > td:first-child a")
    ]  # the table by name
    assert links == [
        "alice/report.html",
        "before/report.html",
        "bob/report.html",
        "carol/report.html",
    ]
    assert all((out / href).is_file() for href in links)
    assert not soup.find_all("script")
    assert len(soup.select("#by-name tbody tr")) == 9
    assert "4reached rung 1 (correct)" in soup.select_one(".counts").get_text("", strip=True)


def test_worker_is_replaced_after_a_timeout(tmp_path, fake_ref):
    subs = tmp_path / "subs"
    make_project(subs / "a-hung", "sleep", seconds=60)
    make_project(subs / "b-ok")
    make_project(subs / "c-ok")
    result = run_batch(
        [subs], tmp_path / "out", formats=("json",), jobs=1, timeout=1.0, build=fake_ref
    )
    assert [r["status"] for r in result.rows] == ["error", "ok", "ok"]
    assert not (tmp_path / "out" / "a-hung").exists()


def test_all_good_exits_zero_and_a_rerun_replaces_the_earlier_batch(tmp_path, fake_ref):
    make_project(tmp_path / "p1")
    make_project(tmp_path / "p2")
    out = tmp_path / "out"
    first = run_batch(
        [tmp_path / "p1", tmp_path / "p2"], out, formats=("json",), jobs=1, build=fake_ref
    )
    assert first.exit_code == 0 and [r["status"] for r in first.rows] == ["ok", "ok"]
    second = run_batch([tmp_path / "p2"], out, formats=("json",), jobs=1, build=fake_ref)
    assert [r["name"] for r in second.rows] == ["p2"]
    assert sorted(p.name for p in out.iterdir()) == [
        ".evreport-batch.json",
        ".evreport-lock",
        "index.html",
        "p2",
        "summary.csv",
        "summary.json",
    ]


@pytest.mark.parametrize("where", ["inside", "contains", "foreign"])
def test_out_usage_errors(tmp_path, fake_ref, where):
    project = make_project(tmp_path / "p")
    out = {"inside": project / "out", "contains": tmp_path, "foreign": tmp_path / "other"}[where]
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "thesis.tex").write_text("precious")
    before = snapshot(tmp_path)
    with pytest.raises(UsageError, match="--out"):
        run_batch([project], out, build=fake_ref)
    assert snapshot(tmp_path) == before


def test_csv_cells_cannot_become_formulas():
    row = dict.fromkeys(COLUMNS)
    row.update(name="x", status="error", error='=HYPERLINK("http://evil")', gap=-0.5)
    line = summary_csv([row]).splitlines()[1]
    assert "'=HYPERLINK" in line and ",-0.5," in line


def test_progress_plain_lines():
    buf = io.StringIO()
    mlp = {"candidate": "mlp", "baseline": "logreg"}
    row = {"name": "alice", "status": "ok", "verdict": "adopt", "seconds": 1.23, "display": mlp}
    Progress(buf)(3, 100, row)
    Progress(buf)(
        4, 100, {"name": "bob", "status": "error", "error": "bad\x1b[31m", "seconds": 0.5}
    )
    assert buf.getvalue().splitlines() == [
        "[3/100] alice: ok (adopt mlp) 1.2 s",
        "[4/100] bob: error: bad [31m 0.5 s",
    ]


def test_summary_fields_turn_nan_into_null_and_read_before_after():
    from reportgen.batch import summary_fields

    churn, ba = (
        fixture_report("report-weekly-churn.json"),
        fixture_report("report-tuned-replay.json"),
    )
    assert churn.noise.seed is not None and churn.noise.block is not None
    assert ba.before_after is not None
    first, third = ba.ladder[0], ba.ladder[2]
    report = replace(
        ba,
        ladder=(replace(first, status=RungStatus.SHOWN), replace(third, status=RungStatus.PARTLY)),
        claim=replace(ba.claim, supported_rung=1),
        noise=replace(
            ba.noise,
            seed=replace(churn.noise.seed, gap_in_sd=float("nan")),
            block=replace(churn.noise.block, gap=0.1),
        ),
        before_after=replace(ba.before_after, difference=0.065, low=0.01, high=float("inf")),
    )
    fields = summary_fields(report)
    assert fields["seed_gap_in_sd"] is None
    assert (fields["gap_kind"], fields["gap"], fields["gap_low"], fields["gap_high"]) == (
        "before_after",
        0.065,
        0.01,
        None,
    )
    assert (fields["rung1_correct"], fields["rung2_fair"], fields["rung3_larger_than_noise"]) == (
        "shown",
        None,
        "partly",
    )


def test_progress_bar_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    buf = Tty()
    bar = Progress(buf, width=10)
    bar(1, 2, {"name": "alice", "status": "ok", "verdict": "adopt", "seconds": 1.0})
    bar(2, 2, {"name": "bob", "status": "ok", "verdict": "roll-back", "seconds": 1.0})
    assert buf.getvalue() == (
        "\r#####..... [1/2] alice: ok (adopt the candidate) 1.0 s\x1b[K"
        "\r########## [2/2] bob: ok (roll back to the baseline) 1.0 s\x1b[K\n"
    )


def test_a_ukrainian_batch_says_a_hung_or_crashed_worker_in_ukrainian(tmp_path, fake_ref):
    from tests.i18n.english import english_runs

    subs = tmp_path / "subs"
    make_project(subs / "hung", "sleep", seconds=60)
    make_project(subs / "crashes", "crash")
    result = run_batch(
        [subs],
        tmp_path / "out",
        formats=("json",),
        jobs=2,
        timeout=1.5,
        build=fake_ref,
        language="uk",
    )
    rows = {r["name"]: r["error"] for r in result.rows}
    assert rows["hung"] == "перевищено ліміт часу (1,5 с); проєкт зупинено", rows
    assert rows["crashes"].startswith("робочий процес аварійно завершився (код виходу 7)")
    assert all(english_runs(e, "") == [] for e in rows.values()), rows
