"""reportgen.batch's public names: loaded on first use, and its three lists of them agree."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import reportgen.batch as batch

SOURCE = Path(batch.__file__).read_text(encoding="utf-8")


def _type_checking_imports() -> dict[str, str]:
    """name -> module of the imports under ``if TYPE_CHECKING:`` (what mypy sees)."""
    out: dict[str, str] = {}
    for node in ast.parse(SOURCE).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.module is not None
                out.update({a.name: imp.module for a in imp.names})
    return out


def test_all_the_lazy_table_and_the_typed_imports_name_the_same_modules():
    assert sorted(batch.__all__) == sorted(batch._WHERE)
    assert _type_checking_imports() == batch._WHERE


def test_every_public_name_resolves_to_its_module_s_object():
    import importlib

    for name, module in batch._WHERE.items():
        assert getattr(batch, name) is getattr(importlib.import_module(module), name)


def test_an_unknown_name_is_an_attribute_error():
    try:
        batch.no_such_name  # noqa: B018
    except AttributeError as e:
        assert "no_such_name" in str(e)
    else:
        raise AssertionError("no AttributeError")


def test_importing_intake_does_not_load_the_builder():
    code = (
        "import sys, reportgen.batch.intake; "
        "print('reportgen.batch.build' in sys.modules, 'reportgen.batch.run' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
