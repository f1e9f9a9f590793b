"""The report's language: the catalog is complete, Ukrainian plurals and numbers follow the
locale, the language is chosen by [report] language or --lang, and English is untouched."""

from __future__ import annotations

import json
import unicodedata

import pytest

from reportgen import words as w
from reportgen.project.config import parse_config
from reportgen.words import catalog
from reportgen.words.i18n import _, current, n_, number_symbols, speaking

#: Ukrainian's three plural forms: 1 тиждень, 2 тижні, 5 тижнів (and 11, 21, 22, 25)
WEEKS = {
    1: "1 тиждень",
    2: "2 тижні",
    5: "5 тижнів",
    11: "11 тижнів",
    12: "12 тижнів",
    14: "14 тижнів",
    21: "21 тиждень",
    22: "22 тижні",
    25: "25 тижнів",
    101: "101 тиждень",
    111: "111 тижнів",
    1002: "1 002 тижні",
}


@pytest.mark.parametrize("n,text", WEEKS.items())
def test_ukrainian_plural_forms(n, text):
    with speaking("uk"):
        assert w.count_noun(n, "week") == text.replace(" ", "\u00a0", 1 if n >= 1000 else 0)


@pytest.mark.parametrize("n,text", [(1, "1 week"), (2, "2 weeks"), (21, "21 weeks")])
def test_english_plural_forms_are_unchanged(n, text):
    assert w.count_noun(n, "week") == text
    with speaking("en"):
        assert n_("{n} week", "{n} weeks", n) == text


def test_numbers_use_the_decimal_comma_and_the_locales_group_separator():
    with speaking("uk"):
        assert number_symbols("uk") == (",", "\u00a0")
        assert w.interval(-0.0051, 0.0116) == "від −0,0051 до +0,0116"
        assert w.fixed(-12345.678, 2) == "−12\u00a0345,68"
        assert w.count(2844) == "2\u00a0844"
        assert w.gap(0.0088) == "+0,00880"  # 3 significant figures, as in English
        assert w.pvalue(0.0363) == "0,036"
        assert w.pvalue(0.0001) == "< 0,001"
        assert w.power_of_ten(0.0000054) == "5,4 × 10⁻⁶"
        assert w.given(0.005) == "0,005"
        assert w.confidence(0.975) == "97,5%"
        assert w.file_size(4096) == "4,10 кБ"
        assert w.file_size(3) == "3 байти"
    # and English as before
    assert w.interval(-0.0051, 0.0116) == "−0.0051 to +0.0116"
    assert w.fixed(-12345.678, 2) == "−12,345.68"


def test_a_users_column_stays_as_written_inside_the_count():
    with speaking("uk"):
        assert w.blocks_phrase(30, "week") == "30 блоків «week»"
        assert w.blocks_phrase(1, "site") == "1 блок «site»"
        assert w.blocks_phrase(400, None) == "400 рядків"
        assert w.count_noun(3, "visit_month") == "3 × «visit month»"


def test_speaking_is_scoped_and_refuses_an_unknown_language():
    assert current() == "en"
    with speaking("uk"):
        assert current() == "uk"
        with speaking(None):
            assert current() == "uk"
        with speaking("en"):
            assert _("{low} to {high}", low="1", high="2") == "1 to 2"
    assert current() == "en"
    with pytest.raises(ValueError, match="en, uk"):
        with speaking("fr"):
            pass


def test_the_catalog_is_complete_and_compiled():
    """Every message of the code and the templates has a Ukrainian entry, with the same
    placeholders and all three plural forms, and the shipped .mo is the .po compiled."""
    assert catalog.problems("uk") == []


def test_the_catalog_check_finds_a_missing_translation(tmp_path, monkeypatch):
    """The completeness check can fail: a message the catalog lacks is named."""
    real = catalog.extract

    def with_new_message(root=catalog.ROOT):
        cat = real(root)
        cat.add("a message nobody translated", None, [("reportgen/x.py", 1)])
        return cat

    monkeypatch.setattr(catalog, "extract", with_new_message)
    assert any("a message nobody translated" in p for p in catalog.problems("uk"))


def test_placeholders_are_compared():
    assert catalog.fields("the {part} interval {ends}") == {"part", "ends"}
    assert catalog.fields("no placeholder") == set()


def _config(extra: str):
    text = (
        'title = "t"\n[claim]\ntext = "x"\ncandidate = "a"\nbaseline = "b"\n'
        'metric = "log_loss"\n' + extra
    )
    problems: list = []
    return parse_config(text, "evreport.toml", problems), problems


def test_report_language_is_read_and_checked():
    cfg, _p = _config('[report]\nlanguage = "uk"\n')
    assert cfg is not None and cfg.language == "uk"
    cfg, _p = _config("")
    assert cfg is not None and cfg.language == "en"
    cfg, problems = _config('[report]\nlanguage = "de"\n')
    assert cfg is None
    assert any(
        "report.language" in p.message and "en, uk" in p.message and p.line == 8 for p in problems
    ), problems


def _ukrainian_strings() -> str:
    cat = catalog.read("uk")
    out = []
    for m in cat:
        if m.id:
            out += list(m.string) if isinstance(m.string, tuple) else [m.string]
    return "".join(out)


def test_the_pdf_font_carries_every_glyph_of_the_catalog():
    """DejaVu Sans (print.css and report.css name it first) has a glyph for every character
    a Ukrainian report prints: a missing glyph would print as a box."""
    import subprocess

    from fontTools.ttLib import TTFont

    found = subprocess.run(
        ["fc-match", "-f", "%{file}", "DejaVu Sans"], capture_output=True, text=True
    )
    if found.returncode != 0 or "DejaVuSans" not in found.stdout:
        pytest.skip("DejaVu Sans is not installed (Debian: fonts-dejavu-core)")
    cmap = TTFont(found.stdout).getBestCmap()
    chars = set(_ukrainian_strings()) | set("ʼ’«»—–−×⁰¹²³⁴⁵⁶⁷⁸⁹⁻±≤≥")
    missing = sorted(c for c in chars if ord(c) not in cmap and not c.isspace())
    assert missing == [], [f"{c} U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in missing]


def test_the_cli_writes_report_json_in_the_language_asked(tmp_path):
    """--lang uk: report.json records its language; its keys and numbers are English's."""
    import shutil

    from click.testing import CliRunner

    from reportgen.cli import main
    from tests.render.make_fixtures import MINIMAL_FILES

    folder = tmp_path / "p"
    folder.mkdir()
    for file, text in MINIMAL_FILES.items():
        (folder / file).write_text(text, encoding="utf-8")
    got = {}
    for lang in ("en", "uk"):
        res = CliRunner().invoke(main, ["build", str(folder), "--format", "json", "--lang", lang])
        assert res.exit_code in (0, 3), res.output
        got[lang] = json.loads((folder / "report" / "report.json").read_text())
        shutil.rmtree(folder / "report")
    assert got["en"]["language"] == "en" and got["uk"]["language"] == "uk"

    def numbers(x):
        if isinstance(x, dict):
            return {k: numbers(v) for k, v in x.items() if k not in ("build",)}
        if isinstance(x, list):
            return [numbers(v) for v in x]
        return x if isinstance(x, int | float) and not isinstance(x, bool) else type(x).__name__

    assert numbers(got["en"]) == numbers(got["uk"])
