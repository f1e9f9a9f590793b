"""What a model's repeated runs are called (``[evaluation] repeats``), for every sentence,
caption, table label and chart legend that names them: retrained networks ("seeds", the
default) or evaluation runs of one model over sampling epochs ("samples"). The words only:
the figures are the same either way.

    repeat_words("seeds").noise     retraining noise
    repeat_words("samples").noise   sampling noise of repeated runs
"""

from __future__ import annotations

from collections import namedtuple

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
        # one repeat, as a noun to count: "network" (5 networks)
        "unit",
        # one repeat in a caption or legend: "trained network"
        "one",
        # one repeat of the candidate: "trained candidate network"
        "one_candidate",
        # the block line's runs as they are, in its covers sentence: "the networks as trained"
        "as_is",
    ],
)

REPEAT_WORDS = {
    "seeds": RepeatWords(
        label="retraining",
        noise="retraining noise",
        again="the same model is trained again with another seed",
        heading="Retraining",
        moves="retraining",
        term="seed term (retraining)",
        unit="network",
        one="trained network",
        one_candidate="trained candidate network",
        as_is="the networks as trained",
    ),
    "samples": RepeatWords(
        label="repeated runs: sampling noise",
        noise="sampling noise of repeated runs",
        again="the same model is evaluated again over another sampling epoch",
        heading="Repeated runs: sampling noise",
        moves="repeating the runs",
        term="seed term (sampling noise)",
        unit="run",
        one="evaluation run",
        one_candidate="candidate evaluation run",
        as_is="the runs as evaluated",
    ),
}


def repeat_words(repeats: str | None) -> RepeatWords:
    """The words for ``[evaluation] repeats`` ("seeds" when missing or unknown: old reports)."""
    return REPEAT_WORDS.get(repeats or "seeds", REPEAT_WORDS["seeds"])
