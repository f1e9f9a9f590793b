"""evreport.toml: good and bad cases, each problem naming the file, line and column."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import MINI_CONFIG, cfg_problems, make_project, with_slug

from reportgen.project import inspect_project


def test_minimal_config_parses_with_defaults():
    cfg, problems = cfg_problems(MINI_CONFIG)
    assert problems == []
    assert (cfg.title, cfg.candidate, cfg.baseline, cfg.metric) == (
        "Mini project",
        "mlp",
        "gbm",
        "log_loss",
    )
    assert cfg.kind == "model-vs-baseline"
    assert cfg.higher_is_better is False
    assert (cfg.seed_sd_multiple, cfg.seed_sd_from, cfg.confidence) == (2.0, "larger", 0.95)
    assert (cfg.resamples, cfg.random_seed, cfg.bins) == (2000, 0, 10)
    assert cfg.threshold == "validation-cost"
    assert (cfg.false_positive, cfg.false_negative) == (1.0, 1.0)
    assert (cfg.block, cfg.slice) == ("week", "route")
    # lines recorded for citations: [claim] starts on line 3, candidate is line 5
    assert cfg.lines["claim.candidate"] == 5
    assert cfg.lines["title"] == 1


def test_full_config_from_the_spec_parses():
    text = """\
title  = "Weekly churn"
author = "A. Student"

[claim]
text       = "The MLP beats gradient boosting by 0.004 test log loss."
kind       = "model-vs-baseline"
candidate  = "mlp"
baseline   = "gbm"
metric     = "accuracy"
min_useful_effect = 0.003

[rule]
written          = 2026-09-01
seed_sd_multiple = 3.0
seed_sd_from     = "candidate"
confidence       = 0.9
resamples        = 500
random_seed      = 7
seeds_paired     = true

[evaluation]
block        = "week"
slice        = "route"
not_worse_on = ["shifted"]
threshold    = 0.3
bins         = 12

[costs]
false_positive   = 1.0
false_negative   = 3.0
unit             = "orders"
cases_per_period = 10000
period           = "week"

[general]
split    = "general"
max_drop = 0.01

[reconsider]
when = ["twelve more months of history"]

