"""Nouns after counts: user column names read as words, English plurals, blocks or rows."""

from __future__ import annotations

import re
from collections.abc import Callable

from reportgen.words.i18n import current, n_, np_, p_
from reportgen.words.numbers import count, value

#: plurals no suffix rule gets right (a block or slice column may be named after any of them)
IRREGULAR = {
    "person": "people",
    "child": "children",
    "man": "men",
    "woman": "women",
    "datum": "data",
    "criterion": "criteria",
    "analysis": "analyses",
    "series": "series",
    "species": "species",
}
#: endings of a singular word that takes "es" (class, bus, axis, box, quiz, batch, dish)
_ES = re.compile(r"(ss|us|is|x|z|ch|sh)$", re.IGNORECASE)
#: a word that is already an English plural: weeks, days, areas (not class, bus, axis)
_PLURAL = re.compile(r"[^sui]s$", re.IGNORECASE)
#: digits as superscripts, for the power of a unit ("kWh²")
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def noun(name: str) -> str:
    """A user's column name read as words: "visit_month" -> "visit month"."""
    return " ".join(str(name).replace("_", " ").split())


def plural_noun(word: str) -> str:
    """The English plural of a noun or a user's column name: week -> weeks, batch -> batches,
    city -> cities, visit_month -> visit months; a name that is already plural stays."""
    w = noun(word)
    head, _, last = w.rpartition(" ")
    low = last.lower()
    if not last:
        return w
    if low in IRREGULAR:
        many = IRREGULAR[low]
        many = many.upper() if last.isupper() and len(last) > 1 else last[0] + many[1:]
    elif low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        many = last[:-1] + "ies"
    elif _ES.search(low):
        many = last + "es"
    elif _PLURAL.search(low) and len(low) > 2:
        many = last
    else:
        many = last + "s"
    return f"{head} {many}" if head else many


def singular_noun(word: str) -> str:
    """A user's column name for one of them: visit_month -> visit month, weeks -> week."""
    w = noun(word)
    head, _, last = w.rpartition(" ")
    low = last.lower()
    one = {v: k for k, v in IRREGULAR.items()}.get(low)
    if one is not None:
        last = last[0] + one[1:]
    elif low.endswith("ies") and len(low) > 3:
        last = last[:-3] + "y"
    elif re.search(r"(ss|x|z|ch|sh)es$", low):
        last = last[:-2]
    elif _PLURAL.search(low) and len(low) > 2:
        last = last[:-1]
    return f"{head} {last}" if head else last


#: the nouns evreport itself counts, each with its counted message: in a language other than
#: English the catalog's plural forms say them ("1 рядок, 2 рядки, 5 рядків"); a noun that is
#: not here (a user's column name) is counted in the language's own phrase around it
COUNTED: dict[str, Callable[[int], str]] = {
    "row": lambda n: n_("{n} row", "{n} rows", n),
    "test row": lambda n: n_("{n} test row", "{n} test rows", n),
    "block": lambda n: n_("{n} block", "{n} blocks", n),
    "seed": lambda n: n_("{n} seed", "{n} seeds", n),
    "seed pair": lambda n: n_("{n} seed pair", "{n} seed pairs", n),
    "seed label": lambda n: n_("{n} seed label", "{n} seed labels", n),
    "network": lambda n: n_("{n} network", "{n} networks", n),
    "run": lambda n: n_("{n} run", "{n} runs", n),
    "repeat": lambda n: n_("{n} repeat", "{n} repeats", n),
    "fold": lambda n: n_("{n} fold", "{n} folds", n),
    "fold gap": lambda n: n_("{n} fold gap", "{n} fold gaps", n),
    "question": lambda n: n_("{n} question", "{n} questions", n),
    "broken question": lambda n: n_("{n} broken question", "{n} broken questions", n),
    "config": lambda n: n_("{n} config", "{n} configs", n),
    "decimal": lambda n: n_("{n} decimal", "{n} decimals", n),
    "empty bin": lambda n: n_("{n} empty bin", "{n} empty bins", n),
    "required slice": lambda n: n_("{n} required slice", "{n} required slices", n),
    "positive": lambda n: n_("{n} positive", "{n} positives", n),
    "negative": lambda n: n_("{n} negative", "{n} negatives", n),
    "file": lambda n: n_("{n} file", "{n} files", n),
    "line": lambda n: n_("{n} line", "{n} lines", n),
    "check": lambda n: n_("{n} check", "{n} checks", n),
    "model": lambda n: n_("{n} model", "{n} models", n),
    "class": lambda n: n_("{n} class", "{n} classes", n),
    "slice": lambda n: n_("{n} slice", "{n} slices", n),
    "week": lambda n: n_("{n} week", "{n} weeks", n),
    "epoch": lambda n: n_("{n} epoch", "{n} epochs", n),
    "sample": lambda n: n_("{n} sample", "{n} samples", n),
    "student": lambda n: n_("{n} student", "{n} students", n),
    "submission": lambda n: n_("{n} submission", "{n} submissions", n),
    "input warning": lambda n: n_("{n} input warning", "{n} input warnings", n),
    "resample": lambda n: n_("{n} resample", "{n} resamples", n),
    "logged value": lambda n: n_("{n} logged value", "{n} logged values", n),
    "sanity check": lambda n: n_("{n} sanity check", "{n} sanity checks", n),
    "split file": lambda n: n_("{n} split file", "{n} split files", n),
    "predictions file": lambda n: n_("{n} predictions file", "{n} predictions files", n),
    "run row": lambda n: n_("{n} run row", "{n} run rows", n),
    "validation row": lambda n: n_("{n} validation row", "{n} validation rows", n),
    "general set row": lambda n: n_("{n} general set row", "{n} general set rows", n),
    "other network": lambda n: n_("{n} other network", "{n} other networks", n),
    "held-out fold": lambda n: n_("{n} held-out fold", "{n} held-out folds", n),
    "label": lambda n: n_("{n} label", "{n} labels", n),
    "set": lambda n: n_("{n} set", "{n} sets", n),
    "input file": lambda n: n_("{n} input file", "{n} input files", n),
}


