"""The warnings a build raises are written in the build's language (issue 34).

Generated projects that raise the load and check warnings (tests/layouts generators, then
edited: no manifest, an unknown runs.csv column close to a known one, a split name in
capitals, split/folds.csv in a split design, an empty block value, an unknown and an
unjudgeable check file, an [evidence] path that does not exist, rounded logged values, seeds
without a partner; runs that skip folds; before and after files that label a question's slice
differently; p_ columns in the wrong order; clipped log losses) are built in English and in
Ukrainian: the same warnings (slugs, places), and every Ukrainian one holds no English prose
(tests/i18n/english.py), in report.json and in the HTML's warnings table. The language is
known before the project is loaded: from --lang, else from ``[report] language``, read
lightly (any problem: English, and the load says why).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from reportgen.api import build_report
from reportgen.errors import InputError
from reportgen.project.load import project_language
from tests.i18n.english import english_runs, html_text, user_phrases, user_words
from tests.layouts.gen import make_project

#: the warnings each project raises, in both languages
MVB_SLUGS = {
    "unknown-column",
    "split-case",
    "no-manifest",
    "folds-unused",
    "empty-label",
    "bad-check",
    "unknown-check",
    "missing-evidence",
    "logged-differs",
    "unpaired-seeds",
}


def _edit_runs(root: Path, edit) -> None:
    runs = pd.read_csv(root / "runs.csv", dtype=str, keep_default_na=False)
    edit(runs).to_csv(root / "runs.csv", index=False)


def _mvb(root: Path, language: str | None = None) -> Path:
    """A model-against-baseline project with ten kinds of warning (MVB_SLUGS)."""
    make_project(root, paired=True, labels="extra", seeds=3, empty_block_rows=2, log_digits=3)
    (root / "split" / "manifest.json").unlink()

    def edit(runs):
        runs["seeds"] = ""  # close to seed: a typo, ignored with a warning
        runs.loc[runs["split"] == "test", "split"] = "Test"
        return runs

    _edit_runs(root, edit)
    pd.DataFrame({"row_id": ["a"], "fold": [1]}).to_csv(root / "split" / "folds.csv", index=False)
    checks = root / "artefacts" / "checks"
    (checks / "mystery.json").write_text(json.dumps({"check": "mystery", "model": "net"}))
    (checks / "gradient-bad.json").write_text(json.dumps({"check": "gradient", "model": "net"}))
    with (root / "evreport.toml").open("a", encoding="utf-8") as f:
        f.write('\n[evidence]\nrelevant = ["artefacts/none.md"]\n')
        if language is not None:
            f.write(f'\n[report]\nlanguage = "{language}"\n')
    return root


def _cv(root: Path) -> Path:
    """A cross-validation project whose runs skip repeat 2's folds."""
    make_project(root, kind="cv", repeats=2, folds=3, rows=30, seeds=(2, 1))
    _edit_runs(root, lambda runs: runs[runs["repeat"] != "2"])
    return root


def _ba(root: Path) -> Path:
    """A before-after project whose after file labels one question's category otherwise."""
    make_project(root, kind="ba", slice_required="dates")
    path = next((root / "artefacts" / "predictions").glob("after-test.*"))
    frame = pd.read_csv(path)
    frame.loc[frame.index[0], "category"] = "calendar"
    frame.to_csv(path, index=False)
    return root


def _built(root: Path, out: Path, language: str | None) -> tuple[list[dict], list[str]]:
    """report.json's warnings and the HTML's visible text of a build of ``root``."""
    build_report(root, out, ("json", "html"), language=language)
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return doc["warnings"], html_text((out / "report.html").read_text(encoding="utf-8"))


def _place(w: dict) -> tuple:
    return (w["slug"], w["path"], w["line"], w["column"], w["severity"])


def _assert_ukrainian(
    root: Path, en: list[dict], uk: list[dict], html: list[str], names: tuple[str, ...] = ()
) -> None:
    """The same warnings in both languages; every Ukrainian one without English prose, and
    shown in the HTML. ``names``: the user's words outside the project's small text files
    (class labels, read from the predictions)."""
    assert [_place(w) for w in uk] == [_place(w) for w in en]
    haystack, phrases = user_words(root), [*user_phrases(root), *names]
    page = " ".join(" ".join(html).split())
    for e, u in zip(en, uk, strict=True):
        assert u["message"] != e["message"], u["message"]
        assert english_runs(u["message"], haystack, phrases) == [], u["message"]
        assert any(ch in u["message"] for ch in "абвгдеєжзиіїйклмнопрстуфхцчшщьюя")
        assert " ".join(u["message"].split())[:60] in page, u["message"]


