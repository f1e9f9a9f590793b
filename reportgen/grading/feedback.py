"""feedback.md: the points per rubric line, then what to fix first, in plain words.

Every piece of report text in it comes from a student's project, so it is escaped for
Markdown (``md_escape``) and stripped of control characters before it is written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reportgen.errors import clean_text
from reportgen.grading.rubric import Score

RUNG_NAMES = ("correct", "fair", "larger than noise", "relevant", "bounded")

#: what a rung means, said to the student
RUNG_MEANING = {
    1: "your code and your logged numbers are right",
    2: "both models were compared on equal terms",
    3: "the gap between the models is bigger than chance would give",
    4: "the gap is big enough to matter in practice",
    5: "you know where the result holds and where it might not",
}
#: the artefact that would show each rung, said to the student
RUNG_ARTEFACT = {
    1: (
        "Add the check files in artefacts/checks/ (initial_loss, gradient, overfit, shapes) "
        "for your candidate model, and a predictions file for every run in runs.csv so that "
        "evreport can recompute each logged value."
    ),
    2: (
        "Freeze your split with `evreport freeze` before your first run (split/manifest.json), "
        "and log both models in runs.csv on the same rows, features and split_id, each run "
        "with its started_at time."
    ),
    3: (
        "Log more seeds of each model in runs.csv, each with its validation and test "
        "predictions files, and give the test rows a block column (for example the week) "
        "so that the test gap gets an interval."
    ),
    4: (
        "State the smallest gain worth having as min_useful_effect in evreport.toml [claim], "
        "and name a cost model under [evidence] relevant, so that the report can say whether "
        "the gap matters."
    ),
    5: (
        "Add a slice column and list the slices that must not get worse under [evaluation] "
        "not_worse_on (or, for a before-after project, a general question set), so that the "
        "report can show where the result holds."
    ),
}
#: jargon that may appear in the report's own text, each with a one-line meaning
GLOSSARY = {
    "seed": "the random starting point of one training run; retraining with another seed gives a slightly different model.",
    "sd": "standard deviation: how far results typically spread around their average.",
    "interval": "the range of gaps that your data are consistent with (95%: it would contain the true gap 95 times in 100).",
    "block": "a group of test rows (for example one week) that is resampled as a whole, because rows in it are alike.",
    "slice": "a named part of the test data (for example one route or one region).",
    "validation": "the part of the data you tune on; the test part is opened only once, at the end.",
    "useful effect": "the smallest gain you said is worth having (min_useful_effect).",
    "bootstrap": "re-drawing the test blocks at random many times to see how much the gap moves.",
    "rung": "one step of the evidence ladder: correct, fair, larger than noise, relevant, bounded.",
}

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|<>~&])")


def md_escape(text: object, limit: int | None = 2000) -> str:
    """Report text made inert in Markdown: one line, no control characters, punctuation escaped."""
    s = clean_text("" if text is None else text, limit)
    return _MD_SPECIAL.sub(r"\\\1", s)


def _fmt(points: float) -> str:
    return f"{points:g}"


def _lowest_not_shown(ladder: dict) -> int | None:
    for i in range(1, 6):
        if (ladder.get(i) or {}).get("status") != "shown":
            return i
    return None


def feedback_markdown(
    name: str,
    report: dict | None,
    scores: Sequence[Score] | None = None,
    total: float | None = None,
    max_points: float | None = None,
    error: str | None = None,
) -> str:
    """The student's feedback page (Markdown); ``report`` None for a failed build."""
    lines = [f"# Feedback for {md_escape(name, 200)}", ""]
    if scores is not None:
        lines += [f"**Points: {_fmt(total or 0)} of {_fmt(max_points or 0)}**", ""]
        lines += ["| rubric line | points | why |", "|---|---:|---|"]
        for s in scores:
            lines.append(f"| {s.line.label} | {_fmt(s.points)} | {md_escape(s.why, 300)} |")
        lines.append("")
    if report is None:
        lines += [
            "## What to fix first",
            "",
            "Your project could not be built, so it gets no points yet. The reason was:",
            "",
            f"> {md_escape(error or 'unknown', 1000)}",
            "",
            "Fix this first, then run `evreport build` on your project yourself to check it.",
            "",
        ]
        return "\n".join(lines)
    ladder = {r.get("rung"): r for r in report.get("ladder") or [] if isinstance(r, dict)}
    claim = report.get("claim") if isinstance(report.get("claim"), dict) else {}
    lines += ["## What to fix first", ""]
    rung = _lowest_not_shown(ladder)
    body: list[str] = []
    if rung is None:
        body.append(
            "Your report shows every rung of the ladder. Nothing is missing; check the "
            "reconsider-when items below to see what would change your conclusion."
        )
    else:
        row = ladder.get(rung) or {}
        status = row.get("status") if isinstance(row.get("status"), str) else "not shown"
        body.append(
            f"The lowest rung your report does not show is rung {rung} ({RUNG_NAMES[rung - 1]}): "
            f"showing that {RUNG_MEANING[rung]}. It is {md_escape(status, 20)} now."
        )
        missing = row.get("missing")
        if isinstance(missing, str) and missing.strip():
            body.append(f"What is missing: {md_escape(missing, 600)}.")
        body.append(RUNG_ARTEFACT[rung])
        arts = [a for a in row.get("artefacts") or [] if isinstance(a, str)][:5]
        if arts:
            body.append(
                "The report looked at these files for this rung: "
                + ", ".join(f"`{clean_text(a, 200).replace('`', '')}`" for a in arts)
                + "."
            )
    lines += body + [""]
    supported = claim.get("supported_rung")
    rewritten = claim.get("rewritten")
    if isinstance(rewritten, str) and rewritten.strip():
        lines += [
            "## The claim your evidence supports",
            "",
            f"Your evidence supports rung {supported if isinstance(supported, int) else '?'}. "
            "A claim you can make now:",
            "",
            f"> {md_escape(rewritten, 1500)}",
            "",
        ]
    items = [i for i in claim.get("reconsider_items") or [] if isinstance(i, str)]
    if items:
        lines += ["## You would reconsider the conclusion when", ""]
        lines += [f"- {md_escape(i, 600)}" for i in items[:10]]
        lines.append("")
    text = " ".join(lines).lower()
    used = [(k, v) for k, v in GLOSSARY.items() if re.search(rf"\b{re.escape(k)}s?\b", text)]
    if used:
        lines += ["## Words used here", ""]
        lines += [f"- **{k}**: {v}" for k, v in used]
        lines.append("")
    return "\n".join(lines)
