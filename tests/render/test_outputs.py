"""render_outputs: formats, file names, report.json bytes, the markdown log, no-PDF path."""

from __future__ import annotations

import copy
import json
import sys

import pytest

from reportgen.model import Report
from reportgen.render import render_outputs


def test_json_only_is_the_contract_bytes(weekly_churn):
    files, problems = render_outputs(Report.from_json(weekly_churn), ("json",))
    assert problems == [] and list(files) == ["report.json"]
    expected = json.dumps(weekly_churn, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    assert files["report.json"] == expected.encode("utf-8")


def test_subset_of_formats(minimal):
    files, problems = render_outputs(Report.from_json(minimal), ("md", "json"))
    assert sorted(files) == ["decision-log.md", "report.json"]
    assert problems == []


def test_unknown_format_is_named(minimal):
    with pytest.raises(ValueError, match="'docx'.*html, pdf, json, md"):
        render_outputs(Report.from_json(minimal), ("docx",))


def test_missing_weasyprint_returns_other_files(minimal, monkeypatch):
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import weasyprint -> ImportError
    files, problems = render_outputs(Report.from_json(minimal), ("html", "pdf", "json"))
    assert sorted(files) == ["report.html", "report.json"]
    assert len(problems) == 1
    assert "PDF not written" in problems[0]
    assert "apt-get install libpango-1.0-0 libpangoft2-1.0-0" in problems[0]


def test_markdown_has_decision_and_reconsider(weekly_churn_files, weekly_churn):
    md = weekly_churn_files["decision-log.md"].decode("utf-8")
    assert "**Decision:** Keep gradient boosting" in md
    assert "**Recommended model:** gradient boosting (baseline)" in md
    assert "the validation gap exceeds 2 seed sd with 6 or more seeds of each model" in md
    assert "### Reconsider when" in md
    for rung in weekly_churn["ladder"]:
        status = rung["status"] + (
            ", not credited" if not rung["credited"] and rung["status"] == "shown" else ""
        )
        assert f"**{rung['name']}**: {status}." in md
    assert "   - missing: not credited: rung 3 (larger than noise) below it is not shown" in md
    assert "`artefacts/checks/gradient.json`" in md


def test_markdown_user_text_opens_no_raw_html(weekly_churn):
    report = copy.deepcopy(weekly_churn)
    report["project"]["claim"] = report["claim"]["original"] = "mlp <script>alert(1)</script>"
    md = render_outputs(Report.from_json(report), ("md",))[0]["decision-log.md"].decode("utf-8")
    assert "<script>" not in md and "\\<script\\>" in md


def test_markdown_before_after(tuned_no_replay_files):
    md = tuned_no_replay_files["decision-log.md"].decode("utf-8")
    assert "**Decision:** Roll back to before" in md
    assert "more than the allowed 0.02" in md


def test_lazy_imports():
    import subprocess

    code = (
        "import sys, reportgen.render, reportgen.view, reportgen.charts.specs;"
        "print(any(m in sys.modules for m in ('weasyprint', 'altair', 'vl_convert')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_checks_do_not_import_scipy_stats():
    """scipy.stats takes about half a second to import; a build that needs none of its
    functions (the t and normal quantiles come from scipy.special) must not pay it."""
    import subprocess

    code = "import sys, reportgen.checks, reportgen.project;print('scipy.stats' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_charts_drawn_in_a_helper_process_are_the_same(weekly_churn):
    helper, _ = render_outputs(Report.from_json(weekly_churn), ("html",), chart_process=True)
    here, _ = render_outputs(Report.from_json(weekly_churn), ("html",), chart_process=False)
    assert helper["report.html"] == here["report.html"]


def test_helper_process_failure_names_the_reason():
    from reportgen.render.svg_process import ChartProcessError, SvgProcess

    with SvgProcess() as helper:
        helper.submit({"broken": {"mark": "no-such-mark"}})
        with pytest.raises(ChartProcessError, match="chart conversion failed in the helper"):
            helper.result()


def test_the_compiled_template_cache_changes_no_byte(weekly_churn, monkeypatch, tmp_path):
    """The HTML is the same whether the templates come from Jinja's bytecode cache (written
    on a first render, read on the next) or are compiled afresh; an unusable cache folder
    only means compiling."""
    import jinja2

    from reportgen.render import env

    def html() -> bytes:
        env.environment.cache_clear()
        return render_outputs(Report.from_json(weekly_churn), ("html",), chart_process=False)[0][
            "report.html"
        ]

    monkeypatch.setattr(
        jinja2.FileSystemBytecodeCache, "__init__", _cache_in(tmp_path / "cache"), raising=True
    )
    (tmp_path / "cache").mkdir()
    try:
        first, second = html(), html()
        assert list((tmp_path / "cache").iterdir()), "the first render wrote no cache"
        monkeypatch.setenv("EVREPORT_NO_TEMPLATE_CACHE", "1")
        assert env._bytecode_cache("html") is None
        assert first == second == html()
    finally:
        env.environment.cache_clear()


def _cache_in(folder):
    import jinja2

    real = jinja2.FileSystemBytecodeCache.__init__

    def init(self, directory=None, pattern="__jinja2_%s.cache"):
        real(self, str(folder), pattern)

    return init
