"""Every field of the view is documented and printed by a template (datasette's habit)."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import reportgen.view

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def view_dataclasses() -> list[type]:
    found = {}
    for info in pkgutil.iter_modules(reportgen.view.__path__):
        module = importlib.import_module(f"reportgen.view.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if dataclasses.is_dataclass(cls) and cls.__module__.startswith("reportgen.view"):
                found[cls.__qualname__] = cls
    found["ReportView"] = reportgen.view.ReportView
    return sorted(found.values(), key=lambda c: c.__qualname__)


def template_text() -> str:
    paths = [p for p in TEMPLATES.rglob("*") if p.is_file() and "batch" not in p.parts]
    return "\n".join(p.read_text(encoding="utf-8") for p in paths)


@pytest.mark.parametrize("cls", view_dataclasses(), ids=lambda c: c.__qualname__)
def test_documented_and_every_field_printed(cls):
    assert (cls.__doc__ or "").strip() and not cls.__doc__.startswith(cls.__name__ + "(")
    text = template_text()
    unused = [f.name for f in dataclasses.fields(cls) if not re.search(rf"\.{f.name}\b", text)]
    assert unused == [], f"{cls.__qualname__} fields no template prints: {unused}"
