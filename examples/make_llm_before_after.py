"""Generate examples/llm-before-after: a language model before and after fine-tuning, evaluated
with Inspect AI on a frozen question set (3 epochs) and a general set, imported with
`evreport import inspect`.

The evals are real Inspect runs (`inspect_ai.eval`), offline: the `mockllm/model` provider
with a scripted solver standing for the two model versions (each version answers a question
right with its own per-question probability, drawn once from a seeded generator, so epochs
disagree the way sampled answers do), scored by Inspect's `match()` scorer.
The solver sets the output itself, so no model is called and no tokenizer is downloaded.
The order is the honest one: the question sets and the decision rule are written and frozen
(`evreport freeze`) before the evals run; then each log is imported through the CLI.

    .venv/bin/python examples/make_llm_before_after.py      (needs the [inspect] extra)

The runs' `started_at` and the manifest's `created` are the real times of this run, so the
folder is not byte-identical on regeneration (the other examples use a fixed clock); the
questions, answers, scores and every figure of the report are.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import _common  # noqa: F401  (first: one BLAS thread before numpy, the repo on sys.path)
import numpy as np
import pandas as pd
from _common import EXAMPLES, fresh_dir, write_csv

OUT = EXAMPLES / "llm-before-after"
SEED = 20261202
EPOCHS = 3
N_TEST, N_GENERAL = 150, 400
TOPICS = ("algebra", "geometry", "probability")
GENERAL_TOPICS = ("history", "language", "science", "trivia")


def _probabilities(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Per question, each version's chance of answering right on one epoch. Tuning on the new
    questions lifts algebra and probability a lot, geometry a little; on the general set it
    costs almost nothing (a small, uneven drift)."""
    base = rng.beta(2.2, 2.0, N_TEST)
    topic = np.arange(N_TEST) % 3
    lift = np.where(topic == 1, 0.04, 0.22) + rng.normal(0, 0.12, N_TEST)
    after = np.clip(base + lift, 0.02, 0.98)
    g_before = rng.beta(5.0, 1.6, N_GENERAL)
    g_after = np.clip(g_before - 0.004 + rng.normal(0, 0.03, N_GENERAL), 0.01, 0.99)
    return {"before": base, "after": after, "g_before": g_before, "g_after": g_after}


def _answers(rng: np.random.Generator, ids: list[str], p: np.ndarray, u: np.ndarray) -> dict:
    """(sample id, epoch) -> the scripted output: "A" (right) when the epoch's uniform draw
    ``u[epoch - 1]`` is below p, else a wrong option."""
    out = {}
    for e in range(1, EPOCHS + 1):
        right = u[e - 1] < p
        wrong = rng.choice(["B", "C", "D"], len(ids))
        for i, r, w in zip(ids, right, wrong, strict=True):
            out[(i, e)] = "A" if r else str(w)
    return out


def _run_eval(log_dir: Path, name: str, questions: pd.DataFrame, answers: dict) -> Path:
    """One real Inspect eval of the scripted version on these questions; the log's path."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import ModelOutput
    from inspect_ai.scorer import match
    from inspect_ai.solver import solver

    @solver
    def scripted():
        async def solve(state, generate):
            text = answers[(str(state.sample_id), state.epoch)]
            state.output = ModelOutput.from_content("mockllm/model", text)
            return state

        return solve

    dataset = MemoryDataset(
        [
            Sample(id=r.row_id, input=r.text, target="A", metadata={"category": r.category})
            for r in questions.itertuples()
        ],
        name=name,
    )
    task = Task(dataset=dataset, solver=scripted(), scorer=match(), epochs=EPOCHS, name=name)
    (log,) = inspect_eval(task, model="mockllm/model", log_dir=str(log_dir), display="none")
    if log.status != "success":
        raise SystemExit(f"the {name} eval failed: {log.error}")
    return Path(log.location)


def _grading_check(log: Path, answers: dict, model: str, n: int) -> dict:
    """Rung 1: the harness graded every sample of every epoch as the scripted answer says
    ("A" right, anything else wrong), read back with Inspect's own reader."""
    from inspect_ai.log import read_eval_log

    ev = read_eval_log(str(log))
    checked = agree = 0
    for s in ev.samples or []:
        (score,) = s.scores.values()
        checked += 1
        agree += (score.value == "C") == (answers[(str(s.id), s.epoch)] == "A")
    return {
        "check": "shapes",
        "model": model,
        "what": "evaluation harness: Inspect's match() grading agrees with the scripted answer "
        "on every sample of every epoch of the frozen question set",
        "passed": bool(checked == agree == n * EPOCHS),
        "assertions": int(checked),
        "rows": n,
    }


