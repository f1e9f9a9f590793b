"""The ladder's fixed words as a reader sees them, in the language being written: a rung's
name, a rung's status, a verdict, and a user's name quoted in a sentence. report.json keeps
the ids ("larger than noise", "not shown", "roll-back"); the checks' sentences, the report,
the class index, the CI summary and the feedback print these words instead (this module is
their one home)."""

from __future__ import annotations

from reportgen.words.i18n import p_


def rung_word(name: str) -> str:
    """A rung's name (report.json ``ladder[].name``, names.RUNG_NAMES) in words: "larger than
    noise" / "більше за шум"; a name that is not a rung's is returned as it is."""
    words = {
        "correct": p_("rung name", "correct"),
        "fair": p_("rung name", "fair"),
        "larger than noise": p_("rung name", "larger than noise"),
        "relevant": p_("rung name", "relevant"),
        "bounded": p_("rung name", "bounded"),
    }
    return words.get(name, name)


def status_word(status: str) -> str:
    """A rung's status (report.json ``ladder[].status``) in words: "not shown" / "не показано";
    also "shown, not credited" (a shown rung above an unshown one); anything else as it is."""
    words = {
        "shown": p_("rung status", "shown"),
        "partly": p_("rung status", "partly"),
        "not shown": p_("rung status", "not shown"),
        "shown, not credited": p_("rung status", "shown, not credited"),
    }
    return words.get(status, status)


def quoted(name: object) -> str:
    """A user's name (a slice, a split, a category) quoted in a sentence: Python's repr in
    English ('dates'), «dates» in another language."""
    from reportgen.words.i18n import current

    return repr(name) if current() == "en" else f"«{name}»"


def ticked(name: object) -> str:
    """A user's name between straight single quotes in English ('dates', as written, not
    repr), «dates» in another language."""
    from reportgen.words.i18n import current

    return f"'{name}'" if current() == "en" else f"«{name}»"


def verdict_word(verdict: str) -> str:
    """A verdict id (report.json ``decision.verdict``) as a short word: the id itself in
    English ("roll-back"), "відкотити" in Ukrainian; an unknown id as it is."""
    words = {
        "adopt": p_("verdict", "adopt"),
        "keep-baseline": p_("verdict", "keep-baseline"),
        "roll-back": p_("verdict", "roll-back"),
        "inconclusive": p_("verdict", "inconclusive"),
    }
    return words.get(str(verdict), str(verdict))
