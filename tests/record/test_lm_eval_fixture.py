"""The lm-evaluation-harness fixture written by lm-eval itself (tests/fixtures/lm_eval/, made by
its make_fixture.py with `lm_eval.simple_evaluate` and `EvaluationTracker`): two versions of a
model on a 40-question task import and build to a before/after report whose figures equal an
independent reading of the samples files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from tests.record.evallog_helpers import cli

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "lm_eval"


def _samples(version: str) -> Path:
    (path,) = sorted((FIXTURE / version).glob("*/samples_toyqa_*.jsonl"))
    return path


def _acc_by_doc(path: Path) -> dict[int, float]:
    """Each doc's acc as lm-eval logged it, read with json alone."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        out[int(rec["doc_id"])] = float(rec["acc"])
    return out


def _imported(root: Path) -> Path:
    for version in ("before", "after"):
        r = cli(
            "import", "lm-eval", str(root), str(_samples(version)),
            "--model", version, "--slice-key", "subject",
        )  # fmt: skip
        assert r.exit_code == 0, r.output
    toml = (root / "evreport.toml").read_text(encoding="utf-8")
    toml = toml.replace('kind      = "model-vs-baseline"', 'kind      = "before-after"')
    toml = toml.replace('candidate = "candidate"', 'candidate = "after"')
    (root / "evreport.toml").write_text(toml, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = _imported(tmp_path_factory.mktemp("lm") / "proj")
    from reportgen.api import build_report

    build_report(root, formats=("json", "html"))
    report = json.loads((root / "report" / "report.json").read_text(encoding="utf-8"))
    html = (root / "report" / "report.html").read_text(encoding="utf-8")
    return root, report, html


def test_the_fixture_is_lm_evals_own_output():
    res = json.loads(next((FIXTURE / "before").glob("*/results_*.json")).read_text())
    assert res["lm_eval_version"].startswith("0.4.")
    assert res["results"]["toyqa"]["acc,none"] == pytest.approx(0.55)
    first = json.loads(_samples("before").read_text(encoding="utf-8").splitlines()[0])
    assert {"doc_id", "doc", "target", "filtered_resps", "filter", "metrics", "doc_hash"} <= set(
        first
    )


def test_before_after_figures_equal_the_samples_files(built):
    _, report, _ = built
    b, a = _acc_by_doc(_samples("before")), _acc_by_doc(_samples("after"))
    assert sorted(b) == sorted(a) == list(range(40))
    bb = np.array([b[i] for i in range(40)])
    aa = np.array([a[i] for i in range(40)])
    ba = report["before_after"]
    assert ba["questions"] == 40
    assert ba["before"] == pytest.approx(bb.mean(), abs=1e-15)
    assert ba["after"] == pytest.approx(aa.mean(), abs=1e-15)
    fixed = [str(i) for i in range(40) if bb[i] == 0 and aa[i] == 1]
    broken = [str(i) for i in range(40) if bb[i] == 1 and aa[i] == 0]
    assert (ba["fixed"], ba["broken"]) == (len(fixed), len(broken)) == (8, 2)
    assert ba["fixed_ids"] == fixed  # in the question set's natural order: 9 before 12
    assert ba["broken_ids"] == broken
    # McNemar's exact test: the broken count against Binomial(fixed + broken, 1/2), two-sided
    p = stats.binomtest(len(broken), len(fixed) + len(broken), 0.5).pvalue
    assert ba["mcnemar_p"] == pytest.approx(p, rel=1e-12)
    # the paired t over the 40 questions (no blocks): scipy's one-sample t on a - b
    d = aa - bb
    ci = stats.ttest_1samp(d, 0.0).confidence_interval(0.95)
    assert (ba["t"]["low"], ba["t"]["high"]) == pytest.approx((ci.low, ci.high), rel=1e-12)
    assert ba["t"]["p"] == pytest.approx(stats.ttest_1samp(d, 0.0).pvalue, rel=1e-12)


def test_the_slice_key_groups_the_broken_questions(built):
    _, report, _ = built
    subjects = {}
    for line in _samples("after").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        subjects[str(rec["doc_id"])] = rec["doc"]["subject"]
    ba = report["before_after"]
    want: dict[str, int] = {}
    for i in ba["broken_ids"]:
        want[subjects[i]] = want.get(subjects[i], 0) + 1
    assert ba["broken_by_category"] == dict(sorted(want.items(), key=lambda kv: (-kv[1], kv[0])))


def test_the_runs_record_lm_evals_config(built):
    root, report, html = built
    import csv

    with open(root / "runs.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["model"] for r in rows] == ["before", "after"]
    for r in rows:
        assert r["env"].startswith("lm_eval=0.4.")
        assert "task=toyqa" in r["features"] and "metric=acc" in r["features"]
    assert report["decision"]["verdict"] in {"adopt", "roll-back"}
    assert "8 fixed" in html or "8 questions fixed" in html


def _fact(report, fid):
    (fact,) = [f for f in report["fairness"] if f["id"] == fid]
    return fact


def test_both_versions_evaluated_alike_is_a_fairness_fact(built):
    _, report, _ = built
    fact = _fact(report, "same-features")
    assert fact["passed"] is True
    assert "both versions" in fact["text"] and "task=toyqa" in fact["text"]
    assert fact["artefacts"] == ["runs.csv:3", "runs.csv:2"]


def test_logs_of_another_task_fail_the_fact_naming_both(tmp_path):
    root = _imported(tmp_path / "proj")
    runs = (root / "runs.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    assert runs[2].startswith("after-e1,after,") and "task=toyqa" in runs[2]
    runs[2] = runs[2].replace("task=toyqa", "task=otherqa")
    (root / "runs.csv").write_text("".join(runs), encoding="utf-8")
    from reportgen.api import build_report

    build_report(root, formats=("json",))
    report = json.loads((root / "report" / "report.json").read_text(encoding="utf-8"))
    fact = _fact(report, "same-features")
    assert fact["passed"] is False
    assert "task=otherqa" in fact["text"] and "task=toyqa" in fact["text"]
    check = [c for c in report["checks"] if c["id"] == "fair-same-features"]
    assert check and check[0]["passed"] is False
    assert report["ladder"][1]["status"] != "shown"
