"""Generate examples/tuned-no-replay and examples/tuned-replay: one before/after pair each.

A scikit-learn MLPClassifier learns an "old" four-option question task (6
features); it is then tuned with `partial_fit` on a "new" task whose questions
sit in another region of feature space and follow a different answer rule.
Without replay the old skill collapses (catastrophic forgetting); replaying
old training examples alongside the new ones keeps it. Both projects share the
frozen question set (the new task's test rows), the general set (the old task's
test rows) and the "before" model.

    .venv/bin/python examples/make_before_after.py
"""

from __future__ import annotations

import copy
import re
import warnings

import _common  # noqa: F401  (first: one BLAS thread before numpy loads)
import numpy as np
import pandas as pd
from _common import EXAMPLES, env_string, fmt_value, freeze, fresh_dir, write_csv, write_json
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

DATA_SEED = 5
LETTERS = np.array(list("ABCD"))
FEATURES = [f"x{i}" for i in range(6)]
CATEGORIES = ["dates", "units", "names", "places", "numbers"]
TEMPLATES = {
    "dates": "which option gives the date of record {k}?",
    "units": "which option converts measurement {k} correctly?",
    "names": "which option spells name {k} as in the source?",
    "places": "which option is the place mentioned in note {k}?",
    "numbers": "which option is the total of invoice {k}?",
}
N_OLD_POOL, N_GENERAL, N_NEW_TRAIN, N_QUESTIONS = 3000, 4000, 800, 500
BEFORE_CFG = dict(hidden_layer_sizes=(64,), max_iter=300, random_state=0)
TUNE_EPOCHS = 40
REPLAY_ROWS = 1000
CREATED = "2026-05-04T09:00:00Z"  # question set and general set frozen before tuning
RULE_WRITTEN = "2026-05-04"  # the day of the freeze, before the first run
STARTED = {"before": "2026-05-04T10:00:00Z", "after": "2026-05-05T14:30:00Z"}

VARIANTS = {
    "tuned-no-replay": dict(replay=0, title="Tuning on the new questions without replay"),
    "tuned-replay": dict(
        replay=REPLAY_ROWS, title="Tuning on the new questions with replay of old examples"
    ),
}


def make_task(n, domain, W, rng):
    """n questions: features, correct option (argmax of a noisy linear score), category."""
    X = rng.normal(size=(n, 6))
    X[:, 5] = rng.normal(-1.5 if domain == "old" else 1.5, 0.5, size=n)
    y = (X[:, :5] @ W.T + 0.35 * rng.gumbel(size=(n, 4))).argmax(axis=1)
    angle = np.arctan2(X[:, 1], X[:, 0])
    sector = np.minimum(
        ((angle + np.pi) / (2 * np.pi) * len(CATEGORIES)).astype(int), len(CATEGORIES) - 1
    )
    return X, y, np.array(CATEGORIES)[sector]


def frame(prefix, X, y, cat=None, with_text=False):
    ids = [f"{prefix}{i:04d}" for i in range(1, len(y) + 1)]
    df = pd.DataFrame({"row_id": ids})
    if cat is not None:
        df["category"] = cat
    if with_text:
        df["text"] = [
            f"{i}: {TEMPLATES[c].format(k=1000 + 37 * n % 9000)}"
            for n, (i, c) in enumerate(zip(ids, cat, strict=True))
        ]
    for j, f in enumerate(FEATURES):
        df[f] = X[:, j].round(6)
    df["answer"] = LETTERS[y]
    return df


# -- the evaluation harness ---------------------------------------------------
ANSWER_RE = re.compile(r"^answer: ([A-D])$")


def respond(model, X):
    """The model's answers as the harness receives them: one 'answer: X' line per question."""
    return [f"answer: {LETTERS[k]}" for k in model.predict(X)]


def grade(responses, gold):
    """Parse each response and compare with the gold letter; unparseable counts as wrong."""
    out = []
    for r, g in zip(responses, gold, strict=True):
        m = ANSWER_RE.match(r)
        out.append(int(m is not None and m.group(1) == g))
    return np.array(out)


