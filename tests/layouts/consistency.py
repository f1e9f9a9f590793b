"""Invariants of the consistency matrix: every sentence agrees with every number.

Each invariant takes a :class:`Texts` (report.json, decision-log.md, the HTML text and page
one's text of one build) and returns its violations as strings, an empty list when it holds.
They read only the built files: the numbers come from report.json and the words are checked
against them, so a sentence that says more (or the other way round) than its numbers is caught
whichever code path wrote it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bs4 import BeautifulSoup

from reportgen.words.numbers import MINUS, gap_decimals, interval, with_sign
from tests.layouts.conftest import Built, strings

#: the formats every consistency cell is built in
FORMATS = "json,md,html"


@dataclass
class Texts:
    """One build's outputs, as a reader sees them."""

    report: dict
    md: str
    html: str
    page_one: str
    exit_code: int = 0
    traceback: str | None = None
    stderr: str = ""

    def all_texts(self) -> list[tuple[str, str]]:
        """(where, text): every string of report.json, the decision log and the HTML text."""
        out = [(f"report.json{p}", t) for p, t in strings(self.report)]
        return [*out, ("decision-log.md", self.md), ("report.html", self.html)]


def html_text(html: str) -> tuple[str, str]:
    """The HTML's text and page one's text (section.page-one), without scripts, styles and
    figures' SVG (axis ticks are not sentences)."""
    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["script", "style", "svg"]):
        tag.decompose()
    page = soup.select_one("section.page-one")
    text = soup.get_text(" ", strip=True)
    return text, page.get_text(" ", strip=True) if page is not None else ""


def texts_of(built: Built) -> Texts | None:
    """The outputs of a cell built with ``FORMATS``; None when report.json was not written."""
    if built.report is None:
        return None
    out = Path(built.gen.path).parent / "out"
    md = (out / "decision-log.md").read_text() if (out / "decision-log.md").exists() else ""
    raw = (out / "report.html").read_text() if (out / "report.html").exists() else ""
    html, page_one = html_text(raw)
    return Texts(built.report, md, html, page_one, built.exit_code, built.traceback, built.stderr)


# --------------------------------------------------------------------------- the numbers


def _num(x) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _ends(d: dict | None) -> tuple[float, float] | None:
    if isinstance(d, dict) and _num(d.get("low")) and _num(d.get("high")):
        return float(d["low"]), float(d["high"])
    return None


def quantities(report: dict) -> list[tuple[str, float | None, float, float]]:
    """(name, gap, low, high) of every printed interval of a candidate-minus-baseline gap."""
    noise = report.get("noise") or {}
    out = []
    iv = noise.get("interval")
    if _ends(iv):
        out.append(("noise.interval", iv.get("gap"), iv["low"], iv["high"]))
    block = noise.get("block") or {}
    if _ends(block):
        out.append(("noise.block", block.get("gap"), block["low"], block["high"]))
        for sub in ("bootstrap", "t", "two_level"):
            if _ends(block.get(sub)):
                s = block[sub]
                out.append((f"noise.block.{sub}", block.get("gap"), s["low"], s["high"]))
        for i, ps in enumerate(block.get("per_seed") or []):
            if _ends(ps):
                out.append((f"noise.block.per_seed[{i}]", ps.get("gap"), ps["low"], ps["high"]))
    cv = noise.get("cv") or {}
    for sub in ("corrected", "naive"):
        if _ends(cv.get(sub)):
            out.append((f"noise.cv.{sub}", cv.get("gap"), cv[sub]["low"], cv[sub]["high"]))
    budget = noise.get("budget") or {}
    if _ends(budget.get("combined")):
        c = budget["combined"]
        out.append(("noise.budget.combined", block.get("gap"), c["low"], c["high"]))
    for i, sl in enumerate(report.get("slices") or []):
        if _ends(sl):
            out.append((f"slices[{i}]", sl.get("gap"), sl["low"], sl["high"]))
    paired = (noise.get("seed") or {}).get("paired") or {}
    if _ends(paired):
        out.append(("noise.seed.paired", paired.get("mean"), paired["low"], paired["high"]))
    ba = report.get("before_after") or {}
    if _ends(ba):
        out.append(("before_after", ba.get("difference"), ba["low"], ba["high"]))
    return out


def _printed(low: float, high: float, point: float | None, digits: int) -> str:
    return interval(low, high, point, digits)


