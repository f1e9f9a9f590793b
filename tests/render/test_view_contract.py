"""The template context contract (datasette's habit): what the templates read is documented.

Every page evreport renders is rendered here with its context objects wrapped in a
recording proxy: each attribute a template reads is recorded as (template file, context
class, attribute), reads inside a property counting as the template's. The builds are every
report fixture (model against baseline, before-after, the run-log-only minimal one), each
as the screen page, the printed page and decision-log.md, and the batch index and the
feedback section of a batch over those reports.

- every attribute a template reads is a documented field of its context dataclass (a field,
  or a property with a docstring, of a class with a docstring);
- every field and documented property of a context class is read by some template, so a
  template that silently stops printing a field fails here (a read of the same name on
  another class does not count: reads are recorded per class);
- every attribute name a template's source reads (jinja2's AST) was read at run time by that
  template, so the builds reach every branch and the record above is the whole contract.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import sys
import tomllib
import typing
from collections import defaultdict
from pathlib import Path

import pytest
from jinja2 import nodes

import reportgen.view
from reportgen.model import Report
from reportgen.render.env import environment
from reportgen.resources import resource_dir

from .conftest import ROOT, load
from .make_fixtures import EXAMPLES, GENERATED, MINIMAL

TEMPLATES = resource_dir("templates")

#: (template file, context class, attribute name)
Read = tuple[str, type, str]


class Reads:
    """What the templates read from the recorded context objects."""

    def __init__(self) -> None:
        self.seen: set[Read] = set()

    def add(self, cls: type, name: str) -> None:
        self.seen.add((_calling_template(), cls, name))

    def by_class(self) -> dict[type, set[str]]:
        out: dict[type, set[str]] = defaultdict(set)
        for _, cls, name in self.seen:
            out[cls].add(name)
        return out

    def by_template(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = defaultdict(set)
        for template, _, name in self.seen:
            out[template].add(name)
        return out


def _calling_template() -> str:
    """The template file (relative to templates/) whose compiled code is reading."""
    frame = sys._getframe(2)
    root = str(TEMPLATES)
    while frame is not None:
        path = frame.f_code.co_filename
        if path.startswith(root):
            return Path(path).relative_to(root).as_posix()
        frame = frame.f_back
    return "(not a template)"


class Recording:
    """A context object as the templates see it, recording each attribute they read."""

    __slots__ = ("_target", "_reads")

    def __init__(self, target: object, reads: Reads) -> None:
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_reads", reads)

    def __getattr__(self, name: str):
        if name.startswith("__"):  # markupsafe's __html__ and the like: not a context read
            raise AttributeError(name)
        target = object.__getattribute__(self, "_target")
        reads = object.__getattribute__(self, "_reads")
        reads.add(type(target), name)
        static = inspect.getattr_static(target, name)
        # a property runs on the proxy, so what it reads is the template's read too
        value = static.fget(self) if isinstance(static, property) else getattr(target, name)
        return wrap(value, reads)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"the template context is read-only ({name})")

    def __str__(self) -> str:
        target = object.__getattribute__(self, "_target")
        method = type(target).__str__
        return str(target) if method is object.__str__ else method(self)


def wrap(value, reads: Reads):
    """``value`` with every context dataclass in it (also in lists, tuples, dicts) recorded."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return Recording(value, reads)
    if isinstance(value, list | tuple):
        return type(value)(wrap(v, reads) for v in value)
    if isinstance(value, dict):
        return {k: wrap(v, reads) for k, v in value.items()}
    return value


# ----------------------------------------------------------------------------- the builds


def report_pages(reads: Reads) -> None:
    """Every fixture as the screen page, the printed page and the decision log."""
    from reportgen.charts.specs import chart_specs
    from reportgen.render.html import render_html
    from reportgen.render.md import render_markdown
    from reportgen.view import build_view

    for name in (*EXAMPLES, MINIMAL, *GENERATED):
        report = load(name)
        keys = tuple(chart_specs(Report.from_json(report)))
        view = wrap(build_view(Report.from_json(report), keys), reads)
        render_html(view, dict.fromkeys(keys, "<svg></svg>"))
        render_html(view, for_print=True)
        render_markdown(view)