@pytest.fixture(scope="module")
def mvb(tmp_path_factory):
    root = _mvb(tmp_path_factory.mktemp("mvb") / "p")
    out = tmp_path_factory.mktemp("mvb-out")
    return root, _built(root, out / "en", "en"), _built(root, out / "uk", "uk")


def test_the_load_and_check_warnings_are_ukrainian_in_a_ukrainian_build(mvb):
    root, (en, _), (uk, html) = mvb
    assert {w["slug"] for w in en} == MVB_SLUGS
    _assert_ukrainian(root, en, uk, html)


def test_a_warning_quotes_the_users_values_as_written(mvb):
    _, (en, _), (uk, _) = mvb
    en_by, uk_by = {w["slug"]: w["message"] for w in en}, {w["slug"]: w["message"] for w in uk}
    assert en_by["unknown-column"] == (
        "unknown column 'seeds' (did you mean 'seed'?); it is ignored"
    )
    assert "«seeds»" in uk_by["unknown-column"] and "«seed»" in uk_by["unknown-column"]
    assert en_by["split-case"] == "split 'Test' read as 'test' (part names are lower case)"
    assert "«Test»" in uk_by["split-case"] and "«test»" in uk_by["split-case"]
    assert "«artefacts/none.md»" in uk_by["missing-evidence"]
    # a count in Ukrainian takes the decimal comma's neighbour, the no-break thousands space
    assert "2 з 300 рядків" in uk_by["empty-label"]


def test_report_language_in_the_toml_makes_the_load_ukrainian(tmp_path):
    """No --lang: ``[report] language = "uk"`` is read before the load."""
    root = _mvb(tmp_path / "p", language="uk")
    assert project_language(root) == "uk"
    en, _ = _built(root, tmp_path / "en", "en")  # --lang wins
    uk, html = _built(root, tmp_path / "uk", None)
    _assert_ukrainian(root, en, uk, html)


def test_folds_not_run_is_ukrainian(tmp_path):
    root = _cv(tmp_path / "p")
    en, _ = _built(root, tmp_path / "en", "en")
    uk, html = _built(root, tmp_path / "uk", "uk")
    assert "folds-not-run" in {w["slug"] for w in en}
    assert any("cover 3 of the 6 folds" in w["message"] for w in en)
    _assert_ukrainian(root, en, uk, html)


def test_slice_labels_differ_is_ukrainian(tmp_path):
    root = _ba(tmp_path / "p")
    en, _ = _built(root, tmp_path / "en", "en")
    uk, html = _built(root, tmp_path / "uk", "uk")
    assert "slice-labels-differ" in {w["slug"] for w in en}
    _assert_ukrainian(root, en, uk, html)


@pytest.mark.parametrize(
    "toml",
    [
        None,  # no evreport.toml
        b"title = [unclosed\n",  # not TOML
        b"\xff\xfe not utf-8",
        b'[report]\nlanguage = "fr"\n',  # not a language of the report's
        b"[report]\nlanguage = 3\n",
        b'report = "uk"\n',
        b"[report]\n" + b"# padding\n" * 200_000 + b'language = "uk"\n',  # over the light cap
    ],
    ids=["missing", "bad-toml", "bad-utf8", "unknown", "number", "not-a-table", "too-large"],
)
def test_the_light_read_never_raises_and_falls_back_to_english(tmp_path, toml):
    if toml is not None:
        (tmp_path / "evreport.toml").write_bytes(toml)
    assert project_language(tmp_path) == "en"
    assert project_language(tmp_path / "no-such-folder") == "en"


def test_a_config_outside_the_project_through_a_link_is_not_read(tmp_path):
    """The light read is confined as the load is: a link out of the project is English."""
    outside = tmp_path / "outside.toml"
    outside.write_text('[report]\nlanguage = "uk"\n')
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "evreport.toml").symlink_to(outside)
    assert project_language(tmp_path / "p") == "en"


def test_an_error_raised_while_speaking_ukrainian_is_still_an_input_error(tmp_path):
    """A Ukrainian build that stops on its input stops as before, its error in Ukrainian."""
    root = _mvb(tmp_path / "p", language="uk")
    (root / "runs.csv").unlink()
    with pytest.raises(InputError) as caught:
        build_report(root, tmp_path / "out", ("json",))
    assert [p.slug for p in caught.value.problems] == ["missing-file"]
    assert "бракує runs.csv" in str(caught.value)
    assert not (tmp_path / "out").exists()


