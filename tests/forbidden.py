"""The forms the number policy forbids in report.json's strings (reportgen.words), as a scanner.

Used by the layout matrix (every cell's report.json) and the examples (tests/render/test_text.py).
Fields that carry the user's own text or identifiers are not our sentences and are skipped.
"""

from __future__ import annotations

import re

FORBIDDEN = {
    # "-0.0039" (ASCII hyphen-minus before a number); "batch-220", "2026-01-01" are not numbers
    "hyphen-minus before a number": re.compile(r"(?<![\w.\-/])-(?=\.?\d)"),
    "exponent notation": re.compile(r"\d[eE][-+]?\d"),
    "batchs": re.compile(r"batchs", re.IGNORECASE),
    # "30 visit_months": a user's column name joined by underscores after a count
    "underscore noun after a count": re.compile(r"(?<![\w.,])\d+(?:,\d{3})*\s+[A-Za-z]+_\w+"),
    "n/a": re.compile(r"\bn/a\b", re.IGNORECASE),
    "nan": re.compile(r"\bnan\b", re.IGNORECASE),
    "None": re.compile(r"\bNone\b"),
    # "2095 rows": a count of 1,000 or more without a separator (not a year, id or time)
    "count without a separator": re.compile(r"(?<![\w.,:/\-#'])\d{4,}(?= [a-z])"),
}

#: report.json sections and fields that hold the user's text or identifiers (paths, hashes,
#: ids, dates, question text, the claim as written), not sentences evreport writes
USER_SECTIONS = re.compile(
    r"^(inputs|tool|build|project|comparisons)\b"
    r"|^before_after\.(fixed_ids|broken_ids|broken_rows)\b"
    r"|^data\.(first_block|last_block|configs|seeds)\b"
    r"|^claim\.original$"
)
USER_LEAVES = {"path", "cite", "artefacts", "artefacts_all", "source", "seed", "model", "slice"}


def leaves(obj, path: str = "", dotted_root: bool = True):
    """Every leaf of a JSON value with its path, list indexes kept: (path, value); a top-level
    key's path is ".key", or "key" when ``dotted_root`` is false."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from leaves(v, f"{path}.{k}" if path or dotted_root else str(k), dotted_root)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from leaves(v, f"{path}[{i}]", dotted_root)
    else:
        yield path, obj


def strings(obj, path: str = ""):
    """Every string in a JSON value with its path, list indexes kept: (path, text)."""
    return ((p, v) for p, v in leaves(obj, path, dotted_root=False) if isinstance(v, str))


def forbidden_forms(report: dict) -> list[tuple[str, str, str]]:
    """(form, path, the words around it) for every forbidden form in our strings of ``report``."""
    found = []
    for path, text in strings(report):
        leaf = re.sub(r"(\[\d+\])+$", "", path).rpartition(".")[2]
        if USER_SECTIONS.search(path) or leaf in USER_LEAVES:
            continue
        for form, pattern in FORBIDDEN.items():
            for m in pattern.finditer(text):
                found.append((form, path, text[max(0, m.start() - 50) : m.end() + 30]))
    return found