def batch_pages(reads: Reads) -> None:
    """The batch index (with and without the class overview) and every kind of feedback."""
    from reportgen.batch import COLUMNS, BatchResult, index_context, render_index
    from reportgen.batch.build import summary_fields
    from reportgen.grading.duplicates import COMMON_MIN_CLASS, find_duplicates, fingerprint
    from reportgen.grading.feedback import feedback_data, render_html_section
    from reportgen.grading.overview import common_missing
    from reportgen.grading.rubric import TEMPLATE, parse_rubric, score, total

    rubric = parse_rubric(tomllib.loads(TEMPLATE))
    from reportgen.model import Report

    reports = {name: Report.from_json(load(name)) for name in EXAMPLES}
    rows, fingerprints = [], {}
    for i, (name, report) in enumerate(reports.items()):
        scores = score(rubric, report)
        row = dict.fromkeys(COLUMNS) | summary_fields(report)
        row.update(name=name, status="ok", report=f"{name}/report.html", seconds=1.5)
        row.update(notes="skipped __MACOSX/" if i == 0 else "", total=total(scores), max=rubric.max)
        rows.append(row)
        fingerprints[name] = fingerprint(ROOT / "examples" / name, report)
    failed = dict.fromkeys(COLUMNS)
    failed.update(name="broken", status="error", error="runs.csv:3:1: error: bad value [x]")
    rows.append(failed)

    def extra(fps: dict[str, dict]) -> dict:
        groups, common = find_duplicates(fps)
        return {
            "missing_by_rung": common_missing(fps),
            "reused": 1,
            "duplicates": groups,
            "duplicates_common": common,
        }

    # a class of copies of one project: what every submission shares is course material
    copies = {f"copy-{i}": fingerprints["tuned-replay"] for i in range(COMMON_MIN_CLASS)}
    # a graded batch with a roster, a late run and the report files on disk (the links)
    import tempfile

    tmp = Path(tempfile.mkdtemp())
    first = rows[0]["name"]
    (tmp / first).mkdir()
    for f in ("report.html", "report.pdf", "feedback.md"):
        (tmp / first / f).write_text("x", encoding="utf-8")
    rostered = [dict(r, student=f"Student {i}") for i, r in enumerate(rows)]
    rostered[0]["late"] = {"points": 2, "why": "a run started after the deadline"}
    missing = [{"name": "dana", "student": "Dana", "status": "missing"}]
    render_index(
        wrap(index_context(BatchResult(tmp, rostered, 9.0, {"roster_missing": missing})), reads)
    )
    for result in (
        BatchResult(Path("out"), rows, 9.0, extra(fingerprints)),
        BatchResult(Path("out"), rows, 9.0, extra(copies)),
        BatchResult(Path("out"), rows, 9.0, {}),
    ):
        render_index(wrap(index_context(result), reads))

    for name, report in reports.items():
        scores = score(rubric, report)
        graded = feedback_data(name, report, scores, total(scores), rubric.max)
        render_html_section(wrap(graded, reads))
    render_html_section(wrap(feedback_data("ungraded", reports["weekly-churn"]), reads))
    render_html_section(wrap(feedback_data("broken", None, error="no evreport.toml"), reads))


def ci_pages(reads: Reads) -> None:
    """The CI job summary of every fixture (gates passed and failed, a format not written)
    and of a build that stopped on its input."""
    from reportgen import ci

    for name in (*EXAMPLES, MINIMAL, *GENERATED):
        report = Report.from_json(load(name))
        gates = ci.gates(report, strict=True, require_rung=3)
        ci.render_summary(wrap(ci.summary_context(report, gates, ["PDF not written"]), reads))
        ci.render_summary(wrap(ci.summary_context(report), reads))
    problems = [f"runs.csv:{i}:1: error: bad value [x]" for i in range(2, 30)]
    ci.render_summary(wrap(ci.failed_summary_context("broken", problems), reads))


@pytest.fixture(scope="module")
def reads() -> Reads:
    out = Reads()
    report_pages(out)
    batch_pages(out)
    ci_pages(out)
    return out


# ----------------------------------------------------------------------------- the classes


def _dataclasses_in(hint) -> list[type]:
    """The dataclasses a type hint names (list[Row] | None -> [Row])."""
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return [hint]
    return [c for arg in typing.get_args(hint) for c in _dataclasses_in(arg)]


