"""split/manifest.json and the rung-1 check files: parse errors with line/column, the spec's bars."""

from __future__ import annotations

import json
import math

import pytest
from conftest import with_slug

from reportgen.project import inspect_project
from reportgen.project.checkfiles import evaluate, parse_checkfile

# --------------------------------------------------------------------------- manifest


def write_manifest(root, text: str) -> None:
    (root / "split" / "manifest.json").write_text(text, encoding="utf-8")


def manifest_problems(root):
    project, problems = inspect_project(root)
    return project, [p for p in problems if p.path == "split/manifest.json"]


def test_example_manifest_verifies(example):
    root = example("moons-tie")
    project, problems = inspect_project(root)
    assert problems == []
    m = project.manifest
    assert m.path == "split/manifest.json" and m.row_id == "row_id"
    assert [f.part for f in m.files] == ["test", "train", "validation"]
    assert all(f.hash_ok and f.rows_ok for f in m.files)
    assert [f.actual_rows for f in m.files] == [f.rows for f in m.files]
    assert m.created is not None and m.created.tzinfo is not None


def test_bad_json_gives_line_and_column(example):
    root = example("moons-tie")
    write_manifest(root, '{\n  "created": "2026-01-01T00:00:00Z",\n  "files": [\n    {"part": }\n')
    project, problems = manifest_problems(root)
    assert project is None
    [p] = problems
    assert (p.line, p.column, p.slug) == (4, 14, "bad-json")
    assert p.message.startswith("not valid JSON: Expecting value")


@pytest.mark.parametrize("doc", ["[]", '{"created": "2026-01-01"}', '{"files": {}}'])
def test_wrong_shape(example, doc):
    root = example("moons-tie")
    write_manifest(root, doc)
    _, problems = manifest_problems(root)
    [p] = problems
    assert (p.line, p.slug) == (1, "bad-manifest")
    assert '"files" list' in p.message


def _doc(root, **changes) -> dict:
    doc = json.loads((root / "split" / "manifest.json").read_text())
    doc.update(changes)
    return doc


@pytest.mark.parametrize(
    "entry,fields,message,first_line",
    [
        (1, ("sha256", "rows"), "files[1] lacks sha256, rows", '      "part": "train",'),
        # an entry without its part is still cited at its own line
        (0, ("part",), "files[0] lacks part", '      "path": "split/test.csv",'),
    ],
)
def test_missing_fields_named_at_the_entry(example, entry, fields, message, first_line):
    root = example("moons-tie")
    doc = _doc(root)
    for field in fields:
        del doc["files"][entry][field]
    text = json.dumps(doc, indent=2)
    write_manifest(root, text)
    _, problems = manifest_problems(root)
    [p] = problems
    assert p.message == message
    assert p.line == text.splitlines().index(first_line) + 1


@pytest.mark.parametrize(
    "created,slug,needle",
    [
        (20260101, "bad-manifest", '"created" must be an ISO 8601 date-time string'),
        ("yesterday", "bad-time", "\"created\" = 'yesterday' is not an ISO 8601 date-time"),
    ],
)
def test_bad_created(example, created, slug, needle):
    root = example("moons-tie")
    write_manifest(root, json.dumps(_doc(root, created=created), indent=2))
    _, problems = manifest_problems(root)
    [p] = problems
    assert (p.slug, p.line, p.message) == (slug, 2, needle)


def test_created_may_be_missing_with_a_problem(example):
    root = example("moons-tie")
    doc = _doc(root)
    del doc["created"]
    write_manifest(root, json.dumps(doc, indent=2))
    _, problems = manifest_problems(root)
    [p] = problems
    assert p.message == '"created" must be an ISO 8601 date-time string'


@pytest.mark.parametrize("rows", ["10", -1, 2.5, True])
def test_rows_must_be_a_whole_number(example, rows):
    root = example("moons-tie")
    doc = _doc(root)
    doc["files"][0]["rows"] = rows
    write_manifest(root, json.dumps(doc, indent=2))
    _, problems = manifest_problems(root)
    [p] = problems
    assert p.message == "files[0].rows must be a whole number" and p.line == 6  # its "part" line


