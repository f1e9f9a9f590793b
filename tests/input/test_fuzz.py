"""Properties: garbage in -> Problems out (never a crash); a valid run log reads back exactly."""

from __future__ import annotations

import csv
import io
import math

import pytest
from conftest import make_project
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reportgen.errors import Problem
from reportgen.project import inspect_project
from reportgen.project.config import SCHEMA, parse_config
from reportgen.project.runs import parse_runs
from reportgen.project.tables import MAX_MAGNITUDE

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_well_formed(problems, name=None):
    for p in problems:
        assert isinstance(p, Problem)
        assert p.path, p
        if name is not None:
            assert p.path == name
        assert isinstance(p.message, str) and p.message.strip(), p
        assert p.severity in ("error", "warning")
        assert p.line is None or (isinstance(p.line, int) and p.line >= 1), p
        assert p.column is None or (isinstance(p.column, int) and p.column >= 1), p
        str(p)  # renders


# --------------------------------------------------------------------------- evreport.toml

TABLES = [t for t in SCHEMA if t is not None]
KEYS = sorted({k for keys in SCHEMA.values() for k in keys} | {"candidat", "x", "rul"})
VALUES = st.one_of(
    st.integers(-(10**6), 10**6).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(
        [
            "nan",
            "inf",
            "-inf",
            "true",
            "false",
            "2026-09-01",
            "10:00:00",
            "2026-09-01T10:00:00Z",
            "[]",
            '["a", "b"]',
            "[1, 2]",
            "{a = 1}",
            '"validation-cost"',
            '"log_loss"',
            '"mlp"',
            '"gbm"',
            '"larger"',
            '"before-after"',
            '""',
            "'lit'",
            '"""multi\nline"""',
        ]
    ),
    st.text(max_size=12).map(lambda s: '"' + s.replace("\\", "").replace('"', "") + '"'),
)
TOML_LINE = st.one_of(
    st.sampled_from(TABLES + ["rul", "claim.sub", "[claim]"]).map(lambda t: f"[{t}]"),
    st.sampled_from(["[[claim]]", "[[rule]]", "", "# comment", "= 1", "[", "]"]),
    st.tuples(st.sampled_from(KEYS), VALUES).map(lambda kv: f"{kv[0]} = {kv[1]}"),
)


@FUZZ
@given(st.text(max_size=300))
def test_parse_config_random_text(text):
    problems: list[Problem] = []
    cfg = parse_config(text, "evreport.toml", problems)
    assert_well_formed(problems, "evreport.toml")
    assert (cfg is None) == any(p.severity == "error" for p in problems)


@FUZZ
@given(st.binary(max_size=300))
def test_parse_config_random_bytes(data):
    problems: list[Problem] = []
    cfg = parse_config(data.decode("latin-1"), "evreport.toml", problems)
    assert_well_formed(problems, "evreport.toml")
    assert (cfg is None) == any(p.severity == "error" for p in problems)


@FUZZ
@given(st.lists(TOML_LINE, max_size=25))
def test_parse_config_toml_like_lines(lines):
    text = (
        'title = "t"\n[claim]\ntext = "c"\ncandidate = "a"\nbaseline = "b"\nmetric = "log_loss"\n'
    )
    text += "\n".join(lines) + "\n"
    problems: list[Problem] = []
    cfg = parse_config(text, "evreport.toml", problems)
    assert_well_formed(problems, "evreport.toml")
    if cfg is None:
        assert any(p.severity == "error" for p in problems)
    else:
        assert problems == []
        assert 0.5 <= cfg.confidence < 1 and 100 <= cfg.resamples <= 1_000_000
        assert cfg.threshold == "validation-cost" or 0 <= cfg.threshold <= 1


# --------------------------------------------------------------------------- runs.csv

HEADER = "run_id,model,seed,split,metric,value,status,started_at,notes\n"
CSV_TEXT = st.lists(
    st.sampled_from(list('ab1.,"\n\r -xé') + ["nan", "ok", "failed", "0.5", "2026-01-01"]),
    max_size=60,
).map("".join)


@FUZZ
@given(st.text(max_size=300))
def test_parse_runs_random_text(text):
    problems: list[Problem] = []
    warnings: list[Problem] = []
    rows = parse_runs(text, "runs.csv", problems, warnings)
    assert_well_formed(problems + warnings, "runs.csv")
    assert all(w.severity == "warning" for w in warnings)
    assert rows or problems