def test_the_command_line_prints_the_ukrainian_warnings(tmp_path):
    """``evreport build --lang uk``: the warnings it prints are the report's, in Ukrainian."""
    from click.testing import CliRunner

    from reportgen.cli import main

    root = _mvb(tmp_path / "p")
    out = tmp_path / "out"
    r = CliRunner().invoke(
        main, ["build", str(root), "--out", str(out), "--format", "json", "--lang", "uk"]
    )
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "report.json").read_text(encoding="utf-8"))
    for w in doc["warnings"]:
        assert w["message"] in r.output
    assert "невідомий стовпець «seeds»" in r.output and "unknown column" not in r.output


def test_a_batch_builds_each_project_in_its_own_language(tmp_path):
    """A batch without --lang: a project with ``[report] language = "uk"`` gets its warnings
    in Ukrainian, from the worker's build (the light read happens there too)."""
    from reportgen.batch import run_batch

    _mvb(tmp_path / "subs" / "ann", language="uk")
    out = tmp_path / "out"
    run_batch([tmp_path / "subs"], out, formats=("json",), jobs=1, timeout=300)
    doc = json.loads((out / "ann" / "report.json").read_text(encoding="utf-8"))
    assert doc["language"] == "uk"
    assert {w["slug"] for w in doc["warnings"]} == MVB_SLUGS
    root = tmp_path / "subs" / "ann"
    haystack, phrases = user_words(root), user_phrases(root)
    for w in doc["warnings"]:
        assert english_runs(w["message"], haystack, phrases) == [], w["message"]


def test_validate_prints_the_warnings_in_the_projects_language(tmp_path):
    """``evreport validate`` has no --lang: a ``[report] language = "uk"`` project's warnings
    are Ukrainian, as its build writes them; an English project's stay English."""
    from click.testing import CliRunner

    from reportgen.cli import main

    uk = CliRunner().invoke(main, ["validate", str(_mvb(tmp_path / "uk", language="uk"))])
    en = CliRunner().invoke(main, ["validate", str(_mvb(tmp_path / "en"))])
    assert uk.exit_code == en.exit_code == 0, (uk.output, en.output)
    assert "невідомий стовпець «seeds»" in uk.output and "unknown column" not in uk.output
    assert "unknown column 'seeds' (did you mean 'seed'?); it is ignored" in en.output


def test_class_order_is_ukrainian(tmp_path):
    """A multi-class candidate whose p_ columns are named in the wrong order."""
    root = tmp_path / "p"
    make_project(root, kind="cv", task="multiclass", swap_classes=True, repeats=1, folds=3)
    en, _ = _built(root, tmp_path / "en", "en")
    uk, html = _built(root, tmp_path / "uk", "uk")
    assert "class-order" in {w["slug"] for w in en}
    # the generator's class labels are a, b and c: the user's words, not the English article
    _assert_ukrainian(root, en, uk, html, names=("a", "b", "c"))
    (said,) = [w["message"] for w in uk if w["slug"] == "class-order"]
    assert "(3 класи, тобто 0,333)" in said


def test_log_loss_clipped_is_ukrainian(tmp_path):
    """The candidate's test predictions say p = 1 for three rows labelled 0 (clipped losses
    that move the gap), which its logged values do not include either."""
    root = tmp_path / "p"
    make_project(root, seeds=3)
    for f in sorted((root / "artefacts" / "predictions").glob("net-s*-test.csv")):
        frame = pd.read_csv(f)
        frame.loc[frame.index[frame["y"] == 0][:3], "p"] = 1.0
        frame.to_csv(f, index=False)
    en, _ = _built(root, tmp_path / "en", "en")
    uk, html = _built(root, tmp_path / "uk", "uk")
    assert {"log-loss-clipped", "logged-differs"} <= {w["slug"] for w in en}
    _assert_ukrainian(root, en, uk, html)


def test_a_failed_ukrainian_build_writes_its_ci_summary_in_ukrainian(tmp_path):
    """A ``[report] language = "uk"`` build that stops on its input: the --summary file's own
    words are Ukrainian, and so are the input errors it lists."""
    from click.testing import CliRunner

    from reportgen.cli import main

    root = _mvb(tmp_path / "p", language="uk")
    (root / "runs.csv").unlink()
    summary = tmp_path / "summary.md"
    r = CliRunner().invoke(main, ["build", str(root), "--summary", str(summary)])
    assert r.exit_code == 1
    text = summary.read_text(encoding="utf-8")
    assert "The build failed" not in text and "бракує runs.csv" in text
    assert any(ch in text for ch in "абвгдеєжзиіїйклмнопрстуфхцчшщьюя"), text
