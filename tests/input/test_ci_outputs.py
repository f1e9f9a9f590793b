"""build --junit / --summary / --require-rung: files a CI system parses, exit codes, where they may go.

The JUnit file is read back with junitparser (a real JUnit reader) and the summary rendered
by cmark-gfm (GitHub's own CommonMark renderer, as a job summary is shown). Exit codes are checked for every combination of the
gates on reports of known verdict and rung (the build itself stubbed: the CLI's own logic),
and end to end on a real example.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import make_project
from junitparser import Error, Failure, JUnitXml, Skipped, SystemOut

from reportgen import ci
from reportgen.api import BuildResult
from reportgen.cli import main
from reportgen.model import Report
from reportgen.names import RUNG_NAMES
from reportgen.safe import escape_controls

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"report-{name}.json").read_text(encoding="utf-8"))


def _report(verdict: str, rung: int) -> dict:
    """The weekly-churn fixture with its verdict and supported rung set."""
    r = _fixture("weekly-churn")
    r["decision"]["verdict"] = verdict
    r["claim"]["supported_rung"] = rung
    return r


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def fake_build(monkeypatch, tmp_path):
    """build_report stubbed to return a given report (the CLI's gates and outputs, no checks)."""
    holder = {}

    def fake(project, out, formats, **kw):
        out_dir = Path(out) if out else Path(project) / "report"
        return BuildResult(
            Report.from_json(copy.deepcopy(holder["report"])),
            out_dir,
            [],
            [],
            holder.get("render", []),
        )

    monkeypatch.setattr("reportgen.api.build_report", fake)
    project = tmp_path / "proj"
    project.mkdir()

    def use(report: dict, render: list[str] = ()) -> Path:
        holder["report"], holder["render"] = report, list(render)
        return project

    return use


# ---- exit codes: every combination -----------------------------------------------------------


@pytest.mark.parametrize(
    "verdict, rung, args, code, messages",
    [
        ("adopt", 5, [], 0, []),
        ("keep-baseline", 2, [], 0, []),
        ("adopt", 5, ["--strict"], 0, []),
        ("keep-baseline", 5, ["--strict"], 3, ["--strict: verdict is 'keep-baseline', not"]),
        ("inconclusive", 0, ["--strict"], 3, ["verdict is 'inconclusive', not 'adopt'"]),
        ("roll-back", 0, ["--strict"], 3, ["verdict is 'roll-back', not 'adopt'"]),
        ("keep-baseline", 2, ["--require-rung", "2"], 0, []),
        ("keep-baseline", 2, ["--require-rung", "3"], 3, ["--require-rung 3: supported rung is 2"]),
        ("adopt", 2, ["--require-rung", "3"], 3, ["at least 3 required (rung 3, larger than"]),
        ("adopt", 3, ["--strict", "--require-rung", "3"], 0, []),
        ("adopt", 2, ["--strict", "--require-rung", "3"], 3, ["--require-rung 3:"]),
        ("keep-baseline", 4, ["--strict", "--require-rung", "3"], 3, ["--strict:"]),
        (
            "keep-baseline",
            1,
            ["--strict", "--require-rung", "2"],
            3,
            ["--strict:", "--require-rung 2:"],
        ),
    ],
)
def test_exit_code_of_each_gate_combination(
    runner, fake_build, verdict, rung, args, code, messages
):
    project = fake_build(_report(verdict, rung))
    r = runner.invoke(main, ["build", str(project), "--format", "json", *args])
    assert r.exit_code == code, r.output
    for m in messages:
        assert m in r.stderr, r.stderr
    if code == 0:
        assert "evreport: --" not in r.stderr
    # the verdict line, then the decision's reasons under it, on stdout
    lines = r.stdout.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("verdict: "))
    assert lines[i] == f"verdict: {verdict} (recommend gbm); supported rung {rung} of 5"
    reasons = _fixture("weekly-churn")["decision"]["reasons"]
    assert lines[i + 1 : i + 1 + len(reasons)] == [f"  - {x}" for x in reasons]


