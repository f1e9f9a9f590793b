"""What a CI job gets from `evreport build`: the gates, a JUnit XML file and a Markdown summary.

- ``gates``: ``--strict`` (the verdict is "adopt") and ``--require-rung N`` (the supported
  rung reaches N), each passed or failed with its reason; either failing is exit 3;
- ``junit_xml``: one test case per ladder rung and per check (its reason the failure
  message), the gates, and the build itself; the verdict, recommended model, supported
  rung and rewritten claim as properties. Written with ElementTree (a serializer that
  escapes), control characters shown as escapes so the file is always well-formed XML;
- ``summary_markdown``: verdict, ladder, the rewritten claim, the reasons and the checks
  that did not pass, from templates/ci-summary.md (every printed value is made inert by
  ``safe.inert_markdown``), for a GitHub job summary or a merge-request comment;
- ``check_ci_path`` / ``write_ci_file``: where these files may go (never into the project's
  evidence) and their atomic write.

Both files also describe a build that failed on its input, so a CI system shows why.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from reportgen.errors import Problem, UsageError, display_name
from reportgen.names import FILE_NAMES, RUNG_NAMES
from reportgen.safe import TMP_PREFIX, escape_controls
from reportgen.words.i18n import _, current, n_, p_
from reportgen.words.numbers import count
from reportgen.words.rungs import rung_word, status_word, verdict_word

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from reportgen.model import Report

#: the report's own folder inside a project (build's default --out)
REPORT_DIR = "report"
#: rung statuses and check outcomes as the marks the summary shows
STATUS_MARK = {"shown": "✅", "partly": "⚠️", "not shown": "❌"}
#: a shown rung above an unshown one (not credited)
NOT_CREDITED_MARK = "⚪"
CHECK_MARK = {True: "✅", False: "❌", None: "❔"}
#: problems listed in full in the summary of a failed build (the rest are counted)
MAX_PROBLEMS = 20


@dataclass(frozen=True)
class Gate:
    """One CI condition on a built report: its option, whether it holds, and why."""

    option: str
    passed: bool
    reason: str


def gates(report: Report, strict: bool = False, require_rung: int | None = None) -> list[Gate]:
    """The gates asked for, in option order: ``--strict``, then ``--require-rung N``."""
    out = []
    verdict = str(report.decision.verdict)
    if strict:
        said = _said(verdict_word(verdict))
        out.append(
            Gate(
                "--strict",
                verdict == "adopt",
                _("verdict is {verdict}", verdict=said)
                if verdict == "adopt"
                else _(
                    "verdict is {verdict}, not {adopt}",
                    verdict=said,
                    adopt=_said(verdict_word("adopt")),
                ),
            )
        )
    if require_rung is not None:
        rung = report.claim.supported_rung
        ok = rung >= require_rung
        reason = (
            _("supported rung is {rung} of 5", rung=rung)
            if ok
            else _(
                "supported rung is {rung} of 5, at least {required} required",
                rung=rung,
                required=require_rung,
            )
        )
        blocking = _first_missing_rung(report, rung)
        if not ok and blocking:
            reason += f" ({blocking})"
        out.append(Gate(f"--require-rung {require_rung}", ok, reason))
    return out


def _said(word: str) -> str:
    """A verdict quoted in a sentence: 'adopt' in English, «прийняти» in Ukrainian."""
    return repr(word) if current() == "en" else f"«{word}»"


def _first_missing_rung(report: Report, supported: int) -> str | None:
    """The rung above the supported one, as "rung 3, larger than noise: not shown: WHY"."""
    nxt = supported + 1
    for r in report.ladder:
        if r.rung == nxt:
            why = r.missing
            head = _(
                "rung {n}, {name}: {status}",
                n=nxt,
                name=rung_word(r.name),
                status=status_word(r.status),
            )
            return head + (f": {why}" if why else "")
    return None


def reasons(report: Report) -> list[str]:
    """The decision's reasons, each one printable line."""
    from reportgen.errors import clean_text

    return [clean_text(r) for r in report.decision.reasons]


def built(report: Report, gate_list: list[Gate], render_problems: list[str]) -> dict[str, bytes]:
    """{"junit": bytes, "summary": bytes} of a built report."""
    return {
        "junit": junit_xml(report, gate_list, render_problems),
        "summary": summary_markdown(report, gate_list, render_problems).encode("utf-8"),
    }


