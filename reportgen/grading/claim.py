"""How far a claim as written reaches up the ladder: the honest-claim rule of the rubric.

The rule (docs/batch.md, "An honest claim") reads the claim's words, never its meaning:

- a claim that one model is better, worse, or changed something (``beats``, ``better``,
  ``more accurate``, ``raises``, ``improves``, ``outperforms`` ...) claims rung 3
  (larger than noise);
- a claim that names a size of effect (a number after ``by``, a number with ``%``,
  ``points`` or ``pp``) or its worth (``useful``, ``worth``, ``significant``, ``saves``)
  claims rung 4 (relevant);
- a claim that it holds beyond the test (``without hurting``, ``no worse``, ``in general``,
  ``everywhere``, ``always``, ``robust``, ``generalises``, ``any``/``all`` other ...) claims
  rung 5 (bounded);
- anything else claims rung 2 (fair): a tie, no shown difference, a plain statement.

Negations and hedges read as the weaker claim. A word of rungs 3 to 5 does not count when a
negation or a hedge (``not``, ``no``, ``never``, ``neither``, ``fails to``, ``may``,
``might``, ``could``, ``perhaps`` ...) comes before it in its clause (clauses end at a comma,
``but``, ``although``, ``while``, ``whereas``, ``yet``, ``however``), nor when its sentence
takes the difference back (``within noise``, ``not significant``, ``no evidence``,
``might be noise``, ``could be chance``, ``cannot rule out noise``, ``the interval includes
zero``, ``smaller than the seed noise``, ``inconclusive``, ``tied``, ``comparable`` ...): "The
MLP does not beat gradient boosting", "We found no evidence that the MLP is better", "Lower log
loss, but the difference is within noise" and "The MLP is better, but this could be chance"
claim rung 2. A sentence that opens with ``this``, ``it``, ``the difference`` ... and takes a
difference back retracts the sentence before it too ("The MLP beats GB. This may be noise.").
A take-back retracts rungs 3 and 4 only: a bounded claim beside it ("A is not better than B,
and both are robust everywhere") still claims rung 5. ``no worse``, ``not worse``, ``never
worse`` and ``without hurting`` are themselves claims (rung 5), and ``not only``, ``not just``,
``no doubt``, ``without doubt`` and the double negation ``not fail to`` strengthen rather than
negate.

The words are a ``Lexicon``, one per language, read by the same algorithm: ``ENGLISH`` here,
``UKRAINIAN`` from the stems in ``claim_uk.py`` (``перевершу\\w*``, ``кращ\\w*``, ``на 0,007``,
``не гірша``, ``у межах шуму`` ...). Each sentence is read in its own language
(``language_of``): Ukrainian when at least half its letters are Cyrillic; with both scripts,
when its Ukrainian function words (за, на, і, що ...) outnumber its English ones (the, by,
than ...), or are as many and a fifth of its letters are Cyrillic. So "MLP краща за GB за log
loss" is Ukrainian and "The MLP beats GB (градієнтний бустинг) by 0.007" English.
``ClaimReach.language`` is the claim's as a whole.

The claim is honest when the rung it claims is at most ``claim.supported_rung``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportgen.grading import claim_uk

_RUNG3 = (
    r"beats?|beating|better|worse|outperform\w*|improv\w*|rais\w*|increas\w*|reduc\w*|"
    r"lower\w*|higher|more|less|fewer|gain\w*|wins?|superior|exceeds?|drops?|cuts?|boosts?"
)
_RUNG4_WORDS = r"useful|worth\w*|significant\w*|saves?|saving\w*|substantial\w*|large|meaningful\w*"
_RUNG4_NUMBER = r"\bby\s+[+-]?\d[\d,]*(\.\d+)?|\d(\.\d+)?\s*(%|percent\b|points?\b|pp\b)"
_RUNG5 = (
    r"without\s+hurting|no\s+worse|not\s+worse|never\s+worse|in\s+general|everywhere|always|"
    r"robust\w*|generali[sz]\w*|anything\s+else|any\s+other|all\s+other|every\s+\w+|"
    r"in\s+production"
)
#: rung-5 phrases that carry their own negation: a claim, not a negation
_POSITIVE_NEGATIONS = r"without\s+hurting|no\s+worse|not\s+worse|never\s+worse"
#: look like negations but strengthen the claim: masked before reading
_NOT_NEGATIONS = (
    r"not\s+only|not\s+just|no\s+doubt|without\s+(?:a\s+)?doubt|no\s+question|"
    r"(?:not|never)\s+fail(?:s|ed)?\s+to"  # a double negation: "did not fail to beat" beats
)
#: a negation or a hedge: a rung word after it in its clause does not count
_NEGATION = (
    r"not|no|never|neither|nor|none|nothing|cannot|fail(?:s|ed)?\s+to|unable\s+to|"
    r"lacks?|hardly|barely|may|might|could|possibly|perhaps|maybe|seems?\s+to|appears?\s+to"
)
#: the negations that undo a take-back ("the difference is not within noise"); hedges do not
_STRICT_NEGATION = r"not|no|never|neither|nor|none|nothing|cannot"
#: what a difference may be instead of a gain
_NOISE = (
    r"(?:the\s+|seed\s+|sampling\s+|statistical\s+|random\s+)*"
    r"(?:noise|chance|luck|randomness|a\s+fluke|a\s+coincidence)"
)
#: a sentence that takes the difference back: its rung-3 and rung-4 words do not count
_TAKE_BACK = (
    r"within\s+(?:the\s+)?(?:seed\s+|evaluation\s+|statistical\s+)?(?:noise|margin\s+of\s+error|"
    r"error|interval|uncertainty)|"
    r"not\s+(?:statistically\s+)?significant\w*|no\s+(?:statistically\s+)?significant\w*|"
    r"insignificant|no\s+(?:clear\s+|real\s+|strong\s+|convincing\s+)?evidence|"
    r"(?:not\s+enough|insufficient)\s+evidence|inconclusive|(?:due\s+to|by)\s+chance|"
    r"not\s+(?:been\s+)?(?:shown|established|clear\w*)|unclear|indistinguishable|"
    r"cannot\s+(?:tell|say|conclude)|too\s+small\s+to|"
    r"not\s+larger\s+than|tied?|ties|no\s+(?:real\s+|clear\s+)?difference|comparable|"
    r"equivalent|on\s+par|"
    # "this might be noise", "could be chance", "may just be due to chance"
    r"(?:may|might|could)\s+(?:well\s+|also\s+)?(?:just\s+|only\s+|simply\s+|partly\s+)?"
    r"(?:be|reflect)\s+(?:(?:just|only|pure|simply|due\s+to|a\s+matter\s+of)\s+)?"
    rf"{_NOISE}|"
    # "we cannot rule out noise", "chance is not ruled out"
    rf"(?:cannot|not|unable\s+to)\s+(?:yet\s+)?(?:rule|ruled)\s+out\s+(?:\w+\s+){{0,3}}?"
    rf"(?:{_NOISE}|a\s+tie|zero|no\s+difference)|"
    rf"{_NOISE}\s+(?:is|was|has|can)\s+not\s+(?:been\s+|be\s+)?ruled\s+out|"
    # "the interval includes zero"
    r"(?:includ(?:es?|ing)|contain(?:s|ing)?|cross(?:es|ing)?|span(?:s|ning)?|straddl(?:es?|ing)|"
    r"covers?|covering)\s+(?:the\s+value\s+)?(?:zero|0(?!\.\d)|no\s+difference)|"
    # "smaller than the seed noise", "less than the retraining spread"
    r"(?:smaller|less|lower)\s+than\s+(?:the\s+|one\s+)?(?:seed\s+|retraining\s+|sampling\s+|"
    r"evaluation\s+|run-to-run\s+)?(?:noise|spread|sd|standard\s+deviation|variation)"
)
#: where a clause ends
_CLAUSE_END = r",|:|\bbut\b|\balthough\b|\bthough\b|\bwhile\b|\bwhereas\b|\byet\b|\bhowever\b"
#: a sentence that opens with one of these speaks of the previous sentence's difference
_ANAPHOR = (
    r"\s*(?:but\s+|though\s+|however,?\s+)?(?:this|that|it|chance|noise|the\s+(?:difference|"
    r"gain|gap|improvement|effect|result|interval))\b"
)
#: short common words that mark a mixed-script sentence as English
_FUNCTION_WORDS = (
    r"the|a|an|is|are|was|were|be|by|than|on|of|and|or|to|in|with|it|its|this|that|not|no|but|"
    r"does|do|did|has|have|for|at|as|we"
)

#: the claim is read up to here (a claim is one or two sentences)
MAX_CHARS = 4000


@dataclass(frozen=True)
class Lexicon:
    """The words of one language the rule reads, by role (regular expressions)."""

    language: str
    #: rung 3: one model is better, worse, or changed something
    rung3: str
    #: rung 4: a word of size or worth
    rung4_words: str
    #: rung 4: a number that is a size (searched as is, not as a whole word)
    rung4_number: str
    #: rung 5: the claim holds beyond the test
    rung5: str
    #: rung-5 phrases that carry their own negation: a claim, not a negation
    positive_negations: str
    #: look like negations (or rung words) but are neither: blanked before reading
    not_negations: str
    #: a negation or a hedge: a rung word after it in its clause does not count
    negation: str
    #: the negations that undo a take-back; hedges do not
    strict_negation: str
    #: a sentence that takes the difference back: its rung-3 and rung-4 words do not count
    take_back: str
    #: where a clause ends (searched as is)
    clause_end: str
    #: a sentence that opens with this speaks of the previous sentence's difference
    anaphor: str
    #: short common words that mark a mixed-script sentence as this language
    function_words: str


ENGLISH = Lexicon(
    language="en",
    rung3=_RUNG3,
    rung4_words=_RUNG4_WORDS,
    rung4_number=_RUNG4_NUMBER,
    rung5=_RUNG5,
    positive_negations=_POSITIVE_NEGATIONS,
    not_negations=_NOT_NEGATIONS,
    negation=_NEGATION,
    strict_negation=_STRICT_NEGATION,
    take_back=_TAKE_BACK,
    clause_end=_CLAUSE_END,
    anaphor=_ANAPHOR,
    function_words=_FUNCTION_WORDS,
)
UKRAINIAN = Lexicon(
    language="uk",
    rung3=claim_uk.RUNG3,
    rung4_words=claim_uk.RUNG4_WORDS,
    rung4_number=claim_uk.RUNG4_NUMBER,
    rung5=claim_uk.RUNG5,
    positive_negations=claim_uk.POSITIVE_NEGATIONS,
    not_negations=claim_uk.NOT_NEGATIONS,
    negation=claim_uk.NEGATION,
    strict_negation=claim_uk.STRICT_NEGATION,
    take_back=claim_uk.TAKE_BACK,
    clause_end=claim_uk.CLAUSE_END,
    anaphor=claim_uk.ANAPHOR,
    function_words=claim_uk.FUNCTION_WORDS,
)
LEXICONS = {lex.language: lex for lex in (ENGLISH, UKRAINIAN)}
#: a text whose letters are at least this share Cyrillic reads as Ukrainian ...
UKRAINIAN_SHARE = 0.5
#: ... and one with fewer (a Ukrainian sentence keeps its Latin "MLP", "log loss", "ROC AUC")
#: reads as Ukrainian when its Ukrainian function words (за, на, і, що ...) outnumber its
#: English ones (the, by, than ...), or are as many and at least this share is Cyrillic
MIXED_SHARE = 0.2


@dataclass(frozen=True)
class ClaimReach:
    """The rung a claim's words reach, and the words that put it there."""

    rung: int
    words: tuple[str, ...]
    #: the language the claim was read in ("en" or "uk")
    language: str = "en"