def _digit_choices(gap: float | None, low: float, high: float) -> set[int]:
    d = gap_decimals(gap, low, high)
    return {d, d + 1} | ({d - 1} if d > 0 else set())


# --------------------------------------------------------------------------- (a) one sign


def one_sign(t: Texts) -> list[str]:
    """Every printed interval of a candidate-minus-baseline gap appears with one sign: its
    flipped form (baseline minus candidate, ``interval(-high, -low)``) is printed nowhere, and
    no gap is printed with the other sign after "gap is" / "gap of" / "difference"."""
    out = []
    texts = t.all_texts()
    for name, g, low, high in quantities(t.report):
        for d in _digit_choices(g, low, high):
            right = _printed(low, high, g, d)
            flipped = _printed(-high, -low, None if g is None else -g, d)
            if flipped == right:
                continue
            for where, text in texts:
                if flipped in text:
                    out.append(f"{name} {right} printed flipped as {flipped!r} in {where}: {text}")
    gaps = {}
    noise = t.report.get("noise") or {}
    for name, d in (("noise.block", noise.get("block")), ("noise.interval", noise.get("interval"))):
        if isinstance(d, dict) and _num(d.get("gap")):
            gaps[name] = (d["gap"], d.get("low"), d.get("high"))
    ba = t.report.get("before_after") or {}
    if _num(ba.get("difference")):
        gaps["before_after"] = (ba["difference"], ba.get("low"), ba.get("high"))
    for name, (g, low, high) in gaps.items():
        d = gap_decimals(g, low, high)
        flipped = with_sign(-g, d)
        if flipped == with_sign(g, d) or flipped.strip("+" + MINUS).strip("0.,") == "":
            continue
        pattern = re.compile(
            r"(?:test|cross-validation|validation|mean fold) gap (?:is|of) "
            + re.escape(flipped)
            + r"(?![\d])"
            + r"|difference "
            + re.escape(flipped)
            + r"(?![\d])"
        )
        own = with_sign(g, d)
        for where, text in texts:
            for m in pattern.finditer(text):
                out.append(f"{name} {own} printed as {m.group(0)!r} in {where}: {text}")
    return sorted(set(out))


# --------------------------------------------------------------------------- (b) flags


def _excludes(low: float, high: float) -> bool:
    return low > 0 or high < 0


def _walk(obj, path=""):
    if isinstance(obj, dict):
        yield path, obj
        for k, v in obj.items():
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{path}[{i}]")


def _finding(low: float, high: float, m: float | None) -> str:
    """relevance.finding from the interval and the useful effect (methods.md, relevance)."""
    if m is None:
        return "positive-not-useful" if low > 0 else ("worse" if high < 0 else "inconclusive")
    if low >= m and low > 0:
        return "useful-gain-shown"
    if low > 0:
        return "positive-not-useful"
    if m > 0 and -m < low and high < m:
        return "equivalent"
    if high < 0:
        return "worse"
    if m > 0 and high < m:
        return "no-useful-gain"
    return "inconclusive"


def flags_agree(t: Texts) -> list[str]:
    """Every flag agrees with its interval: excludes_zero (two-sided), a slice's worse and
    not_worse, the seed rule's passes, relevance.finding."""
    r, out = t.report, []
    for path, d in _walk(r):
        ends = _ends(d)
        if "excludes_zero" in d and ends and d["excludes_zero"] is not None:
            if d["excludes_zero"] != _excludes(*ends):
                out.append(f"{path}.excludes_zero = {d['excludes_zero']} with {ends}")
    cv = (r.get("noise") or {}).get("cv")
    iv = (r.get("noise") or {}).get("interval")
    if isinstance(cv, dict) and cv.get("excludes_zero") is not None and _ends(iv):
        if cv["excludes_zero"] != _excludes(*_ends(iv)):
            out.append(f"noise.cv.excludes_zero = {cv['excludes_zero']} with {_ends(iv)}")
    for i, s in enumerate(r.get("slices") or []):
        ends = _ends(s)
        if ends is None:
            continue
        if s.get("worse") is not None and s["worse"] != (ends[1] < 0):
            out.append(f"slices[{i}] {s['slice']!r}.worse = {s['worse']} with {ends}")
        margin = s.get("margin")
        if s.get("not_worse") is not None and _num(margin):
            if s["not_worse"] != (ends[0] > -margin):
                out.append(
                    f"slices[{i}] {s['slice']!r}.not_worse = {s['not_worse']} with low "
                    f"{ends[0]} and margin {margin}"
                )
    seed = (r.get("noise") or {}).get("seed") or {}
    if _num(seed.get("gap_in_sd")) and not seed.get("trivial") and seed.get("passes") is not None:
        if seed["passes"] != (seed["gap_in_sd"] > seed["multiple"]):
            out.append(
                f"noise.seed.passes = {seed['passes']} with gap_in_sd {seed['gap_in_sd']} "
                f"and multiple {seed['multiple']}"
            )
    rel = r.get("relevance") or {}
    if rel.get("finding") and _ends(rel):
        want = _finding(*_ends(rel), rel.get("min_useful_effect"))
        if rel["finding"] != want:
            out.append(f"relevance.finding = {rel['finding']!r}, the interval gives {want!r}")
    return out


