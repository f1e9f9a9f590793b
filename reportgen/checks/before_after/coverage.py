"""Which questions each version answered: before and after are paired by question id, so both must
answer the same questions (methods.md section 8)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reportgen.project import Project
from reportgen.words import count, count_noun


def coverage(project: Project, part: str, before_ids, after_ids) -> tuple[dict, np.ndarray]:
    """report.json ``coverage`` of a part and the questions both versions answered (sorted ids).

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

    def side(ids: pd.Index) -> dict:
        answered = int((ref.get_indexer(ids) >= 0).sum())
        return {
            "answered": answered,
            "lacks": int(ref.size) - answered,
            "outside": int(ids.size) - answered,
        }

    out = {
        "questions": int(ref.size),
        "source": source,
        "both": int(both.size),
        "before": side(b),
        "after": side(a),
    }
    out["complete"] = all(
        out[role]["lacks"] == 0 and out[role]["outside"] == 0 for role in ("before", "after")
    )
    return out, np.array(sorted(both), dtype=object)


def coverage_words(cov: dict, what: str) -> str:
    """What the versions lack or have too many, e.g. "the after version left 10 of the 300 frozen
    questions unanswered"; empty when the pairing is complete."""
    of = count_noun(cov["questions"], "question", adjective=what)
    lack = [r for r in ("before", "after") if cov[r]["lacks"]]
    said = []
    if len(lack) == 1:
        said.append(
            f"the {lack[0]} version left {count(cov[lack[0]]['lacks'])} of the {of} unanswered"
        )
    elif lack:
        said.append(
            f"the before version left {count(cov['before']['lacks'])} and the after version "
            f"{count(cov['after']['lacks'])} of the {of} unanswered"
        )
    for role in ("before", "after"):
        if cov[role]["outside"]:  # only against a split file: otherwise the set is the answers
            said.append(
                f"the {role} version answered {count_noun(cov[role]['outside'], 'question')} "
                f"that {'is' if cov[role]['outside'] == 1 else 'are'} not in the {what} set's "
                "split file"
            )
    return " and ".join(said)


def on_questions(cov: dict | None) -> str:
    """ " on 290 of 300 questions" when the pairing is incomplete, else empty."""
    if cov is None or cov["complete"]:
        return ""
    return f" on {count(cov['both'])} of {count_noun(cov['questions'], 'question')}"