@FUZZ
@given(st.binary(max_size=300))
def test_parse_runs_random_bytes(data):
    problems: list[Problem] = []
    warnings: list[Problem] = []
    parse_runs(data.decode("latin-1"), "runs.csv", problems, warnings)
    assert_well_formed(problems + warnings, "runs.csv")


@FUZZ
@given(CSV_TEXT)
def test_parse_runs_csv_like_text_after_a_valid_header(body):
    problems: list[Problem] = []
    warnings: list[Problem] = []
    rows = parse_runs(HEADER + body, "runs.csv", problems, warnings)
    assert_well_formed(problems + warnings, "runs.csv")
    n_lines = (HEADER + body).count("\n") + (HEADER + body).count("\r") + 1
    for r in rows:
        assert 2 <= r.line <= n_lines
        assert r.value is None or math.isfinite(r.value)
        assert r.status in ("ok", "failed")
        assert r.value is not None or r.status == "failed"
    for p in problems:
        assert p.line is None or p.line <= n_lines


# --------------------------------------------------------------------------- a valid run log reads back

NAME = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=8)
NOTE = st.text(alphabet=st.sampled_from(list("ab ,;\"'\n") + ["é", "x"]), max_size=20).filter(
    lambda s: s == s.strip()
)


@st.composite
def run_logs(draw):
    """(rows, expected) for a valid run log: unique (run, split, metric), one model/seed per run."""
    runs = draw(
        st.dictionaries(NAME, st.tuples(NAME, st.integers(-5, 10**9)), min_size=1, max_size=6)
    )
    keys = draw(
        st.lists(
            st.tuples(
                st.sampled_from(sorted(runs)),
                st.sampled_from(["train", "validation", "val", "test", "general"]),
                st.sampled_from(["log_loss", "accuracy", "brier"]),
            ),
            min_size=1,
            max_size=15,
            unique_by=lambda k: (k[0], "validation" if k[1] == "val" else k[1], k[2]),
        )
    )
    rows = []
    for run_id, split, metric in keys:
        status = draw(st.sampled_from(["ok", "ok", "failed"]))
        value = draw(st.floats(min_value=-MAX_MAGNITUDE, max_value=MAX_MAGNITUDE, width=64))
        if status == "failed" and draw(st.booleans()):
            value = None
        rows.append((run_id, *runs[run_id], split, metric, value, status, draw(NOTE)))
    return rows


@FUZZ
@given(run_logs(), st.sampled_from(["\n", "\r\n"]))
def test_valid_run_log_reads_back_exactly(rows, eol):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator=eol)
    w.writerow(["run_id", "model", "seed", "split", "metric", "value", "status", "notes"])
    expected_lines = []
    line = 2
    for run_id, model, seed, split, metric, value, status, note in rows:
        expected_lines.append(line)
        w.writerow(
            [run_id, model, seed, split, metric, "" if value is None else repr(value), status, note]
        )
        line += 1 + note.count("\n")
    problems: list[Problem] = []
    warnings: list[Problem] = []
    got = parse_runs(buf.getvalue(), "runs.csv", problems, warnings)
    assert problems == [] and warnings == []
    assert [r.line for r in got] == expected_lines
    assert [
        (r.run_id, r.model, r.seed, r.split, r.metric, r.value, r.status, r.notes) for r in got
    ] == [
        (
            run_id,
            model,
            seed,
            "validation" if split == "val" else split,
            metric,
            value,
            status,
            note or None,
        )
        for run_id, model, seed, split, metric, value, status, note in rows
    ]


# --------------------------------------------------------------------------- whole project


@pytest.fixture(scope="module")
def garbage_root(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("garbage") / "p")


@FEW
@given(
    runs=st.one_of(st.binary(max_size=200), CSV_TEXT.map(lambda s: (HEADER + s).encode())),
    toml=st.one_of(
        st.binary(max_size=200),
        st.lists(TOML_LINE, max_size=10).map(lambda ls: "\n".join(ls).encode()),
    ),
)
def test_inspect_project_with_garbage_inputs(garbage_root, runs, toml):
    (garbage_root / "runs.csv").write_bytes(runs)
    (garbage_root / "evreport.toml").write_bytes(toml)
    project, problems = inspect_project(garbage_root)
    assert_well_formed(problems)
    assert project is None
    assert any(p.severity == "error" for p in problems)