def test_a_render_problem_is_exit_1_before_the_gates(runner, fake_build):
    project = fake_build(_report("keep-baseline", 1), render=["PDF: Pango is missing"])
    r = runner.invoke(main, ["build", str(project), "--format", "json", "--strict"])
    assert r.exit_code == 1, r.output


@pytest.mark.parametrize("bad", ["0", "6", "two"])
def test_require_rung_out_of_range_is_a_usage_error(runner, fake_build, bad):
    project = fake_build(_report("adopt", 5))
    r = runner.invoke(main, ["build", str(project), "--require-rung", bad])
    assert r.exit_code == 2, r.output


# ---- the JUnit file ------------------------------------------------------------------------


def _junit(path: Path) -> dict:
    """{suite name: {case name: (outcome class or None, message)}} as junitparser reads it."""
    xml = JUnitXml.fromfile(str(path))
    out = {}
    for suite in xml:
        cases = {}
        for case in suite:
            res = case.result
            kinds = [type(x) for x in res]
            assert len(res) <= 1, kinds
            cases[case.name] = (kinds[0] if kinds else None, res[0].message if res else None)
        out[suite.name] = (suite, cases)
    return out


def test_junit_has_a_case_per_rung_check_and_gate(runner, fake_build, tmp_path):
    report = _fixture("weekly-churn")
    report["checks"][0]["passed"] = None  # an unknown check is skipped, with its reason
    project = fake_build(report)
    junit = tmp_path / "ci" / "junit.xml"
    r = runner.invoke(
        main,
        ["build", str(project), "--strict", "--require-rung", "3", "--junit", str(junit)],
    )
    assert r.exit_code == 3, r.output
    assert f"wrote {junit}" in r.stdout
    suites = _junit(junit)
    assert list(suites) == ["ladder", "checks", "build"]

    ladder_suite, ladder = suites["ladder"]
    assert list(ladder) == [f"rung {r['rung']}: {r['name']}" for r in report["ladder"]]
    not_shown = [r for r in report["ladder"] if r["status"] != "shown"]
    assert ladder_suite.tests == 5 and ladder_suite.failures == len(not_shown) >= 1
    rung3 = report["ladder"][2]
    assert rung3["status"] == "not shown"
    assert ladder["rung 3: larger than noise"] == (Failure, f"not shown: {rung3['missing']}")
    assert ladder["rung 1: correct"] == (None, None)
    props = {p.name: p.value for p in ladder_suite.properties()}
    assert props["verdict"] == "keep-baseline" and props["supported_rung"] == "2"
    assert props["recommend"] == "gbm"
    assert props["claim.rewritten"] == report["claim"]["rewritten"]
    out = ladder_suite.child(SystemOut).text
    assert out.startswith("verdict: keep-baseline (recommend gbm); supported rung 2 of 5\n- ")

    checks_suite, checks = suites["checks"]
    failed = [c for c in report["checks"] if c["passed"] is False]
    unknown = [c for c in report["checks"] if c["passed"] is None]
    passed = [c for c in report["checks"] if c["passed"] is True]
    assert checks_suite.tests == len(report["checks"]) >= 20
    assert checks_suite.failures == len(failed) >= 1
    assert checks_suite.skipped == len(unknown) >= 1
    assert checks[failed[0]["id"]] == (Failure, failed[0]["text"])
    assert checks["rung1-initial_loss"] == (Skipped, report["checks"][0]["text"])
    assert checks[passed[0]["id"]] == (None, None)

    build_suite, build = suites["build"]
    assert build["evreport build"] == (None, None)
    assert build["--strict"] == (Failure, "verdict is 'keep-baseline', not 'adopt'")
    assert build["--require-rung 3"][0] is Failure
    assert build["--require-rung 3"][1].startswith("supported rung is 2 of 5, at least 3")
    xml = JUnitXml.fromfile(str(junit))
    xml.update_statistics()
    n_checks = len(report["checks"])
    assert (xml.tests, xml.failures, xml.errors, xml.skipped) == (
        5 + n_checks + 3,
        len(not_shown) + len(failed) + 2,
        0,
        len(unknown),
    )


def test_junit_is_well_formed_whatever_the_user_text(runner, fake_build, tmp_path):
    report = _fixture("weekly-churn")
    nasty = 'mlp\x1b[31m <b>&"\x00\ud800 ]]>'
    report["project"]["title"] = nasty
    report["decision"]["reasons"] = [nasty]
    report["ladder"][2]["missing"] = nasty
    report["checks"][0]["id"] = nasty
    project = fake_build(report)
    junit, summary = tmp_path / "j.xml", tmp_path / "s.md"
    r = runner.invoke(
        main, ["build", str(project), "--junit", str(junit), "--summary", str(summary)]
    )
    assert r.exit_code == 0, r.output
    suites = _junit(junit)  # parses: no raw control character, no lone surrogate
    kind, message = suites["ladder"][1]["rung 3: larger than noise"]
    assert kind is Failure and message == "not shown: " + escape_controls(nasty)
    assert "\\x1b" in message and "\ufffd" in message
    assert '  - mlp\\x1b[31m <b>&"\\x00' in r.stdout
    text = summary.read_text(encoding="utf-8")
    assert "\x1b" not in text and "<b>" not in text
    html = _html(text)
    assert "<b>" not in html and "&lt;b&gt;" in html


def test_junit_is_well_formed_with_noncharacters_in_the_title_and_claim(
    runner, fake_build, tmp_path
):
    import xml.etree.ElementTree as ET

    report = _fixture("weekly-churn")
    report["project"]["title"] = "churn \ufffe\uffff"
    report["claim"]["original"] = report["claim"]["rewritten"] = "mlp\uffff wins\ufffe"
    report["decision"]["reasons"] = ["because \ufffe"]
    junit = tmp_path / "j.xml"
    r = runner.invoke(main, ["build", str(fake_build(report)), "--junit", str(junit)])
    assert r.exit_code == 0, r.output
    root = ET.fromstring(junit.read_bytes())  # expat: no invalid token
    assert root.get("name") == "evreport: churn \\ufffe\\uffff"
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["claim.original"] == "mlp\\uffff wins\\ufffe"
    assert "\ufffe" not in junit.read_text(encoding="utf-8")


def test_a_failed_build_still_writes_both_files(runner, tmp_path):
    project = tmp_path / "broken"
    project.mkdir()
    (project / "evreport.toml").write_text("title = 'x'\n[claim]\nbogus = 1\n")
    (project / "runs.csv").write_text("run_id,model\n")
    junit, summary = project / "report" / "junit.xml", tmp_path / "summary.md"
    r = runner.invoke(
        main, ["build", str(project), "--junit", str(junit), "--summary", str(summary)]
    )
    assert r.exit_code == 1, r.output
    suites = _junit(junit)
    assert list(suites) == ["build"]
    kind, message = suites["build"][1]["evreport build"]
    assert kind is Error and ": error: " in message
    text = summary.read_text(encoding="utf-8")
    assert "**The build failed on its input**: no report was written." in text
    assert sorted(p.name for p in (project / "report").iterdir()) == ["junit.xml"]


# ---- the Markdown summary ------------------------------------------------------------------


def _html(text: str) -> str:
    """The summary as GitHub shows it (cmark-gfm with GitHub's extensions: autolinks, tables)."""
    import cmarkgfm

    return cmarkgfm.github_flavored_markdown_to_html(text)


