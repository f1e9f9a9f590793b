"""Page one: title block, claim, decision and the claim ladder."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.view.format import DASH
from reportgen.view.parts import Status, metric_name, names, rung_status

RUNG_NAMES = ["correct", "fair", "larger than noise", "relevant", "bounded"]
#: artefacts listed per rung on page one; longer lists are completed in the appendix
PAGE_ONE_ARTEFACTS = 3
VERDICT_CLASS = {
    "adopt": "shown",
    "keep-baseline": "partly",
    "roll-back": "not-shown",
    "inconclusive": "neutral",
}


@dataclass(frozen=True)
class LadderRow:
    """One rung of the ladder (partials/_ladder.html, and the appendix's evidence table)."""

    rung: int
    name: str
    status: Status
    artefacts: list[str]
    #: the first few artefacts, for page one; the rest are counted in `artefacts_more`
    artefacts_shown: list[str]
    artefacts_more: str | None
    missing: str
    summary: str | None


@dataclass(frozen=True)
class Header:
    """partials/_title.html (and the page's <head>): title, byline, models, metric."""

    title: str
    author: str | None
    date: str
    version: str
    kind: str
    candidate: str
    baseline: str
    metric: str
    direction: str


@dataclass(frozen=True)
class ClaimView:
    """The claim half of partials/_claim.html: as written, as supported, reconsider when."""

    original: str
    rewritten: str
    supported: str
    reconsider_when: str


@dataclass(frozen=True)
class DecisionView:
    """The decision half of partials/_claim.html: verdict, recommended model, reasons."""

    verdict: str
    css: str
    recommend: str
    recommend_role: str
    reasons: list[str]
    alternatives: list[str]


def header_view(report: dict) -> Header:
    p = report["project"]
    return Header(
        title=str(p["title"]),
        author=p.get("author"),
        date=str(report.get("build", {}).get("date") or DASH),
        version=str(report.get("tool", {}).get("version") or DASH),
        kind="before and after" if p["kind"] == "before-after" else "model against baseline",
        candidate=str(p["candidate"]),
        baseline=str(p["baseline"]),
        metric=metric_name(report),
        direction="higher is better" if p["higher_is_better"] else "lower is better",
    )


def claim_view(report: dict) -> ClaimView:
    c = report["claim"]
    rung = c.get("supported_rung") or 0
    if rung <= 0:
        supported = "The evidence supports no rung of the ladder: not even rung 1 (correct)."
    else:
        supported = (
            f"The evidence supports the claim up to rung {rung} ({RUNG_NAMES[rung - 1]}); "
            "the rewritten claim says no more than that."
        )
    return ClaimView(
        original=str(c.get("original") or report["project"].get("claim") or DASH),
        rewritten=str(c.get("rewritten") or DASH),
        supported=supported,
        reconsider_when=_strip_prefix(str(c.get("reconsider_when") or DASH), "reconsider when"),
    )


def _strip_prefix(text: str, prefix: str) -> str:
    """Drop a leading label the template already prints ("Reconsider when ...")."""
    if text.lower().startswith(prefix):
        rest = text[len(prefix) :].lstrip(" :")
        return rest[:1].upper() + rest[1:] if rest else text
    return text


def decision_view(report: dict) -> DecisionView:
    d = report["decision"]
    cand, base = names(report)
    verdict = d.get("verdict") or "inconclusive"
    words = {
        "adopt": f"Adopt {cand}",
        "keep-baseline": f"Keep {base}",
        "roll-back": f"Roll back to {base}",
        "inconclusive": "Inconclusive",
    }
    recommend = str(d.get("recommend") or base)
    role = "candidate" if recommend == cand else "baseline" if recommend == base else "model"
    other = base if recommend == cand else cand
    if verdict == "adopt":
        alternatives = [f"Keep {base}: the baseline stays if the evidence is judged insufficient."]
    else:
        alternatives = [
            f"Adopt {other}: not supported by this evidence; see the reconsider-when line "
            "for what would change that."
        ]
    return DecisionView(
        verdict=words.get(verdict, verdict),
        css=VERDICT_CLASS.get(verdict, "neutral"),
        recommend=recommend,
        recommend_role=role,
        reasons=[str(r) for r in d.get("reasons") or []],
        alternatives=alternatives,
    )


def ladder_view(report: dict) -> list[LadderRow]:
    rows = []
    for r in report["ladder"]:
        artefacts = [str(a) for a in r.get("artefacts") or []]
        more = len(artefacts) - PAGE_ONE_ARTEFACTS
        rows.append(
            LadderRow(
                rung=int(r["rung"]),
                name=str(r["name"]),
                status=rung_status(r["status"]),
                artefacts=artefacts,
                artefacts_shown=artefacts if more <= 0 else artefacts[: PAGE_ONE_ARTEFACTS - 1],
                artefacts_more=None if more <= 0 else f"+ {more + 1} more (see Evidence by rung)",
                missing=str(r.get("missing") or DASH),
                summary=r.get("summary"),
            )
        )
    return rows
