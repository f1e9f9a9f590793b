"""`evreport import inspect` and `evreport import lm-eval`: real Inspect logs (written by
inspect_ai itself) and lm-eval sample files into a project, every imported number checked
against an independent reading of the log, then built to report.json."""

from __future__ import annotations

import csv
import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from tests.record.evallog_helpers import (
    cli,
    run_mockllm_eval,
    scores,
    snapshot,
    write_inspect_log,
    write_lm_eval,
)

inspect_ai = pytest.importorskip("inspect_ai")

N, EPOCHS = 198, 5  # GPQA Diamond's questions and the published comparison's epochs
CATS = np.array(["physics", "chemistry", "biology"])[np.arange(N) % 3]


def _rows(root):
    with open(root / "runs.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _independent_epoch_means(path):
    """Each epoch's mean score read back with Inspect's own reader and value_to_float."""
    from inspect_ai.log import read_eval_log
    from inspect_ai.scorer import value_to_float

    to_float = value_to_float()
    log = read_eval_log(str(path))
    by: dict[int, list[float]] = {}
    for s in log.samples:
        by.setdefault(s.epoch, []).append(to_float(s.scores["choice"].value))
    return {e: float(np.mean(v)) for e, v in sorted(by.items())}


@pytest.fixture(scope="module")
def two_logs(tmp_path_factory):
    """Two models' GPQA-sized logs (198 questions x 5 epochs), the second better by ~0.06."""
    d = tmp_path_factory.mktemp("logs")
    a = scores(N, EPOCHS, 0.40, seed=1)
    b = scores(N, EPOCHS, 0.46, seed=2)
    la = write_inspect_log(
        d / "a.eval", np.where(a == 1, "C", "I"), model="openai/a", categories=CATS
    )
    lb = write_inspect_log(
        d / "b.eval", np.where(b == 1, "C", "I"), model="openai/b", categories=CATS
    )
    return {"a": (la, a), "b": (lb, b)}


def _import_two(root, two_logs, *extra):
    """Import model a's log, then b's; the first import's output."""
    outputs = []
    for name in ("a", "b"):
        r = cli("import", "inspect", str(root), str(two_logs[name][0]), "--model", name, *extra)
        assert r.exit_code == 0, r.output
        outputs.append(r.output)
    return outputs[0]


def test_inspect_import_records_each_epoch_as_logged(tmp_path, two_logs):
    root = tmp_path / "p"
    first = _import_two(root, two_logs, "--slice-key", "category")
    rows = _rows(root)
    assert len(rows) == 2 * EPOCHS
    for name in ("a", "b"):
        path, raw = two_logs[name]
        expected = _independent_epoch_means(path)
        mine = [x for x in rows if x["model"] == name]
        assert [int(x["seed"]) for x in mine] == list(range(1, EPOCHS + 1))
        for x in mine:
            e = int(x["seed"])
            assert float(x["value"]) == pytest.approx(expected[e], abs=1e-15)
            assert float(x["value"]) == pytest.approx(raw[:, e - 1].mean(), abs=1e-15)
            assert x["metric"] == "accuracy" and x["split"] == "test"
            assert x["started_at"].startswith("2026-01-05T10:00:00")
            assert x["config"] == f"openai/{name} temperature=0.5"
            assert x["features"] == (
                "task=gpqa_diamond; dataset=gpqa_diamond; scorer=choice; epochs=5; task_version=0"
            )
            assert x["env"] == "inspect_ai=0.3.test"
            pred = pd.read_parquet(root / x["predictions"])
            assert list(pred["row_id"]) == [f"rec{i:03d}" for i in range(N)]
            np.testing.assert_array_equal(pred["correct"].to_numpy(), raw[:, e - 1])
            assert list(pred["category"]) == list(CATS)
    split = pd.read_csv(root / "split" / "test.csv")
    assert list(split["row_id"]) == [f"rec{i:03d}" for i in range(N)]
    assert (root / "split" / "manifest.json").exists()
    assert "frozen now, after the runs" in first


def _build(root, formats=("json",)):
    from reportgen.api import build_report

    build_report(root, formats=formats)
    return json.loads((root / "report" / "report.json").read_text())


def _toml(root, kind="model-vs-baseline", general=False, single=False):
    text = f"""title = "GPQA Diamond: b against a"

[claim]
text      = "b answers more GPQA Diamond questions correctly than a."
kind      = "{kind}"
candidate = "b"
baseline  = "a"
metric    = "accuracy"

[evaluation]
repeats   = "samples"
"""
    if general:
        text += '\n[general]\nsplit = "general"\nmax_drop = 0.05\n'
    (root / "evreport.toml").write_text(text)


def test_two_models_build_to_the_paired_t_on_per_question_means(tmp_path, two_logs):
    """The GPQA-style comparison: the gap is the difference of per-question means over the
    epochs, the paired t runs over the 198 questions (clusters), the epochs are repeated
    samples, not retraining."""
    root = tmp_path / "p"
    _import_two(root, two_logs)
    _toml(root)
    report = _build(root, formats=("json", "html"))
    a, b = two_logs["a"][1], two_logs["b"][1]
    d = b.mean(axis=1) - a.mean(axis=1)  # per question: mean over its 5 epochs
    t = stats.ttest_1samp(d, 0.0)
    ci = t.confidence_interval(0.95)
    block = report["noise"]["block"]
    assert block["blocks"] == N
    assert block["gap"] == pytest.approx(d.mean(), abs=1e-12)
    assert block["t"]["low"] == pytest.approx(ci.low, abs=1e-10)
    assert block["t"]["high"] == pytest.approx(ci.high, abs=1e-10)
    assert block["t"]["p"] == pytest.approx(t.pvalue, rel=1e-8)
    assert report["project"]["repeats"] == "samples"
    seed_line = report["noise"]["lines"][0]
    assert "sampling noise" in seed_line and "retrain" not in seed_line
    html = (root / "report" / "report.html").read_text()
    assert "two-level interval over repeated runs and blocks" in html
    assert "with the sampling noise of repeated runs added to that of the blocks" in html
    assert "retraining noise added" not in html
    # frozen from the log, after its runs: rung 2 says so
    frozen = next(f for f in report["fairness"] if f["id"] == "frozen-before-runs")
    assert frozen["passed"] is False
    same = next(f for f in report["fairness"] if f["id"] == "same-features")
    assert same["passed"] is True


def test_different_task_fails_the_same_features_fact_naming_it(tmp_path, two_logs):
    root = tmp_path / "p"
    r = cli("import", "inspect", str(root), str(two_logs["a"][0]), "--model", "a")
    assert r.exit_code == 0, r.output
    other = write_inspect_log(
        tmp_path / "b.eval", np.where(two_logs["b"][1] == 1, "C", "I"), task="gpqa_main"
    )
    r = cli("import", "inspect", str(root), str(other), "--model", "b")
    assert r.exit_code == 0, r.output
    assert "same-features fact fails" in r.output and "task=gpqa_main" in r.output
    _toml(root)
    report = _build(root)
    same = next(f for f in report["fairness"] if f["id"] == "same-features")
    assert same["passed"] is False
    assert "gpqa_main" in same["text"] and "gpqa_diamond" in same["text"]


def test_before_after_with_epochs_and_a_general_set(tmp_path, two_logs):
    """Before/after over 5 epochs: the difference of per-question means with the paired t over
    questions, fixed/broken as means that crossed one half, no McNemar; the general set's drop
    on its own task's logs."""
    root = tmp_path / "p"
    _import_two(root, two_logs)
    n_gen = 120
    ga = scores(n_gen, EPOCHS, 0.7, seed=3)
    gb = ga.copy()
    gb[:6, :] = 0  # six general questions forgotten
    gids = [f"gen{i}" for i in range(n_gen)]
    for name, v in (("a", ga), ("b", gb)):
        log = write_inspect_log(
            tmp_path / f"g{name}.eval", np.where(v == 1, "C", "I"), ids=gids, task="mmlu"
        )
        r = cli("import", "inspect", str(root), str(log), "--model", name, "--part", "general")
        assert r.exit_code == 0, r.output
    _toml(root, kind="before-after", general=True)
    report = _build(root)
    a, b = two_logs["a"][1].mean(axis=1), two_logs["b"][1].mean(axis=1)
    ba = report["before_after"]
    assert ba["before"] == pytest.approx(a.mean(), abs=1e-12)
    assert ba["after"] == pytest.approx(b.mean(), abs=1e-12)
    assert ba["difference"] == pytest.approx((b - a).mean(), abs=1e-12)
    ci = stats.ttest_1samp(b - a, 0.0).confidence_interval(0.95)
    assert ba["t"]["low"] == pytest.approx(ci.low, abs=1e-10)
    assert ba["t"]["high"] == pytest.approx(ci.high, abs=1e-10)
    assert ba["fixed"] == int(((a < 0.5) & (b > 0.5)).sum())
    assert ba["broken"] == int(((a > 0.5) & (b < 0.5)).sum())
    assert ba["fixed"] > 0 and ba["broken"] > 0
    assert ba["mcnemar_p"] is None
    assert ba["repeats"] == {"before": EPOCHS, "after": EPOCHS}
    assert "no McNemar test" in report["noise"]["lines"][1]
    assert report["noise"]["lines"][0].startswith(
        "Seed spread (repeated runs: sampling noise): each question's score is its mean over "
        "5 epochs before and 5 after"
    )
    g = report["general"]
    drop = ga.mean(axis=1) - gb.mean(axis=1)
    assert g["before"] == pytest.approx(ga.mean(), abs=1e-12)
    assert g["after"] == pytest.approx(gb.mean(), abs=1e-12)
    assert g["drop"] == pytest.approx(drop.mean(), abs=1e-12)
    assert g["questions"] == n_gen


def test_before_after_answered_once_keeps_mcnemar(tmp_path):
    a = scores(80, 1, 0.5, seed=5)
    b = scores(80, 1, 0.6, seed=6)
    root = tmp_path / "p"
    for name, v in (("a", a), ("b", b)):
        log = write_inspect_log(tmp_path / f"{name}.eval", np.where(v == 1, "C", "I"))
        assert cli("import", "inspect", str(root), str(log), "--model", name).exit_code == 0
    _toml(root, kind="before-after")
    ba = _build(root)["before_after"]
    fixed = int(((a[:, 0] == 0) & (b[:, 0] == 1)).sum())
    broken = int(((a[:, 0] == 1) & (b[:, 0] == 0)).sum())
    assert (ba["fixed"], ba["broken"]) == (fixed, broken)
    assert ba["mcnemar_p"] == pytest.approx(stats.binomtest(fixed, fixed + broken).pvalue)
    assert "repeats" not in ba


def test_partial_credit_is_a_score_column_as_value_to_float_reads_it(tmp_path):
    values = np.array([["C", "P"], ["I", "P"], ["C", "C"], [0.25, "I"]], dtype=object)
    log = write_inspect_log(tmp_path / "a.eval", values)
    root = tmp_path / "p"
    r = cli("import", "inspect", str(root), str(log), "--model", "a")
    assert r.exit_code == 0, r.output
    rows = _rows(root)
    assert {x["metric"] for x in rows} == {"choice"}
    assert [float(x["value"]) for x in rows] == pytest.approx(
        list(_independent_epoch_means(log).values())
    )
    assert [float(x["value"]) for x in rows] == pytest.approx([(1 + 0 + 1 + 0.25) / 4, 2 / 4])
    toml = (root / "evreport.toml").read_text()
    assert 'metric    = "choice"' in toml and "higher_is_better = true" in toml


def test_a_real_inspect_eval_imports(tmp_path):
    """A log written by inspect_ai.eval itself (mockllm/model, offline), scored by match()."""
    answers = {(i, e): ("A" if (k + e) % 3 else "B") for k, i in enumerate("xyzw") for e in (1, 2)}
    log = run_mockllm_eval(tmp_path / "logs", answers, epochs=2)
    root = tmp_path / "p"
    r = cli("import", "inspect", str(root), str(log), "--model", "m", "--slice-key", "category")
    assert r.exit_code == 0, r.output
    rows = _rows(root)
    for x in rows:
        e = int(x["seed"])
        right = [answers[(i, e)] == "A" for i in "xyzw"]
        assert float(x["value"]) == pytest.approx(np.mean(right))
        assert x["config"].startswith("mockllm/model")
        assert "task=toy_task; dataset=toy; scorer=match; epochs=2" in x["features"]


# ---- the frozen questions -----------------------------------------------------------------


def _frozen_project(tmp_path, ids):
    root = tmp_path / "p"
    (root / "split").mkdir(parents=True)
    pd.DataFrame({"row_id": ids}).to_csv(root / "split" / "test.csv", index=False)
    assert cli("freeze", str(root)).exit_code == 0
    return root


def _refused(root, log, *needles, extra=()):
    before = snapshot(root)
    r = cli("import", "inspect", str(root), str(log), "--model", "a", *extra)
    assert r.exit_code == 1, r.output
    for needle in needles:
        assert needle in r.output, r.output
    assert snapshot(root) == before  # nothing written
    return r


IDS = [f"rec{i:03d}" for i in range(10)]


def test_frozen_questions_match(tmp_path):
    root = _frozen_project(tmp_path, IDS)
    log = write_inspect_log(tmp_path / "a.eval", np.full((10, 2), "C"))
    r = cli("import", "inspect", str(root), str(log), "--model", "a")
    assert r.exit_code == 0, r.output
    assert "frozen now" not in r.output
    assert len(_rows(root)) == 2


def test_a_log_of_other_questions_is_refused(tmp_path):
    root = _frozen_project(tmp_path, IDS)
    log = write_inspect_log(
        tmp_path / "a.eval", np.full((3, 1), "C"), ids=["other1", "other2", "other3"]
    )
    _refused(root, log, "a log of other questions", "'other1'", "split/test.csv")


def test_missing_and_extra_questions_are_named(tmp_path):
    root = _frozen_project(tmp_path, IDS)
    log = write_inspect_log(tmp_path / "a.eval", np.full((10, 1), "C"), ids=IDS[:9] + ["new"])
    _refused(root, log, "lacks 1 of its 10 questions ('rec009')", "not in it ('new')")


def test_a_duplicated_id_in_the_frozen_part_is_named():
    from reportgen.importers.evallog import check_frozen

    said = check_frozen(["a", "b"], ["a", "b", "b"], "the frozen test part", "x.eval")
    assert said == "the frozen test part holds the id(s) 'b' more than once; a question is one row"


def test_an_epoch_missing_a_question_is_refused(tmp_path):
    root = _frozen_project(tmp_path, IDS)
    log = write_inspect_log(tmp_path / "a.eval", np.full((10, 2), "C"), drop={("rec004", 2)})
    _refused(root, log, "epoch 2 answers other questions", "lacks 'rec004'")


def test_a_general_log_without_a_frozen_general_part_is_refused(tmp_path):
    """The split was frozen before the runs: adding a part by freezing again would lose that."""
    root = _frozen_project(tmp_path, IDS)
    log = write_inspect_log(
        tmp_path / "a.eval", np.full((10, 1), "C"), created="2099-01-01T00:00:00Z"
    )
    assert cli("import", "inspect", str(root), str(log), "--model", "a").exit_code == 0
    gen = write_inspect_log(tmp_path / "g.eval", np.full((4, 1), "C"), ids=list("wxyz"))
    _refused(root, gen, "has no general part", extra=("--part", "general"))


def test_importing_the_same_epochs_twice_is_refused(tmp_path):
    root = _frozen_project(tmp_path, IDS)
    log = write_inspect_log(tmp_path / "a.eval", np.full((10, 1), "C"))
    assert cli("import", "inspect", str(root), str(log), "--model", "a").exit_code == 0
    _refused(root, log, "already has a epoch 1 on test")


# ---- bad logs -----------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["error", "cancelled"])
def test_an_eval_that_did_not_finish_is_refused(tmp_path, status):
    log = write_inspect_log(tmp_path / "a.eval", np.full((4, 1), "C"), status=status)
    root = tmp_path / "p"
    r = _refused(root, log, f"status is '{status}'", "a.eval")
    assert not root.exists()
    assert r.output.count("evreport: error:") == 1


def test_truncated_other_format_and_unscored_logs_one_line_each(tmp_path):
    good = write_inspect_log(tmp_path / "good.eval", np.full((4, 1), "C"))
    cut = tmp_path / "cut.eval"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    jsonl = write_lm_eval(tmp_path / "lm", [1, 0, 1])
    other = tmp_path / "other.eval"
    other.write_bytes(jsonl.read_bytes())
    unscored = write_inspect_log(
        tmp_path / "unscored.eval", np.full((4, 1), "C"), unscored={("rec002", 1)}
    )
    root = tmp_path / "p"
    r = cli(
        "import", "inspect", str(root), str(good), str(cut), str(other), str(jsonl),
        str(unscored), "--model", "a",
    )  # fmt: skip
    assert r.exit_code == 1, r.output
    lines = [x for x in r.output.splitlines() if x.startswith("evreport: error:")]
    assert len(lines) == 5, r.output
    assert "cut.eval: not a readable .eval log (truncated" in lines[0]
    assert "other.eval: not a readable .eval log" in lines[1]
    assert "not an Inspect log (.eval or .json)" in lines[2]
    assert "unscored.eval: sample 'rec002' epoch 1: no score for the scorer 'choice'" in lines[3]
    assert "4 logs cannot be imported; nothing written" in lines[4]
    assert not root.exists()


def test_several_scorers_need_scorer(tmp_path):
    v = np.array([["C"], ["I"], ["C"]], dtype=object)
    log = write_inspect_log(tmp_path / "a.eval", v, scorers={"model_graded": [["I"], ["I"], ["C"]]})
    root = tmp_path / "p"
    _refused(root, log, "2 scorers ['choice', 'model_graded']; name one with --scorer")
    r = cli("import", "inspect", str(root), str(log), "--model", "a", "--scorer", "model_graded")
    assert r.exit_code == 0, r.output
    assert float(_rows(root)[0]["value"]) == pytest.approx(1 / 3)
    _refused(tmp_path / "q", log, "no scorer 'nope'", extra=("--scorer", "nope"))


def test_a_score_that_is_not_one_number_is_refused(tmp_path):
    v = np.empty((2, 1), dtype=object)
    v[0, 0] = "C"
    v[1, 0] = {"a": 1, "b": 0}
    log = write_inspect_log(tmp_path / "a.eval", v)
    _refused(tmp_path / "p", log, "sample 'rec001' epoch 1: the 'choice' score", "not one number")


def test_an_oversized_log_is_refused_before_reading(tmp_path, monkeypatch):
    import reportgen.project.files as files

    log = write_inspect_log(tmp_path / "a.eval", np.full((50, 1), "C"))
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    _refused(tmp_path / "p", log, "over the 1,000-byte limit")


# ---- lm-evaluation-harness ----------------------------------------------------------------


def test_lm_eval_samples_import_with_the_results_config(tmp_path):
    rng = np.random.default_rng(0)
    runs = [(rng.random(40) < 0.6).astype(int) for _ in range(2)]
    paths = [
        write_lm_eval(tmp_path / f"run{k}", [float(x) for x in v], subjects=["s"] * 40)
        for k, v in enumerate(runs)
    ]
    root = tmp_path / "p"
    r = cli("import", "lm-eval", str(root), *map(str, paths), "--model", "a", "--metric", "acc")
    assert r.exit_code == 0, r.output
    rows = _rows(root)
    assert [int(x["seed"]) for x in rows] == [1, 2]
    for x, v, path in zip(rows, runs, paths, strict=True):
        # independently: every logged line's acc value, read with json
        logged = [json.loads(line)["acc"] for line in path.read_text().splitlines()]
        assert float(x["value"]) == pytest.approx(np.mean(logged), abs=1e-15)
        assert float(x["value"]) == pytest.approx(v.mean(), abs=1e-15)
        assert x["config"] == "hf pretrained=org/model-a,dtype=bfloat16"
        assert x["features"] == "task=arc_easy; filter=none; metric=acc; n_shot=5; task_version=1.0"
        assert x["started_at"] == "2026-01-05T10:00:00.000000Z"
        assert x["env"] == "lm_eval=0.4.test"
        pred = pd.read_parquet(root / x["predictions"])
        assert list(pred["row_id"]) == list(range(40))
        np.testing.assert_array_equal(pred["correct"].to_numpy(), v)


def test_lm_eval_needs_metric_and_filter_when_several(tmp_path):
    path = write_lm_eval(tmp_path / "r", [1.0, 0.0], filters=("strict-match", "flexible"))
    root = tmp_path / "p"
    r = cli("import", "lm-eval", str(root), str(path), "--model", "a")
    assert r.exit_code == 1 and "2 filters ['flexible', 'strict-match']" in r.output
    r = cli("import", "lm-eval", str(root), str(path), "--model", "a", "--filter", "flexible")
    assert r.exit_code == 1 and "2 metrics ['acc', 'acc_norm']; name one with --metric" in r.output
    assert not root.exists()
    r = cli(
        "import", "lm-eval", str(root), str(path), "--model", "a", "--filter", "flexible",
        "--metric", "acc_norm",
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    assert [x["metric"] for x in _rows(root)] == ["accuracy"]


def test_lm_eval_bad_files_one_line_each(tmp_path):
    good = write_lm_eval(tmp_path / "good", [1.0, 0.0, 1.0])
    cut = tmp_path / "cut" / good.name
    cut.parent.mkdir()
    text = good.read_text()
    cut.write_text(text[: len(text) - 40])
    agg = write_lm_eval(tmp_path / "agg", [[0.1, 0.2], [0.3, 0.4]], metric="bleu")
    inspect_log = write_inspect_log(tmp_path / "a.eval", np.full((2, 1), "C"))
    dup = write_lm_eval(tmp_path / "dup", [1.0, 1.0], ids=[7, 7])
    root = tmp_path / "p"
    r = cli(
        "import", "lm-eval", str(root), str(cut), str(agg), str(inspect_log), "--model", "a",
        "--metric", "bleu",
    )  # fmt: skip
    assert r.exit_code == 1, r.output
    lines = [x for x in r.output.splitlines() if x.startswith("evreport: error:")]
    assert f"{cut}:3: not a JSON line of lm-eval samples (truncated" in lines[0]
    assert "doc_id 0: the 'bleu' value [0.1, 0.2] is not one number per question" in lines[1]
    assert "a.eval:1: not a JSON line of lm-eval samples" in lines[2]
    assert not root.exists()
    r = cli("import", "lm-eval", str(root), str(dup), "--model", "a", "--metric", "acc")
    assert r.exit_code == 1 and "sample id(s) '7' more than once" in r.output


def test_lm_eval_and_a_frozen_split(tmp_path):
    root = _frozen_project(tmp_path, list(range(5)))
    path = write_lm_eval(tmp_path / "r", [1.0, 0.0, 1.0, 1.0], ids=[0, 1, 2, 3])
    before = snapshot(root)
    r = cli("import", "lm-eval", str(root), str(path), "--model", "a", "--metric", "acc")
    assert r.exit_code == 1 and "lacks 1 of its 5 questions ('4')" in r.output
    assert snapshot(root) == before


def test_help_stays_instant():
    """`evreport import` imports neither inspect_ai nor the readers at start-up."""
    import subprocess
    import sys

    code = (
        "import sys; from reportgen.cli import main; "
        "bad = [m for m in sys.modules if m.startswith(('inspect_ai', 'reportgen.importers'))]; "
        "print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_an_unfrozen_split_file_is_checked_and_frozen_not_overwritten(tmp_path):
    root = tmp_path / "p"
    (root / "split").mkdir(parents=True)
    pd.DataFrame({"row_id": IDS, "topic": ["t"] * 10}).to_csv(
        root / "split" / "test.csv", index=False
    )
    text = (root / "split" / "test.csv").read_bytes()
    wrong = write_inspect_log(tmp_path / "w.eval", np.full((9, 1), "C"), ids=IDS[:9])
    _refused(root, wrong, "does not answer the questions of the test part (split/test.csv)")
    log = write_inspect_log(tmp_path / "a.eval", np.full((10, 1), "C"))
    r = cli("import", "inspect", str(root), str(log), "--model", "a")
    assert r.exit_code == 0, r.output
    assert "split/test.csv was frozen now, after the runs" in r.output
    assert (root / "split" / "test.csv").read_bytes() == text
    assert (root / "split" / "manifest.json").exists()


def test_dry_run_writes_nothing(tmp_path):
    log = write_inspect_log(tmp_path / "a.eval", np.full((4, 2), "C"))
    root = tmp_path / "p"
    r = cli("import", "inspect", str(root), str(log), "--model", "a", "--dry-run")
    assert r.exit_code == 0, r.output
    assert "would import a on test: 2 epoch(s) of 4 questions" in r.output
    assert not root.exists()