def _spans(pattern: str, text: str) -> list[tuple[int, int, str]]:
    """(start, end, words) of each whole-word match of ``pattern``."""
    return [
        (m.start(), m.end(), m.group(0))
        for m in re.finditer(rf"(?<![\w-])(?:{pattern})(?![\w-])", text)
    ]


def _masked(text: str, pattern: str) -> str:
    """``text`` with the matches of ``pattern`` blanked (positions kept)."""
    return re.sub(rf"(?<![\w-])(?:{pattern})(?![\w-])", lambda m: " " * len(m.group(0)), text)


def _clauses(sentence: str, lex: Lexicon) -> list[tuple[int, int]]:
    """(start, end) of each clause of a sentence."""
    cuts = [0] + [m.start() for m in re.finditer(lex.clause_end, sentence)] + [len(sentence)]
    return list(zip(cuts[:-1], cuts[1:], strict=True))


def _negated(pos: int, sentence: str, negations: list[tuple[int, int, str]], lex: Lexicon) -> bool:
    """A negation or a hedge comes before ``pos`` in its clause."""
    for start, end in _clauses(sentence, lex):
        if start <= pos < end:
            return any(start <= n0 and n1 <= pos for n0, n1, _ in negations)
    return False


def _reading(sentence: str, lex: Lexicon) -> tuple[dict[int, list[str]], list[str], bool]:
    """The rung words of one sentence that count, by rung, the negations, hedges and
    take-backs that kept others from counting, and whether the sentence takes a difference
    back from the previous one ("This may be noise.")."""
    s = _masked(sentence, lex.not_negations)
    bare = _masked(s, lex.positive_negations)  # their own "no"/"not" negates nothing
    negations = _spans(lex.negation, bare)
    undo = _spans(lex.strict_negation, _masked(bare, lex.take_back))  # a take-back's own "not"
    take_backs = [t for t in _spans(lex.take_back, s) if not _negated(t[0], sentence, undo, lex)]
    found = {
        5: _spans(lex.rung5, s),
        4: _spans(lex.rung4_words, s)
        + [(m.start(), m.end(), m.group(0)) for m in re.finditer(lex.rung4_number, s)],
        3: _spans(lex.rung3, bare),
    }
    counted: dict[int, list[str]] = {}
    weakened: list[str] = [w for _, _, w in take_backs]
    for rung, spans in found.items():
        for start, _, word in spans:
            if _negated(start, sentence, negations, lex) or (take_backs and rung < 5):
                weakened += [w for n0, _, w in negations if n0 < start][-1:]
                continue
            counted.setdefault(rung, []).append(" ".join(word.split()))
    back = bool(take_backs) and bool(re.match(lex.anaphor, sentence))
    return counted, weakened, back


