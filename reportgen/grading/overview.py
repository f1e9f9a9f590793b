"""What grading adds to the class overview of index.html: the most common missing things
per rung (summary.json ``missing_by_rung``). reportgen.batch.overview draws the overview.

A missing thing is a check of an unshown rung that did not pass, counted by its id and
said by the label the report gives it (``view.parts.check_label``) with its result: "test
interval excludes zero: fail", never a sentence with its numbers. A rung not shown with no
such check (rung 5 has none) counts its ladder sentence, alike sentences together.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any

from reportgen.errors import clean_text
from reportgen.words.i18n import p_

#: most common missing things shown per rung
TOP_MISSING = 3
#: a number as reportgen.words prints it (typographic minus, separators, 4.4 × 10⁻⁵), or as
#: Python does in older reports (-0.0039, 4.4e-05)
_NUMBER = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+| × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?")


def _pattern(text: str) -> str:
    """A missing-thing sentence with its numbers replaced by N, so alike ones count together."""
    return clean_text(_NUMBER.sub("N", " ".join(text.split())), 300)


def check_result(check_id: str, passed: bool | None) -> str:
    """A check that did not pass, as the class overview names it: its label and its result
    ("validation gap vs seed sd: fail", "rung 1: gradient: not checked")."""
    from reportgen.view.parts import check_label
    from reportgen.words.cells import passed_word

    return clean_text(
        p_(
            "missing thing",
            "{check}: {result}",
            check=check_label(check_id),
            result=passed_word(passed)[0],
        ),
        300,
    )


def _unmet(fp: Mapping[str, Any], rung: str) -> list[tuple[str, bool | None]]:
    """The checks of ``rung`` a fingerprint says did not pass ([] for one written before it
    kept them, or a rung without checks)."""
    unmet = fp.get("unmet")
    items = unmet.get(rung) if isinstance(unmet, Mapping) else None
    return [
        (c[0], c[1] if isinstance(c[1], bool) else None)
        for c in items or ()
        if isinstance(c, list | tuple) and len(c) == 2 and isinstance(c[0], str)
    ]


def common_missing(
    fingerprints: Mapping[str, dict[str, Any] | None],
) -> dict[str, list[dict[str, Any]]]:
    """Per rung (``"1"`` .. ``"5"``): the most common missing things, ``{"text", "count",
    "check", "numbers_vary"}``: ``check`` the check's id, or null for a ladder sentence;
    ``numbers_vary`` when alike sentences with different numbers count together (their
    numbers shown as N)."""
    per: dict[str, Counter[tuple[str, str | None]]] = {str(i): Counter() for i in range(1, 6)}
    # a ladder sentence's pattern -> the sentences it stands for (one: printed as written)
    texts: dict[str, set[str]] = defaultdict(set)
    for fp in fingerprints.values():
        for rung, text in ((fp or {}).get("missing") or {}).items():
            if rung not in per or not isinstance(text, str):
                continue
            unmet = _unmet(fp or {}, rung)
            if unmet:
                for cid, passed in dict.fromkeys(unmet):
                    per[rung][(check_result(cid, passed), cid)] += 1
            else:
                pattern = _pattern(text)
                texts[pattern].add(clean_text(" ".join(text.split()), 300))
                per[rung][(pattern, None)] += 1

    def item(text: str, check: str | None, n: int) -> dict[str, Any]:
        alike = texts.get(text, set()) if check is None else set()
        if len(alike) == 1:
            text = next(iter(alike))
        return {"text": text, "count": n, "check": check, "numbers_vary": len(alike) > 1}

    return {
        rung: [
            item(t, cid, n)
            for (t, cid), n in sorted(c.items(), key=lambda tn: (-tn[1], tn[0][0]))[:TOP_MISSING]
        ]
        for rung, c in per.items()
    }