[evidence]
relevant = ["artefacts/cost-model.md"]
"""
    cfg, problems = cfg_problems(text)
    assert problems == []
    assert cfg.higher_is_better is True  # accuracy
    assert cfg.written == dt.date(2026, 9, 1)
    assert (cfg.seed_sd_multiple, cfg.seed_sd_from, cfg.confidence) == (3.0, "candidate", 0.9)
    assert (cfg.resamples, cfg.random_seed, cfg.seeds_paired) == (500, 7, True)
    assert cfg.threshold == 0.3 and cfg.bins == 12
    assert cfg.not_worse_on == ["shifted"]
    assert (cfg.false_negative, cfg.cases_per_period, cfg.period) == (3.0, 10000.0, "week")
    assert (cfg.general_split, cfg.max_drop) == ("general", 0.01)
    assert cfg.reconsider_when == ["twelve more months of history"]
    assert cfg.evidence == {"relevant": ["artefacts/cost-model.md"]}
    assert cfg.min_useful_effect == 0.003
    assert cfg.lines["evidence.relevant"] == 43


def test_unknown_key_suggests_closest_at_its_line():
    text = MINI_CONFIG.replace('candidate = "mlp"', 'candidat = "mlp"')
    cfg, problems = cfg_problems(text)
    assert cfg is None
    [p] = with_slug(problems, "unknown-key")
    assert (p.path, p.line, p.column) == ("evreport.toml", 5, 1)
    assert "'claim.candidat'" in p.message
    assert "did you mean 'candidate'?" in p.message
    assert str(p).startswith("evreport.toml:5:1: error: unknown key")
    # the real key is now missing, too
    [m] = with_slug(problems, "missing-key")
    assert "'candidate'" in m.message and "[claim]" in m.message
    assert m.line == 3  # the [claim] header


def test_key_in_the_wrong_table_names_its_table():
    text = MINI_CONFIG + "\n[costs]\nseed_sd_multiple = 2.0\n"
    _, problems = cfg_problems(text)
    [p] = with_slug(problems, "unknown-key")
    assert p.line == text.splitlines().index("seed_sd_multiple = 2.0") + 1
    assert "[rule] seed_sd_multiple" in p.message


def test_unknown_table_suggests_rule():
    text = MINI_CONFIG + "\n[rul]\nconfidence = 0.9\n"
    cfg, problems = cfg_problems(text)
    assert cfg is None
    [p] = with_slug(problems, "unknown-key")
    assert p.message == "unknown table [rul]; did you mean [rule]?"
    assert (p.line, p.column) == (len(MINI_CONFIG.splitlines()) + 2, 1)


def test_unknown_table_without_close_match_lists_known_tables():
    _, problems = cfg_problems(MINI_CONFIG + "\n[zzzzzz]\nx = 1\n")
    [p] = with_slug(problems, "unknown-key")
    assert "known tables: claim, rule, evaluation, costs" in p.message


@pytest.mark.parametrize("key", ["title", "claim.text", "claim.candidate", "claim.metric"])
def test_missing_required_key(key):
    table, _, k = key.rpartition(".")
    lines = [ln for ln in MINI_CONFIG.splitlines() if not ln.startswith(f"{k} ") and ln != f"{k} ="]
    cfg, problems = cfg_problems("\n".join(lines) + "\n")
    assert cfg is None
    [p] = with_slug(problems, "missing-key")
    where = f"[{table}]" if table else "the top level"
    assert p.message == f"missing required key {k!r} in {where}"
    assert p.path == "evreport.toml"
    if table:
        assert p.line == 3  # the [claim] header
    else:
        assert p.line is None  # nothing to point at: the key is absent from the top level


def test_missing_claim_table_reports_every_required_key():
    _, problems = cfg_problems('title = "x"\n')
    missing = sorted(p.message for p in with_slug(problems, "missing-key"))
    assert missing == sorted(
        f"missing required key {k!r} in [claim]"
        for k in ("text", "candidate", "baseline", "metric")
    )


def test_not_worse_on_must_be_a_list_of_strings():
    text = MINI_CONFIG.replace('slice = "route"', 'slice = "route"\nnot_worse_on = "shifted"')
    _, problems = cfg_problems(text)
    [p] = with_slug(problems, "bad-type")
    assert "evaluation.not_worse_on = 'shifted' must be a list of strings" == p.message
    assert p.line == 12


def test_invalid_toml_gives_line_and_column():
    text = 'title = "x"\n\n[claim]\ntext = "unterminated\n'
    cfg, problems = cfg_problems(text)
    assert cfg is None
    [p] = problems
    assert p.slug == "bad-toml"
    assert p.line == 4 and p.column is not None and p.column > 1
    assert p.message.startswith("not valid TOML:")
    assert "(at line" not in p.message  # the position lives in line/column, not duplicated


def test_duplicate_key_is_invalid_toml_at_its_line():
    text = 'title = "again"\n' + MINI_CONFIG
    _, problems = cfg_problems(text)
    [p] = problems
    assert p.slug == "bad-toml"
    assert p.line == 2  # the second title


@pytest.mark.parametrize(
    "value,ok", [("0.0", True), ("1", True), ("0.5", True), ("1.5", False), ("-0.1", False)]
)
def test_fixed_threshold_must_be_in_unit_interval(value, ok):
    text = MINI_CONFIG + f"threshold = {value}\n"
    cfg, problems = cfg_problems(text)
    if ok:
        assert problems == [] and cfg.threshold == float(value)
    else:
        [p] = problems
        assert p.message == (
            f'evaluation.threshold = {float(value)!r} must be "validation-cost" or a number in [0, 1]'
        )
        assert p.line == len(text.splitlines())


@pytest.mark.parametrize("value", ['"best-f1"', "true"])
def test_threshold_other_strings_and_booleans_refused(value):
    text = MINI_CONFIG + f"threshold = {value}\n"
    cfg, problems = cfg_problems(text)
    assert cfg is None
    [p] = problems
    assert "evaluation.threshold" in p.message and p.line == len(text.splitlines())


def test_not_worse_on_without_slice():
    text = MINI_CONFIG.replace('slice = "route"', 'not_worse_on = ["shifted"]')
    cfg, problems = cfg_problems(text)
    assert cfg is None
    [p] = problems
    assert p.message == (
        "evaluation.not_worse_on needs evaluation.slice (the column that names slices)"
    )
    assert (p.line, p.column) == (11, 1)


#: (lines added to MINI_CONFIG, the one problem's message): values of the wrong type
WRONG_TYPE = [
    ("[rule]\nresamples = 1e3", "rule.resamples = 1000.0 must be a whole number"),
    ('[rule]\nconfidence = "high"', "rule.confidence = 'high' must be a number"),
    ('[rule]\nseeds_paired = "yes"', "rule.seeds_paired = 'yes' must be true or false"),
    ("[rule]\nseed_sd_multiple = true", "rule.seed_sd_multiple = True must be a number"),
]
#: values of the right type outside what the key allows
OUT_OF_RANGE = [
    (
        '[rule]\nseed_sd_from = "smaller"',
        "rule.seed_sd_from = 'smaller' is not one of candidate, baseline, larger",
    ),
    ("[rule]\nconfidence = 1.0", "rule.confidence = 1.0 must be between 0.5 and 0.9999"),
    (
        "[rule]\nresamples = 50",
        "rule.resamples = 50 must be between 100 and 100000 (resamples x blocks bounds the "
        "build time; 2000 is plenty for a 95% interval)",
    ),
    ("[rule]\nrandom_seed = -1", "rule.random_seed must be >= 0"),
    ("[rule]\nseed_sd_multiple = 0", "rule.seed_sd_multiple must be > 0"),
    (
        '[rule]\nwritten = "last tuesday"',
        "rule.written = 'last tuesday' is not a date (YYYY-MM-DD)",
    ),
    (
        "[costs]\nfalse_positive = 0\nfalse_negative = 0",
        "costs.false_positive and costs.false_negative must be >= 0 and not both 0",
    ),
    ("[costs]\ncases_per_period = 0", "costs.cases_per_period must be > 0"),
    ("[general]\nmax_drop = -0.1", "general.max_drop must be >= 0"),
]


@pytest.mark.parametrize(
    "extra,slug,message",
    [(e, "bad-type", m) for e, m in WRONG_TYPE] + [(e, "bad-config", m) for e, m in OUT_OF_RANGE],
)
def test_bad_value_named_with_its_key_and_line(extra, slug, message):
    text = MINI_CONFIG + "\n" + extra + "\n"
    cfg, problems = cfg_problems(text)
    assert cfg is None
    [p] = problems
    assert (p.slug, p.message) == (slug, message)
    if "[costs]\nfalse_positive" in extra:  # the costs pair is cited at the [costs] header
        assert (p.line, p.column) == (len(MINI_CONFIG.splitlines()) + 2, None)
    else:
        assert (p.line, p.column) == (len(text.splitlines()), 1)


def test_claim_level_checks():
    text = MINI_CONFIG.replace('baseline  = "gbm"', 'baseline  = "mlp"')
    _, problems = cfg_problems(text)
    [p] = problems
    assert p.message == "claim.candidate and claim.baseline are both 'mlp'"
    assert p.line == 6

    text = MINI_CONFIG.replace('metric    = "log_loss"', 'metric    = "log_loss"\nkind = "a-b"')
    _, problems = cfg_problems(text)
    [p] = problems
    assert "claim.kind = 'a-b' is not one of model-vs-baseline, before-after" == p.message

    text = MINI_CONFIG.replace(
        'metric    = "log_loss"', 'metric    = "log_loss"\nhigher_is_better = true'
    )
    _, problems = cfg_problems(text)
    [p] = problems
    assert "contradicts metric 'log_loss'" in p.message and p.line == 8


def test_per_row_metric_needs_higher_is_better():
    text = MINI_CONFIG.replace('"log_loss"', '"latency_ms"')
    cfg, problems = cfg_problems(text)
    assert cfg is None
    [p] = problems
    assert "claim.higher_is_better is required for the per-row metric 'latency_ms'" in p.message
    assert p.line == 7
    cfg, problems = cfg_problems(
        text.replace('"latency_ms"', '"latency_ms"\nhigher_is_better = false')
    )
    assert problems == [] and cfg.metric == "latency_ms" and cfg.higher_is_better is False
    assert cfg.builtin_metric is False


def test_written_accepts_toml_date_string_and_datetime():
    for value in ("2026-09-01", '"2026-09-01"', "2026-09-01T10:00:00"):
        cfg, problems = cfg_problems(MINI_CONFIG + f"\n[rule]\nwritten = {value}\n")
        assert problems == [], value
        assert cfg.written == dt.date(2026, 9, 1)


def test_every_problem_is_reported_at_once():
    text = MINI_CONFIG.replace('candidate = "mlp"', 'candidat = "mlp"') + (
        "\n[rule]\nresamples = 1.5\n\n[rul]\nx = 1\n"
    )
    _, problems = cfg_problems(text)
    assert sorted(p.slug for p in problems) == [
        "bad-type",
        "missing-key",
        "unknown-key",
        "unknown-key",
    ]


@pytest.mark.parametrize(
    "extra",
    [
        "[claim]\nmin_useful_effect = nan",
        "[rule]\nseed_sd_multiple = nan",
        "[costs]\nfalse_negative = nan",
        "[costs]\ncases_per_period = nan",
        "[general]\nmax_drop = nan",
    ],
)
def test_nan_is_not_a_valid_number(extra):
    table, line = extra.split("\n")
    if table == "[claim]":
        text = MINI_CONFIG.replace('metric    = "log_loss"', 'metric    = "log_loss"\n' + line)
    else:
        text = MINI_CONFIG + "\n" + extra + "\n"
    cfg, problems = cfg_problems(text)
    assert cfg is None
    assert len(problems) == 1 and problems[0].line is not None


# --------------------------------------------------------------------------- through the project


def test_candidate_not_in_runs_names_models_present(tmp_path):
    root = make_project(tmp_path / "p", MINI_CONFIG.replace('"mlp"', '"mpl"'))
    project, problems = inspect_project(root)
    assert project is None
    [p] = with_slug(problems, "unknown-model")
    assert p.message == (
        "claim.candidate = 'mpl' is not a model in runs.csv; did you mean 'mlp'? "
        "models there: gbm, mlp"
    )
    assert (p.path, p.line, p.column) == ("evreport.toml", 5, 1)


def test_baseline_not_in_runs_without_close_match(tmp_path):
    root = make_project(tmp_path / "p", MINI_CONFIG.replace('"gbm"', '"logistic-regression"'))
    _, problems = inspect_project(root)
    [p] = with_slug(problems, "unknown-model")
    assert "claim.baseline = 'logistic-regression'" in p.message
    assert "did you mean" not in p.message and p.message.endswith("models there: gbm, mlp")
    assert p.line == 6


@pytest.mark.parametrize(
    ("task", "hint"),
    [("regresion", "regression"), ("multi-class", "multiclass"), ("Binary", "binary")],
)
def test_a_misspelt_task_gets_did_you_mean(task, hint):
    text = MINI_CONFIG.replace('metric    = "log_loss"', f'metric    = "log_loss"\ntask = "{task}"')
    _, problems = cfg_problems(text)
    [p] = problems
    assert f"is not one of binary, multiclass, regression; did you mean '{hint}'?" in p.message
    assert p.line == 8
