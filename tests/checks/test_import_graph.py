"""reportgen/checks imports one way: no module of it imports back into one that imports it."""

from __future__ import annotations

import ast
from pathlib import Path

CHECKS = Path(__file__).resolve().parents[2] / "reportgen" / "checks"


def _module(path: Path) -> str:
    parts = path.relative_to(CHECKS.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    """Module -> the reportgen.checks modules it imports, at any depth (lazy imports too)."""
    mods = {_module(p): p for p in CHECKS.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    target = sub if sub in mods else node.module
                    if target in mods and target != mod:
                        graph[mod].add(target)
            elif isinstance(node, ast.Import):
                graph[mod] |= {a.name for a in node.names if a.name in mods and a.name != mod}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n) :] + [n]
            if n not in state and (found := visit(n)):
                return found
        state[m] = 2
        path.pop()
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_checks_have_no_import_cycle():
    graph = _graph()
    assert "reportgen.checks.before_after.rungs" in graph  # the walk found the subpackages
    assert _cycle(graph) is None, " -> ".join(_cycle(graph))


def test_the_cycle_finder_finds_one():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_shared_machinery_never_imports_a_mode():
    graph = _graph()
    shared = ("ladder", "report", "types", "recompute", "relevance", "jsonsafe", "text")
    for name in shared:
        imported = graph[f"reportgen.checks.{name}"]
        assert not any(".before_after" in m or ".model_vs_baseline" in m for m in imported), name
