"""reportgen.safe: the one version of each safety helper (control characters, file names,
spreadsheet cells, atomic writes)."""

from __future__ import annotations

import os
import stat

import pytest

from reportgen.errors import clean_text
from reportgen.safe import (
    TMP_PREFIX,
    atomic_write,
    csv_cell,
    escape_controls,
    inert_markdown,
    replace_controls,
    safe_file_name,
)

#: one of each kind: C0, DEL, C1, line and paragraph separators, file-name byte, lone surrogate
NASTY = "a\x1b\x00\x7f\x85\u2028\u2029\udcff\ud800z"


def test_escape_controls_shows_every_kind_and_keeps_lines_on_request():
    assert escape_controls(NASTY) == "a\\x1b\\x00\\x7f\\x85\\u2028\\u2029\\xff\ufffdz"
    assert escape_controls("a\tb\nc") == "a\\x09b\\x0ac"
    assert escape_controls("a\tb\nc\x0b", keep_lines=True) == "a\tb\nc\\x0b"
    assert escape_controls("Zoë → ok") == "Zoë → ok"


def test_replace_controls_and_clean_text_use_the_same_set():
    assert replace_controls(NASTY) == "a" + " " * 8 + "z"
    assert replace_controls(NASTY, "\ufffd") == "a" + "\ufffd" * 8 + "z"
    assert clean_text("x\ty\nz" + NASTY) == "x y z" + escape_controls(NASTY)


def test_html_pages_escape_the_line_separators_too():
    from reportgen.render.env import environment

    out = environment("html").from_string("{{ x }}").render(x="a\u2028b<\t\n")
    assert out == "a\\u2028b&lt;\t\n"


def test_markdown_environment_does_not_html_escape_but_neutralises():
    from reportgen.render.env import environment

    out = environment("markdown").from_string("{{ x }}").render(x="[x](javascript:1) <b>&\x1b")
    assert out == "\\[x\\](javascript:1) \\<b\\>&\\\\x1b"  # the escape's \\ escaped too
    with pytest.raises(ValueError, match="unknown template flavour 'pdf'"):
        environment("pdf")


@pytest.mark.parametrize("strict", [False, True], ids=["plain", "strict"])
@pytest.mark.parametrize(
    "text",
    [
        "_www.evil.example/x",
        "see x_www.evil.example",
        "\\_www.evil.example/x",
        "*www.evil.example*",
        "WWW.evil.example",
        "a@b.org",
        "x_a@b.org",
    ],
)
def test_www_and_addresses_after_any_character_form_no_link_under_cmark_gfm(text, strict):
    import cmarkgfm

    md = inert_markdown(text, strict=strict)
    html = cmarkgfm.github_flavored_markdown_to_html(md)
    assert "<a" not in html, (md, html)


@pytest.mark.parametrize("strict", [False, True], ids=["plain", "strict"])
@pytest.mark.parametrize("text", ["@everyone", "cc @org/team", "(@here)"])
def test_mentions_are_made_inert(text, strict):
    import cmarkgfm

    md = inert_markdown(text, strict=strict)
    shown = cmarkgfm.github_flavored_markdown_to_html(md)
    assert "[@]" in shown and "@" not in shown.replace("[@]", "")


@pytest.mark.parametrize(
    "raw, kwargs, name",
    [
        ("mlp s1 (v2)", {"sep": "-"}, "mlp-s1-v2"),
        ("Zoë Smith", {}, "Zoe_Smith"),
        ("..hidden", {}, "hidden"),
        ("a/b\\c", {}, "a_b_c"),
        ("nul.txt", {}, "nul.txt_"),
        ("Summary.CSV", {"reserved": {"summary.csv"}}, "Summary.CSV_"),
        ("???", {}, "file"),
        ("???", {"empty": "submission"}, "submission"),
        ("x" * 300, {}, "x" * 80),
    ],
)
def test_safe_file_name(raw, kwargs, name):
    assert safe_file_name(raw, **kwargs) == name


def test_safe_file_name_can_refuse_an_empty_name():
    with pytest.raises(ValueError, match="'日本' gives an empty file name"):
        safe_file_name("日本", empty=None)


@pytest.mark.parametrize(
    "value, cell",
    [
        ("=1+1", "'=1+1"),
        ("+a", "'+a"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("a=b", "a=b"),
        (None, ""),
        (-2.5, -2.5),
    ],
)
def test_csv_cell_is_never_a_formula(value, cell):
    assert csv_cell(value) == cell


def test_atomic_write_replaces_whole_files_and_never_writes_through_links(tmp_path):
    target = tmp_path / "f.txt"
    atomic_write(target, b"one")
    assert target.read_bytes() == b"one"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask  # not mkstemp's 0600
    other = tmp_path / "other.txt"
    other.write_bytes(b"keep")
    os.link(other, tmp_path / "hard.txt")
    atomic_write(tmp_path / "hard.txt", b"new")
    (tmp_path / "sym.txt").symlink_to(other)
    atomic_write(tmp_path / "sym.txt", b"new")
    assert other.read_bytes() == b"keep"
    assert not (tmp_path / "sym.txt").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "f.txt",
        "hard.txt",
        "other.txt",
        "sym.txt",
    ]


def test_atomic_write_leaves_no_temp_file_on_failure(tmp_path, monkeypatch):
    def full(*a):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        atomic_write(tmp_path / "f.txt", b"data")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(FileNotFoundError):
        atomic_write(tmp_path / "missing" / "f.txt", b"data")


def test_atomic_write_flushes_the_file_and_its_folder(tmp_path, monkeypatch):
    synced = []
    real = os.fsync

    def record(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real(fd)

    monkeypatch.setattr(os, "fsync", record)
    atomic_write(tmp_path / "f.txt", b"data")
    assert synced == [False, True]  # the file, then the folder that holds the new name
    assert not any(p.name.startswith(TMP_PREFIX) for p in tmp_path.iterdir())