# --------------------------------------------------------------------------- (c) reconsider-when


def _interval(r: dict) -> tuple[float, float] | None:
    return _ends((r.get("noise") or {}).get("interval"))


def _useful(r: dict) -> float | None:
    m = (r.get("relevance") or {}).get("min_useful_effect")
    return float(m) if _num(m) else None


def reconsider_not_met(t: Texts) -> list[str]:
    """No reconsider-when item is already met: the interval's item only while its low <= 0,
    the useful effect's only while low < m, the seed item only while the seed rule fails, a
    slice's only while the slice is not shown no worse."""
    r, out = t.report, []
    items = (r.get("claim") or {}).get("reconsider_items") or []
    iv, m = _interval(r), _useful(r)
    seed = (r.get("noise") or {}).get("seed") or {}
    slices = {s["slice"]: s for s in r.get("slices") or []}
    for item in items:
        if "interval lies above zero (now" in item and iv and iv[0] > 0:
            out.append(f"met already (low {iv[0]} > 0): {item}")
        if "reaches the useful effect" in item and iv and m is not None and iv[0] >= m:
            out.append(f"met already (low {iv[0]} >= {m}): {item}")
        if "interval's lower end exceeds" in item and iv and m is not None and iv[0] > m:
            out.append(f"met already (low {iv[0]} > {m}): {item}")
        if re.search(r"gap exceeds \S+ seed sd", item) and seed.get("passes"):
            out.append(f"met already (the seed rule passes): {item}")
        if "is measured with at least" in item and _num(seed.get("gap_in_sd")):
            out.append(f"met already (the seed spread is measured): {item}")
        hit = re.search(r"is shown no worse on slice '([^']*)'", item)
        if hit and slices.get(hit.group(1), {}).get("not_worse"):
            out.append(f"met already (slice {hit.group(1)!r} is shown no worse): {item}")
    return out


# --------------------------------------------------------------------------- (d) the claim's rung


def _shown(r: dict) -> str | None:
    """ "candidate" or "baseline" when both noise lines show that model better, else None."""
    iv = _interval(r)
    seed = (r.get("noise") or {}).get("seed") or {}
    if iv is None:
        return None
    if seed.get("trivial"):
        g = seed.get("validation_gap")
        side = None if not _num(g) or g == 0 else ("candidate" if g > 0 else "baseline")
    elif _num(seed.get("gap_in_sd")):
        k = seed["multiple"]
        sd = seed["gap_in_sd"]
        side = "candidate" if sd > k else ("baseline" if sd < -k else None)
    else:
        side = None
    if side == "candidate" and iv[0] > 0:
        return side
    if side == "baseline" and iv[1] < 0:
        return side
    return None