def harness_shapes(model, questions: pd.DataFrame) -> dict:
    """Assertions on the harness over the whole frozen set, counted."""
    n_assert = 0

    def ok(cond, what):
        nonlocal n_assert
        assert cond, what
        n_assert += 1

    X = questions[FEATURES].to_numpy()
    responses = respond(model, X)
    ok(len(responses) == len(questions), "one response per question")
    ok(questions["row_id"].is_unique, "question ids unique")
    parsed = [ANSWER_RE.match(r) for r in responses]
    ok(all(m is not None for m in parsed), "every response parses")
    ok({m.group(1) for m in parsed} <= set(LETTERS), "parsed answers are options A-D")
    correct = grade(responses, questions["answer"])
    ok(correct.shape == (len(questions),), "one grade per question")
    ok(set(np.unique(correct)) <= {0, 1}, "grades are 0/1")
    ok(
        grade(["answer: A", "answer: E", "A", ""], ["A", "E", "A", "A"]).tolist() == [1, 0, 0, 0],
        "bad formats graded wrong",
    )
    ok(
        np.array_equal(
            correct, (model.predict(X) == np.searchsorted(LETTERS, questions["answer"])).astype(int)
        ),
        "grades match direct comparison",
    )
    return {"passed": True, "assertions": n_assert, "rows": len(questions)}


def tiny_overfit(X, y) -> dict:
    """The tuning code path (partial_fit, same architecture) memorises 32 questions."""
    m = MLPClassifier(**{**BEFORE_CFG, "random_state": 3})
    classes = np.arange(4)
    for _ in range(400):
        m.partial_fit(X, y, classes=classes)
    return {
        "rows": len(y),
        "epochs": 400,
        "final_loss": float(f"{m.loss_:.3e}"),
        "accuracy": float(m.score(X, y)),
    }


def main() -> None:
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    rng = np.random.default_rng(DATA_SEED)
    W_old = rng.normal(size=(4, 5))
    W_new = 0.4 * W_old + rng.normal(size=(4, 5))
    Xo, yo, _ = make_task(N_OLD_POOL, "old", W_old, rng)
    Xg, yg, cg = make_task(N_GENERAL, "old", W_old, rng)
    Xn, yn, cn = make_task(N_NEW_TRAIN, "new", W_new, rng)
    Xq, yq, cq = make_task(N_QUESTIONS, "new", W_new, rng)
    split = {
        "train": frame("t", Xn, yn, cn),
        "test": frame("q", Xq, yq, cq, with_text=True),
        "general": frame("g", Xg, yg, cg),
    }
    # models see exactly the rounded features written to the split files
    Xn, Xq, Xg = (split[k][FEATURES].to_numpy() for k in ("train", "test", "general"))
    Xo = Xo.round(6)

    before = MLPClassifier(**BEFORE_CFG).fit(Xo, yo)
    afters = {}
    for name, v in VARIANTS.items():
        after = copy.deepcopy(before)
        idx = np.random.default_rng(1).choice(N_OLD_POOL, size=v["replay"], replace=False)
        X = np.vstack([Xn, Xo[idx]])
        y = np.concatenate([yn, yo[idx]])
        for _ in range(TUNE_EPOCHS):
            after.partial_fit(X, y)
        afters[name] = after

    for name, v in VARIANTS.items():
        out = fresh_dir(EXAMPLES / name)
        for part, df in split.items():
            write_csv(df, out / "split" / f"{part}.csv", float_format="%.6f")
        freeze(out, CREATED)
        rows = []
        summary = {}
        for model, m, run_id, config, notes in (
            (
                "before",
                before,
                "before",
                "mlp64-old",
                "MLPClassifier(64,) fitted on 3,000 old-task questions",
            ),
            (
                "after",
                afters[name],
                f"after-{name.removeprefix('tuned-')}",
                f"tune-{TUNE_EPOCHS}ep-replay{v['replay']}",
                f"the before model tuned with {TUNE_EPOCHS} partial_fit epochs on the 800 new-task rows"
                + (
                    f" plus {v['replay']} replayed old-task training rows (not general-set rows)"
                    if v["replay"]
                    else ", no replay"
                ),
            ),
        ):
            for part, X in (("test", Xq), ("general", Xg)):
                qs = split[part]
                correct = grade(respond(m, X), qs["answer"])
                pred = pd.DataFrame({"row_id": qs["row_id"], "correct": correct})
                if part == "test":
                    pred["category"] = qs["category"]
                    pred["text"] = qs["text"]
                path = f"artefacts/predictions/{model}-{part}.csv"
                write_csv(pred, out / path)
                summary[(model, part)] = correct.mean()
                rows.append(
                    {
                        "run_id": run_id,
                        "model": model,
                        "seed": 0,
                        "split": part,
                        "metric": "accuracy",
                        "value": fmt_value(correct.mean()),
                        "status": "ok",
                        "started_at": STARTED[model],
                        "config": config,
                        "features": ",".join(FEATURES),
                        "split_id": "questions-v1",
                        "predictions": path,
                        "fit_seconds": "",
                        "env": env_string(),
                        "notes": notes,
                    }
                )
        write_csv(pd.DataFrame(rows), out / "runs.csv")
        checks = out / "artefacts" / "checks"
        write_json(
            {
                "check": "shapes",
                "model": "after",
                "what": "evaluation harness: answer parsing and grading on the frozen question set",
                **harness_shapes(afters[name], split["test"]),
            },
            checks / "shapes.json",
        )
        write_json(
            {
                "check": "overfit",
                "model": "after",
                "what": "the tuning code path (partial_fit) memorises 32 new-task questions",
                **tiny_overfit(Xn[:32], yn[:32]),
            },
            checks / "overfit.json",
        )
        (out / "evreport.toml").write_text(toml(v["title"], summary))
        (out / "README.md").write_text(readme(name, v))


