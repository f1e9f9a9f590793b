"""The class overview's "most common missing things": each a check that did not pass, counted
by its id and said by the report's own label with its result, never a sentence with its
numbers replaced by N ("1 × the interval N to N is too wide to decide")."""

from __future__ import annotations

import re
from pathlib import Path

from bs4 import BeautifulSoup

from reportgen.batch.index import index_context, render_index
from reportgen.batch.summary import BatchResult
from reportgen.grading.duplicates import fingerprint
from reportgen.grading.overview import common_missing
from reportgen.words.i18n import speaking

from .fakes import fixture_report


def _fingerprints(tmp_path: Path) -> dict:
    # weekly-churn (held out) and breast-cancer-cv: rungs 3 and 4 not shown in both
    return {
        name: fingerprint(tmp_path, fixture_report(f"report-{example}.json"))
        for name, example in (("alice", "weekly-churn"), ("bob", "breast-cancer-cv"))
    }


def _items(missing: dict, rung: str) -> dict[str, int]:
    return {m["text"]: m["count"] for m in missing[rung]}


def test_missing_things_are_the_checks_not_passed_by_their_labels(tmp_path):
    missing = common_missing(_fingerprints(tmp_path))
    assert _items(missing, "3") == {
        "validation gap vs seed sd: fail": 2,
        "cross-validation interval excludes zero: fail": 1,
        "test interval excludes zero: fail": 1,
    }
    assert missing["3"][0]["check"] == "validation-gap-vs-seed-sd"
    assert _items(missing, "4") == {"useful effect: fail": 2, "not worse on shifted: fail": 1}
    # rung 5 has no checks: bob's ladder sentence, as written (one sentence, its own numbers)
    (bounded,) = missing["5"]
    assert bounded["check"] is None and bounded["text"].startswith("data beyond the 569 rows")
    for items in missing.values():
        for m in items:
            assert not re.search(r"\bN\b", m["text"]), m
            assert not m["numbers_vary"]


def test_alike_sentences_with_different_numbers_still_count_together():
    fps = {
        f"s{i}": {"missing": {"5": f"data beyond the {100 + i} rows cross-validated"}}
        for i in range(3)
    }
    (item,) = common_missing(fps)["5"]
    assert item == {
        "text": "data beyond the N rows cross-validated",
        "count": 3,
        "check": None,
        "numbers_vary": True,
    }


def test_the_index_prints_the_labels_and_no_n(tmp_path):
    extra = {"missing_by_rung": common_missing(_fingerprints(tmp_path))}
    rows = [
        {"name": n, "status": "ok", "supported_rung": 2, "verdict": "keep-baseline"}
        for n in ("alice", "bob")
    ]
    soup = BeautifulSoup(
        render_index(index_context(BatchResult(Path("out"), rows, 1.0, extra))), "html.parser"
    )
    text = soup.select_one("ul.missing").get_text(" ", strip=True)
    assert "2 × validation gap vs seed sd: fail" in text and "2 × useful effect: fail" in text
    assert "N to N" not in text and "N seed sd" not in text
    assert "stands for a number" not in soup.get_text()


def test_missing_things_in_a_ukrainian_batch_are_ukrainian_labels(tmp_path):
    with speaking("uk"):
        missing = common_missing(_fingerprints(tmp_path))
    text = " ".join(m["text"] for rung in ("3", "4") for m in missing[rung])
    assert not re.search(r"\b(fail|gap|interval|useful|effect|worse)\b", text), text
    assert "shifted" in text  # the slice's name stays as the user wrote it


def test_the_verdict_chart_names_each_verdict_in_words():
    from reportgen.batch.overview import overview_context

    rows = [{"name": "a", "status": "ok", "verdict": "keep-baseline", "supported_rung": 2}]
    labels = [b.label for b in overview_context(rows, {}).verdict_chart.bars]
    assert labels == ["adopt", "keep the baseline", "roll back", "inconclusive"]
    with speaking("uk"):
        labels = [b.label for b in overview_context(rows, {}).verdict_chart.bars]
    assert labels == ["прийняти", "залишити базову модель", "відкотити", "без висновку"]