def language_of(text: str, default: str = "en") -> str:
    """``"uk"`` or ``"en"``: the language a text reads in, by its share of Cyrillic letters
    and, when both scripts are there, by its function words; ``default`` with no letters."""
    letters = len(re.findall(r"[^\W\d_]", text))
    if not letters:
        return default
    share = len(re.findall(r"[\u0400-\u04ffʼ]", text)) / letters
    if share >= UKRAINIAN_SHARE or share == 0:
        return "uk" if share else "en"
    t = text.lower()
    uk, en = (len(_spans(lex.function_words, t)) for lex in (UKRAINIAN, ENGLISH))
    return "uk" if uk > en or (uk == en and share >= MIXED_SHARE) else "en"


def _normalised(text: str | None) -> str:
    """The claim lower-cased on one line, with contractions and apostrophes in one form and
    abbreviation dots dropped, ready to split into sentences."""
    t = " ".join((text or "").lower().split())[:MAX_CHARS]
    # the Ukrainian apostrophe inside a word ("обʼєм", "об'єм", "об’єм") is a letter
    t = re.sub(r"(?<=[\u0400-\u04ff])['’`ʹ](?=[\u0400-\u04ff])", "ʼ", t).replace("’", "'")
    t = re.sub(r"\bcan't\b", "cannot", t).replace("won't", "will not").replace("can not", "cannot")
    t = re.sub(r"n't\b", " not", t)
    return re.sub(claim_uk.ABBREVIATIONS, lambda m: re.sub(r"[.\s]", "", m.group(0)), t)


