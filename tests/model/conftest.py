"""The report fixtures the model tests read: every report.json under tests/fixtures."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted(
    p
    for p in (ROOT / "tests" / "fixtures").glob("*.json")
    if json.loads(p.read_text(encoding="utf-8")).get("schema") == "evreport/1"
)


def dumped(report: dict) -> str:
    """A report dict as render writes report.json (indent 2, UTF-8 kept)."""
    return json.dumps(report, indent=2, ensure_ascii=False)