def _evreport(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "reportgen", *args], check=True)


def main() -> None:
    rng = np.random.default_rng(SEED)
    fresh_dir(OUT)
    test = pd.DataFrame(
        {
            "row_id": [f"t{i:03d}" for i in range(1, N_TEST + 1)],
            "category": [TOPICS[i % 3] for i in range(N_TEST)],
        }
    )
    test["text"] = [f"{c} problem {r[1:]}: which option is right?" for r, c in
                    zip(test.row_id, test.category, strict=True)]  # fmt: skip
    general = pd.DataFrame(
        {
            "row_id": [f"g{i:03d}" for i in range(1, N_GENERAL + 1)],
            "category": [GENERAL_TOPICS[i % 4] for i in range(N_GENERAL)],
        }
    )
    general["text"] = [f"{c} question {r[1:]}" for r, c in
                       zip(general.row_id, general.category, strict=True)]  # fmt: skip
    write_csv(test, OUT / "split" / "test.csv")
    write_csv(general, OUT / "split" / "general.csv")
    today = datetime.now(UTC).date().isoformat()
    (OUT / "evreport.toml").write_text(
        f"""title  = "Fine-tuning a language model on the algebra-to-probability question set"
author = "A. Student (synthetic example: scripted Inspect evals)"

[claim]
text              = "Fine-tuning raises accuracy on the frozen question set by at least 5 points without hurting general questions."
kind              = "before-after"
candidate         = "after"
baseline          = "before"
metric            = "accuracy"
min_useful_effect = 0.05

[rule]
written     = {today}
confidence  = 0.95
resamples   = 2000
random_seed = 0

[evaluation]
repeats = "samples"   # the epochs are repeated samples of one model, not retraining
slice   = "category"

[general]
split    = "general"
max_drop = 0.02

[reconsider]
when = ["the next model release changes the tokenizer or the chat template"]
""",
        encoding="utf-8",
    )
    _evreport("freeze", str(OUT))  # the questions are frozen before any eval runs

    p = _probabilities(rng)
    # The general set's sampled answers share their randomness across the versions (a tuned
    # model keeps most of its behaviour: it answers an old question as before unless tuning
    # moved that question's chance); the new questions are drawn afresh for each version.
    u_general = rng.random((EPOCHS, N_GENERAL))
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp)
        for version in ("before", "after"):
            a_test = _answers(rng, list(test.row_id), p[version], rng.random((EPOCHS, N_TEST)))
            a_gen = _answers(rng, list(general.row_id), p[f"g_{version}"], u_general)
            log = _run_eval(logs / version, "algebra_probability", test, a_test)
            glog = _run_eval(logs / f"{version}-general", "general_knowledge", general, a_gen)
            _evreport("import", "inspect", str(OUT), str(log), "--model", version,
                      "--slice-key", "category")  # fmt: skip
            _evreport("import", "inspect", str(OUT), str(glog), "--model", version,
                      "--part", "general", "--slice-key", "category")  # fmt: skip
            check = _grading_check(log, a_test, version, N_TEST)
            path = OUT / "artefacts" / "checks" / f"grading-{version}.json"
            path.write_text(json.dumps(check, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