def claim_within_rung(t: Texts) -> list[str]:
    """The rewritten claim never rises above the supported rung, in either direction."""
    r, out = t.report, []
    claim = (r.get("claim") or {}).get("rewritten") or ""
    sup = (r.get("claim") or {}).get("supported_rung") or 0
    proj = r.get("project") or {}
    c, b = proj.get("candidate"), proj.get("baseline")
    iv = _interval(r)
    shown = _shown(r)
    ba = proj.get("kind") == "before-after"

    def need(cond: bool, phrase: str, why: str) -> None:
        if phrase in claim and not cond:
            out.append(f"{phrase!r} without {why} (rung {sup}): {claim}")

    need(sup >= 3 and shown == "candidate", f"{c} beats {b}", "rung 3 and both lines")
    need(shown == "baseline", f"{b} beats {c}", "the baseline shown better on both lines")
    if re.search(r"more than [a-z -]*noise", claim) and sup < 3:
        out.append(f"'more than ... noise' above rung {sup}: {claim}")
    need(sup >= 4, "at least the useful effect", "rung 4")
    need(sup >= 4, "a useful margin", "rung 4")
    need(sup >= 5, "on each of the", "rung 5")
    rel = (r.get("relevance") or {}).get("finding")
    if re.search(r"\btied\b", claim) and rel != "equivalent":
        out.append(f"'tied' while relevance.finding is {rel!r}: {claim}")
    if ba and iv:
        need(iv[0] > 0, "Tuning raised", "an interval above zero")
        need(iv[1] < 0, "made the model worse", "an interval below zero")
    worse = {s["slice"] for s in r.get("slices") or [] if s.get("worse")}
    for hit in re.finditer(rf"{re.escape(str(c))} is worse on slices? (.*?)(?:;|\.$|$)", claim):
        named = set(re.findall(r"'([^']*)' \(gap", hit.group(1)))
        if named - worse:
            out.append(f"slices {sorted(named - worse)} called worse, not shown worse: {claim}")
    for where, text in (("decision-log.md", t.md), ("report.html", t.html)):
        for rung in re.findall(r"supports the claim up to rung (\d)", text):
            if int(rung) != sup:
                out.append(f"{where} says rung {rung}, claim.supported_rung is {sup}")
    return out


def decision_agrees(t: Texts) -> list[str]:
    """The verdict, the recommended model and each reason agree with the numbers, and the
    decision log and the HTML print the same claim and reasons as report.json."""
    r, out = t.report, []
    dec = r.get("decision") or {}
    proj = r.get("project") or {}
    verdict, reasons = dec.get("verdict"), dec.get("reasons") or []
    sup = (r.get("claim") or {}).get("supported_rung") or 0
    iv, shown = _interval(r), _shown(r)
    finding = (r.get("relevance") or {}).get("finding")
    ba = proj.get("kind") == "before-after"
    if verdict == "adopt" and not ba and sup < 4:
        out.append(f"adopt at rung {sup}")
    if verdict == "adopt" and ba and not (iv and finding == "useful-gain-shown"):
        out.append(f"adopt with the interval {iv} and finding {finding!r}")
    if (dec.get("recommend") == proj.get("candidate")) != (verdict == "adopt"):
        out.append(f"verdict {verdict!r} recommends {dec.get('recommend')!r}")
    for reason in reasons:
        for phrase, true in (
            ("the gain is real", shown == "candidate"),
            ("the baseline is better", shown == "baseline"),
            ("a tie is a finding", finding == "equivalent"),
            ("not shown to be better", shown != "candidate"),
            ("tuning made it worse", bool(iv) and iv[1] < 0),
        ):
            if phrase in reason and not true:
                out.append(f"reason says {phrase!r}, untrue for {iv}: {reason}")
    md = re.sub(r"\\([\\`*_{}\[\]()#+.!<>|-])", r"\1", t.md)  # Markdown's escapes
    flat_md, flat_html = " ".join(md.split()), " ".join(t.html.split())
    claim = (r.get("claim") or {}).get("rewritten") or ""
    for text in [claim, *reasons]:
        flat = " ".join(text.split())
        if flat and flat not in flat_md:
            out.append(f"decision-log.md does not print: {text}")
        if flat and not any(form in flat_html for form in _page_one_forms(flat, r)):
            out.append(f"report.html does not print: {text}")
    return out


#: a number as sentences print it ("−0.0051", "1,400", "2.2 × 10⁻⁴"), and an interval of two
_NUMBER = r"[−+-]?\d+(?:[.,]\d+)*(?: × 10\S+)?"
_ENDS = rf"{_NUMBER} to {_NUMBER}"


def _without_ends(text: str, over: str) -> str:
    text = re.sub(rf" \({_ENDS}\)", "", text)
    return re.sub(rf" {_ENDS}{over}", "", text)


