"""Page one: title block, claim, decision and the claim ladder."""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.names import RUNG_NAMES
from reportgen.view.appendix import PathText, measured, path_text, value_format
from reportgen.view.parts import Status, metric_name, names, rung_status
from reportgen.words.cells import DASH, cost, count, gap, gap_with_interval, timestamp

#: artefacts listed per rung on page one; longer lists are completed in the appendix
PAGE_ONE_ARTEFACTS = 3
#: the numbers behind a rung in words a reviewer reads at a glance; other checks by their id
CHECK_WORDS = {
    "validation-gap-vs-seed-sd": "validation gap in seed sd",
    "test-interval-excludes-zero": "test interval's lower end",
    "cv-interval-excludes-zero": "corrected interval's lower end",
    "useful-effect": "lower end against the useful effect",
    "general-set-held": "general-set drop",
    "interval-above-zero": "interval's lower end",
}
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
    artefacts: list[PathText]
    #: the first few artefacts, for page one; the rest are counted in `artefacts_more`
    artefacts_shown: list[PathText]
    artefacts_more: str | None
    #: "6 of 30 cited artefacts listed" when the report lists fewer than the rung cites
    artefacts_note: str | None
    missing: str
    #: the numbers behind a rung that is not shown: each failed check's value and bar
    numbers: list[str]
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
    #: the decision in its units, when costs are known ("at the chosen thresholds ...")
    in_units: str | None
    #: validation and test disagree on which model is better
    sign_flip: str | None


def header_view(report: dict) -> Header:
    p = report["project"]
    return Header(
        title=str(p["title"]),
        author=p.get("author"),
        date=timestamp(report.get("build", {}).get("date")),
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
            f"The evidence supports the claim up to rung {count(rung)} ({RUNG_NAMES[rung - 1]}); "
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
        in_units=_in_units(report),
        sign_flip=_sign_flip(report),
    )


def _in_units(report: dict) -> str | None:
    """The test cost difference at the chosen thresholds, per period when a volume is set."""
    rel = report.get("relevance") or {}
    cpc = rel.get("cost_per_case") or {}
    if cpc.get("difference") is None:
        return None
    cand, _ = names(report)
    unit = str(rel.get("unit") or "cost units")
    per_period = rel.get("cost_per_period")
    if per_period is not None:
        period = rel.get("period") or "period"
        amount, where = per_period, f"per {period}"
        volume = rel.get("cases_per_period")
        if volume is not None:
            where += f" of {count(volume)} cases"
    else:
        amount, where = cpc["difference"], "per case"
    if amount == 0:
        return f"At each model's chosen threshold, {cand} and the baseline cost the same on test."
    verb = "saves" if amount > 0 else "costs"
    more = "" if amount > 0 else " more"
    return (
        f"At each model's chosen threshold, {cand} {verb} {cost(abs(amount))}{more} {where} "
        f"on test, counted in {unit}; a point estimate, without an interval."
    )


def _sign_flip(report: dict) -> str | None:
    """noise.sign_disagreement (validation and test gaps of opposite sign), in the view's numbers."""
    noise = report.get("noise") or {}
    dis = noise.get("sign_disagreement")
    if not dis:
        return None
    val, test = dis["validation_gap"], dis["test_gap"]
    block = noise.get("block") or {}
    cand, base = names(report)
    better = {True: cand, False: base}
    return (
        f"Validation and test disagree: on validation {better[val > 0]} is better "
        f"(gap {gap(val)}), on test {better[test > 0]} "
        f"(gap {gap_with_interval(test, block.get('low'), block.get('high'))})."
    )


#: artefacts listed per rung in the appendix's evidence table; the full list is in report.json
LISTED_PER_RUNG = 6


def _not_credited(r: dict, lowest: dict | None) -> str | None:
    """Why a shown rung earns no credit: the lowest unshown rung below it."""
    if r.get("status") != "shown" or r.get("credited") is not False or lowest is None:
        return None
    return (
        f"not credited: rung {count(lowest['rung'])} ({lowest['name']}) below it is {lowest['status']}, "
        "and a rung counts only when every rung below it is shown"
    )


def ladder_view(report: dict) -> list[LadderRow]:
    failed: dict[int, list[str]] = {}
    for c in report.get("checks") or []:
        if c.get("passed") is False and c.get("rung") is not None:
            cid = str(c.get("id") or "check")
            what = measured(c.get("value"), c.get("bar"), value_format(report, cid))
            if what:
                label = CHECK_WORDS.get(cid, cid.replace("-", " "))
                failed.setdefault(int(c["rung"]), []).append(f"{label}: {what}")
    lowest = next((r for r in report["ladder"] if r.get("status") != "shown"), None)
    rows = []
    for r in report["ladder"]:
        # a later report may carry the full list beside the capped one
        listed = [str(a) for a in r.get("artefacts_all") or r.get("artefacts") or []]
        total = max(int(r.get("artefacts_total") or 0), len(listed))
        artefacts = [path_text(a) for a in listed[:LISTED_PER_RUNG]]
        more = total - PAGE_ONE_ARTEFACTS
        shown = artefacts if more <= 0 else artefacts[: PAGE_ONE_ARTEFACTS - 1]
        rows.append(
            LadderRow(
                rung=int(r["rung"]),
                name=str(r["name"]),
                status=rung_status(r["status"], r.get("credited")),
                artefacts=artefacts,
                artefacts_shown=shown,
                artefacts_more=None
                if more <= 0
                else f"{len(shown)} of {total} shown; all in Evidence by rung",
                artefacts_note=None
                if total <= len(artefacts)
                else f"{len(artefacts)} of {total} cited artefacts listed; all in report.json",
                missing=_not_credited(r, lowest) or str(r.get("missing") or DASH),
                numbers=failed.get(int(r["rung"]), []) if r.get("status") != "shown" else [],
                summary=r.get("summary"),
            )
        )
    return rows
