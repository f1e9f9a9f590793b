"""Grading end to end: a graded batch, re-runs and reuse, the class overview, the CLI's
grading options, the roster, and real builds graded from their report.json."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.batch import run_batch
from reportgen.cli import main
from reportgen.errors import UsageError
from reportgen.grading import GradingOptions, load_roster
from reportgen.grading.rubric import TEMPLATE, parse_rubric

from .conftest import make_project, zip_tree
from .grading_fakes import RUBRIC, grading_build

# ----------------------------------------------------------------------------- batch end to end


def grading_project(folder: Path, **fake) -> Path:
    make_project(folder, **fake)
    (folder / "runs.csv").write_text(
        "run_id,model,seed,split,metric,value,started_at,predictions\n"
        + "".join(
            f"r{i},m,{i},test,acc,{0.5 + i / 1000 + len(folder.name) / 10},2026-03-0{1 + i % 3}T10:00:00Z,artefacts/predictions/p{i}.csv\n"
            for i in range(6)
        ),
        encoding="utf-8",
    )
    pred = folder / "artefacts" / "predictions"
    pred.mkdir(parents=True, exist_ok=True)
    for i in range(6):
        (pred / f"p{i}.csv").write_text(f"row_id,y,p\n1,1,0.{i}{folder.name}\n", encoding="utf-8")
    return folder


def grades(out: Path) -> dict[str, dict]:
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    return {r["name"]: r for r in rows}


def test_batch_grades_roster_feedback_and_duplicates(tmp_path):
    subs = tmp_path / "subs"
    grading_project(subs / "alice", rung=3, claim="A beats B.")
    grading_project(
        subs / "bob",
        rung=1,
        claim="A beats B by 3 points.",
        failing="logged-equals-recomputed",
        warnings=3,
    )
    make_project(subs / "carol", behaviour="broken", message="=cmd|' /C calc'!A0")
    import shutil

    shutil.copytree(subs / "alice", subs / "zed-copy")  # renamed copy
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "submission,student\nalice,s1\nbob,=evil()\ncarol,s3\nnobody,s9\n", encoding="utf-8"
    )
    rubric = parse_rubric(RUBRIC)
    opts = GradingOptions(
        rubric=rubric, roster=load_roster(roster), deadline=datetime(2026, 3, 2, tzinfo=UTC)
    )
    out = tmp_path / "out"
    result = run_batch([subs], out, formats=("html",), jobs=2, build=grading_build, grading=opts)
    g = grades(out)
    assert list(g) == ["alice", "bob", "carol", "zed-copy", "nobody"]
    assert g["alice"]["student"] == "s1" and g["zed-copy"]["student"] == ""
    assert g["bob"]["student"] == "'=evil()"  # no formula from a cell
    assert (
        g["alice"]["rung1_correct"],
        g["alice"]["rung3_larger_than_noise"],
        g["alice"]["honest_claim"],
    ) == ("2", "3", "2")
    assert g["alice"]["late"] == "-3"  # a run started on 2026-03-03
    assert (
        g["bob"]["check_logged-equals-recomputed"],
        g["bob"]["warnings"],
        g["bob"]["honest_claim"],
    ) == ("0", "-1", "0")
    assert g["carol"]["total"] == "0" and g["carol"]["status"] == "error"
    assert g["carol"]["error"].startswith("runs.csv:14:3: error: ")  # the reason, never blank
    assert g["nobody"]["status"] == "missing" and g["nobody"]["student"] == "s9"
    assert all(r["max"] == "9.5" for r in g.values())
    # feedback.md beside each built report (json was added for the rubric)
    md = (out / "bob" / "feedback.md").read_text(encoding="utf-8")
    assert "rung 2 (fair)" in md and "Points: " in md
    assert (out / "bob" / "report.json").is_file()
    # copied work: the renamed copy, never a changed grade
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    groups = summary["duplicates"]
    assert [x["names"] for x in groups] == [["alice", "zed-copy"]]
    assert "an identical runs.csv (after sorting its rows)" in groups[0]["shares"]
    assert "6 byte-identical predictions files" in groups[0]["shares"][0]
    assert g["zed-copy"]["total"] == g["alice"]["total"]
    assert result.exit_code == 1


def test_rerun_reuses_unchanged_and_rebuilds_one_changed_byte(tmp_path):
    subs = tmp_path / "subs"
    for n in ("alice", "bob", "carol"):
        grading_project(subs / n)
    zip_tree(grading_project(tmp_path / "dan"), subs / "dan.zip")
    out = tmp_path / "out"
    # reuse is a grading step: run_batch without hooks is the plain batch
    first = run_batch(
        [subs], out, formats=("json",), jobs=2, build=grading_build, grading=GradingOptions()
    )
    assert first.extra["reused"] == 0 and first.exit_code == 0
    stamp = {
        n: (out / n / "report.json").stat().st_mtime_ns for n in ("alice", "bob", "carol", "dan")
    }
    second = run_batch(
        [subs], out, formats=("json",), jobs=2, build=grading_build, grading=GradingOptions()
    )
    assert second.extra["reused"] == 4
    assert all(r["reused"] for r in second.rows)
    assert {n: (out / n / "report.json").stat().st_mtime_ns for n in stamp} == stamp
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["reused"] == 4 and summary["submissions"][0]["status"] == "ok"
    # one changed byte in bob's predictions: only bob is rebuilt
    p = subs / "bob" / "artefacts" / "predictions" / "p0.csv"
    p.write_bytes(p.read_bytes()[:-2] + b"9\n")
    third = run_batch(
        [subs], out, formats=("json",), jobs=2, build=grading_build, grading=GradingOptions()
    )
    assert {r["name"]: r["reused"] for r in third.rows} == {
        "alice": True,
        "bob": False,
        "carol": True,
        "dan": True,
    }
    assert (out / "bob" / "report.json").stat().st_mtime_ns != stamp["bob"]
    # other formats or --force: everything is rebuilt
    fourth = run_batch(
        [subs], out, formats=("json", "html"), jobs=2, build=grading_build, grading=GradingOptions()
    )
    assert fourth.extra["reused"] == 0
    fifth = run_batch(
        [subs],
        out,
        formats=("json", "html"),
        jobs=2,
        build=grading_build,
        grading=GradingOptions(force=True),
    )
    assert fifth.extra["reused"] == 0


def test_cli_rubric_init_and_unknown_check(tmp_path):
    runner = CliRunner()
    path = tmp_path / "rubric.toml"
    r = runner.invoke(main, ["rubric", "init", str(path)])
    assert r.exit_code == 0, r.output
    assert path.read_text(encoding="utf-8") == TEMPLATE
    assert runner.invoke(main, ["rubric", "init", str(path)]).exit_code == 2
    path.write_text("[checks]\nfair-test-opened-once = 1\n", encoding="utf-8")
    make_project(tmp_path / "subs" / "alice")
    r = runner.invoke(
        main,
        ["batch", str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--rubric", str(path)],
    )
    assert r.exit_code == 2
    assert "unknown check 'fair-test-opened-once'; did you mean 'fair-test-opened-once-" in r.output
    assert not (tmp_path / "out").exists()


# ----------------------------------------------------------------------------- class overview


def test_index_overview_with_300_submissions_stays_small(tmp_path):
    import shutil
    import subprocess

    from bs4 import BeautifulSoup

    from reportgen.batch import COLUMNS, BatchResult, index_context, render_index
    from reportgen.grading.overview import common_missing

    rows, fps = [], {}
    verdicts = ("adopt", "keep-baseline", "roll-back", "inconclusive")
    for i in range(300):
        row = dict.fromkeys(COLUMNS)
        name = f"student-{i:03d}"
        if i % 50 == 7:
            row.update(
                name=name, status="error", error=f"runs.csv:3:1: error: bad <b>{i}</b> [bad-value]"
            )
        else:
            rung = i % 6
            row.update(
                name=name,
                status="ok",
                supported_rung=rung,
                verdict=verdicts[i % 4],
                recommend="mlp",
                report=f"{name}/report.html",
                total=float(rung),
                max=5.0,
                **{f"rung{k}_x": "shown" for k in range(1, 6)},
            )
            fps[name] = {"missing": {"3": f"the validation gap is 0.{i} seed sd, not more than 2"}}
        rows.append(row)
    extra = {
        "reused": 12,
        "duplicates": [
            {
                "names": ["student-001", "student-002"],
                "shares": ["an identical runs.csv (after sorting its rows)"],
            }
        ],
        "duplicates_common": [],
        "missing_by_rung": common_missing(fps),
    }
    html = render_index(index_context(BatchResult(Path("out"), rows, 1.0, extra)))
    assert len(html.encode("utf-8")) < 2_000_000
    soup = BeautifulSoup(html, "html.parser")
    assert not soup.find_all("script")
    assert len(soup.select(".overview svg")) == 2
    rung_bars = soup.select(".overview svg")[0].find_all("text")
    counts = {
        rung_bars[i].get_text(): int(rung_bars[i + 1].get_text())
        for i in range(0, len(rung_bars), 2)
    }
    assert counts["0 (none)"] == 50 and counts["1 correct"] == 48 and sum(counts.values()) == 294
    missing = soup.select_one("ul.missing").get_text(" ", strip=True)
    assert "294 × the validation gap is N seed sd, not more than N" in missing
    assert len(soup.select("ul.failures li")) == 6
    assert "<b>" not in str(soup.select_one("ul.failures"))  # escaped student text
    assert "student-001, student-002" in soup.select_one("ul.duplicates").get_text()
    by_rung = [
        int(tr.find("td").get_text())
        for tr in soup.select("#by-rung tbody tr")
        if tr.find("td").get_text() != "–"
    ]
    assert by_rung == sorted(by_rung, reverse=True) and len(soup.select("#by-rung tbody tr")) == 300
    by_name = [tr.find("td").get_text(strip=True) for tr in soup.select("#by-name tbody tr")]
    assert by_name == sorted(by_name)
    assert "12 reports reused" in soup.get_text()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:  # it also opens in a real browser (headless), when one is installed
        page = tmp_path / "index.html"
        page.write_text(html, encoding="utf-8")
        r = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert r.returncode == 0 and "By supported rung" in r.stdout
        assert len(BeautifulSoup(r.stdout, "html.parser").select("#by-rung tbody tr")) == 300


@pytest.mark.parametrize(
    "args, message",
    [
        (["--deadline", "next friday"], "--deadline 'next friday' is not an ISO 8601 date-time"),
        (["--roster", "ROSTER"], "needs a header with a 'submission' (or 'name') column"),
        (["--rubric", "missing.toml"], "--rubric missing.toml does not exist"),
    ],
)
def test_cli_bad_grading_options_are_usage_errors(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ROSTER").write_text("who,what\na,b\n", encoding="utf-8")
    make_project(tmp_path / "subs" / "alice")
    r = CliRunner().invoke(main, ["batch", "subs", "--out", "out", *args])
    assert r.exit_code == 2
    assert message in r.output


def test_load_roster_matches_names_like_out(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text("Student,Submission,Section\ns1,Zoë Smith,A\ns2,bob.zip,B\n", encoding="utf-8")
    assert load_roster(path) == {"Zoë Smith": "s1", "bob": "s2"}
    path.write_text("submission,student\nalice,s1\nalice.zip,s2\n", encoding="utf-8")
    with pytest.raises(UsageError, match="listed twice"):
        load_roster(path)


def test_regrade_with_a_new_rubric_reuses_reports_but_not_grades(tmp_path):
    from reportgen.batch import safe_name

    assert safe_name("grades.csv") == "grades.csv_"  # a submission cannot take grades.csv
    subs = tmp_path / "subs"
    grading_project(subs / "alice", rung=3, claim="A beats B.")
    out = tmp_path / "out"
    first = GradingOptions(rubric=parse_rubric({"rungs": {"fair": 1}}))
    run_batch([subs], out, formats=("json",), jobs=1, build=grading_build, grading=first)
    assert grades(out)["alice"]["total"] == "1"
    old_feedback = (out / "alice" / "feedback.md").read_text(encoding="utf-8")
    second = GradingOptions(rubric=parse_rubric({"rungs": {"fair": 5}, "claim": {"honest": 2}}))
    result = run_batch([subs], out, formats=("json",), jobs=1, build=grading_build, grading=second)
    assert result.extra["reused"] == 1
    assert grades(out)["alice"]["total"] == "7" and grades(out)["alice"]["max"] == "7"
    new_feedback = (out / "alice" / "feedback.md").read_text(encoding="utf-8")
    assert "**Points: 7 of 7**" in new_feedback and new_feedback != old_feedback


@pytest.mark.parametrize("change", ["missing-key", "unknown-key"])
def test_a_report_json_of_another_shape_is_rebuilt_not_reused(tmp_path, change):
    """An earlier report.json without a key this evreport writes, or with one it does not,
    is rebuilt as a changed submission would be; the unchanged one beside it is reused."""
    subs = tmp_path / "subs"
    for name in ("alice", "bob"):
        grading_project(subs / name, rung=3, claim="A beats B.")
    out = tmp_path / "out"
    rubric = parse_rubric(RUBRIC)
    run = {"formats": ("json",), "jobs": 1, "build": grading_build}
    run_batch([subs], out, grading=GradingOptions(rubric=rubric), **run)
    path = out / "alice" / "report.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    if change == "missing-key":
        del doc["noise"]["seed"]["gap_in_sd"]
    else:
        doc["claim"]["confidence"] = 0.9
    path.write_text(json.dumps(doc), encoding="utf-8")
    again = run_batch([subs], out, grading=GradingOptions(rubric=rubric), **run)
    assert {r["name"]: r["reused"] for r in again.rows} == {"alice": False, "bob": True}
    assert again.extra["reused"] == 1
    rebuilt = json.loads(path.read_text(encoding="utf-8"))
    assert "confidence" not in rebuilt["claim"] and "gap_in_sd" in rebuilt["noise"]["seed"]
    assert grades(out)["alice"]["status"] == "ok"


def test_read_report_fails_loudly_on_another_shape(tmp_path):
    from reportgen.grading.reuse import read_report
    from reportgen.model import ReportShapeError

    assert read_report(tmp_path) is None  # no report.json
    (tmp_path / "report.json").write_text('{"schema": "evreport/1"}', encoding="utf-8")
    with pytest.raises(ReportShapeError, match="report.tool: missing key"):
        read_report(tmp_path)


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.skipif(
    not (EXAMPLES / "tuned-no-replay" / "evreport.toml").is_file(), reason="examples not generated"
)
def test_real_builds_are_graded_from_their_report_json(tmp_path):
    import shutil

    subs = tmp_path / "subs"
    shutil.copytree(
        EXAMPLES / "tuned-no-replay", subs / "dora", ignore=shutil.ignore_patterns("report")
    )
    shutil.copytree(
        EXAMPLES / "tuned-replay", subs / "ray", ignore=shutil.ignore_patterns("report")
    )
    doc = {
        "rungs": {"bounded": {"shown": 2}},
        "checks": {"general-set-held": 1, "interval-above-zero": 1},
        "claim": {"honest": 2},
    }
    opts = GradingOptions(rubric=parse_rubric(doc))
    out = tmp_path / "out"
    result = run_batch([subs], out, formats=("html",), jobs=2, timeout=120, grading=opts)
    assert result.exit_code == 0, [r["error"] for r in result.rows]
    g = grades(out)
    # tuned-replay shows rung 5 and its claim (without hurting anything else) is honest
    assert [g["ray"][c] for c in ("rung5_bounded", "check_general-set-held", "honest_claim")] == [
        "2",
        "1",
        "2",
    ]
    assert g["ray"]["total"] == "6"
    # tuned-no-replay: the general set dropped, so rung 5 fails and the same words outrun rung 4
    assert [g["dora"][c] for c in ("rung5_bounded", "check_general-set-held", "honest_claim")] == [
        "0",
        "0",
        "0",
    ]
    assert g["dora"]["total"] == "1"
    md = (out / "dora" / "feedback.md").read_text(encoding="utf-8")
    assert "rung 5 (bounded)" in md and "general set dropped 0.277" in md
    assert "without hurting" in md  # the words that made the claim outrun its evidence
    html = (out / "dora" / "report.html").read_text(encoding="utf-8")
    assert html.index("evreport-feedback") < html.index("</h1>")


def test_input_hash_sees_every_file_and_never_follows_or_blocks(tmp_path):
    import os

    from reportgen.grading import reuse

    sub = grading_project(tmp_path / "alice")
    h0 = reuse.input_hash(sub, "folder")
    assert h0 == reuse.input_hash(sub, "folder")  # stable
    (sub / "notes.txt").write_text("new file", encoding="utf-8")
    h1 = reuse.input_hash(sub, "folder")
    assert h1 != h0
    outside = tmp_path / "outside.txt"
    outside.write_text("secret", encoding="utf-8")
    (sub / "link").symlink_to(outside)
    h2 = reuse.input_hash(sub, "folder")
    outside.write_text("changed", encoding="utf-8")
    assert reuse.input_hash(sub, "folder") == h2  # the link's text is hashed, not its target
    os.mkfifo(sub / "pipe")
    assert reuse.input_hash(sub, "folder") not in (None, h2)  # a FIFO is never opened
    # a record is trusted only in a folder the OUT marker names
    out = tmp_path / "out"
    (out / "alice").mkdir(parents=True)
    reuse.write_record(out / "alice", "k", {"status": "ok", "name": "alice"})
    assert reuse.reusable(out, "alice", ["alice"], "k") == {"status": "ok", "name": "alice"}
    assert reuse.reusable(out, "alice", [], "k") is None
    assert reuse.reusable(out, "alice", ["alice"], "other") is None
    assert reuse.reusable(out, "alice", ["alice"], None) is None
