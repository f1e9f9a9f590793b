"""Before and after on a frozen question set: fixed, broken, McNemar (methods.md section 8)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.stats._util import plain

MISSING_CATEGORY = "(missing)"


def mcnemar_exact(fixed: int, broken: int) -> float:
    """Exact two-sided McNemar p-value on the discordant pairs.

    ``scipy.stats.binomtest(fixed, fixed + broken, 0.5)``; 1.0 with no discordant pairs.

    Parameters
    ----------
    fixed : int
        Questions wrong before, right after.
    broken : int
        Questions right before, wrong after.

    Returns
    -------
    float
    """
    fixed, broken = int(fixed), int(broken)
    if fixed < 0 or broken < 0:
        raise ValueError(f"counts must be non-negative, got fixed={fixed}, broken={broken}")
    n = fixed + broken
    if n == 0:
        return 1.0
    from scipy import stats as st  # lazy: scipy.stats is slow to import

    return float(st.binomtest(fixed, n, 0.5).pvalue)


def _category_name(x: Any) -> str:
    """A category label as a JSON object key; None/NaN become MISSING_CATEGORY."""
    x = plain(x)
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return MISSING_CATEGORY
    return str(x)


@dataclass(frozen=True)
class BrokenQuestion:
    """A question right before the change and wrong after.

    Attributes
    ----------
    id : Any
        The question id as given (numpy scalars converted).
    category : str or None
        Its category (``"(missing)"`` for None/NaN); None when no category is given.
    text : str or None
        Its text; None when no text is given.
    """

    id: Any
    category: str | None
    text: str | None


@dataclass(frozen=True)
class FixedBroken:
    """Questions fixed and broken by a change.

    Attributes
    ----------
    fixed, broken : int
        Questions wrong before and right after; right before and wrong after.
    fixed_ids, broken_ids : tuple
        Their ids, in input order (numpy scalars converted).
    broken_by_category : dict or None
        {category: broken count}, ordered by count descending then name; None when no
        category is given.
    broken_rows : tuple of BrokenQuestion
        The broken questions, in input order.
    """

    fixed: int
    broken: int
    fixed_ids: tuple[Any, ...]
    broken_ids: tuple[Any, ...]
    broken_by_category: dict[str, int] | None
    broken_rows: tuple[BrokenQuestion, ...]


def crossed(before: Any, after: Any) -> tuple[np.ndarray, np.ndarray]:
    """(fixed, broken) masks of per-question scores: fixed crossed one half upwards (wrong
    before, right after), broken downwards; a score of exactly one half is neither. For
    scores of 0 or 1 this is wrong-to-right and right-to-wrong; for means over repeated
    evaluations (epochs) the question's mean crossed one half."""
    b, a = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
    return (b < 0.5) & (a > 0.5), (b > 0.5) & (a < 0.5)