def _page_one_forms(text: str, r: dict) -> list[str]:
    """The forms in which page one may print a reason: whole; without an interval's ends (page
    one says the primary interval at most twice, in the claim and the reconsider-when line);
    and, for a rung's reason ("rung 3 (larger than noise) is not shown: X"), its X as the
    ladder's "one thing missing" prints it, whole or without the ends."""
    what = ((r.get("noise") or {}).get("interval") or {}).get("what")
    over = rf"(?: over {re.escape(what)})?" if what else ""
    forms = [text, _without_ends(text, over)]
    m = re.match(r"rung \d \([^)]*\) is (?:not shown|partly): (.*)$", text)
    if m:
        forms += [m.group(1), _without_ends(m.group(1), over)]
    # a parenthesis a shown rung's label prints word for word is left to the ladder
    short = text
    for rung in r.get("ladder") or []:
        if rung.get("status") == "shown":
            for said in re.findall(r" \([^()]+\)", rung.get("summary") or ""):
                short = short.replace(said, "")
    if short != text:
        forms += [short, _without_ends(short, over)]
    return forms


# --------------------------------------------------------------------------- (e) rung 3's label


def _zero_words(iv: tuple[float, float]) -> str:
    if iv[0] > 0:
        return "above zero"
    if iv[1] < 0:
        return "below zero"
    return "includes zero"


def rung3_label(t: Texts) -> list[str]:
    """Rung 3's summary is true for the case: the seed rule's outcome and the interval's side."""
    r, out = t.report, []
    ladder = r.get("ladder") or []
    if len(ladder) < 3:
        return out
    text = ladder[2].get("summary") or ""
    iv = _interval(r)
    seed = (r.get("noise") or {}).get("seed") or {}
    ba = (r.get("project") or {}).get("kind") == "before-after"
    if iv is not None:
        want = _zero_words(iv)
        words = ["above zero", "below zero", "includes zero"]
        if ba:
            words += ["within noise", "made it worse"]
            want_ba = {"above zero": "above zero", "below zero": "made it worse"}
            want = want_ba.get(want, "within noise" if "within noise" in text else want)
        for w in words:
            if w in text and w != want:
                out.append(f"rung 3 says {w!r}, the interval {iv} gives {want!r}: {text}")
        if want not in text:
            out.append(f"rung 3 does not say {want!r} for the interval {iv}: {text}")
    if ba or not seed:
        return out
    passes = bool(seed.get("passes"))
    says_pass = "seed rule passes" in text or "clears the seed rule" in text
    says_fail = "seed rule fails" in text or "seed rule unmeasured" in text
    if passes != says_pass or passes == says_fail:
        out.append(f"rung 3 disagrees with noise.seed.passes = {passes}: {text}")
    if re.search(r"seed rule fails \([^)]*\d", text):
        out.append(f"rung 3's label prints a number its missing text says: {text}")
    return out


def rung_labels(t: Texts) -> list[str]:
    """Rungs 4 and 5's summaries are true for the case: what they say of the interval against
    zero and the useful effect, and which slices they call worse."""
    r, out = t.report, []
    ladder = r.get("ladder") or []
    if len(ladder) < 5:
        return out
    four, five = ladder[3].get("summary") or "", ladder[4].get("summary") or ""
    fair = re.search(r"(\d+) of (\d+) fairness facts shown", ladder[1].get("summary") or "")
    facts = r.get("fairness") or []
    if fair and (int(fair.group(1)), int(fair.group(2))) != (
        sum(1 for f in facts if f.get("passed")),
        len(facts),
    ):
        passed = sum(1 for f in facts if f.get("passed"))
        out.append(f"rung 2 says {fair.group(0)!r}, report.json has {passed} of {len(facts)}")
    iv, m = _interval(r), _useful(r)
    finding = (r.get("relevance") or {}).get("finding")
    if iv is not None:
        low, high = iv
        checks = [
            ("reaches the useful effect", m is not None and low >= m),
            ("is above the useful effect", m is not None and low > m),
            ("in part", m is not None and low < m <= high),
            ("practically equivalent", finding == "equivalent"),
            ("the gain is positive", low > 0),
            ("no gain", low <= 0),
        ]
        for phrase, true in checks:
            if phrase in four and not true:
                out.append(f"rung 4 says {phrase!r}, untrue for {iv} and m = {m}: {four}")
    worse = {s["slice"] for s in r.get("slices") or [] if s.get("worse")}
    cand = (r.get("project") or {}).get("candidate")
    hit = re.search(rf"{re.escape(str(cand))} worse on ((?:'[^']*'(?:, )?)+)", five)
    named = set(re.findall(r"'([^']*)'", hit.group(1))) if hit else set()
    if (r.get("slices") is not None) and named != worse:
        out.append(
            f"rung 5 names {sorted(named)} worse, the slices shown worse are {sorted(worse)}"
        )
    return out


