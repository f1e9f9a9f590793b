"""The layering docs/architecture.md states holds: its table "What each folder may import" is
read here and checked against every import in reportgen/ (also those inside functions).

A cell "only `a`, `b`" lists every package a folder may import (itself included); a cell
"never `x`" lists what it must not import, and "not even through another module" extends
that to everything it reaches. `reportgen` is the package root (``__version__``).
"""

from __future__ import annotations

import ast
import re

import pytest

from tests.test_import_graph import ROOT, _modules, import_graph

DOC = ROOT.parent / "docs" / "architecture.md"
HEADING = "## What each folder may import"
#: the standard library's ``from __future__``: a compiler switch, not a dependency
IGNORED = {"__future__"}


def rules() -> dict[str, tuple[str, str]]:
    """folder -> (the cell about reportgen, the cell about other modules), from the doc."""
    text = DOC.read_text(encoding="utf-8")
    assert HEADING in text, f"{DOC.name} lost its section {HEADING!r}"
    section = text.split(HEADING, 1)[1].split("\n## ", 1)[0]
    out = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = re.fullmatch(r"`(\w+)/`", cells[0]) if len(cells) == 3 else None
        if m:
            out[m.group(1)] = (cells[1], cells[2])
    return out


def parse(cell: str) -> tuple[str, set[str], bool] | None:
    """("only" | "never", the names, transitive) or None for an empty cell."""
    if not cell:
        return None
    kind = cell.split()[0]
    assert kind in ("only", "never"), f"a rule cell starts with only or never: {cell!r}"
    return kind, set(re.findall(r"`([\w.]+)`", cell)), "not even through" in cell


def part(module: str) -> str:
    """The folder or top-level module of reportgen a module belongs to (reportgen: the root)."""
    return module.split(".")[1] if "." in module else "reportgen"


def in_folder(folder: str) -> list[str]:
    return sorted(
        m for m in _modules() if m.startswith(f"reportgen.{folder}.") or m == f"reportgen.{folder}"
    )


def outside_imports(module: str) -> set[str]:
    """The top-level names of the modules outside reportgen that ``module`` imports, and
    "open" when it calls the built-in open()."""
    path = _modules()[module]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "open":
            found.add("open")
    return found - {"reportgen"} - IGNORED


RULES = rules()


def test_the_doc_states_the_rules_this_test_checks():
    assert {"stats", "checks", "charts", "view", "render", "batch"} <= set(RULES)
    for folder, cells in RULES.items():
        assert in_folder(folder), f"docs/architecture.md names {folder}/, which has no module"
        assert any(parse(c) for c in cells), folder


@pytest.mark.parametrize("folder", sorted(f for f, cells in RULES.items() if cells[0]))
def test_imports_from_reportgen_follow_the_doc(folder):
    kind, names, transitive = parse(RULES[folder][0])
    graph = import_graph()
    broken = []
    for module in in_folder(folder):
        targets = set(graph[module])
        if transitive:
            todo = list(targets)
            while todo:
                for w in graph[todo.pop()] - targets:
                    targets.add(w)
                    todo.append(w)
        for target in sorted(targets):
            allowed = (
                part(target) in names | {folder} if kind == "only" else part(target) not in names
            )
            if not allowed:
                broken.append(f"{module} imports {target}")
    assert broken == [], f"docs/architecture.md says {folder}/ imports {RULES[folder][0]}: {broken}"


@pytest.mark.parametrize("folder", sorted(f for f, cells in RULES.items() if cells[1]))
def test_imports_outside_reportgen_follow_the_doc(folder):
    kind, names, _ = parse(RULES[folder][1])
    broken = []
    for module in in_folder(folder):
        found = outside_imports(module)
        bad = found - names if kind == "only" else found & names
        broken += [f"{module} uses {b}" for b in sorted(bad)]
    assert broken == [], f"docs/architecture.md says {folder}/ uses {RULES[folder][1]}: {broken}"


def test_the_rules_catch_a_violation(monkeypatch):
    """A module of stats/ importing the view breaks the stats rule: the check is not vacuous."""
    import tests.test_layering as me

    real = import_graph()
    fake = {k: set(v) for k, v in real.items()}
    fake["reportgen.stats.seeds"].add("reportgen.view.format")
    monkeypatch.setattr(me, "import_graph", lambda: fake)
    with pytest.raises(AssertionError, match="reportgen.stats.seeds imports reportgen.view.format"):
        test_imports_from_reportgen_follow_the_doc("stats")