def _reachable(roots: list[type]) -> set[type]:
    found: set[type] = set()
    todo = list(roots)
    while todo:
        cls = todo.pop()
        if cls in found:
            continue
        found.add(cls)
        for hint in typing.get_type_hints(cls).values():
            todo += _dataclasses_in(hint)
    return found


def context_classes() -> list[type]:
    """The root context of each page, what its fields reach, and every view dataclass."""
    from reportgen.batch.index import IndexContext
    from reportgen.ci import Summary
    from reportgen.grading.feedback import Feedback

    found = _reachable([reportgen.view.ReportView, IndexContext, Feedback, Summary])
    for info in pkgutil.iter_modules(reportgen.view.__path__):
        module = importlib.import_module(f"reportgen.view.{info.name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__:
                found.add(cls)
    return sorted(found, key=lambda c: (c.__module__, c.__qualname__))


def documented(cls: type) -> dict[str, str]:
    """A context class's documented names: its fields and its properties with a docstring."""
    out = {f.name: "field" for f in dataclasses.fields(cls)}
    for name, member in inspect.getmembers(cls, lambda m: isinstance(m, property)):
        if (member.__doc__ or "").strip():
            out[name] = "property"
    return out


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


CLASSES = context_classes()


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__qualname__)
def test_context_class_is_documented(cls):
    doc = (cls.__doc__ or "").strip()
    assert doc and not doc.startswith(cls.__name__ + "("), f"{_name(cls)} has no docstring"


def test_every_read_is_a_documented_field(reads):
    undocumented = sorted(
        f"{template}: {_name(cls)}.{name}"
        for template, cls, name in reads.seen
        if name not in documented(cls)
    )
    assert undocumented == [], (
        "templates read attributes that are neither a field nor a documented property of "
        "their context class:\n  " + "\n  ".join(undocumented)
    )


def test_only_context_classes_reach_the_templates(reads):
    assert {cls for _, cls, _ in reads.seen} <= set(CLASSES)
    assert "(not a template)" not in {t for t, _, _ in reads.seen}


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__qualname__)
def test_every_documented_field_is_read_by_a_template(cls, reads):
    unread = sorted(set(documented(cls)) - reads.by_class()[cls])
    assert unread == [], f"{_name(cls)}: no template reads {unread}"


# ----------------------------------------------------------------------------- the sources


def template_files() -> list[str]:
    return sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("*") if p.is_file())


def _import_aliases(trees: dict[str, nodes.Template]) -> set[str]:
    """Names bound by {% import ... as NAME %}: macro libraries, not context."""
    return {n.target for tree in trees.values() for n in tree.find_all(nodes.Import)}


def static_reads() -> dict[str, set[str]]:
    """Per template file: the attribute names its source reads (``x.name``), from the AST."""
    env = environment("html")
    trees = {
        name: env.parse((TEMPLATES / name).read_text(encoding="utf-8")) for name in template_files()
    }
    skip = _import_aliases(trees) | {"loop"}
    out = {}
    for name, tree in trees.items():
        out[name] = {
            n.attr
            for n in tree.find_all(nodes.Getattr)
            if not (isinstance(n.node, nodes.Name) and n.node.name in skip)
        }
    return out


@pytest.mark.parametrize("template", template_files())
def test_the_builds_reach_every_read_of_the_template(template, reads):
    missed = sorted(static_reads()[template] - reads.by_template().get(template, set()))
    assert missed == [], (
        f"templates/{template} reads {missed} in a branch none of this test's builds takes: "
        "add a build that takes it, so that the contract covers it"
    )


def test_the_proxy_records_per_class_and_through_properties():
    @dataclasses.dataclass(frozen=True)
    class Inner:
        """A nested context object."""

        name: str

    @dataclasses.dataclass(frozen=True)
    class Outer:
        """A context object with a list, a property and an unrelated same-named field."""

        name: str
        items: list[Inner]

        @property
        def first(self) -> str:
            """The first item's name."""
            return self.items[0].name

    reads = Reads()
    ctx = wrap(Outer("outer", [Inner("a"), Inner("b")]), reads)
    out = environment("html").from_string("{{ c.first }} {{ c.items|length }}").render(c=ctx)
    assert out == "a 2"
    assert reads.by_class() == {Outer: {"first", "items"}, Inner: {"name"}}