_N = r"([+" + MINUS + r"-]?\d+(?:,\d{3})*(?:\.\d+)?)"


def _f(text: str) -> float:
    return float(text.replace(MINUS, "-").replace(",", ""))


def _tol(*texts: str) -> float:
    """Half a unit of the last printed decimal of the least precise number."""
    digits = [len(x.split(".")[1]) if "." in x else 0 for x in texts]
    return 0.5 * 10 ** -min(digits)


def _zero_true(words: str, low: float, high: float) -> bool:
    if "above zero" in words:
        return low > 0
    if "below zero" in words:
        return high < 0
    if "includes zero" in words:
        return low <= 0 <= high
    return low > 0 or high < 0  # excludes zero


#: (pattern, test on the matched numbers as printed, what it claims)
_SENTENCES = [
    (
        re.compile(
            _N + " to " + _N + r"[^;:()]{0,40}?[, ](lies above zero|lies below zero|"
            r"includes zero|excludes zero|above zero|below zero)"
        ),
        lambda a, b, w: _zero_true(w, _f(a), _f(b)),
    ),
    (
        re.compile(r"lower end " + _N + r" (reaches|is above) the useful effect " + _N),
        lambda x, w, m: _f(x) >= _f(m) - _tol(x, m),
    ),
    (
        re.compile(r"lower end " + _N + r" (does not reach) the useful effect " + _N),
        lambda x, w, m: _f(x) < _f(m) + _tol(x, m),
    ),
    (
        re.compile(r"worse end " + _N + r" (is beyond) the margin " + _N),
        lambda x, w, m: _f(x) < _f(m) + _tol(x, m),
    ),
    (
        re.compile(r"worse end (stays above) " + _N + r"[ (]+now " + _N),
        lambda w, bar, x: _f(x) <= _f(bar) + _tol(x, bar),
    ),
    (
        re.compile(_N + r" seed sd, (not more than) " + _N),
        lambda x, w, bar: _f(x) <= _f(bar),
    ),
    (
        re.compile(_N + r" seed sd, (beyond) " + _N + " on the baseline's side"),
        lambda x, w, bar: _f(x) < -_f(bar),
    ),
    (
        re.compile(
            _N + r" seed sd \([^)]*\); the rule needs more than " + _N + r", so it (passes|fails)"
        ),
        lambda x, bar, w: (_f(x) > _f(bar)) == (w == "passes"),
    ),
]


def sentences_true(t: Texts) -> list[str]:
    """Every sentence that compares a printed number with zero, the useful effect, the slice
    margin or the seed bar is true for the numbers it prints, in every text."""
    out = []
    for where, text in t.all_texts():
        for pattern, true in _SENTENCES:
            for m in pattern.finditer(text):
                if not true(*m.groups()):
                    start = max(0, m.start() - 40)
                    out.append(f"untrue in {where}: ...{text[start : m.end() + 20]}...")
    return sorted(set(out))


# --------------------------------------------------------------------------- (f) the unit

_NUMBER = re.compile(r"(?<![\w.])[+" + MINUS + r"-]?\d[\d,]*\.\d+(?![\d])")


def _value(token: str) -> float:
    return float(token.replace(MINUS, "-").replace(",", "").replace("+", ""))


def _metric_values(r: dict) -> list[float]:
    """The values in the target's unit: gaps, interval ends, seed sd and means."""
    noise = r.get("noise") or {}
    vals: list[float] = []
    for _, g, low, high in quantities(r):
        vals += [low, high] + ([g] if _num(g) else [])
    seed = noise.get("seed") or {}
    for k in ("validation_gap", "sd_used"):
        if _num(seed.get(k)):
            vals.append(seed[k])
    for k in ("sd", "mean"):
        for side in ("candidate", "baseline"):
            v = (seed.get(k) or {}).get(side)
            if _num(v):
                vals.append(v)
    return [abs(float(v)) for v in vals if v != 0]


def _matches(token: str, values: list[float]) -> bool:
    digits = len(token.split(".")[1]) if "." in token else 0
    v = abs(_value(token))
    return v != 0 and any(abs(v - x) <= 0.5 * 10**-digits + 1e-12 for x in values)


def unit_texts(r: dict) -> list[tuple[str, str]]:
    """The sentences that print values of the target's metric: the claim, the noise lines, the
    decision's reasons, the rungs' labels and the reconsider-when items."""
    claim, noise = r.get("claim") or {}, r.get("noise") or {}
    out = [("claim.rewritten", claim.get("rewritten") or "")]
    out += [(f"noise.lines[{i}]", s) for i, s in enumerate(noise.get("lines") or [])]
    out += [
        (f"decision.reasons[{i}]", s)
        for i, s in enumerate((r.get("decision") or {}).get("reasons") or [])
    ]
    for i, rung in enumerate(r.get("ladder") or []):
        out += [(f"ladder[{i}].{k}", rung[k]) for k in ("summary", "missing") if rung.get(k)]
    out += [
        (f"claim.reconsider_items[{i}]", s)
        for i, s in enumerate(claim.get("reconsider_items") or [])
    ]
    return out


def unit_carried(t: Texts) -> list[str]:
    """With a [claim] unit, every value in the target's unit (a gap, a seed sd or mean, the
    useful effect) carries the unit before the next number; an interval's ends ("A to B") share
    the unit of the gap they bound, and "(now X)" the unit of the bar just before it."""
    r, out = t.report, []
    unit = (r.get("project") or {}).get("unit")
    if not unit:
        return out
    values = _metric_values(r)
    useful = re.compile(r"(?:useful effect|±) ?" + _N)
    for where, text in unit_texts(r):
        tokens = list(_NUMBER.finditer(text))
        for i, tok in enumerate(tokens):
            if not _matches(tok.group(0), values):
                continue
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            between = text[tok.end() : nxt.start() if nxt else len(text)]
            if between.startswith(" to ") or text[: tok.start()].endswith(" to "):
                continue  # an interval's ends: the unit follows its gap
            before = text[: tok.start()]
            if before.endswith("now ") and unit in before[-50:]:
                continue  # "the useful effect 1 mmHg² (now −52.5)": today's value beside its bar
            if unit not in between:
                start = max(0, tok.start() - 60)
                out.append(
                    f"{tok.group(0)} without {unit} in {where}: "
                    f"...{text[start : tok.end() + 40]}..."
                )
        for m in useful.finditer(text):
            if not text[m.end() :].lstrip().startswith(unit):
                start = max(0, m.start() - 60)
                out.append(
                    f"the useful effect {m.group(1)} without {unit} in {where}: "
                    f"...{text[start : m.end() + 30]}..."
                )
    return out


# --------------------------------------------------------------------------- (g) page one


def page_one_names_conflicts(t: Texts) -> list[str]:
    """Page one (section.page-one) names every conflict a later section states: validation and
    test of opposite signs, a two-level interval holding zero while the primary excludes it, a
    slice shown worse."""
    r, out, page = t.report, [], t.page_one
    noise = r.get("noise") or {}
    if noise.get("sign_disagreement") and "disagree" not in page:
        out.append(
            f"page one omits the sign disagreement: {noise['sign_disagreement'].get('text')}"
        )
    block = noise.get("block") or {}
    two = _ends(block.get("two_level"))
    if _ends(block) and two and _excludes(*_ends(block)) and not _excludes(*two):
        if "two-level" not in page:
            out.append(f"page one omits that the two-level interval {two} includes zero")
    for s in r.get("slices") or []:
        if s.get("worse") and f"'{s['slice']}'" not in page:
            out.append(
                f"page one omits slice {s['slice']!r}, shown worse ({s['low']}, {s['high']})"
            )
    return out


# --------------------------------------------------------------------------- (h) the build


def built_cleanly(t: Texts) -> list[str]:
    """No traceback, exit code 0."""
    out = []
    if t.traceback:
        out.append(f"traceback: {t.traceback.strip().splitlines()[-1]}")
    if t.exit_code != 0:
        out.append(f"exit {t.exit_code}: {t.stderr.strip()[:300]}")
    return out


INVARIANTS = {
    "one-sign": one_sign,
    "flags": flags_agree,
    "reconsider": reconsider_not_met,
    "claim-rung": claim_within_rung,
    "decision": decision_agrees,
    "rung3-label": rung3_label,
    "rung-labels": rung_labels,
    "sentences": sentences_true,
    "unit": unit_carried,
    "page-one": page_one_names_conflicts,
    "build": built_cleanly,
}
