"""Which questions each version answered: before and after are paired by question id, so both must
answer the same questions (methods.md section 8)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from reportgen.checks.evaluation import natural_key
from reportgen.model.before_after import Coverage, CoverageSide
from reportgen.project import Project
from reportgen.words import count, count_noun


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


def coverage_words(cov: Coverage, what: str) -> str:
    """What the versions lack or have too many, e.g. "the after version left 10 of the 300 frozen
    questions unanswered"; empty when the pairing is complete."""
    of = count_noun(cov.questions, "question", adjective=what)
    lack = [r for r in ("before", "after") if _side(cov, r).lacks]
    said = []
    if len(lack) == 1:
        said.append(
            f"the {lack[0]} version left {count(_side(cov, lack[0]).lacks)} of the {of} unanswered"
        )
    elif lack:
        said.append(
            f"the before version left {count(cov.before.lacks)} and the after version "
            f"{count(cov.after.lacks)} of the {of} unanswered"
        )
    for role in ("before", "after"):
        outside = _side(cov, role).outside
        if outside:  # only against a split file: otherwise the set is the answers
            said.append(
                f"the {role} version answered {count_noun(outside, 'question')} "
                f"that {'is' if outside == 1 else 'are'} not in the {what} set's "
                "split file"
            )
    return " and ".join(said)


def on_questions(cov: Coverage | None) -> str:
    """ " on 290 of 300 questions" when the pairing is incomplete, else empty."""
    if cov is None or cov.complete:
        return ""
    return f" on {count(cov.both)} of {count_noun(cov.questions, 'question')}"