def test_part_listed_twice(example):
    root = example("moons-tie")
    doc = _doc(root)
    doc["files"][2]["part"] = "val"  # alias of validation: fine
    doc["files"].append(dict(doc["files"][2], part="validation"))
    text = json.dumps(doc, indent=2)
    write_manifest(root, text)
    _, problems = manifest_problems(root)
    [p] = problems
    assert p.message == "part 'validation' is listed twice"
    lines = text.splitlines()
    assert p.line == len(lines) - lines[::-1].index('      "part": "validation",')  # last entry


def test_split_file_missing(example):
    root = example("moons-tie")
    (root / "split" / "train.csv").unlink()
    project, problems = inspect_project(root)
    assert project is None
    [p] = problems
    assert (p.path, p.slug, p.message) == (
        "split/train.csv",
        "unreadable",
        "file split/train.csv does not exist",
    )


def test_split_file_without_row_id_column(example):
    root = example("moons-tie")
    write_manifest(root, json.dumps(_doc(root, row_id="example_id"), indent=2))
    _, problems = inspect_project(root)
    miss = with_slug(problems, "missing-column")
    assert sorted(p.path for p in miss) == [
        "split/test.csv",
        "split/train.csv",
        "split/validation.csv",
    ]
    assert all(
        p.message == "split file has no 'example_id' column (the manifest's row_id)" for p in miss
    )


def test_wrong_sha_and_rows_are_facts_not_errors(example):
    root = example("moons-tie")
    doc = _doc(root)
    doc["files"][0]["sha256"] = "0" * 64
    doc["files"][1]["rows"] += 1
    write_manifest(root, json.dumps(doc, indent=2))
    project, problems = inspect_project(root)
    assert project is not None and problems == []
    f0, f1, f2 = project.manifest.files
    assert (f0.hash_ok, f0.rows_ok) == (False, True)
    assert (f1.hash_ok, f1.rows_ok, f1.actual_rows, f1.rows) == (
        True,
        False,
        f1.rows - 1,
        f1.rows,
    )
    assert (f2.hash_ok, f2.rows_ok) == (True, True)


# --------------------------------------------------------------------------- check files: the bars


LN2, LN10 = math.log(2), math.log(10)


@pytest.mark.parametrize(
    "fields,passed",
    [
        ({"value": LN2, "classes": 2}, True),
        ({"value": LN2 + 0.499, "classes": 2}, True),  # up to ln 2 + (C-1)/2C x 2
        ({"value": LN2 * 0.76, "classes": 2}, True),
        ({"value": LN2 + 0.501, "classes": 2}, False),
        ({"value": LN2 * 0.74, "classes": 2}, False),
        ({"value": 2.3, "classes": 10}, True),
        ({"value": LN2, "classes": 10}, False),
        ({"value": LN10 + 0.899, "classes": 10}, True),
        ({"value": LN10 + 0.901, "classes": 10}, False),
    ],
)
def test_initial_loss_against_what_a_default_initialisation_gives(fields, passed):
    ok, text = evaluate("initial_loss", fields)
    assert ok is passed
    assert f"against ln {fields['classes']} = " in text
    assert ("within" if passed else "far above" if fields["value"] > 1 else "below") in text


@pytest.mark.parametrize(
    "err,passed", [(0.0, True), (1e-9, True), (1e-4, True), (1.01e-4, False), (0.01, False)]
)
def test_gradient_at_most_1e_4(err, passed):
    ok, text = evaluate("gradient", {"max_relative_error": err})
    assert ok is passed
    assert ("(at most 10⁻⁴)" if passed else "(above 10⁻⁴)") in text