def claimed_rung(text: str | None) -> ClaimReach:
    """The highest rung the claim's words assert (2 for a tie, a negated or hedged claim, or a
    plain statement). Each sentence is read in its own language (``language_of``)."""
    t = _normalised(text)
    language = language_of(t)
    best: dict[int, list[str]] = {}
    weakened: list[str] = []
    readings = [
        _reading(sentence, LEXICONS[language_of(sentence, language)])
        for sentence in re.split(r"[.;!?]+(?:\s|$)", t)
    ]
    for i, (counted, weak, _) in enumerate(readings):
        weakened += weak
        if i + 1 < len(readings) and readings[i + 1][2]:
            # "The MLP beats GB. This may be noise.": the next sentence takes this one back
            counted = {rung: words for rung, words in counted.items() if rung == 5}
        for rung, words in counted.items():
            best.setdefault(rung, []).extend(words)
    for rung in (5, 4, 3):
        if rung in best:
            return ClaimReach(rung, tuple(dict.fromkeys(best[rung]))[:3], language)
    named = tuple(dict.fromkeys(" ".join(w.split()) for w in weakened))[:3]
    return ClaimReach(2, named, language)


def honest(text: str | None, supported_rung: int | None) -> bool:
    """True when the claim as written does not outrun the supported rung."""
    if not isinstance(supported_rung, int):
        return False
    return claimed_rung(text).rung <= supported_rung
