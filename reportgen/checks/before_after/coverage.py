"""Which questions each version answered: before and after are paired by question id, so both must
answer the same questions (methods.md section 8)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from reportgen.checks.evaluation import natural_key
from reportgen.model.before_after import Coverage, CoverageSide
from reportgen.project import Project
from reportgen.words import count
from reportgen.words.i18n import n_, p_


def coverage(
    project: Project, part: str, before_ids: Any, after_ids: Any
) -> tuple[Coverage, np.ndarray]:
    """report.json ``coverage`` of a part and the questions both versions answered (ids in natural order: 2 before 12).

    The part's questions are its split file's row ids when there is one, else every question
    either version answered; per version, how many of them it answered, lacks, and answered
    outside them. ``complete`` only when both answered exactly these questions.
    """
    rid = project.manifest.row_id if project.manifest else "row_id"
    frame = project.split_frames.get(part)
    b = pd.Index(np.asarray(before_ids, dtype=object)).unique()
    a = pd.Index(np.asarray(after_ids, dtype=object)).unique()
    if frame is not None and rid in frame.columns:
        ref = pd.Index(frame[rid].astype(str).str.strip().to_numpy(dtype=object)).unique()
        source = "split"
    else:
        ref, source = b.union(a), "answers"
    both = b.intersection(a)
    both = both[ref.get_indexer(both) >= 0]

    def side(ids: pd.Index) -> CoverageSide:
        answered = int((ref.get_indexer(ids) >= 0).sum())
        return CoverageSide(
            answered=answered, lacks=int(ref.size) - answered, outside=int(ids.size) - answered
        )

    before, after = side(b), side(a)
    out = Coverage(
        questions=int(ref.size),
        source=source,
        both=int(both.size),
        before=before,
        after=after,
        complete=all(s.lacks == 0 and s.outside == 0 for s in (before, after)),
    )
    return out, np.array(sorted(both, key=lambda i: (natural_key(str(i)), str(i))), dtype=object)


def _side(cov: Coverage, role: str) -> CoverageSide:
    """What the ``role`` version (before or after) answered."""
    return cov.before if role == "before" else cov.after


def version_words(role: str) -> str:
    """The before or after version as the subject of a sentence: "the after version"."""
    if role == "before":
        return p_("before/after", "the before version")
    return p_("before/after", "the after version")


def set_words(what: str) -> str:
    """The question set a coverage sentence is about ("frozen" or "general"), as it follows
    "questions" (English: the adjective as written)."""
    # TRANSLATORS: the question set after "questions" and "split file" (Ukrainian: genitive,
    # "питань замороженого набору", "у файлі розбиття замороженого набору")
    if what == "frozen":
        return p_("question set", "frozen")
    if what == "general":
        return p_("question set", "general")
    return what


def and_join(clauses: list[str]) -> str:
    """Clauses joined by "and" in the language being written."""
    # TRANSLATORS: the word joining two clauses of one sentence ("... unanswered and ...")
    word = p_("joins clauses", "and")
    return f" {word} ".join(clauses)


def coverage_words(cov: Coverage, what: str) -> str:
    """What the versions lack or have too many, e.g. "the after version left 10 of the 300 frozen
    questions unanswered"; empty when the pairing is complete."""
    kind = set_words(what)
    lack = [r for r in ("before", "after") if _side(cov, r).lacks]
    said = []
    if len(lack) == 1:
        said.append(
            n_(
                "{version} left {lacks} of the {n} {what} question unanswered",
                "{version} left {lacks} of the {n} {what} questions unanswered",
                cov.questions,
                version=version_words(lack[0]),
                lacks=count(_side(cov, lack[0]).lacks),
                what=kind,
            )
        )
    elif lack:
        said.append(
            n_(
                "the before version left {before} and the after version {after} of the {n} "
                "{what} question unanswered",
                "the before version left {before} and the after version {after} of the {n} "
                "{what} questions unanswered",
                cov.questions,
                before=count(cov.before.lacks),
                after=count(cov.after.lacks),
                what=kind,
            )
        )
    for role in ("before", "after"):
        outside = _side(cov, role).outside
        if outside:  # only against a split file: otherwise the set is the answers
            said.append(
                n_(
                    "{version} answered {n} question that is not in the {what} set's split file",
                    "{version} answered {n} questions that are not in the {what} set's split file",
                    outside,
                    version=version_words(role),
                    what=kind,
                )
            )
    return and_join(said)


def on_questions(cov: Coverage | None) -> str:
    """ " on 290 of 300 questions" when the pairing is incomplete, else empty."""
    if cov is None or cov.complete:
        return ""
    return " " + n_(
        "on {both} of {n} question",
        "on {both} of {n} questions",
        cov.questions,
        both=count(cov.both),
    )
