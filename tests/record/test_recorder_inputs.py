"""Recorder.log given arguments that do not go together, or of the wrong type: a ValueError
naming the argument (never another exception from deeper down), and nothing written."""

from __future__ import annotations

import numpy as np
import pytest

from reportgen.record import Recorder

TOML = """title = "t"

[claim]
text = "c"
candidate = "a"
baseline = "b"
metric = "log_loss"

[evaluation]
threshold = 0.5
"""

IDS = ["r0", "r1", "r2", "r3"]
Y = [0, 1, 1, 0]
P = [0.2, 0.7, 0.9, 0.4]
P3 = np.full((4, 3), 1 / 3)
CORRECT = [1, 0, 1, 1]
GIVE_ONE = r"give exactly one of y and p, correct, or values \(got y/p and correct\)"

BAD = [
    ("p and y_pred", dict(y=Y, p=P, y_pred=P), r"give p \(classification\) or y_pred"),
    ("y_pred without y", dict(y_pred=P), r"p \(or y_pred, for regression\) is required"),
    ("p without y", dict(p=P), "y is required together with p"),
    ("classes with y_pred", dict(y=Y, y_pred=P, classes=[0, 1]), "classes= .* y_pred="),
    ("classes with a 1-D p", dict(y=Y, p=P, classes=[0, 1]), "classes= .* a binary p"),
    ("classes with correct", dict(correct=CORRECT, classes=[0, 1]), "classes= .* correct="),
    ("classes with values", dict(values=P, classes=[0, 1]), "classes= .* values="),
    ("classes a number", dict(y=[0, 1, 2, 0], p=P3, classes=3), "classes=3 must be a list"),
    ("classes a string", dict(y=[0, 1, 2, 0], p=P3, classes="abc"), "classes='abc' must be"),
    ("correct with y", dict(correct=CORRECT, y=Y), GIVE_ONE),
    ("correct with p", dict(correct=CORRECT, p=P, metric="accuracy"), GIVE_ONE),
    ("correct with y and p", dict(correct=CORRECT, y=Y, p=P, metric="accuracy"), GIVE_ONE),
    ("correct with values", dict(correct=CORRECT, values=P), r"\(got correct and values\)"),
    ("values with p", dict(values=P, p=P), r"\(got y/p and values\)"),
    ("category with y and p", dict(y=Y, p=P, category=list("abab")), "category= belongs to"),
    ("text with y_pred", dict(y=P, y_pred=P, text=list("abcd")), "text= belongs to .* y_pred"),
    ("text with values", dict(values=P, text=list("abcd")), "text= belongs to .* values="),
    ("fold off a fold split", dict(y=Y, p=P, fold=1), r"repeat= and fold= belong to split='fold'"),
    ("repeat off a fold split", dict(y=Y, p=P, repeat=1), r"repeat= and fold= belong"),
    ("train_rows off a fold split", dict(y=Y, p=P, train_rows=3), "train_rows= belongs"),
    ("split=fold without fold", dict(y=Y, p=P, split="fold"), "split='fold' needs fold="),
    ("fold=0", dict(y=Y, p=P, split="fold", fold=0), "fold=0 must be a whole number"),
    ("fold=True", dict(y=Y, p=P, split="fold", fold=True), "fold=True must be"),
    ("fold=1.0", dict(y=Y, p=P, split="fold", fold=1.0), r"fold=1.0 must be"),
    ("repeat='1'", dict(y=Y, p=P, split="fold", fold=1, repeat="1"), "repeat='1' must be"),
    ("train_rows=0", dict(y=Y, p=P, split="fold", fold=1, train_rows=0), "train_rows=0 must"),
    ("columns a list", dict(y=Y, p=P, columns=[1, 2]), "columns= must be a dict"),
    ("columns keyed by a number", dict(y=Y, p=P, columns={1: Y}), "columns has the key 1"),
    ("columns naming p", dict(y=Y, p=P, columns={"p": P}), r"columns\['p'\] clashes"),
    ("metric=None", dict(y=Y, p=P, metric=None), "metric=None must be a metric name"),
    ("metric a number", dict(y=Y, p=P, metric=5), "metric=5 must be a metric name"),
    ("fit_seconds a word", dict(y=Y, p=P, fit_seconds="x"), "fit_seconds='x' must be a finite"),
    ("fit_seconds a list", dict(y=Y, p=P, fit_seconds=[1]), r"fit_seconds=\[1\] must be"),
    ("started_at a number", dict(y=Y, p=P, started_at=5), "started_at=5 is not an ISO 8601"),
    ("run_id a number", dict(y=Y, p=P, run_id=5), "run_id=5 must be a string"),
    ("config a number", dict(y=Y, p=P, config=5), "config=5 must be a string"),
]


@pytest.fixture
def rec(tmp_path):
    (tmp_path / "split").mkdir()
    (tmp_path / "split" / "test.csv").write_text("row_id\n" + "\n".join(IDS) + "\n")
    (tmp_path / "evreport.toml").write_text(TOML)
    rec = Recorder(tmp_path)
    rec.freeze("2020-01-01T00:00:00Z")
    return rec


@pytest.mark.parametrize(("kwargs", "message"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_a_bad_combination_raises_valueerror_naming_the_argument(rec, kwargs, message):
    args = dict(model="a", seed=1, split="test", row_id=IDS, metric="log_loss")
    if "correct" in kwargs:
        args["metric"] = "accuracy"
    if "values" in kwargs:
        args["metric"] = "latency"
    with pytest.raises(ValueError, match=message):
        rec.log(**{**args, **kwargs})
    assert (rec.root / "runs.csv").read_text().count("\n") == 1
    assert list((rec.root / "artefacts" / "predictions").iterdir()) == []


def test_the_same_arguments_given_rightly_are_logged(rec):
    """The valid calls the cases above spoil: each is logged."""
    calls = [
        dict(y=Y, p=P),
        dict(y=P, y_pred=P, metric="squared_error"),
        dict(y=[0, 1, 2, 0], p=P3, classes=[0, 1, 2], metric="accuracy"),
        dict(correct=CORRECT, category=list("abab"), text=list("abcd"), metric="accuracy"),
        dict(values=P, metric="latency"),
        dict(y=Y, p=P, columns={"block": [1, 1, 2, 2]}, fit_seconds=1, started_at=None),
    ]
    for seed, kwargs in enumerate(calls):
        args = dict(model="a", seed=seed, split="test", row_id=IDS, metric="log_loss")
        assert rec.log(**{**args, **kwargs})
