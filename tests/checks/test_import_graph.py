"""reportgen/checks imports one way: the shared machinery never imports a mode (the graph and
the no-cycle test are tests/test_import_graph.py)."""

from __future__ import annotations

from tests.test_import_graph import import_graph

SHARED = ("ladder", "report", "types", "recompute", "relevance", "jsonsafe", "fairness")
MODES = ("reportgen.checks.before_after", "reportgen.checks.model_vs_baseline")


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for w in graph[todo.pop()] - seen:
            seen.add(w)
            todo.append(w)
    return seen


def test_shared_machinery_never_reaches_a_mode():
    graph = import_graph()
    assert "reportgen.checks.before_after.rungs" in graph  # the walk sees the subpackages
    for name in SHARED:
        reached = _reach(graph, f"reportgen.checks.{name}")
        assert not {m for m in reached if m.startswith(MODES)}, name


def test_the_modes_do_not_import_each_other():
    graph = import_graph()
    ba, mvb = MODES
    assert not {m for m in _reach(graph, ba) if m.startswith(mvb)}
    assert not {m for m in _reach(graph, mvb) if m.startswith(ba)}
