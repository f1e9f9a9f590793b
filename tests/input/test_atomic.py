"""Atomic writes: a failed build leaves the earlier report byte-identical; only --out is written."""

from __future__ import annotations

import os

import pytest
from conftest import OWN_ENTRIES, listing, report_view, requires_renderer

from reportgen.api import build_report
from reportgen.errors import InputError
from reportgen.outputs import atomic_write_dir


def temp_dirs(out):
    """Temporary entries left in --out (evreport's own lasting entries are not temporary)."""
    return [
        p.name
        for p in out.iterdir()
        if p.name.startswith(".evreport-") and p.name not in OWN_ENTRIES
    ]


# --------------------------------------------------------------------------- atomic_write_dir


def test_writes_files_and_keeps_unrelated_ones(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.pdf").write_bytes(b"old pdf")
    (out / "report.json").write_bytes(b"old json")
    written = atomic_write_dir(out, {"report.json": b"{}\n", "report.html": b"<p>"})
    assert written == [out / "report.json", out / "report.html"]
    assert (out / "report.json").read_bytes() == b"{}\n"
    assert (out / "report.html").read_bytes() == b"<p>"
    assert (out / "old.pdf").read_bytes() == b"old pdf"
    assert temp_dirs(out) == []


def test_creates_missing_out_folder(tmp_path):
    out = tmp_path / "a" / "b"
    atomic_write_dir(out, {"x.json": b"1"})
    assert sorted(listing(tmp_path))[:2] == ["a", "a/b"]
    assert all(k.startswith("a/b/") for k in sorted(listing(tmp_path))[2:])
    assert (out / "x.json").read_bytes() == b"1"


def test_refuses_symlinked_output_folder(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "out").symlink_to(real, target_is_directory=True)
    with pytest.raises(InputError) as e:
        atomic_write_dir(tmp_path / "out", {"report.json": b"{}"})
    assert "is a symlink; refusing to write through it" in str(e.value)
    assert list(real.iterdir()) == []


def test_refuses_output_path_that_is_a_file(tmp_path):
    (tmp_path / "out").write_text("x")
    with pytest.raises(InputError) as e:
        atomic_write_dir(tmp_path / "out", {"report.json": b"{}"})
    assert "exists and is not a folder" in str(e.value)
    assert (tmp_path / "out").read_text() == "x"


def test_refuses_to_replace_a_symlinked_file(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (out / "report.json").symlink_to(victim)
    with pytest.raises(InputError) as e:
        atomic_write_dir(out, {"report.json": b"{}"})
    assert "is a symlink or folder; refusing to replace it" in str(e.value)
    assert victim.read_text() == "precious"
    assert (out / "report.json").is_symlink()
    assert temp_dirs(out) == []


@pytest.mark.parametrize("name", ["../escape.json", "sub/x.json", "a\\b.json", ".hidden"])
def test_refuses_bad_output_names(tmp_path, name):
    out = tmp_path / "out"
    with pytest.raises(ValueError, match="bad output name"):
        atomic_write_dir(out, {"report.json": b"ok", name: b"x"})
    assert sorted(listing(tmp_path)) == []  # checked before anything is made


def test_failure_while_writing_leaves_earlier_files(tmp_path, monkeypatch):
    out = tmp_path / "out"
    atomic_write_dir(out, {"report.json": b"v1 json", "report.html": b"v1 html"})
    before = listing(out)
    calls = []

    def failing_fsync(fd):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr("reportgen.outputs.os.fsync", failing_fsync)
    with pytest.raises(InputError, match="cannot write here: the disk is full"):
        atomic_write_dir(out, {"report.json": b"v2 json", "report.html": b"v2 html"})
    assert len(calls) == 2
    assert listing(out) == before
    assert temp_dirs(out) == []


def test_refused_target_leaves_every_earlier_file(tmp_path):
    out = tmp_path / "out"
    atomic_write_dir(out, {"report.json": b"v1"})
    (out / "report.html").mkdir()  # something in the way of the second file
    with pytest.raises(InputError):
        atomic_write_dir(out, {"report.json": b"v2", "report.html": b"v2"})
    assert (out / "report.json").read_bytes() == b"v1"


# --------------------------------------------------------------------------- build_report


def _failed_build_keeps_the_report(root, out, formats, error, match) -> None:
    """A build that raises leaves the earlier report exactly as it was, and no temp folder."""
    before = listing(out)
    with pytest.raises(error, match=match):
        build_report(root, out, formats)
    assert listing(out) == before
    assert temp_dirs(out) == []


def test_build_failing_in_render_keeps_earlier_report(
    example, tmp_path, stub_renderer, monkeypatch
):
    root = example("moons-tie")
    out = tmp_path / "out"
    first = build_report(root, out, ("json", "md"))
    assert [p.name for p in first.written] == ["report.json", "decision-log.md"]

    def boom(report, formats, **_options):
        raise RuntimeError("renderer crashed")

    monkeypatch.setattr(stub_renderer, "render_outputs", boom)
    _failed_build_keeps_the_report(root, out, ("json", "md"), RuntimeError, "renderer crashed")


@requires_renderer
def test_build_failing_in_json_writer_keeps_earlier_report(example, tmp_path, monkeypatch):
    import reportgen.render as render

    root = example("moons-tie")
    out = tmp_path / "out"
    build_report(root, out, ("md", "json"))
    assert sorted(report_view(out)) == ["decision-log.md", "report.json"]

    def boom(report):
        raise ValueError("Out of range float values are not JSON compliant")

    monkeypatch.setattr(render, "report_json", boom)
    _failed_build_keeps_the_report(root, out, ("md", "json"), ValueError, "not JSON compliant")


def test_build_failing_on_input_writes_nothing(example, tmp_path, stub_renderer):
    root = example("moons-tie")
    (root / "evreport.toml").write_text("title = \n")
    out = tmp_path / "out"
    with pytest.raises(InputError) as e:
        build_report(root, out, ("json",))
    assert e.value.problems[0].slug == "bad-toml"
    assert not out.exists()


def test_build_writes_nothing_outside_out(example, tmp_path, stub_renderer):
    root = example("weekly-churn")
    before = listing(tmp_path)
    out = tmp_path / "reports" / "wc"
    result = build_report(root, out, ("json", "md"))
    after = listing(tmp_path)
    new = {k: v for k, v in after.items() if k not in before}
    assert sorted(new)[:2] == ["reports", "reports/wc"]
    assert all(k.startswith("reports/wc/") for k in sorted(new)[2:])
    assert sorted(report_view(out)) == ["decision-log.md", "report.json"]
    assert {k: after[k] for k in before} == before  # nothing changed, including the project
    assert result.out_dir == out
    assert [p.name for p in result.written] == ["report.json", "decision-log.md"]


def test_build_into_symlinked_out_is_refused(example, tmp_path, stub_renderer):
    root = example("moons-tie")
    real = tmp_path / "real"
    real.mkdir()
    os.symlink(real, tmp_path / "out")
    with pytest.raises(InputError, match="is a symlink"):
        build_report(root, tmp_path / "out", ("json",))
    assert list(real.iterdir()) == []
