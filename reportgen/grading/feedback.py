"""feedback.md: the points per rubric line, then what to fix first, in plain words.

Every piece of report text in it comes from a student's project, so it is made inert for
Markdown (``md_escape``: only what could become a link, an image, HTML, code or emphasis is
escaped) and stripped of control characters before it is written. Each sentence is said
once (``Said``): advice that repeats what an earlier line said is left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from reportgen.errors import clean_text
from reportgen.grading.advice import advice, restates_missing
from reportgen.grading.rubric import Score, label_words, ladder_by_rung, lowest_unshown
from reportgen.model import Report
from reportgen.names import RUNG_NAMES
from reportgen.safe import plain_markdown
from reportgen.view.parts import in_words
from reportgen.words import points
from reportgen.words.i18n import _, current, p_
from reportgen.words.rungs import rung_word, status_word


def rung_meaning(rung: int) -> str:
    """What a rung means, said to the student."""
    return {
        1: _("your code and your logged numbers are right"),
        2: _("both models were compared on equal terms"),
        3: _("the gap between the models is bigger than chance would give"),
        4: _("the gap is big enough to matter in practice"),
        5: _("you know where the result holds and where it might not"),
    }[rung]


#: the jargon feedback explains, by id: the id is also the English word looked for
GLOSSARY = (
    "seed",
    "sd",
    "interval",
    "block",
    "slice",
    "validation",
    "useful effect",
    "bootstrap",
    "rung",
)


def glossary_entry(term: str) -> tuple[str, str, str]:
    """(the word as printed, its one-line meaning, the pattern that finds it in the text) of
    a GLOSSARY term; the pattern of another language finds the word in any of its forms."""
    # TRANSLATORS: each "glossary pattern" is a regular expression that finds the term in any
    # grammatical form in lowercase text (Ukrainian: the stem, e.g. "\bсід\w*")
    entries = {
        "seed": (
            p_("glossary term", "seed"),
            _(
                "the random starting point of one training run; retraining with another seed "
                "gives a slightly different model."
            ),
            r"\bseeds?\b",
        ),
        "sd": (
            p_("glossary term", "sd"),
            _("standard deviation: how far results typically spread around their average."),
            r"\bsds?\b",
        ),
        "interval": (
            p_("glossary term", "interval"),
            _(
                "the range of gaps that your data are consistent with (95%: it would contain "
                "the true gap 95 times in 100)."
            ),
            r"\bintervals?\b",
        ),
        "block": (
            p_("glossary term", "block"),
            _(
                "a group of test rows (for example one week) that is resampled as a whole, "
                "because rows in it are alike."
            ),
            r"\bblocks?\b",
        ),
        "slice": (
            p_("glossary term", "slice"),
            _("a named part of the test data (for example one route or one region)."),
            r"\bslices?\b",
        ),
        "validation": (
            p_("glossary term", "validation"),
            _("the part of the data you tune on; the test part is opened only once, at the end."),
            r"(?<!cross-)\bvalidations?\b",
        ),
        "useful effect": (
            p_("glossary term", "useful effect"),
            _("the smallest gain you said is worth having (min_useful_effect)."),
            r"\buseful effects?\b",
        ),
        "bootstrap": (
            p_("glossary term", "bootstrap"),
            _("re-drawing the test blocks at random many times to see how much the gap moves."),
            r"\bbootstraps?\b",
        ),
        "rung": (
            p_("glossary term", "rung"),
            _(
                "one step of the evidence ladder: correct, fair, larger than noise, relevant, "
                "bounded."
            ),
            r"\brungs?\b",
        ),
    }
    word, meaning, pattern = entries[term]
    return word, meaning, GLOSSARY_FORMS.get(current(), {}).get(term, pattern)


#: how a GLOSSARY term is found in a language whose words inflect: by its stem, any ending
GLOSSARY_FORMS = {
    "uk": {
        "seed": r"\bсід\w*",
        "sd": r"\bsd\b",
        "interval": r"\bінтервал\w*",
        "block": r"\bблок\w*",
        "slice": r"\bзріз\w*",
        "validation": r"\bвалідаці\w*",
        "useful effect": r"\bкорисн\w* ефект\w*",
        "bootstrap": r"\bбутстреп\w*",
        "rung": r"\bщаб\w*",
    }
}


def md_escape(text: object, limit: int | None = 2000) -> str:
    """Report text made inert in Markdown (``safe.plain_markdown``), capped at ``limit``."""
    s = "" if text is None else str(text)
    if limit is not None and len(s) > limit:
        s = s[: limit - 1] + "…"
    return plain_markdown(s)


#: where one sentence ends and the next begins: ". " before a capital, a digit or a quote
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(“‘−+-])")
#: the same in a language written in Cyrillic (Ukrainian capitals too, and «)
_SENTENCE_END_CYRILLIC = re.compile(r"(?<=[.!?])\s+(?=[A-ZА-ЯІЇЄҐ0-9\"'(“‘«−+-])")


def sentences(text: str) -> list[str]:
    """``text`` cut into its sentences (at ". " before a capital or a number)."""
    end = _SENTENCE_END if current() == "en" else _SENTENCE_END_CYRILLIC
    return [t for t in end.split(" ".join(text.split())) if t]


def sentence_key(sentence: str) -> str:
    """A sentence compared with others: case, spacing and the closing mark ignored."""
    return " ".join(sentence.split()).rstrip(" .;:!?").casefold()


class Said:
    """The sentences feedback.md has said so far, so that none is said twice."""

    def __init__(self) -> None:
        self.keys: set[str] = set()

    def new(self, text: str) -> str:
        """The sentences of ``text`` not said yet (now said), joined again; "" when none is new."""
        kept = []
        for t in sentences(text):
            key = sentence_key(t)
            if key and key not in self.keys:
                self.keys.add(key)
                kept.append(t)
        return " ".join(kept)

    def covers(self, clause: str, text: str) -> bool:
        """True when ``text`` already says ``clause`` (its words up to the first comma)."""
        head = sentence_key(clause.split(",")[0])
        return len(head) >= 12 and head in " ".join(text.split()).casefold()


@dataclass(frozen=True)
class PointsLine:
    """One rubric line of the feedback: its label, the points given, and why."""

    label: str
    points: str
    why: str  # student text inside: escape when printing


@dataclass(frozen=True)
class Feedback:
    """What feedback.md and the HTML section say; raw text, escaped by each renderer."""

    name: str
    graded: bool
    total: str
    max: str
    lines: list[PointsLine]
    error: str | None  # the build failed: why
    rung: int | None  # the lowest rung not shown (None: all shown)
    rung_name: str
    meaning: str
    status: str
    missing: str | None
    advice: str
    files: list[str]
    supported: str
    rewritten: str | None
    reconsider: list[str]
    glossary: list[tuple[str, str]] = field(default_factory=list)

    @property
    def fix_first(self) -> tuple[str, str]:
        """The failed build's "fix this first" sentence, in the language being written, cut
        where the command goes: (before it, after it), so a page can set the command in code."""
        text = _("Fix this first, then run {command} on your project yourself to check it.")
        head, _sep, tail = text.partition("{command}")
        return head, tail


def feedback_data(
    name: str,
    report: Report | None,
    scores: Sequence[Score] | None = None,
    total: float | None = None,
    max_points: float | None = None,
    error: str | None = None,
) -> Feedback:
    """The feedback for one submission (``report`` None for a failed build)."""
    built = report is not None
    ladder = ladder_by_rung(report) if report is not None else {}
    rung = lowest_unshown(ladder) if built else None
    row = ladder.get(rung) if rung else None
    status = str(row.status) if row is not None else "not shown"
    missing = row.missing if row is not None else None
    claim = report.claim if report is not None else None

    def said(text: str | None) -> str | None:
        """A report sentence as the page prints it: the models by their display names."""
        return in_words(text, report) if text and report is not None else text

    if report is not None and restates_missing(report, rung):
        missing = None  # the advice opens by saying it, with the same numbers
    missing, rewritten = said(missing), said(claim.rewritten if claim is not None else None)
    items = [clean_text(said(i), 600) for i in claim.reconsider_items] if claim is not None else []
    fb = Feedback(
        name=clean_text(name, 200),
        graded=scores is not None,
        total=points(total or 0),
        max=points(max_points or 0),
        lines=[
            PointsLine(
                label_words(s.line), points(s.points) if s.applies else "—", clean_text(s.why, 300)
            )
            for s in scores or []
        ],
        error=None if built else clean_text(error or _("unknown"), 1000),
        rung=rung,
        rung_name=rung_word(RUNG_NAMES[rung - 1]) if rung else "",
        meaning=rung_meaning(rung) if rung else "",
        status=clean_text(status_word(status), 30),
        missing=clean_text(missing, 600) if missing and missing.strip() else None,
        advice=(said(advice(report, rung)) or "") if report is not None else "",
        files=[clean_text(a, 200) for a in row.artefacts][:5] if row is not None else [],
        supported=str(claim.supported_rung) if claim is not None else "?",
        rewritten=clean_text(rewritten, 1500) if rewritten and rewritten.strip() else None,
        reconsider=items[:10],
    )
    words = " ".join(
        [fb.meaning, fb.missing or "", fb.advice, fb.rewritten or "", *fb.reconsider]
        + [ln.why for ln in fb.lines]
    ).lower()
    glossary = []
    for term in GLOSSARY:
        word, meaning, pattern = glossary_entry(term)
        if (term == "rung" and built) or re.search(pattern, words):
            glossary.append((word, meaning))
    return _once(replace(fb, glossary=glossary))


def _once(fb: Feedback) -> Feedback:
    """The feedback with each sentence said once, in the order printed: the missing thing
    (left out when the advice opens by saying it in other words), the advice, the claim
    the evidence supports, the reconsider-when items."""
    said = Said()
    missing = fb.missing
    if missing is not None and said.covers(missing, fb.advice):
        missing = None
    missing = said.new(missing) or None if missing else None
    advice = said.new(fb.advice) if fb.advice else ""
    rewritten = (said.new(fb.rewritten) or None) if fb.rewritten else None
    reconsider = [t for t in (said.new(i) for i in fb.reconsider) if t]
    return replace(fb, missing=missing, advice=advice, rewritten=rewritten, reconsider=reconsider)


def _label(text: str) -> str:
    # a rubric line's label is the operator's text; only a pattern's * and a | need escaping
    return re.sub(r"([\\*_|`])", r"\\\1", text)


def render_markdown(fb: Feedback) -> str:
    """feedback.md: the points table, what to fix first, the supported claim, the glossary."""
    e = md_escape
    lines = ["# " + _("Feedback for {name}", name=e(fb.name, 200)), ""]
    if fb.graded:
        lines += ["**" + _("Points: {total} of {max}", total=fb.total, max=fb.max) + "**", ""]
        head = (
            p_("feedback column", "rubric line"),
            p_("feedback column", "points"),
            p_("feedback column", "why"),
        )
        lines += ["| " + " | ".join(head) + " |", "|---|---:|---|"]
        lines += [f"| {_label(ln.label)} | {ln.points} | {e(ln.why, 300)} |" for ln in fb.lines]
        lines.append("")
    lines += ["## " + _("What to fix first"), ""]
    if fb.error is not None:
        lines += [
            _("Your project could not be built, so it gets no points yet. The reason was:"),
            "",
            f"> {e(fb.error, 1000)}",
            "",
            _(
                "Fix this first, then run {command} on your project yourself to check it.",
                command="`evreport build`",
            ),
            "",
        ]
        return "\n".join(lines)
    if fb.rung is None:
        lines.append(
            _(
                "Your report shows every rung of the ladder. Nothing is missing; check the "
                "reconsider-when items below to see what would change your conclusion."
            )
        )
    else:
        lines.append(
            _(
                "The lowest rung your report does not show is rung {rung} ({name}): showing "
                "that {meaning}. It is {status} now.",
                rung=fb.rung,
                name=fb.rung_name,
                meaning=fb.meaning,
                status=e(fb.status),
            )
        )
        if fb.missing:
            lines.append(_("What is missing: {missing}.", missing=e(fb.missing, 600)))
        if fb.advice:
            lines.append(e(fb.advice, 2000))
        if fb.files:
            lines.append(
                _(
                    "The report looked at these files for this rung: {files}.",
                    files=", ".join(f"`{f.replace('`', '')}`" for f in fb.files),
                )
            )
    lines.append("")
    if fb.rewritten:
        lines += [
            "## " + _("The claim your evidence supports"),
            "",
            _("Your evidence supports rung {rung}. A claim you can make now:", rung=fb.supported),
            "",
            f"> {e(fb.rewritten, 1500)}",
            "",
        ]
    if fb.reconsider:
        lines += ["## " + _("You would reconsider the conclusion when"), ""]
        lines += [f"- {e(i, 600)}" for i in fb.reconsider]
        lines.append("")
    if fb.glossary:
        lines += ["## " + _("Words used here"), ""]
        lines += [f"- **{k}**: {v}" for k, v in fb.glossary]
        lines.append("")
    return "\n".join(lines)


def render_html_section(fb: Feedback) -> str:
    """The feedback as an HTML section (templates/batch/_feedback.html, autoescaped)."""
    from reportgen.render.env import environment

    return environment("html").get_template("batch/_feedback.html").render(fb=fb)


SECTION_START = "<!-- evreport-feedback -->"
SECTION_END = "<!-- /evreport-feedback -->"


def with_feedback_section(html: str, section: str) -> str | None:
    """report.html with the feedback section first in its body (replacing an earlier one).

    None when the page has no single ``<body>`` to put it after. Student text in the page
    is escaped by the build, so neither the tag nor the markers can come from it.
    """
    start, end = html.find(SECTION_START), html.find(SECTION_END)
    if start != -1 and end > start:
        start -= html[start - 1 : start] == "\n"  # the line break put before it
        html = html[:start] + html[end + len(SECTION_END) :]
    if html.count("<body>") != 1:
        return None
    block = f"{SECTION_START}\n{section}\n{SECTION_END}"
    return html.replace("<body>", f"<body>\n{block}", 1)