def count_noun(n: float | int | None, word: str, *, adjective: str = "") -> str:
    """A count with its noun agreeing: "1 week", "30 visit months", "2 batches", "2,844 rows";
    ``adjective`` goes between, as written: count_noun(400, "block", adjective="single-row").

    In another language a noun of ``COUNTED`` takes the catalog's plural form and the
    adjective (a model's or a part's name, as the user wrote it) follows in parentheses; a
    user's noun stays as written inside the language's count phrase ("30 × «visit month»")."""
    if current() != "en":
        k = int(value(n, "count"))
        said = COUNTED.get(singular_noun(word).lower())
        text = (
            said(k)
            if said
            else np_(
                "a count of a noun the user wrote",
                "{n} × «{noun}»",
                "{n} × «{noun}»",
                k,
                noun=noun(word),
            )
        )
        return f"{text} ({adjective.strip()})" if adjective.strip() else text
    one = value(n, "count") == 1
    said_en = singular_noun(word) if one else plural_noun(word)
    return " ".join(x for x in (count(n), adjective.strip(), said_en) if x)


def blocks_phrase(n: float | int | None, block: str | None) -> str:
    """How many evaluation blocks, in words: "30 weeks"; without a block column each row is its
    own block and the count says so plainly: "400 rows". In another language the block
    column's name stays as the user wrote it, inside a count of blocks: "30 блоків «week»"."""
    if block and current() != "en":
        return n_(
            "{n} block '{name}'", "{n} blocks '{name}'", int(value(n, "count")), name=noun(block)
        )
    if block:
        return count_noun(n, block)
    return count_noun(n, "row")


def metric_unit(unit: str | None, *, power: int) -> str | None:
    """The unit of a metric's values given the target's unit and the power of it the metric's
    values are in (the registry's ``unit_power``): "mmHg²" for power 2, "mmHg" for 1; None
    without a unit or for power 0 (a metric without unit, such as a squared log error)."""
    if not unit or power == 0:
        return None
    return unit if power == 1 else f"{unit}{str(power).translate(_SUPERSCRIPT)}"


def metric_label(metric: str, unit: str | None = None, *, power: int) -> str:
    """A metric as a heading or an axis names it, with the target's unit (to ``power``, the
    registry's ``unit_power``) when the project gives one: "log loss", "squared error,
    mmHg²", "absolute error, mmHg"."""
    # the per-row errors that carry the target's unit, in the build's language; any other
    # metric id reads as words, as everywhere else
    named = {
        "squared_error": p_("metric with a unit", "squared error"),
        "absolute_error": p_("metric with a unit", "absolute error"),
    }
    name = named.get(metric) or noun(metric)
    unit = metric_unit(unit, power=power)
    return f"{name}, {unit}" if unit else name
