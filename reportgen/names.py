"""The fixed names every part of evreport shares: the ladder's rungs, the output formats and
the suggestion for a misspelt name."""

from __future__ import annotations

import difflib

from reportgen.words.i18n import _

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


def fold(name: str) -> str:
    """A name without case, spaces, hyphens and underscores ("Log-Loss" is "logloss")."""
    return "".join(c for c in str(name).lower() if c.isalnum())


def metric_aliases() -> dict[str, str]:
    """What users call the built-in metrics, folded, -> the metric ("mse" -> squared_error):
    the registry's aliases, read when asked so that importing names needs no numpy."""
    from reportgen.stats.metric_registry import METRICS

    return {fold(a): n for n, m in METRICS.items() for a in m.aliases}


def did_you_mean(name: str, known) -> str:
    """'; did you mean 'log_loss'?' when ``name`` is close to one of ``known`` (by spelling, by
    case and separators, or as a common alias such as mse for squared_error), else ''."""
    known = list(known)
    folded = {fold(k): k for k in known}
    alias = metric_aliases().get(fold(name))
    for hit in (folded.get(fold(name)), alias if alias in known else None):
        if hit is not None:
            return _("; did you mean {name}?", name=repr(hit))
    close = difflib.get_close_matches(str(name).lower(), known, n=1, cutoff=0.6)
    return _("; did you mean {name}?", name=repr(close[0])) if close else ""
