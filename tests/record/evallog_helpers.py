"""Shared by the eval-log import tests: real Inspect AI logs (written by inspect_ai's own
``write_eval_log``, or by ``inspect_ai.eval`` with the offline ``mockllm/model``) and
lm-evaluation-harness ``--log_samples`` files in the layout lm-eval writes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner

CREATED = "2026-01-05T10:00:00+00:00"
#: lm-eval's file time stamp, and the results file's date (unix seconds) of the same moment
STAMP = "2026-01-05T10-00-00.000001"
DATE = 1767607200.0


def scores(n: int, epochs: int, p_right: float, seed: int) -> np.ndarray:
    """(n, epochs) right (1) or wrong (0), each question with its own difficulty."""
    rng = np.random.default_rng(seed)
    ease = np.clip(rng.normal(p_right, 0.3, size=n), 0.02, 0.98)
    return (rng.random((n, epochs)) < ease[:, None]).astype(int)


def write_inspect_log(
    path: Path,
    values,
    *,
    ids=None,
    model: str = "openai/model-a",
    task: str = "gpqa_diamond",
    dataset: str = "gpqa_diamond",
    scorers: dict[str, object] | None = None,
    status: str = "success",
    categories=None,
    created: str = CREATED,
    drop: set[tuple[object, int]] = frozenset(),  # (id, epoch) samples left out
    unscored: set[tuple[object, int]] = frozenset(),  # (id, epoch) samples without a score
) -> Path:
    """An Inspect .eval log of ``values`` ((n, epochs): "C"/"I"/"P", 0/1 or numbers) for the
    scorer "choice" (plus ``scorers``: name -> (n, epochs) values of further scorers)."""
    from inspect_ai.log import (
        EvalConfig,
        EvalDataset,
        EvalError,
        EvalLog,
        EvalSample,
        EvalSpec,
        EvalStats,
        write_eval_log,
    )
    from inspect_ai.log._log import EvalScorer
    from inspect_ai.model import GenerateConfig
    from inspect_ai.scorer import Score

    values = np.asarray(values, dtype=object)
    n, epochs = values.shape
    ids = [f"rec{i:03d}" for i in range(n)] if ids is None else list(ids)
    all_scorers = {
        "choice": values,
        **{k: np.asarray(v, dtype=object) for k, v in (scorers or {}).items()},
    }
    spec = EvalSpec(
        created=created,
        task=task,
        dataset=EvalDataset(name=dataset, samples=n),
        model=model,
        model_generate_config=GenerateConfig(temperature=0.5),
        config=EvalConfig(epochs=epochs),
        scorers=[EvalScorer(name=k) for k in all_scorers],
        packages={"inspect_ai": "0.3.test"},
    )

    def plain(v):
        return v.item() if hasattr(v, "item") else v

    samples = [
        EvalSample(
            id=ids[i],
            epoch=e + 1,
            input=f"question {ids[i]}",
            target="A",
            scores={}
            if (ids[i], e + 1) in unscored
            else {k: Score(value=plain(v[i, e])) for k, v in all_scorers.items()},
            metadata={"category": categories[i]} if categories is not None else {},
        )
        for e in range(epochs)
        for i in range(n)
        if (ids[i], e + 1) not in drop
    ]
    log = EvalLog(
        eval=spec,
        status=status,
        samples=samples,
        stats=EvalStats(started_at=created, completed_at=created),
        error=EvalError(message="the provider failed", traceback="", traceback_ansi="")
        if status == "error"
        else None,
    )
    write_eval_log(log, str(path))
    return path


def run_mockllm_eval(log_dir: Path, answers: dict[tuple[str, int], str], epochs: int) -> Path:
    """Run a real Inspect eval offline: ``mockllm/model`` with a scripted solver giving
    ``answers[(sample id, epoch)]`` ("A" is right), scored by ``match()``; the log's path."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import ModelOutput
    from inspect_ai.scorer import match
    from inspect_ai.solver import solver

    ids = sorted({i for i, _ in answers})

    @solver
    def scripted():
        async def solve(state, generate):
            text = answers[(str(state.sample_id), state.epoch)]
            state.output = ModelOutput.from_content("mockllm/model", text)
            return state

        return solve

    dataset = MemoryDataset(
        [Sample(id=i, input=f"question {i}", target="A", metadata={"category": i[0]}) for i in ids],
        name="toy",
    )
    task = Task(dataset=dataset, solver=scripted(), scorer=match(), epochs=epochs, name="toy_task")
    (log,) = inspect_eval(task, model="mockllm/model", log_dir=str(log_dir), display="none")
    assert log.status == "success", log.error
    return Path(log.location)


def write_lm_eval(
    folder: Path,
    values,
    *,
    task: str = "arc_easy",
    metric: str = "acc",
    ids=None,
    filters=("none",),
    stamp: str = STAMP,
    model_args: str = "pretrained=org/model-a,dtype=bfloat16",
    results: bool = True,
    subjects=None,
) -> Path:
    """samples_<task>_<stamp>.jsonl (one line per doc and filter, as lm-eval's evaluator logs
    them) and results_<stamp>.json beside it; the samples file's path."""
    folder.mkdir(parents=True, exist_ok=True)
    values = list(values)
    ids = list(range(len(values))) if ids is None else list(ids)
    path = folder / f"samples_{task}_{stamp}.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for flt in filters:
            for k, (doc_id, v) in enumerate(zip(ids, values, strict=True)):
                doc = {"question": f"q{doc_id}", "choices": ["a", "b"], "answer": 0}
                if subjects is not None:
                    doc["subject"] = subjects[k]
                rec = {
                    "doc_id": doc_id,
                    "doc": doc,
                    "target": 0,
                    "arguments": [[f"q{doc_id}", " a"], [f"q{doc_id}", " b"]],
                    "resps": [[[-1.0, False]], [[-2.0, False]]],
                    "filtered_resps": [[-1.0, False], [-2.0, False]],
                    "filter": flt,
                    "metrics": [metric, f"{metric}_norm"],
                    "doc_hash": "d" * 64,
                    "prompt_hash": "p" * 64,
                    "target_hash": "t" * 64,
                    metric: v,
                    f"{metric}_norm": v,
                }
                f.write(json.dumps(rec) + "\n")
    if results:
        doc = {
            "results": {task: {"alias": task, f"{metric},none": float(np.mean(values))}},
            "configs": {task: {"task": task, "num_fewshot": 5}},
            "versions": {task: 1.0},
            "n-shot": {task: 5},
            "higher_is_better": {task: {metric: True, f"{metric}_norm": True}},
            "config": {"model": "hf", "model_args": model_args, "batch_size": 1},
            "lm_eval_version": "0.4.test",
            "date": DATE,
        }
        (folder / f"results_{stamp}.json").write_text(json.dumps(doc), encoding="utf-8")
    return path


def cli(*args: str):
    from reportgen.cli import main

    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its bytes (nothing written: equal before and after)."""
    if not root.exists():
        return {}
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }
