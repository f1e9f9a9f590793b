"""The class at a glance, the top of index.html: distributions as hand-made inline SVG bars,
the most common missing things per rung, failed builds, copied work, and the rows sorted
by supported rung. Every number, bar width and position is computed here; the templates
(templates/batch/_overview.html, _by_rung.html) only print.

It reads the summary rows and the keys the hooks added to summary.json (``missing_by_rung``,
``reused``, ``duplicates``, ``duplicates_common``; rows' ``total`` and ``max``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from reportgen.model.enums import Verdict
from reportgen.names import RUNG_NAMES
from reportgen.words.i18n import _, local_number, n_, p_
from reportgen.words.rungs import rung_word

#: the verdicts in the order the verdict chart draws them
VERDICTS = tuple(str(v) for v in Verdict)
#: a bar's height and its label's baseline below the bar's top, in px
BAR_HEIGHT, TEXT_DROP = 15, 12


@dataclass(frozen=True)
class Bar:
    """One bar of a BarChart: its label, its count and where they are drawn (px)."""

    label: str
    count: int
    y: int
    width: float
    count_x: float
    text_y: int  # the baseline of the label and the count


@dataclass(frozen=True)
class BarChart:
    """A horizontal bar chart drawn by templates/batch/_overview.html as inline SVG."""

    title: str
    width: int
    height: int
    label_width: int
    bars: list[Bar]
    bar_height: int = BAR_HEIGHT


def bar_chart(title: str, items: Sequence[tuple[str, int]], plot_width: int = 260) -> BarChart:
    """Bars for ``items`` (label, count), the longest ``plot_width`` px wide."""
    label_width, row = 150, 22
    most = max((n for _, n in items), default=0) or 1
    bars = []
    for i, (label, n) in enumerate(items):
        y, width = 4 + i * row, round(plot_width * n / most, 1)
        bars.append(Bar(label, n, y, width, round(label_width + width + 6, 1), y + TEXT_DROP))
    return BarChart(title, label_width + plot_width + 50, 8 + row * len(items), label_width, bars)


@dataclass(frozen=True)
class MissingLine:
    """One rung's most common missing things: (how many submissions, the text)."""

    rung: str
    items: list[tuple[int, str]]  # (count, text)
    #: some text stands for alike sentences whose numbers differ (shown as N)
    numbers_vary: bool = False


@dataclass(frozen=True)
class Failure:
    """A submission whose build failed, and why."""

    name: str
    reason: str


@dataclass(frozen=True)
class RungRow:
    """One submission in the by-supported-rung table (templates/batch/_by_rung.html)."""

    name: str
    href: str | None
    supported_rung: str
    verdict: str
    points: str


@dataclass(frozen=True)
class Overview:
    """The context of templates/batch/_overview.html and _by_rung.html."""

    rung_chart: BarChart
    verdict_chart: BarChart
    missing: list[MissingLine]
    failures: list[Failure]
    duplicates: list[tuple[str, str]]  # (names, what they share)
    common: list[str]
    reused: int
    graded: bool
    by_rung: list[RungRow] = field(default_factory=list)

    @property
    def charts(self) -> tuple[BarChart, BarChart]:
        """The two bar charts in the order drawn: supported rung, then verdict."""
        return (self.rung_chart, self.verdict_chart)

    @property
    def numbers_vary(self) -> bool:
        """Some missing thing stands for alike sentences whose numbers differ (shown as N)."""
        return any(m.numbers_vary for m in self.missing)

    @property
    def failures_count(self) -> int:
        """How many builds failed."""
        return len(self.failures)

    @property
    def duplicates_count(self) -> str:
        """How many groups of possibly copied work, in words ("1 group", "3 groups")."""
        return n_("{n} group", "{n} groups", len(self.duplicates))

    @property
    def common_text(self) -> str:
        """The course material every submission shares, as one line."""
        return "; ".join(self.common)


def verdict_kind(verdict: str) -> str:
    """A verdict as the verdict chart names it, in words ("keep the baseline", never the id
    keep-baseline); an id evreport does not know as it is."""
    words = {
        "adopt": p_("verdict chart", "adopt"),
        "keep-baseline": p_("verdict chart", "keep the baseline"),
        "roll-back": p_("verdict chart", "roll back"),
        "inconclusive": p_("verdict", "inconclusive"),
    }
    return words.get(str(verdict), str(verdict))


def _rung_key(r: dict[str, Any]) -> tuple[int, str, str]:
    s = r.get("supported_rung")
    return (-(s if isinstance(s, int) else -1), r["name"].casefold(), r["name"])


def _by_rung(rows: Sequence[dict[str, Any]]) -> list[RungRow]:
    return [
        RungRow(
            r["name"],
            r.get("report"),
            str(r["supported_rung"]) if isinstance(r.get("supported_rung"), int) else "–",
            verdict_kind(r["verdict"])
            if r.get("verdict")
            else (p_("submission status", "error") if r.get("status") != "ok" else "–"),
            p_(
                "rubric points",
                "{points} of {max}",
                points=local_number(f"{r['total']:g}"),
                max=local_number(f"{r['max']:g}"),
            )
            if isinstance(r.get("total"), int | float) and isinstance(r.get("max"), int | float)
            else "–",
        )
        for r in sorted(rows, key=_rung_key)
    ]


def overview_context(rows: Sequence[dict[str, Any]], extra: Mapping[str, Any]) -> Overview:
    """The class overview from the summary rows and the hooks' keys of summary.json."""
    ok = [r for r in rows if r.get("status") == "ok"]
    rungs = Counter(r.get("supported_rung") for r in ok)
    none = p_("rung name", "(none)")
    rung_items = [
        (f"{k} {none if k == 0 else rung_word(RUNG_NAMES[k - 1])}", rungs.get(k, 0))
        for k in range(6)
    ]
    verdicts = Counter(r.get("verdict") for r in ok)
    verdict_items = [(verdict_kind(v), verdicts.get(v, 0)) for v in VERDICTS]
    verdict_items += [
        (str(v), n) for v, n in sorted(verdicts.items(), key=str) if v not in VERDICTS and v
    ]
    failed = [r for r in rows if r.get("status") != "ok"]
    missing = [
        MissingLine(
            f"{rung} {rung_word(RUNG_NAMES[int(rung) - 1])}",
            [(m["count"], m["text"]) for m in items],
            any(m.get("numbers_vary") for m in items),
        )
        for rung, items in sorted((extra.get("missing_by_rung") or {}).items())
        if items
    ]
    return Overview(
        rung_chart=bar_chart(_("Supported rung"), rung_items),
        verdict_chart=bar_chart(_("Verdict"), verdict_items),
        missing=missing,
        failures=[Failure(r["name"], (r.get("error") or "")[:300]) for r in failed],
        duplicates=[
            (", ".join(g["names"]), "; ".join(g["shares"])) for g in extra.get("duplicates") or []
        ],
        common=list(extra.get("duplicates_common") or []),
        reused=int(extra.get("reused") or 0),
        graded=any("total" in r for r in rows),
        by_rung=_by_rung(rows),
    )
