"""A Ukrainian build of a bad project says why in Ukrainian: the input errors (a bad
evreport.toml value, a missing split file, a broken manifest, a predictions file without a
column it needs) hold no English prose, and their severity word is «помилка»; the English
build of the same project prints the same problems (file, line, slug) in English.

The build is wrapped in ``speaking("uk")`` as well as given ``language="uk"``: the errors of
loading a project are raised before the build knows its language from the project.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reportgen.api import build_report
from reportgen.errors import InputError
from reportgen.words.i18n import speaking
from tests.i18n.english import english_runs, json_text, user_phrases, user_words

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "weekly-churn"


def _edit_toml(project: Path, *pairs: tuple[str, str]) -> None:
    toml = project / "evreport.toml"
    text = toml.read_text(encoding="utf-8")
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    toml.write_text(text, encoding="utf-8")


def bad_values(project: Path) -> None:
    _edit_toml(
        project,
        ("confidence       = 0.95", "confidence       = 1.5"),
        ('seed_sd_from     = "larger"', 'seed_sd_from     = "largest"'),
        ("resamples        = 2000", "resamples        = 50"),
        ("min_useful_effect = 0.005", "min_useful_effect = -0.005"),
        ('mlp = "MLP (1 x 32)"', 'mlp = ""'),
    )


def bad_type(project: Path) -> None:
    _edit_toml(project, ("bins         = 10", 'bins         = "ten"'))


def unknown_key(project: Path) -> None:
    _edit_toml(project, ("[models]", "[model]"))


def bad_toml(project: Path) -> None:
    _edit_toml(project, ("bins         = 10", "bins         = [10"))


def missing_split_file(project: Path) -> None:
    (project / "split" / "validation.csv").unlink()


def broken_manifest(project: Path) -> None:
    path = project / "split" / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    train = manifest["files"][1]
    assert train["part"] == "train"
    manifest["files"] += [dict(train, rows="many"), dict(train)]  # train twice more, once bad
    del train["sha256"]
    path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def missing_column(project: Path) -> None:
    """The test predictions of one run without their p column, [claim] task binary."""
    _edit_toml(
        project,
        ('metric            = "log_loss"', 'metric            = "log_loss"\ntask = "binary"'),
    )
    f = project / "artefacts" / "predictions" / "r03-mlp-s1-test.csv"
    rows = [line.split(",") for line in f.read_text(encoding="utf-8").splitlines()]
    drop = rows[0].index("p")
    f.write_text(
        "\n".join(",".join(c for j, c in enumerate(r) if j != drop) for r in rows) + "\n",
        encoding="utf-8",
    )


def bad_cells(project: Path) -> None:
    """Eight test rows of one run with p = 1.5: five named at their cells, then a count."""
    f = project / "artefacts" / "predictions" / "r03-mlp-s1-test.csv"
    rows = [line.split(",") for line in f.read_text(encoding="utf-8").splitlines()]
    col = rows[0].index("p")
    for r in rows[1:9]:
        r[col] = "1.5"
    f.write_text("\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")


def _project(tmp_path: Path, edit) -> Path:
    project = tmp_path / "project"
    shutil.copytree(EXAMPLE, project)
    edit(project)
    return project


def _problems(project: Path, out: Path, lang: str):
    with speaking(lang), pytest.raises(InputError) as e:
        build_report(project, out / lang, ("json",), language=lang)
    return e.value.problems, str(e.value)


@pytest.mark.parametrize(
    "edit",
    [
        bad_values,
        bad_type,
        unknown_key,
        bad_toml,
        missing_split_file,
        broken_manifest,
        missing_column,
        bad_cells,
    ],
)
def test_input_errors_in_ukrainian(tmp_path, edit):
    project = _project(tmp_path, edit)
    en, en_text = _problems(project, tmp_path / "out", "en")
    uk, uk_text = _problems(project, tmp_path / "out", "uk")
    # the same problems, at the same places, only the words differ
    assert [(p.path, p.line, p.column, p.slug) for p in uk] == [
        (p.path, p.line, p.column, p.slug) for p in en
    ]
    assert ": error: " in en_text and ": error: " not in uk_text
    assert uk_text.count(": помилка: ") == len(uk)
    haystack = user_words(project)
    phrases = user_phrases(project) if edit is not bad_toml else []
    for p in uk:
        assert english_runs(p.message, haystack, phrases) == [], p.message
        assert p.message != next(q.message for q in en if q.line == p.line and q.path == p.path)
    assert english_runs(uk_text, haystack, phrases) == [], uk_text
    if edit is bad_cells:  # an interval of decimal-comma numbers: a semicolon between its ends
        assert "p = '1.5': очікується число з [0,0; 1,0]" in uk_text
        assert "ще 3 некоректні значення у стовпці 'p'" in uk_text


def test_manifest_hash_mismatch_is_said_in_ukrainian(tmp_path):
    """A split file edited after freezing is no input error (the fair rung is not shown), and
    the report says so in Ukrainian."""

    def edit(project: Path) -> None:
        path = project / "split" / "manifest.json"
        manifest = json.loads(path.read_text(encoding="utf-8"))
        manifest["files"][0]["sha256"] = "0" * 64
        path.write_text(json.dumps(manifest, indent=2), encoding="utf-8")

    project = _project(tmp_path, edit)
    with speaking("uk"):
        build_report(project, tmp_path / "out", ("json",), language="uk")
    doc = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    fair = next(r for r in doc["ladder"] if r["name"] == "fair")
    assert fair["status"] != "shown"
    haystack, phrases = user_words(project), user_phrases(project)
    left = [r for t in json_text(fair) for r in english_runs(t, haystack, phrases)]
    assert left == []
    assert "sha256" in json.dumps(fair, ensure_ascii=False)


def test_uk_batch_says_the_error_in_ukrainian(tmp_path):
    """A class built with --lang uk: a submission that cannot be built (a missing split file;
    a folder without evreport.toml) has its error, the one a grader's feedback quotes, in
    Ukrainian in summary.csv."""
    import csv

    from reportgen.batch import run_batch

    subs = tmp_path / "subs"
    shutil.copytree(EXAMPLE, subs / "ann")
    missing_split_file(subs / "ann")
    (subs / "bob").mkdir()
    (subs / "bob" / "notes.txt").write_text("no project here\n", encoding="utf-8")
    out = tmp_path / "out"
    run_batch([subs], out, formats=("json",), jobs=1, timeout=300, language="uk")
    with (out / "summary.csv").open(encoding="utf-8", newline="") as f:
        rows = {r["name"]: r for r in csv.DictReader(f)}
    haystack = user_words(subs / "ann")
    for name, said in (("ann", "файлу split/validation.csv не існує"), ("bob", "evreport.toml")):
        error = rows[name]["error"]
        assert rows[name]["status"] == "error" and said in error, error
        assert ": помилка: " in error and english_runs(error, haystack) == [], error


def test_a_too_large_tree_and_a_busy_folder_are_said_from_their_facts(tmp_path):
    """safe.py's exceptions carry their facts (the limit, the too-deep folder, the lock's pid),
    so the batch and the output folder say them in the build's language, not by re-reading
    safe.py's English message."""
    from reportgen.batch.build import _tree_limit
    from reportgen.outputs import _busy
    from reportgen.safe import FolderBusy, TreeTooLarge, walk_tree

    for i in range(5):
        (tmp_path / f"f{i}").write_text("x")
    with pytest.raises(TreeTooLarge) as raised:
        list(walk_tree(tmp_path, max_entries=4))
    assert (raised.value.limit, raised.value.nested) == (4, None)
    many = TreeTooLarge("more than 10,000 files and folders", 10_000)
    deep = TreeTooLarge("folders nested more than 64 deep (a/b/c)", 64, "a/b/c")
    busy = FolderBusy("in use by another evreport process (pid 4242)", "4242")
    # in English the words are safe.py's own message, byte for byte
    assert [_tree_limit(many), _tree_limit(deep), _busy(busy)] == [str(many), str(deep), str(busy)]
    with speaking("uk"):
        said = [_tree_limit(many), _tree_limit(deep), _busy(busy), _busy(FolderBusy("x"))]
    assert "10\u00a0000" in said[0] and "64" in said[1] and "a/b/c" in said[1]
    assert "4242" in said[2] and "4242" not in said[3]
    for text in said:
        assert not english_runs(text, ""), text