def failed_build(project_name: str, problems: Sequence[Problem | str]) -> dict[str, bytes]:
    """{"junit": bytes, "summary": bytes} of a build that stopped on its input."""
    return {
        "junit": failed_build_junit(project_name, problems),
        "summary": failed_build_summary(project_name, problems).encode("utf-8"),
    }


# ---- where the files may go ---------------------------------------------------------------


def check_ci_path(option: str, raw: str, project_dir: str | Path, out_dir: str | Path) -> Path:
    """``raw`` as the path a CI file is written to, or UsageError.

    Anywhere outside the project folder is the user's choice (a CI system's temporary file,
    a workspace folder). Inside the project folder only under its report/ folder or the
    --out folder: the rest of the project is the evidence the report hashes and cites
    (runs.csv, split/, artefacts/), which a build never writes. The report's own file
    names in the output folder, a folder and a symlink are refused too, and so is a
    path inside the project through a folder that is a symlink.
    """
    path = Path(raw)
    real = Path(os.path.realpath(path))
    project = Path(os.path.realpath(project_dir))
    out = Path(os.path.realpath(out_dir))
    allowed = (project / REPORT_DIR, out)
    shown = display_name(raw)
    if real.is_relative_to(project) and not any(real.is_relative_to(a) for a in allowed):
        raise UsageError(
            f"{option} {shown} is inside the project folder {display_name(project_dir)}, "
            "whose files are the report's evidence; write it under the report folder "
            f"({display_name(Path(project_dir) / REPORT_DIR)}/ or --out) or outside the project"
        )
    # the report's own names and its build store (.evreport-builds/, .evreport-current),
    # by the path as written and where it leads
    for where in (Path(os.path.abspath(path)), real):
        for folder in {out, Path(os.path.abspath(out_dir))}:
            if not where.is_relative_to(folder):
                continue
            rel = where.relative_to(folder)
            if len(rel.parts) == 1 and rel.name in FILE_NAMES.values():
                raise UsageError(f"{option} {shown} would replace the report's own {rel.name}")
            if any(p.startswith(TMP_PREFIX) for p in rel.parts):
                raise UsageError(f"{option} {shown} is inside evreport's own build folders")
    if path.is_symlink():
        raise UsageError(f"{option} {shown} is a symlink; refusing to write through it")
    linked = _linked_folder(path, project_dir)
    if linked is not None:
        raise UsageError(
            f"{option} {shown} is under {display_name(linked)}, a symlink inside the project "
            "folder; refusing to write through it"
        )
    if path.is_dir():
        raise UsageError(f"{option} {shown} is a folder; give a file name")
    return path


def _linked_folder(path: Path, project_dir: str | Path) -> Path | None:
    """The first folder between the project folder and ``path`` that is a symlink, if any.

    The project (a student's, committed) may hold ``report -> /elsewhere``: a CI file
    named through it would land outside the project, wherever the link says.
    """
    where, project = Path(os.path.abspath(path)), Path(os.path.abspath(project_dir))
    if not where.is_relative_to(project):
        return None
    folder = where.parent
    while folder != project:
        if folder.is_symlink():
            return folder
        folder = folder.parent
    return None


def write_ci_file(path: Path, data: bytes) -> None:
    """Write one CI file atomically (temporary file and rename), creating its folder."""
    from reportgen.outputs import write_error, write_file_atomic

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise write_error(path.parent, e) from None
    write_file_atomic(path, data)


# ---- JUnit XML ----------------------------------------------------------------------------


#: what XML 1.0 forbids beyond the control characters escape_controls shows (and the lone
#: surrogates UTF-8 encoding replaces): U+FFFE and U+FFFF, at which expat stops with
#: "not well-formed (invalid token)"
_XML_FORBIDDEN = re.compile("[\ufffe\uffff]")