def toml(title, s) -> str:
    gain = s[("after", "test")] - s[("before", "test")]
    return f"""title  = "{title}"
author = "A. Student (synthetic example)"

[claim]
text              = "Tuning on the new questions raises accuracy by {100 * gain:.0f} points without hurting anything else."
kind              = "before-after"
candidate         = "after"
baseline          = "before"
metric            = "accuracy"
min_useful_effect = 0.02

[rule]
written     = {RULE_WRITTEN}
confidence  = 0.95
resamples   = 2000
random_seed = 0

[evaluation]
slice = "category"

[general]
split    = "general"
max_drop = 0.02

[reconsider]
when = ["a second frozen question set from next quarter's tickets is available"]
"""


def readme(name, v) -> str:
    replay = (
        f"together with {v['replay']} old-task training examples replayed (drawn from the old training pool, never from the general set)"
        if v["replay"]
        else "alone, with no replay of old examples"
    )
    expect = (
        "the new questions improve by far more than `min_useful_effect` and the general set holds within `max_drop`: adopt."
        if v["replay"]
        else "the new questions improve, but the general set collapses (catastrophic forgetting): roll back."
    )
    return f"""# {name} (synthetic example)

A before/after comparison (`claim.kind = "before-after"`). A scikit-learn
`MLPClassifier(hidden_layer_sizes=(64,))` answers four-option questions (6
features, answer A-D). "before" was trained on 3,000 old-task questions; "after"
is that model tuned with {TUNE_EPOCHS} `partial_fit` epochs on the 800 new-task rows in
`split/train.csv`, {replay}. Generated by `examples/make_before_after.py`
(`make examples`), which writes this folder and its twin; regenerating gives
byte-identical files.

- `split/test.csv`: the frozen question set (500 new-task questions, with
  `category` and `text`); `split/general.csv`: the general set ({N_GENERAL:,} old-task
  test questions). Both were frozen (`split/manifest.json`, `created`) before
  tuning started.
- Predictions: `artefacts/predictions/<model>-test.csv` (`row_id, correct,
  category, text`) and `<model>-general.csv` (`row_id, correct`).
- `artefacts/checks/`: the evaluation harness's answer parsing and grading
  checked on the frozen set (`shapes`), and the tuning code path memorising 32
  questions (`overfit`). There is no initial-loss or gradient check: the
  network is scikit-learn's.
- One model each, no seeds: retraining noise is not measured here.

What to expect: {expect}
"""


if __name__ == "__main__":
    main()
