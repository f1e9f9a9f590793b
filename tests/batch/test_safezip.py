"""Untrusted zips: zip-slip names, symlinks, caps on count, size and ratio."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import pytest

from reportgen.safezip import UnsafeZipError, entry_parts, safe_extract

from .conftest import make_project, raw_zip, zip_tree


def test_project_at_the_zip_root(tmp_path):
    z = zip_tree(make_project(tmp_path / "p"), tmp_path / "p.zip")
    ex = safe_extract(z, tmp_path / "x")
    assert ex.project == (tmp_path / "x").resolve()
    assert (ex.project / "evreport.toml").is_file()
    assert ex.files == 2 and ex.skipped == []


def test_project_in_a_single_top_folder_with_macos_junk(tmp_path):
    z = zip_tree(make_project(tmp_path / "p"), tmp_path / "p.zip", top="alice-project")
    with zipfile.ZipFile(z, "a") as zf:
        zf.writestr("__MACOSX/alice-project/._evreport.toml", b"junk")
    ex = safe_extract(z, tmp_path / "x")
    assert ex.project == (tmp_path / "x" / "alice-project").resolve()


def test_no_project_in_the_zip(tmp_path):
    z = raw_zip(tmp_path / "n.zip", [("a/evreport.toml", b""), ("b/evreport.toml", b"")])
    assert safe_extract(z, tmp_path / "x").project is None


@pytest.mark.parametrize(
    "name, words",
    [
        ("../evil.txt", "'..'"),
        ("a/../../evil.txt", "'..'"),
        ("/etc/evil.txt", "absolute"),
        ("C:/evil.txt", "drive letter"),
        ("C:evil.txt", "drive letter"),
        ("a\\..\\evil.txt", "backslash"),
    ],
)
def test_zip_slip_names_are_rejected_and_nothing_is_left(tmp_path, name, words):
    z = raw_zip(tmp_path / "s.zip", [("ok.txt", b"fine"), (name, b"evil")])
    dest = tmp_path / "x"
    with pytest.raises(UnsafeZipError, match=words):
        safe_extract(z, dest)
    assert list(dest.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.zip", "x"]


def test_entry_parts_drops_dots_and_empty_parts():
    assert entry_parts("./a//b/./c.txt") == ["a", "b", "c.txt"]


def test_entry_parts_rejects_nul():
    # zipfile already cuts names at NUL; the check guards other callers
    with pytest.raises(UnsafeZipError, match="NUL"):
        entry_parts("a/b\x00.txt")


def test_symlink_entries_are_skipped_and_reported(tmp_path):
    z = zip_tree(make_project(tmp_path / "p"), tmp_path / "p.zip")
    with zipfile.ZipFile(z, "a") as zf:
        info = zipfile.ZipInfo("secret")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, "/etc/passwd")
    ex = safe_extract(z, tmp_path / "x")
    assert ex.skipped == ["secret: symlink entry skipped (not extracted)"]
    assert not (tmp_path / "x" / "secret").exists()
    assert not (tmp_path / "x" / "secret").is_symlink()


def test_too_many_entries(tmp_path):
    z = raw_zip(tmp_path / "m.zip", [(f"f{i}.txt", b"x") for i in range(6)])
    with pytest.raises(UnsafeZipError, match="has 6 entries; the limit is 5"):
        safe_extract(z, tmp_path / "x", max_files=5)


def test_total_size_is_counted_while_streaming(tmp_path):
    z = raw_zip(tmp_path / "b.zip", [("a.bin", b"a" * 600), ("b.bin", b"b" * 600)])
    with pytest.raises(UnsafeZipError, match="expands to more than"):
        safe_extract(z, tmp_path / "x", max_bytes=1000)
    assert list((tmp_path / "x").iterdir()) == []


def test_header_sizes_are_not_trusted(tmp_path):
    # the central directory claims 10 bytes; the data really holds 5,000
    z = raw_zip(tmp_path / "lie.zip", [("a.bin", b"a" * 5000)])
    data = bytearray(z.read_bytes())
    cd = data.rfind(b"PK\x01\x02")
    data[cd + 24 : cd + 28] = (10).to_bytes(4, "little")  # uncompressed size
    lh = data.find(b"PK\x03\x04")
    data[lh + 22 : lh + 26] = (10).to_bytes(4, "little")
    z.write_bytes(bytes(data))
    # zipfile stops at the claimed size and the CRC check fails: rejected, not trusted
    with pytest.raises(UnsafeZipError):
        safe_extract(z, tmp_path / "x", max_bytes=100)


def test_compression_ratio_cap(tmp_path):
    z = raw_zip(tmp_path / "bomb.zip", [("zeros.bin", bytes(4 * 1024 * 1024))])
    with pytest.raises(UnsafeZipError, match="expands more than 200 times"):
        safe_extract(z, tmp_path / "x")


def test_small_compressible_files_pass_the_ratio_cap(tmp_path):
    z = raw_zip(tmp_path / "ok.zip", [("blank.csv", b" " * 50_000)])
    ex = safe_extract(z, tmp_path / "x")
    assert ex.bytes == 50_000


def test_duplicate_entries_are_rejected(tmp_path):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate name
        z = raw_zip(tmp_path / "d.zip", [("a.txt", b"1"), ("a.txt", b"2")])
    with pytest.raises(UnsafeZipError, match="cannot be extracted"):
        safe_extract(z, tmp_path / "x")


def test_not_a_zip(tmp_path):
    z = tmp_path / "fake.zip"
    z.write_bytes(b"this is not a zip")
    with pytest.raises(UnsafeZipError, match="not a readable zip"):
        safe_extract(z, tmp_path / "x")


def test_destination_must_be_empty(tmp_path):
    z = raw_zip(tmp_path / "a.zip", [("a.txt", b"1")])
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "old").write_text("old")
    with pytest.raises(ValueError, match="must be empty"):
        safe_extract(z, tmp_path / "x")
    assert Path(tmp_path / "x" / "old").read_text() == "old"