def _soup(text: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(_html(text), "html.parser")


def test_summary_renders_verdict_ladder_claim_and_reasons(runner, fake_build, tmp_path):
    report = _fixture("weekly-churn")
    project = fake_build(report)
    path = tmp_path / "summary.md"
    r = runner.invoke(main, ["build", str(project), "--require-rung", "3", "--summary", str(path)])
    assert r.exit_code == 3, r.output
    soup = _soup(path.read_text(encoding="utf-8"))
    checks = report["checks"]
    not_passed = [c for c in checks if c["passed"] is not True]
    assert [h.get_text() for h in soup.find_all(["h2", "h3"])] == [
        f"evreport: {report['project']['title']}",
        "Gates",
        "Ladder",
        "Why",
        f"Checks: {len(checks) - len(not_passed)} of {len(checks)} passed",
    ]
    items = [li.get_text() for li in soup.find_all("li")]
    rung1, rung3 = report["ladder"][0], report["ladder"][2]
    assert items[0].startswith("❌ --require-rung 3: supported rung is 2 of 5, at least 3")
    assert items[1:6] == [
        f"✅ 1. correct: shown: {rung1['summary']}",
        f"✅ 2. fair: shown: {report['ladder'][1]['summary']}",
        f"❌ 3. larger than noise: not shown: {rung3['missing']}",
        f"❌ 4. relevant: not shown: {report['ladder'][3]['missing']}",
        # shown above an unshown rung: not credited, and not a green tick
        f"⚪ 5. bounded: shown, not credited: {report['ladder'][4]['summary']}",
    ]
    reasons = report["decision"]["reasons"]
    assert items[6 : 6 + len(reasons)] == reasons
    assert items[6 + len(reasons) :] == [f"❌ {c['id']}: {c['text']}" for c in not_passed]
    paragraphs = [p.get_text() for p in soup.find_all("p")]
    assert f"What the evidence supports: {report['claim']['rewritten']}" in paragraphs
    assert f"Claim as written: {report['claim']['original']}" in paragraphs
    assert soup.find("strong").get_text() == "Verdict: keep-baseline"
    assert paragraphs[0] == "Verdict: keep-baseline (recommend gbm), supported rung 2 of 5 (fair)"


def test_summary_user_text_forms_no_link_image_or_html(runner, fake_build, tmp_path):
    report = _fixture("weekly-churn")
    report["claim"]["original"] = "![x](http://evil/p.png) [click](javascript:alert(1)) <img src=x>"
    report["project"]["title"] = "`code` <script>alert(1)</script> www.evil.org"
    project = fake_build(report)
    path = tmp_path / "summary.md"
    assert runner.invoke(main, ["build", str(project), "--summary", str(path)]).exit_code == 0
    soup = _soup(path.read_text(encoding="utf-8"))
    for tag in ("a", "img", "script", "code"):
        assert soup.find(tag) is None, tag
    assert soup.find("h2").get_text() == "evreport: `code` <script>alert(1)</script> www[.]evil.org"
    assert "![x](http[:]//evil/p.png) [click](javascript:alert(1)) <img src=x>" in soup.get_text()


def test_summary_underscore_www_and_mentions_form_no_link(runner, fake_build, tmp_path):
    report = _fixture("weekly-churn")
    report["project"]["title"] = "_www.evil.example/x @everyone"
    report["claim"]["original"] = "x_www.evil.example and @org/team"
    path = tmp_path / "summary.md"
    assert (
        runner.invoke(main, ["build", str(fake_build(report)), "--summary", str(path)]).exit_code
        == 0
    )
    soup = _soup(path.read_text(encoding="utf-8"))
    assert soup.find("a") is None
    text = soup.get_text()
    assert "_www[.]evil.example/x [@]everyone" in text and "[@]org/team" in text


def test_summary_of_a_before_after_report():
    report = _fixture("tuned-no-replay")
    d, rung = report["decision"], report["claim"]["supported_rung"]
    model = Report.from_json(report)
    text = ci.summary_markdown(model, ci.gates(model, strict=True))
    name = ("none", *RUNG_NAMES)[rung]
    assert (
        f"**Verdict: {d['verdict']}** (recommend {d['recommend']}), supported rung {rung} of 5 "
        f"({name})"
    ) in text
    assert f"- ❌ --strict: verdict is {d['verdict']!r}, not 'adopt'" in text
    checks = report["checks"]
    passed = sum(c["passed"] is True for c in checks)
    assert f"### Checks: {passed} of {len(checks)} passed" in text


# ---- where the files may go ----------------------------------------------------------------


@pytest.mark.parametrize(
    "where, code",
    [
        ("runs.csv", 2),
        ("split/junit.xml", 2),
        ("artefacts/checks/junit.xml", 2),
        ("junit.xml", 2),
        ("report/junit.xml", 0),
        ("report/ci/junit.xml", 0),
        ("report/report.json", 2),
        ("report/.evreport-current/junit.xml", 2),
        ("report", 2),
    ],
)
def test_ci_files_inside_the_project_only_under_report(runner, fake_build, where, code):
    project = fake_build(_report("adopt", 5))
    (project / "runs.csv").write_text("keep me\n")
    (project / "report").mkdir()
    r = runner.invoke(main, ["build", str(project), "--junit", str(project / where)])
    assert r.exit_code == code, r.output
    assert (project / "runs.csv").read_text() == "keep me\n"
    if code == 2:
        assert "--junit" in r.stderr
        assert not (project / "split").exists() and not (project / "artefacts").exists()
    else:
        assert (project / where).read_bytes().startswith(b"<?xml")


def test_ci_files_under_out_and_outside_the_project(runner, fake_build, tmp_path):
    project = fake_build(_report("adopt", 5))
    out = project / "build-out"
    r = runner.invoke(
        main,
        [
            "build",
            str(project),
            "--out",
            str(out),
            "--junit",
            str(out / "junit.xml"),
            "--summary",
            str(tmp_path / "elsewhere" / "summary.md"),
        ],
    )
    assert r.exit_code == 0, r.output
    assert (out / "junit.xml").is_file() and (tmp_path / "elsewhere" / "summary.md").is_file()


def test_same_file_for_both_and_symlinks_are_refused(runner, fake_build, tmp_path):
    project = fake_build(_report("adopt", 5))
    same = str(tmp_path / "ci.txt")
    r = runner.invoke(main, ["build", str(project), "--junit", same, "--summary", same])
    assert r.exit_code == 2 and "name the same file" in r.stderr
    target = tmp_path / "target.md"
    target.write_text("theirs\n")
    (tmp_path / "link.md").symlink_to(target)
    r = runner.invoke(main, ["build", str(project), "--summary", str(tmp_path / "link.md")])
    assert r.exit_code == 2 and "symlink" in r.stderr
    assert target.read_text() == "theirs\n"


# ---- end to end on a real example ----------------------------------------------------------


def test_strict_junit_summary_on_a_real_build(runner, example, tmp_path):
    root = example("weekly-churn")
    junit, summary = root / "report" / "junit.xml", tmp_path / "summary.md"
    r = runner.invoke(
        main,
        ["build", str(root), "--format", "json", "--strict", "--require-rung", "2"]
        + ["--junit", str(junit), "--summary", str(summary)],
    )
    assert r.exit_code == 3, r.output
    report = json.loads((root / "report" / "report.json").read_text(encoding="utf-8"))
    suites = _junit(junit)
    assert len(suites["checks"][1]) == len(report["checks"])
    assert suites["build"][1]["--require-rung 2"] == (None, None)
    assert suites["build"][1]["--strict"][0] is Failure
    failed = {r["rung"] for r in report["ladder"] if r["status"] != "shown"}
    assert {n for n, (k, _) in suites["ladder"][1].items() if k} == {
        f"rung {r['rung']}: {r['name']}" for r in report["ladder"] if r["rung"] in failed
    }
    text = summary.read_text(encoding="utf-8")
    assert f"**Verdict: {report['decision']['verdict']}**" in text


@pytest.mark.parametrize("linked", ["report", "report/ci"])
def test_ci_files_through_a_linked_folder_in_the_project_are_refused(tmp_path, linked):
    project = make_project(tmp_path / "P")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / linked).parent.mkdir(parents=True, exist_ok=True)
    (project / linked).symlink_to(elsewhere, target_is_directory=True)
    repo = Path(__file__).resolve().parents[2]
    r = subprocess.run(
        [sys.executable, "-m", "reportgen", "build", str(project), "--format", "json"]
        + ["--junit", str(project / linked / "junit.xml")]
        + ["--summary", str(project / linked / "summary.md")],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(repo)},
        timeout=120,
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert "a symlink inside the project folder; refusing to write through it" in r.stderr
    assert list(elsewhere.iterdir()) == []
