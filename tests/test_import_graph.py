"""No import cycles in reportgen: every module's imports (also those inside functions) form
an acyclic graph, so each layer can be read, tested and replaced without the ones above it.

The graph is built from the source (an AST walk), not by importing, so an import inside a
function counts as much as one at the top: a lazy import still ties the two modules.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import reportgen

ROOT = Path(reportgen.__file__).resolve().parent

#: cycles that exist today and are being removed elsewhere; each entry is one strongly
#: connected group of modules. Delete an entry once its cycle is gone (the test says so).
EXPECTED_CYCLES: list[frozenset[str]] = []


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The reportgen modules ``name`` imports anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for a in node.names:  # ``from pkg import module`` imports that module
                sub = f"{target}.{a.name}"
                found.add(sub if sub in modules else target)
    return {m for m in found if m in modules and m != name}


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan), each a cycle or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(frozenset(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def test_the_graph_sees_lazy_and_relative_imports():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
    g = import_graph()
    assert "reportgen.batch.build" in g["reportgen.batch.run"]  # a top-level import
    assert "reportgen.api" in g["reportgen.batch.build"]  # an import inside build_one
    assert "reportgen.batch.intake" in g["reportgen.grading"]


def test_no_import_cycles_in_reportgen():
    found = set(cycles(import_graph()))
    unexpected = sorted(sorted(c) for c in found - set(EXPECTED_CYCLES))
    assert unexpected == [], f"import cycles: {unexpected}"
    gone = sorted(sorted(c) for c in set(EXPECTED_CYCLES) - found)
    assert gone == [], f"these cycles are gone; remove them from EXPECTED_CYCLES: {gone}"


def test_batch_never_imports_grading():
    graph = import_graph()
    batch = {m for m in graph if m == "reportgen.batch" or m.startswith("reportgen.batch.")}
    grading = {m for m in graph if m == "reportgen.grading" or m.startswith("reportgen.grading.")}
    reach, todo = set(), list(batch)
    while todo:  # everything batch/ imports, directly or through other modules
        for w in graph[todo.pop()] - reach:
            reach.add(w)
            todo.append(w)
    assert reach & grading == set()


@pytest.mark.parametrize("name", sorted(m for m in _modules() if not m.endswith("__main__")))
def test_every_module_imports(name):  # __main__ would run the command line
    assert importlib.import_module(name).__name__ == name
