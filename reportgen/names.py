"""The fixed names every part of evreport shares: the ladder's rungs and the output formats."""

from __future__ import annotations

#: the five rungs of the claim ladder, in order (report.json ``ladder[].name``)
RUNG_NAMES = ("correct", "fair", "larger than noise", "relevant", "bounded")
#: the same rungs as TOML keys ([evidence], rubrics)
RUNG_KEYS = tuple(n.replace(" ", "_") for n in RUNG_NAMES)
#: the formats a build can write, in the order they are written
FORMATS = ("html", "pdf", "json", "md")
#: the file each format is written to
FILE_NAMES = {
    "html": "report.html",
    "pdf": "report.pdf",
    "json": "report.json",
    "md": "decision-log.md",
}
