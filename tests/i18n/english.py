"""English left in a Ukrainian build: the runs of Latin-script words in the visible text of
report.html and in report.json's text fields that are neither the catalog's Ukrainian nor
words the user wrote.

A run of Latin words counts when it reads as English prose: it holds a function word ("the",
"of", "is" ...) or three words or more. A run is the user's own when it occurs in one of the
project's small text inputs (evreport.toml, runs.csv, the split files, the check files):
titles, claims, model and slice names, cost units, question texts. File names, code spans and
numbers are not prose.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

#: the English words whose presence makes a run of Latin words a sentence, not a name
FUNCTION_WORDS = frozenset(
    "the a an and of is are was were be been not no nor with than from this that these those "
    "by on in at to for over under per each every or as when where which who its their it "
    "both either neither but if then so because only more less most least".split()
)
#: report.json keys whose values are ids, paths, digests or user text by construction
NOT_PROSE_KEYS = frozenset(
    "path paths sha256 digest command file files slug id ids name model models part metric kind "
    "status verdict schema split artefact artefacts key keys source libraries language version "
    "versions created built_at python platform row_id column columns unit units label labels "
    "display title author claim original question text_id".split()
)
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z'’\-]*(?:[ ,;:()/\-]+[A-Za-z][A-Za-z'’\-]*)*")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")
_FILE = re.compile(r"\S+\.(?:csv|json|parquet|toml|md|html|pdf|txt|jsonl|eval|py)\b|\S*/\S+")


def _norm(s: str) -> str:
    return " ".join(s.replace("\u00a0", " ").replace("\u202f", " ").split()).lower()


def user_phrases(project: Path) -> list[str]:
    """Every text value of evreport.toml, longest first: taken out of a sentence before it
    is read, so that a number inside the user's phrase does not cut it into runs."""
    import tomllib

    def walk(x):
        if isinstance(x, dict):
            return [s for v in x.values() for s in walk(v)]
        if isinstance(x, list):
            return [s for v in x for s in walk(v)]
        # one word of the user's (a metric id, a part name) cannot make a run of prose alone
        return [x] if isinstance(x, str) and len(x.split()) >= 2 else []

    doc = tomllib.loads((project / "evreport.toml").read_text(encoding="utf-8"))
    return sorted(set(walk(doc)), key=len, reverse=True)


def user_words(project: Path) -> str:
    """The project's small text inputs, lower-cased with whitespace folded: the haystack a
    run of English must be found in to be the user's."""
    parts = []
    for pattern in ("evreport.toml", "runs.csv", "split/*", "artefacts/checks/*"):
        for f in sorted(project.glob(pattern)):
            if f.is_file() and f.stat().st_size < 2_000_000:
                parts.append(f.read_text(encoding="utf-8", errors="replace"))
    return _norm("\n".join(parts))


def english_runs(text: str, haystack: str, phrases: list[str] = ()) -> list[str]:
    """The runs of English prose in ``text`` that the user did not write (``phrases``: the
    user's own, taken out first)."""
    text = " ".join(text.replace("\u00a0", " ").replace("\u202f", " ").split())
    for ph in phrases:
        text = re.sub(rf"(?<!\w){re.escape(' '.join(ph.split()))}(?!\w)", " ", text)
    text = _FILE.sub(" ", text)
    found = []
    for m in _LATIN_RUN.finditer(text):
        run = m.group(0).strip(" ,;:()/-")
        # acronyms (ROC AUC, ECE, MLP) are names, not prose
        words = [w.lower() for w in _WORD.findall(run) if not w.isupper()]
        prose = len(words) >= 3 or any(w in FUNCTION_WORDS for w in words)
        if prose and len(words) >= 2 and _norm(run) not in haystack:
            found.append(run)
    return found


def html_text(html: str) -> list[str]:
    """The visible text of an HTML report, one string per text block (code and styles out)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for t in soup(["script", "style", "code", "pre", "title"]):
        t.decompose()
    return [s for s in soup.stripped_strings]


def json_text(doc, key: str = "") -> list[str]:
    """Every text value of report.json outside the id, path and user-text keys."""
    if isinstance(doc, dict):
        return [s for k, v in doc.items() if k not in NOT_PROSE_KEYS for s in json_text(v, k)]
    if isinstance(doc, list):
        return [s for v in doc for s in json_text(v, key)]
    return [doc] if isinstance(doc, str) else []


def english_left(out: Path, project: Path) -> dict[str, list[str]]:
    """{where: [English runs]} for a Ukrainian build in ``out`` of ``project``."""
    haystack, phrases = user_words(project), user_phrases(project)
    left: dict[str, list[str]] = {}
    for name, texts in (
        ("report.html", html_text((out / "report.html").read_text(encoding="utf-8"))),
        ("report.json", json_text(json.loads((out / "report.json").read_text(encoding="utf-8")))),
    ):
        runs = [r for t in texts for r in english_runs(t, haystack, phrases)]
        if runs:
            left[name] = list(dict.fromkeys(runs))
    return left