def fixed_broken(
    ids: Any,
    before_correct: Any,
    after_correct: Any,
    category: Any = None,
    text: Any = None,
) -> FixedBroken:
    """Questions fixed and broken by a change, broken ones grouped by category.

    Parameters
    ----------
    ids : array-like of shape (N,)
        Question ids.
    before_correct, after_correct : array-like of bool or float in [0, 1], shape (N,)
        Correct before / after, aligned with ``ids``; or each question's mean score over
        repeated evaluations (epochs), right when above one half and wrong when below, so
        fixed and broken are the questions whose mean crossed one half (a mean of exactly
        one half is neither).
    category : array-like of shape (N,), optional
        Category per question; None/NaN become ``"(missing)"``.
    text : array-like of shape (N,), optional
        Question text, copied into ``broken_rows`` (None stays None).

    Returns
    -------
    FixedBroken
    """
    id_list = [plain(i) for i in np.asarray(ids, dtype=object).tolist()]
    before = np.asarray(before_correct, dtype=float)
    after = np.asarray(after_correct, dtype=float)
    n = len(id_list)
    if before.shape != (n,) or after.shape != (n,):
        raise ValueError(
            f"ids, before_correct and after_correct must have one length, got "
            f"{n}, {before.shape} and {after.shape}"
        )
    cats = None if category is None else [_category_name(c) for c in list(category)]
    texts = None if text is None else [_text(t) for t in list(text)]
    for name, col in (("category", cats), ("text", texts)):
        if col is not None and len(col) != n:
            raise ValueError(f"{name} has {len(col)} values for {n} questions")

    fixed_mask, broken_mask = crossed(before, after)
    fixed_idx, broken_idx = np.flatnonzero(fixed_mask), np.flatnonzero(broken_mask)
    by_cat = None
    if cats is not None:
        counts = Counter(cats[i] for i in broken_idx)
        by_cat = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    return FixedBroken(
        fixed=int(fixed_idx.size),
        broken=int(broken_idx.size),
        fixed_ids=tuple(id_list[i] for i in fixed_idx),
        broken_ids=tuple(id_list[i] for i in broken_idx),
        broken_by_category=by_cat,
        broken_rows=tuple(
            BrokenQuestion(
                id=id_list[i],
                category=None if cats is None else cats[i],
                text=None if texts is None else texts[i],
            )
            for i in broken_idx
        ),
    )


def _text(x: Any) -> str | None:
    """A question's text as a string; None stays None."""
    x = plain(x)
    return None if x is None else str(x)


@dataclass(frozen=True)
class Dominant:
    """The category that holds most (more than half) of the broken questions.

    Attributes
    ----------
    name : str
    count : int
        Broken questions in the category.
    broken : int
        Broken questions in all.
    """

    name: str
    count: int
    broken: int
    #: questions in the category and in all, and the category's fixed questions (None unknown)
    questions: int | None = None
    total: int | None = None
    fixed: int | None = None
    #: one-sided binomial p of ``count`` or more of ``broken`` falling in a category holding
    #: ``questions / total`` of the questions (scipy.stats.binomtest); None without the shares
    p_share: float | None = None

    @property
    def specific(self) -> bool:
        """Tuning broke this kind in particular: more of its questions broke than its share of
        the questions explains (p below SPECIFIC_P) and more broke than were fixed. Unknown
        shares keep the plain majority reading."""
        if self.p_share is None:
            return True
        return self.p_share < SPECIFIC_P and self.count > (self.fixed or 0)


#: the one-sided binomial p below which a category's share of the broken questions is more
#: than its share of the questions explains
SPECIFIC_P = 0.05


def dominant_category(
    broken_by_category: dict[str, int] | None,
    n_broken: int,
    questions_by_category: dict[str, int] | None = None,
    fixed_by_category: dict[str, int] | None = None,
) -> Dominant | None:
    """The category holding more than half of the broken questions, or None.

    Parameters
    ----------
    broken_by_category : dict or None
        As from :func:`fixed_broken`.
    n_broken : int
        Number of broken questions.

    Returns
    -------
    Dominant or None
        None when no category holds more than half, or nothing is broken.
    """
    if not broken_by_category or n_broken <= 0:
        return None
    name, count = min(broken_by_category.items(), key=lambda kv: (-kv[1], str(kv[0])))
    if 2 * count <= n_broken:
        return None
    questions = (questions_by_category or {}).get(name)
    total = sum(questions_by_category.values()) if questions_by_category else None
    if not questions or not total:
        return Dominant(name, int(count), int(n_broken))
    from scipy import stats  # lazy: scipy.stats takes half a second to import

    p = stats.binomtest(int(count), int(n_broken), questions / total, alternative="greater")
    return Dominant(
        name,
        int(count),
        int(n_broken),
        questions=int(questions),
        total=int(total),
        fixed=int((fixed_by_category or {}).get(name, 0)),
        p_share=float(p.pvalue),
    )