@pytest.mark.parametrize(
    "fields,passed",
    [
        ({"rows": 32, "accuracy": 1.0}, True),
        ({"rows": 32, "accuracy": 0.99}, False),
        ({"rows": 32, "final_loss": 0.05}, True),
        ({"rows": 32, "final_loss": 0.0501}, False),
        ({"rows": 32, "accuracy": 0.9, "final_loss": 0.01}, True),
        ({"rows": 32, "accuracy": 1.0, "final_loss": 0.3}, True),
        ({"rows": 32, "accuracy": 0.97, "final_loss": 0.2}, False),
    ],
)
def test_overfit_accuracy_one_or_loss_at_most_005(fields, passed):
    ok, text = evaluate("overfit", fields)
    assert ok is passed
    assert text.startswith("overfit 32 rows: ")
    assert text.endswith("(memorised)" if passed else "(did not memorise)")


@pytest.mark.parametrize("passed", [True, False])
def test_shapes_passed_flag(passed):
    ok, text = evaluate("shapes", {"passed": passed, "assertions": 15})
    assert ok is passed
    assert text == f"shape assertions {'passed' if passed else 'FAILED'} (15 assertions)"


@pytest.mark.parametrize(
    "check,fields",
    [
        ("initial_loss", {"value": 0.7}),
        ("initial_loss", {"value": 0.7, "classes": 1}),
        ("initial_loss", {"value": "0.7", "classes": 2}),
        ("gradient", {"max_relative_error": None}),
        ("gradient", {"max_relative_error": float("nan")}),
        ("overfit", {"rows": 32}),
        ("shapes", {"passed": "yes"}),
    ],
)
def test_incomplete_known_check_is_not_credited(check, fields):
    problems, warnings = [], []
    c = parse_checkfile(
        json.dumps({"check": check, "model": "mlp", **fields}), "c.json", problems, warnings
    )
    assert problems == []
    assert c.passed is None
    [w] = warnings
    assert (w.slug, w.severity, w.path, w.line) == ("bad-check", "warning", "c.json", 1)
    assert w.message.startswith(f"{check}: needs") and w.message.endswith("not credited")


def test_checkfile_bad_json_gives_line_and_column():
    problems, warnings = [], []
    c = parse_checkfile(
        '{\n  "check": "gradient",\n  "model": mlp\n}', "c.json", problems, warnings
    )
    assert c is None
    [p] = problems
    assert (p.path, p.line, p.column, p.slug) == ("c.json", 3, 12, "bad-json")


@pytest.mark.parametrize(
    "doc", ['["gradient"]', '{"check": "gradient"}', '{"check": 1, "model": "m"}']
)
def test_checkfile_needs_check_and_model(doc):
    problems, warnings = [], []
    assert parse_checkfile(doc, "c.json", problems, warnings) is None
    [p] = problems
    assert (p.slug, p.line) == ("bad-check", 1)


def test_unknown_check_is_a_warning_and_listed():
    problems, warnings = [], []
    c = parse_checkfile('{"check": "gradiant", "model": "mlp"}', "c.json", problems, warnings)
    assert problems == []
    assert (c.check, c.model, c.passed) == ("gradiant", "mlp", None)
    [w] = warnings
    assert (w.severity, w.slug) == ("warning", "unknown-check")
    assert (
        "unknown check 'gradiant' (known: initial_loss, gradient, overfit, shapes, sensitivity)"
        in w.message
    )


def test_check_files_through_the_project(example):
    root = example("moons-tie")
    checks = root / "artefacts" / "checks"
    (checks / "extra.json").write_text('{"check": "weights_change", "model": "tanh-mlp"}')
    g = json.loads((checks / "gradient.json").read_text())
    g["max_relative_error"] = 0.5
    (checks / "gradient.json").write_text(json.dumps(g))
    project, warnings = inspect_project(root)
    assert project is not None
    by = {c.path: c for c in project.checks}
    assert by["artefacts/checks/gradient.json"].passed is False
    assert by["artefacts/checks/shapes.json"].passed is True
    assert by["artefacts/checks/extra.json"].passed is None
    assert [(w.path, w.slug) for w in warnings] == [
        ("artefacts/checks/extra.json", "unknown-check")
    ]

    (checks / "overfit.json").write_text('{"check": "overfit",\n "model": }')
    project, problems = inspect_project(root)
    assert project is None
    [p] = [p for p in problems if p.severity == "error"]
    assert str(p).startswith("artefacts/checks/overfit.json:2:11: error: not valid JSON")
