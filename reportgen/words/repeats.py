"""What a model's repeated runs are called (``[evaluation] repeats``), for every sentence,
caption, table label and chart legend that names them: retrained networks ("seeds", the
default) or evaluation runs of one model over sampling epochs ("samples"). The words only:
the figures are the same either way.

    repeat_words("seeds").noise     retraining noise
    repeat_words("samples").noise   sampling noise of repeated runs
"""

from __future__ import annotations

from collections import namedtuple

from reportgen.words.i18n import _

RepeatWords = namedtuple(
    "RepeatWords",
    [
        # the seed line's label: "Seed spread (retraining): ..."
        "label",
        # the noise they measure, in a sentence: "more than retraining noise"
        "noise",
        # what one repeat does: "the same model is trained again with another seed"
        "again",
        # the seed part's heading: "1. Retraining"
        "heading",
        # what moves the centre of the per-repeat intervals: "retraining"
        "moves",
        # the budget's seed term in the chart legend: "seed term (retraining)"
        "term",
        # one repeat, as a noun to count: "network" (5 networks); English, for count_noun
        "unit",
        # one repeat in a caption or legend: "trained network"
        "one",
        # one repeat of the candidate: "trained candidate network"
        "one_candidate",
        # the block line's runs as they are, in its covers sentence: "the networks as trained"
        "as_is",
    ],
)


def repeat_words(repeats: str | None) -> RepeatWords:
    """The words for ``[evaluation] repeats`` ("seeds" when missing or unknown: old reports),
    in the current language (looked up at each call, never at import)."""
    if repeats == "samples":
        return RepeatWords(
            label=_("repeated runs: sampling noise"),
            noise=_("sampling noise of repeated runs"),
            again=_("the same model is evaluated again over another sampling epoch"),
            heading=_("Repeated runs: sampling noise"),
            moves=_("repeating the runs"),
            term=_("seed term (sampling noise)"),
            unit="run",
            one=_("evaluation run"),
            one_candidate=_("candidate evaluation run"),
            as_is=_("the runs as evaluated"),
        )
    return RepeatWords(
        label=_("retraining"),
        noise=_("retraining noise"),
        again=_("the same model is trained again with another seed"),
        heading=_("Retraining"),
        moves=_("retraining"),
        term=_("seed term (retraining)"),
        unit="network",
        one=_("trained network"),
        one_candidate=_("trained candidate network"),
        as_is=_("the networks as trained"),
    )
