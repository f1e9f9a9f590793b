"""What grading adds to the class overview of index.html: the most common missing things
per rung (summary.json ``missing_by_rung``). reportgen.batch.overview draws the overview.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from reportgen.errors import clean_text

#: most common missing things shown per rung
TOP_MISSING = 3
#: a number as reportgen.words prints it (typographic minus, separators, 4.4 × 10⁻⁵), or as
#: Python does in older reports (-0.0039, 4.4e-05)
_NUMBER = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+| × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?")


def _pattern(text: str) -> str:
    """A missing-thing sentence with its numbers replaced by N, so alike ones count together."""
    return clean_text(_NUMBER.sub("N", " ".join(text.split())), 300)


def common_missing(
    fingerprints: Mapping[str, dict[str, Any] | None],
) -> dict[str, list[dict[str, Any]]]:
    """Per rung (``"1"`` .. ``"5"``): the most common missing things, ``{"text", "count"}``."""
    per: dict[str, Counter[str]] = {str(i): Counter() for i in range(1, 6)}
    for fp in fingerprints.values():
        for rung, text in ((fp or {}).get("missing") or {}).items():
            if rung in per and isinstance(text, str):
                per[rung][_pattern(text)] += 1
    return {
        rung: [
            {"text": t, "count": n}
            for t, n in sorted(c.items(), key=lambda tn: (-tn[1], tn[0]))[:TOP_MISSING]
        ]
        for rung, c in per.items()
    }
