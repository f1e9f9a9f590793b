"""``Report.from_json`` is strict: a missing key, an unknown key or a value of the wrong JSON
type raises ReportShapeError, whose message names the JSON path."""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.errors import EvreportError
from reportgen.model import Report, ReportShapeError
from reportgen.model.base import specs
from tests.model.conftest import FIXTURES

REPORT = json.loads(
    next(p for p in FIXTURES if p.stem == "report-weekly-churn").read_text(encoding="utf-8")
)


def object_paths(value, path="report"):
    """(path, the object, its key) for every key of every object of a report."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path, value, k
            yield from object_paths(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from object_paths(v, f"{path}[{i}]")


def locate(report: dict, index: int):
    found = list(object_paths(report))
    return found[index % len(found)]


def is_map(path: str) -> bool:
    """Keys of maps are data (libraries, model names, class labels, parts, sensitivity's
    models): any key is fine."""
    return path.endswith(("libraries", "display_names", "_by_category", ".parts", ".sensitivity"))


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_a_deleted_key_is_named_by_its_path(index):
    report = copy.deepcopy(REPORT)
    path, obj, k = locate(report, index)
    if is_map(path):
        return
    del obj[k]
    try:
        Report.from_json(report)
    except ReportShapeError as e:
        assert str(e).startswith(f"{path}.{k}: missing key") or f"{path}." in str(e)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_a_renamed_key_is_named_by_its_path(index):
    report = copy.deepcopy(REPORT)
    path, obj, k = locate(report, index)
    if is_map(path):
        return
    obj[k + "_renamed"] = obj.pop(k)
    with pytest.raises(ReportShapeError, match=r"^" + _re(f"{path}.{k}_renamed: unknown key")):
        Report.from_json(report)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_a_retyped_value_is_named_by_its_path(index):
    report = copy.deepcopy(REPORT)
    path, obj, k = locate(report, index)
    if obj[k] is None or (is_map(path) and not isinstance(obj[k], str)):
        return  # null fits many types; a map's values are checked where they are strings
    wrong = [] if isinstance(obj[k], str) else "x"
    obj[k] = wrong
    with pytest.raises(ReportShapeError, match=r"^" + _re(f"{path}.{k}: expected ")):
        Report.from_json(report)


def _re(text: str) -> str:
    return re.escape(text)


def test_a_deleted_required_key_says_missing_key():
    report = copy.deepcopy(REPORT)
    del report["noise"]["seed"]["gap_in_sd"]
    with pytest.raises(ReportShapeError, match=r"^report\.noise\.seed\.gap_in_sd: missing key$"):
        Report.from_json(report)


def test_the_message_quotes_the_wrong_value():
    report = copy.deepcopy(REPORT)
    report["noise"]["seed"]["gap_in_sd"] = "x"
    with pytest.raises(ReportShapeError) as e:
        Report.from_json(report)
    assert str(e.value) == 'report.noise.seed.gap_in_sd: expected a number or null, got "x"'
    assert isinstance(e.value, EvreportError) and e.value.slug == "report-shape"


@pytest.mark.parametrize("value", [True, 1.5, "3", None])
def test_an_integer_is_an_integer(value):
    report = copy.deepcopy(REPORT)
    report["claim"]["supported_rung"] = value
    with pytest.raises(ReportShapeError, match=r"^report\.claim\.supported_rung: expected an"):
        Report.from_json(report)


def test_a_number_keeps_an_integer_an_integer_and_refuses_a_bool():
    report = copy.deepcopy(REPORT)
    report["build"]["confidence"] = 1
    assert Report.from_json(report).to_json()["build"]["confidence"] == 1
    assert type(Report.from_json(report).build.confidence) is int
    report["build"]["confidence"] = True
    with pytest.raises(ReportShapeError, match="expected a number"):
        Report.from_json(report)


def test_an_unknown_enum_value_is_refused():
    report = copy.deepcopy(REPORT)
    report["ladder"][0]["status"] = "maybe"
    with pytest.raises(ReportShapeError, match=r"^report\.ladder\[0\]\.status: expected one of"):
        Report.from_json(report)


def test_a_key_absent_when_none_is_never_null():
    report = json.loads(next(p for p in FIXTURES if "tuned" in p.stem).read_text(encoding="utf-8"))
    report["noise"]["interval"]["part"] = None
    with pytest.raises(ReportShapeError, match=r"^report\.noise\.interval\.part: expected the key"):
        Report.from_json(report)


def test_every_model_field_has_its_meaning():
    from reportgen.model.schema import schema

    schema()  # builds every class's specs
    from reportgen.model.base import _SPECS

    undocumented = [f"{c.__name__}.{s.name}" for c, ss in _SPECS.items() for s in ss if not s.doc]
    assert not undocumented, undocumented
    assert all(c.__doc__ for c in _SPECS), [c for c in _SPECS if not c.__doc__]
    assert specs(Report)[0].json_name == "schema"