def _xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids shown as an escape (``\\ufffe``)."""
    return _XML_FORBIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _text(value: object) -> str:
    """Text for an XML element: control characters and the other characters XML 1.0
    forbids as escapes."""
    return _xml_safe(escape_controls(str(value), keep_lines=True))


def _attr(value: object) -> str:
    """Text for an XML attribute: one line, forbidden characters as escapes."""
    return _xml_safe(escape_controls(" ".join(str(value).split())))


@dataclass(frozen=True)
class _Case:
    """One <testcase>: ``outcome`` None (passed), "failure", "error" or "skipped"."""

    classname: str
    name: str
    outcome: str | None = None
    kind: str = ""  # the failure's type: the rung status, "check", "gate", "build"
    message: str = ""
    output: str = ""


def _suite(parent: Element, name: str, cases: list[_Case]) -> Element:
    """A <testsuite> of ``cases`` under ``parent``, with its counts."""
    import xml.etree.ElementTree as ET

    suite = ET.SubElement(parent, "testsuite", name=_attr(name))
    counts = {"failure": 0, "error": 0, "skipped": 0}
    for c in cases:
        case = ET.SubElement(
            suite, "testcase", classname=_attr(c.classname), name=_attr(c.name), time="0"
        )
        if c.outcome is not None:
            counts[c.outcome] += 1
            el = ET.SubElement(case, c.outcome, message=_attr(c.message))
            if c.outcome != "skipped":
                el.set("type", _attr(c.kind))
                el.text = _text(c.message)
        if c.output:
            ET.SubElement(case, "system-out").text = _text(c.output)
    suite.set("tests", str(len(cases)))
    suite.set("failures", str(counts["failure"]))
    suite.set("errors", str(counts["error"]))
    suite.set("skipped", str(counts["skipped"]))
    suite.set("time", "0")
    return suite


def _properties(suite: Element, props: list[tuple[str, object]]) -> None:
    import xml.etree.ElementTree as ET

    el = ET.Element("properties")
    for name, value in props:
        ET.SubElement(el, "property", name=name, value=_attr("" if value is None else value))
    suite.insert(0, el)


def _finish(root: Element) -> bytes:
    import xml.etree.ElementTree as ET

    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root.iter("testsuite"):
        for k in totals:
            totals[k] += int(suite.get(k, "0"))
    for k, v in totals.items():
        root.set(k, str(v))
    root.set("time", "0")
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


def verdict_line(report: Report) -> str:
    """The line `evreport build` prints: verdict, recommended model, supported rung."""
    claim, decision = report.claim, report.decision
    return _(
        "verdict: {verdict} (recommend {model}); supported rung {rung} of 5",
        verdict=verdict_word(decision.verdict),
        model=decision.recommend,
        rung=claim.supported_rung,
    )


def junit_xml(
    report: Report, gate_list: Sequence[Gate] = (), render_problems: Sequence[str] = ()
) -> bytes:
    """The JUnit XML file of a built report (see the module docstring)."""
    import xml.etree.ElementTree as ET

    project, claim, decision = report.project, report.claim, report.decision
    root = ET.Element("testsuites", name=_attr(f"evreport: {project.title or ''}"))
    out = "\n".join([verdict_line(report), *(f"- {r}" for r in decision.reasons)])
    ladder = []
    for r in report.ladder:
        status = r.status
        detail = r.missing or r.summary or status
        body = "\n".join(filter(None, [r.summary, "artefacts: " + ", ".join(r.artefacts)]))
        ladder.append(
            _Case(
                "evreport.ladder",
                f"rung {r.rung}: {r.name}",
                None if status == "shown" else "failure",
                str(status),
                f"{status_word(str(status))}: {detail}",
                body,
            )
        )
    suite = _suite(root, "ladder", ladder)
    _properties(
        suite,
        [
            ("verdict", decision.verdict),
            ("recommend", decision.recommend),
            ("supported_rung", claim.supported_rung),
            ("claim.original", claim.original),
            ("claim.rewritten", claim.rewritten),
            ("candidate", project.candidate),
            ("baseline", project.baseline),
            ("metric", project.metric),
            ("evreport", report.tool.version),
        ],
    )
    ET.SubElement(suite, "system-out").text = _text(out)
    checks = []
    for c in report.checks:
        outcome = {True: None, False: "failure", None: "skipped"}[c.passed]
        measured = (
            f"value {c.value}, bar {c.bar}" if c.value is not None or c.bar is not None else ""
        )
        body = "\n".join(filter(None, [c.text, measured, "artefacts: " + ", ".join(c.artefacts)]))
        checks.append(
            _Case(f"evreport.checks.rung{c.rung}", str(c.id), outcome, "check", c.text, body)
        )
    if checks:
        _suite(root, "checks", checks)
    _build_suite(root, list(render_problems), gate_list)
    return _finish(root)


def _build_suite(root: Element, errors: list[str], gate_list: Sequence[Gate]) -> None:
    """The build itself (an error with every problem) and each gate, as one <testsuite>."""
    cases = [
        _Case(
            "evreport.build",
            "evreport build",
            "error" if errors else None,
            "build",
            "; ".join(errors),
            "\n".join(errors),
        )
    ]
    cases += [
        _Case(
            "evreport.gates", g.option, None if g.passed else "failure", "gate", g.reason, g.reason
        )
        for g in gate_list
    ]
    _suite(root, "build", cases)


def failed_build_junit(project_name: str, problems: Sequence[Problem | str]) -> bytes:
    """The JUnit XML file of a build that stopped on its input: one error, every problem."""
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites", name=_attr(f"evreport: {project_name}"))
    _build_suite(root, [str(p) for p in problems], [])
    return _finish(root)


# ---- the Markdown job summary -------------------------------------------------------------


@dataclass(frozen=True)
class SummaryLine:
    """One line of a summary list: a mark, a label and its text (all printed as they are)."""

    mark: str
    label: str
    text: str


@dataclass(frozen=True)
class Summary:
    """The context of templates/ci-summary.md: strings only, the template prints them."""

    title: str
    built: bool
    verdict: str
    recommend: str
    supported: str
    original: str
    rewritten: str
    ladder: list[SummaryLine]
    reasons: list[str]
    checks: list[SummaryLine]
    checks_passed: str
    gates: list[SummaryLine]
    problems: list[str]
    more_problems: str


def summary_context(
    report: Report, gate_list: Sequence[Gate] = (), render_problems: Sequence[str] = ()
) -> Summary:
    """The context of the summary of a built report."""
    claim, decision = report.claim, report.decision
    # a shown rung above an unshown one is not credited: not a green tick (page one's "○")
    ladder = [
        SummaryLine(
            NOT_CREDITED_MARK
            if r.status == "shown" and not r.credited
            else STATUS_MARK.get(r.status, "❔"),
            f"{r.rung}. {rung_word(r.name)}: "
            + status_word(
                "shown, not credited" if r.status == "shown" and not r.credited else r.status
            ),
            r.missing if r.status != "shown" and r.missing else r.summary or "",
        )
        for r in report.ladder
    ]
    checks = report.checks
    not_passed = [
        SummaryLine(CHECK_MARK[c.passed], str(c.id), c.text) for c in checks if c.passed is not True
    ]
    passed = len(checks) - len(not_passed)
    rung = claim.supported_rung
    name = rung_word(RUNG_NAMES[rung - 1]) if 1 <= rung <= 5 else p_("rung name", "none")
    return Summary(
        title=report.project.title,
        built=True,
        verdict=verdict_word(decision.verdict),
        recommend=decision.recommend,
        supported=_("{rung} of 5 ({name})", rung=rung, name=name),
        original=claim.original,
        rewritten=claim.rewritten,
        ladder=ladder,
        reasons=list(decision.reasons),
        checks=not_passed,
        checks_passed=_("{passed} of {total}", passed=count(passed), total=count(len(checks))),
        gates=[SummaryLine("✅" if g.passed else "❌", g.option, g.reason) for g in gate_list],
        problems=list(render_problems),
        more_problems="",
    )


def render_summary(ctx: Summary) -> str:
    """templates/ci-summary.md with ``ctx`` (markdown environment: every value made inert)."""
    from reportgen.render.env import environment

    text: str = environment("markdown").get_template("ci-summary.md").render(s=ctx)
    return text


def summary_markdown(
    report: Report, gate_list: Sequence[Gate] = (), render_problems: Sequence[str] = ()
) -> str:
    """The Markdown job summary of a built report."""
    return render_summary(summary_context(report, list(gate_list), list(render_problems)))


def failed_summary_context(project_name: str, problems: Sequence[Problem | str]) -> Summary:
    """The context of the summary of a build that stopped on its input: the problems."""
    shown = [str(p) for p in problems[:MAX_PROBLEMS]]
    more = len(problems) - len(shown)
    return Summary(
        title=project_name,
        built=False,
        verdict="",
        recommend="",
        supported="",
        original="",
        rewritten="",
        ladder=[],
        reasons=[],
        checks=[],
        checks_passed="",
        gates=[],
        problems=shown,
        more_problems=n_("and {n} more", "and {n} more", more) if more > 0 else "",
    )


def failed_build_summary(project_name: str, problems: Sequence[Problem | str]) -> str:
    """The Markdown job summary of a build that stopped on its input."""
    return render_summary(failed_summary_context(project_name, problems))
