"""evreport.toml: the claim and the decision rule, fixed before the runs."""

from __future__ import annotations

import datetime as dt
import difflib
import math
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reportgen.errors import Problem, clean_text, quote
from reportgen.names import RUNG_KEYS, did_you_mean
from reportgen.words.nouns import metric_unit

#: the built-in metrics of each task (per-row, so the row-weighted estimand holds)
TASK_METRICS: dict[str, tuple[str, ...]] = {
    "binary": ("log_loss", "brier", "accuracy", "error_rate", "cost"),
    "multiclass": ("log_loss", "brier", "accuracy", "error_rate"),
    "regression": ("squared_error", "absolute_error"),
}
TASKS = tuple(TASK_METRICS)
BUILTIN_METRICS = tuple(dict.fromkeys(m for ms in TASK_METRICS.values() for m in ms))
HIGHER_IS_BETTER_METRICS = ("accuracy",)
#: metrics that are not a mean of per-row values: descriptions only (docs/methods.md)
DESCRIPTIVE_METRICS = ("macro_f1", "f1", "roc_auc", "auc", "average_precision", "r2")
KINDS = ("model-vs-baseline", "before-after")
SD_FROM = ("candidate", "baseline", "larger")
BLOCK_KINDS = ("period", "group")
#: evaluation designs: one split (train, validation, test) or cross-validation (methods.md section 9)
DESIGNS = ("split", "cv")
#: what the repeated runs of a model are: retrained seeds, or evaluations of one model repeated
#: over sampling epochs (language-model evals); the words change, the figures do not
REPEATS = ("seeds", "samples")
#: bootstrap resamples allowed in [rule] (the build's CPU time grows with resamples x blocks)
MAX_RESAMPLES = 100_000
#: the highest confidence allowed: beyond it the normal quantile is no longer finite
#: (0.9999999999999999 made z infinite and the variance budget raise OverflowError)
MAX_CONFIDENCE = 0.9999
#: the largest value of each other number validate accepts, so no product in a build can
#: overflow to inf (false_negative = 1e308 made cost_per_case inf); the lower bounds are
#: the checks below
UPPER_BOUNDS: dict[str, float] = {
    "claim.min_useful_effect": 1e12,
    "rule.seed_sd_multiple": 1e6,
    "rule.random_seed": 2**63 - 1,
    "evaluation.not_worse_margin": 1e12,
    "costs.false_positive": 1e12,
    "costs.false_negative": 1e12,
    "costs.cases_per_period": 1e12,
    "general.max_drop": 1e12,
}

_STR, _NUM, _INT, _BOOL, _LIST, _DATE = (
    "a string",
    "a number",
    "a whole number",
    "true or false",
    "a list of strings",
    "a date (YYYY-MM-DD)",
)

#: table -> key -> (expected type, required)
SCHEMA: dict[str | None, dict[str, tuple[str, bool]]] = {
    None: {"title": (_STR, True), "author": (_STR, False)},
    "claim": {
        "text": (_STR, True),
        "kind": (_STR, False),
        "candidate": (_STR, True),
        "baseline": (_STR, True),
        "metric": (_STR, True),
        "higher_is_better": (_BOOL, False),
        "min_useful_effect": (_NUM, False),
        "task": ('"binary", "multiclass" or "regression"', False),
        "unit": (_STR, False),
    },
    "rule": {
        "written": (_DATE, False),
        "seed_sd_multiple": (_NUM, False),
        "seed_sd_from": (_STR, False),
        "confidence": (_NUM, False),
        "resamples": (_INT, False),
        "random_seed": (_INT, False),
        "seeds_paired": (_BOOL, False),
    },
    "evaluation": {
        "block": (_STR, False),
        "slice": (_STR, False),
        "not_worse_on": (_LIST, False),
        "not_worse_margin": (_NUM, False),
        "block_kind": ('"period" or "group"', False),
        "repeats": ('"seeds" or "samples"', False),
        "threshold": ('"validation-cost" or a number in [0, 1]', False),
        "bins": (_INT, False),
        "design": ('"split" or "cv"', False),
    },
    "costs": {
        "false_positive": (_NUM, False),
        "false_negative": (_NUM, False),
        "unit": (_STR, False),
        "cases_per_period": (_NUM, False),
        "period": (_STR, False),
    },
    "general": {"split": (_STR, False), "max_drop": (_NUM, False)},
    "reconsider": {"when": (_LIST, False)},
    "evidence": {k: (_LIST, False) for k in RUNG_KEYS},
    #: model name (as runs.csv spells it) -> the name the report prints; any key is allowed
    "models": {},
}
#: tables whose keys are the user's own (model names), each value of the given type
OPEN_TABLES = {"models": _STR}
#: the longest display name [models] accepts (it is printed in headings and chart legends)
MAX_DISPLAY_NAME = 80


@dataclass
class Config:
    title: str = ""
    author: str | None = None
    claim_text: str = ""
    kind: str = "model-vs-baseline"
    candidate: str = ""
    baseline: str = ""
    metric: str = "log_loss"
    higher_is_better: bool = False
    min_useful_effect: float | None = None
    task: str | None = None  # [claim] task as written; None: inferred from the predictions
    claim_unit: str | None = None  # [claim] unit: what the target (and the metric) is counted in
    written: dt.date | None = None
    seed_sd_multiple: float = 2.0
    seed_sd_from: str = "larger"
    confidence: float = 0.95
    resamples: int = 2000
    random_seed: int = 0
    seeds_paired: bool = False
    block: str | None = None
    slice: str | None = None
    not_worse_on: list[str] = field(default_factory=list)
    not_worse_margin: float | None = None
    block_kind: str = "period"
    repeats: str = "seeds"
    threshold: str | float = "validation-cost"
    bins: int = 10
    design: str = "split"  # "cv": k-fold cross-validation, split/folds.csv (methods.md section 9)
    false_positive: float = 1.0
    false_negative: float = 1.0
    unit: str = "cost units"
    cases_per_period: float | None = None
    period: str | None = None
    general_split: str = "general"
    max_drop: float = 0.02
    reconsider_when: list[str] = field(default_factory=list)
    evidence: dict[str, list[str]] = field(default_factory=dict)
    #: [models]: model name -> display name ("mlp" -> "MLP (one hidden layer of 32)")
    display_names: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)  # "table.key" -> line, for citations

    @property
    def builtin_metric(self) -> bool:
        return self.metric in BUILTIN_METRICS

    @property
    def metric_unit(self) -> str | None:
        """The unit of the metric's values (and of the useful effect): "mmHg²" for a squared
        error, "mmHg" otherwise; None without [claim] unit."""
        return metric_unit(self.metric, self.claim_unit)

    @property
    def metric_words(self) -> str:
        """The metric as sentences name its values, with [claim] unit: "log loss",
        "mean squared error in mmHg²", "mean absolute error in mmHg". A per-row error is
        reported as its mean over rows, so the regression metrics say "mean"."""
        name = self.metric.replace("_", " ")
        if self.metric in ("squared_error", "absolute_error"):
            name = "mean " + name
        if not self.claim_unit:
            return name
        return f"{name} in {self.metric_unit}"


#: problems reported for one evreport.toml before the rest are only counted
MAX_PROBLEMS = 100

_HEADER = re.compile(r"^\[\s*([A-Za-z0-9_.\-\"' ]+?)\s*\]")
_KEY = re.compile(r"^([A-Za-z0-9_\-\"' .]+?)\s*=")


def line_index(text: str) -> dict[tuple[str | None, str | None], int]:
    """(table, key) -> line of its first occurrence, and (table, None) -> its header line.

    One pass over the file, so locating thousands of problems stays linear. Dotted keys at
    the top level (``claim.text = ...``) count as keys of their table.
    """
    index: dict[tuple[str | None, str | None], int] = {}
    current: str | None = None
    for i, raw in enumerate(text.splitlines(), 1):
        s = raw.strip()
        if s.startswith("[["):
            current = "[[array]]"
            continue
        m = _HEADER.match(s)
        if m:
            current = m.group(1).strip().strip("\"'")
            index.setdefault((current, None), i)
            index.setdefault((current.split(".")[0].strip().strip("\"'"), None), i)  # [a.b]
            continue
        m = _KEY.match(s)
        if m:
            parts = [p.strip().strip("\"'") for p in m.group(1).split(".")]
            if len(parts) == 1:
                index.setdefault((current, parts[0]), i)
            elif current is None and len(parts) == 2:
                index.setdefault((parts[0], parts[1]), i)
                index.setdefault((parts[0], None), i)
    return index


def _type_ok(kind: str, value: Any) -> bool:
    if kind == _STR:
        return isinstance(value, str)
    if kind == _NUM:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return False
        try:
            return math.isfinite(float(value))
        except OverflowError:  # an integer too large for a float
            return False
    if kind == _INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == _BOOL:
        return isinstance(value, bool)
    if kind == _LIST:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == _DATE:
        return isinstance(value, dt.date | dt.datetime) or isinstance(value, str)
    return True


class _Sink:
    """Collects one file's problems: each names its line; past MAX_PROBLEMS they are only counted."""

    def __init__(self, text: str, name: str, problems: list[Problem]) -> None:
        self.name = name
        self.problems = problems
        self.index = line_index(text)
        self.start = len(problems)
        self.dropped = 0

    def line(self, table: str | None, key: str | None) -> int | None:
        return self.index.get((table, key))

    def full(self) -> bool:
        """True once MAX_PROBLEMS are reported: later ones are only counted."""
        if len(self.problems) - self.start >= MAX_PROBLEMS:
            self.dropped += 1
            return True
        return False

    def __call__(self, msg: str, table=None, key=None, slug: str = "bad-config") -> None:
        if self.full():
            return
        self.problems.append(
            Problem(msg, self.name, self.line(table, key), 1 if key else None, slug=slug)
        )


def _errors(problems: list[Problem]) -> int:
    return len([p for p in problems if p.severity == "error"])


def _load_toml(text: str, name: str, problems: list[Problem]) -> dict | None:
    """tomllib.loads with every failure as a Problem (bad syntax, deep nesting, huge integers)."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        problems.append(Problem("not readable TOML: nested too deeply", name, slug="bad-toml"))
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"at line (\d+), column (\d+)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        problems.append(
            Problem(
                f"not valid TOML: {msg}",
                name,
                int(m.group(1)) if m else None,
                int(m.group(2)) if m else None,
                slug="bad-toml",
            )
        )
    except ValueError as e:  # e.g. an integer with more than 4,300 digits
        problems.append(Problem(f"not readable TOML: {clean_text(e, 120)}", name, slug="bad-toml"))
    return None


def _unknown_table(key: str, err: _Sink) -> None:
    tables = [t for t in SCHEMA if t is not None]
    if err.full():
        return
    close = difflib.get_close_matches(key, tables, n=1)
    hint = f"; did you mean [{close[0]}]?" if close else f"; known tables: {', '.join(tables)}"
    err.problems.append(
        Problem(
            f"unknown table [{clean_text(key, 80)}]{hint}",
            err.name,
            err.line(key, None),
            1,
            slug="unknown-key",
        )
    )


def _unknown_key(table: str | None, k: str, label: str, err: _Sink) -> None:
    known = SCHEMA[table]
    if err.full():
        return
    close = difflib.get_close_matches(k, list(known), n=1, cutoff=0.5)
    if not close:  # maybe it belongs to another table
        for t2, keys in SCHEMA.items():
            if k in keys and t2 != table:
                close = [f"[{t2}] {k}" if t2 else f"{k} (top level)"]
                break
    hint = f"; did you mean {quote(close[0])}?" if close else f"; known keys: {', '.join(known)}"
    err(f"unknown key {quote(label)}{hint}", table, k, slug="unknown-key")


def _check_keys(doc: dict, cfg: Config, err: _Sink) -> None:
    """Unknown tables and keys (with the closest known name) and values of the wrong type."""
    for key, value in doc.items():
        if isinstance(value, dict):
            if key not in SCHEMA:
                _unknown_table(key, err)
                continue
            items = value.items()
            table = key
        else:
            items = [(key, value)]
            table = None
        for k, v in items:
            label = f"{table}.{k}" if table else k
            spec = {k: (OPEN_TABLES[table], False)} if table in OPEN_TABLES else SCHEMA[table]
            if k not in spec:
                _unknown_key(table, k, label, err)
                continue
            kind, _ = spec[k]
            if not _type_ok(kind, v):
                err(
                    f"{label} = {quote(v)} must be "
                    + ("a finite number" if kind == _NUM and isinstance(v, float) else kind),
                    table,
                    k,
                    slug="bad-type",
                )
                continue
            line = err.line(table, k)
            if line:
                cfg.lines[label] = line


def _check_required(doc: dict, err: _Sink) -> None:
    for table, keys in SCHEMA.items():
        for k, (_, required) in keys.items():
            section = doc if table is None else doc.get(table)
            if required and (not isinstance(section, dict) or k not in section):
                where = f"[{table}]" if table else "the top level"
                err(f"missing required key {quote(k)} in {where}", table, None, slug="missing-key")


def parse_config(text: str, name: str, problems: list[Problem]) -> Config | None:
    """Parse and validate evreport.toml text; every problem names the line, unknown keys the closest known one."""
    doc = _load_toml(text, name, problems)
    if doc is None:
        return None
    before = _errors(problems)
    err = _Sink(text, name, problems)
    cfg = Config()
    _check_keys(doc, cfg, err)
    if err.dropped:
        problems.append(
            Problem(f"(and {err.dropped:,} more problems in this file)", name, slug="more-problems")
        )
    _check_required(doc, err)
    if _errors(problems) > before:
        return None
    cfg.title = doc["title"]
    cfg.author = doc.get("author")
    _read_claim(cfg, doc.get("claim", {}), err)
    _read_rule(cfg, doc.get("rule", {}), err)
    _read_evaluation(cfg, doc.get("evaluation", {}), err)
    _read_costs(cfg, doc.get("costs", {}), err)
    general = doc.get("general", {})
    cfg.general_split = general.get("split", cfg.general_split)
    cfg.max_drop = float(general.get("max_drop", cfg.max_drop))
    if cfg.max_drop < 0:
        err("general.max_drop must be >= 0", "general", "max_drop")
    for label, high in UPPER_BOUNDS.items():
        table, key = label.split(".")
        value = (doc.get(table) or {}).get(key)
        if isinstance(value, int | float) and value > high:
            err(f"{label} = {quote(value)} must be at most {high:g}", table, key)
    cfg.reconsider_when = list(doc.get("reconsider", {}).get("when", []))
    cfg.evidence = {k: list(v) for k, v in doc.get("evidence", {}).items()}
    cfg.display_names = _display_names(doc.get("models") or {}, err)
    if _errors(problems) > before:
        return None
    return cfg


def _read_claim(cfg: Config, claim: dict, err: _Sink) -> None:
    """[claim]: kind, the two models, the metric and its direction, min_useful_effect."""
    cfg.claim_text = claim["text"]
    cfg.kind = claim.get("kind", cfg.kind)
    if cfg.kind not in KINDS:
        err(f"claim.kind = {quote(cfg.kind)} is not one of {', '.join(KINDS)}", "claim", "kind")
    cfg.candidate, cfg.baseline, cfg.metric = claim["candidate"], claim["baseline"], claim["metric"]
    if cfg.candidate == cfg.baseline:
        err(
            f"claim.candidate and claim.baseline are both {quote(cfg.candidate)}",
            "claim",
            "baseline",
        )
    _task_and_unit(cfg, claim, err)
    if cfg.metric in BUILTIN_METRICS:
        cfg.higher_is_better = cfg.metric in HIGHER_IS_BETTER_METRICS
        if "higher_is_better" in claim and claim["higher_is_better"] != cfg.higher_is_better:
            err(
                f"claim.higher_is_better = {claim['higher_is_better']} contradicts metric {quote(cfg.metric)}",
                "claim",
                "higher_is_better",
            )
    elif cfg.metric in DESCRIPTIVE_METRICS and "higher_is_better" not in claim:
        err(
            f"claim.metric = {quote(cfg.metric)} is not a mean of per-row values, so the "
            "row-weighted estimand of the noise rules does not hold for it; the report shows it "
            "as a description (multi-class macro F1, regression R², binary ROC AUC); make the "
            "claim on a built-in metric of the task, or set claim.higher_is_better if your "
            "predictions carry a per-row column of that name (docs/methods.md, Descriptions)",
            "claim",
            "metric",
        )
    elif "higher_is_better" not in claim:
        err(
            f"claim.higher_is_better is required for the per-row metric {quote(cfg.metric)} "
            f"(built-in metrics: {', '.join(BUILTIN_METRICS)})",
            "claim",
            "metric",
        )
    else:
        cfg.higher_is_better = claim["higher_is_better"]
    if "min_useful_effect" in claim:
        cfg.min_useful_effect = float(claim["min_useful_effect"])
        if cfg.min_useful_effect < 0:
            err(
                "claim.min_useful_effect must be >= 0 (metric units, gap direction)",
                "claim",
                "min_useful_effect",
            )


def _read_rule(cfg: Config, rule: dict, err: _Sink) -> None:
    """[rule]: when it was written, the seed rule, confidence, resamples, the random seed."""
    if "written" in rule:
        w = rule["written"]
        if isinstance(w, dt.datetime):
            w = w.date()
        elif isinstance(w, str):
            try:
                w = dt.date.fromisoformat(w)
            except ValueError:
                err(f"rule.written = {quote(w)} is not a date (YYYY-MM-DD)", "rule", "written")
                w = None
        cfg.written = w
    cfg.seed_sd_multiple = float(rule.get("seed_sd_multiple", cfg.seed_sd_multiple))
    if cfg.seed_sd_multiple <= 0:
        err("rule.seed_sd_multiple must be > 0", "rule", "seed_sd_multiple")
    cfg.seed_sd_from = rule.get("seed_sd_from", cfg.seed_sd_from)
    if cfg.seed_sd_from not in SD_FROM:
        err(
            f"rule.seed_sd_from = {quote(cfg.seed_sd_from)} is not one of {', '.join(SD_FROM)}",
            "rule",
            "seed_sd_from",
        )
    cfg.confidence = float(rule.get("confidence", cfg.confidence))
    if not 0.5 <= cfg.confidence <= MAX_CONFIDENCE:
        err(
            f"rule.confidence = {cfg.confidence!r} must be between 0.5 and {MAX_CONFIDENCE}",
            "rule",
            "confidence",
        )
    cfg.resamples = rule.get("resamples", cfg.resamples)
    if not 100 <= cfg.resamples <= MAX_RESAMPLES:
        err(
            f"rule.resamples = {quote(cfg.resamples)} must be between 100 and {MAX_RESAMPLES} "
            "(resamples x blocks bounds the build time; 2000 is plenty for a 95% interval)",
            "rule",
            "resamples",
        )
    cfg.random_seed = rule.get("random_seed", cfg.random_seed)
    if cfg.random_seed < 0:
        err("rule.random_seed must be >= 0", "rule", "random_seed")
    cfg.seeds_paired = rule.get("seeds_paired", cfg.seeds_paired)


def _read_evaluation(cfg: Config, ev: dict, err: _Sink) -> None:
    """[evaluation]: block and slice columns, non-inferiority, threshold, bins."""
    cfg.block = ev.get("block")
    cfg.slice = ev.get("slice")
    cfg.not_worse_on = list(ev.get("not_worse_on", []))
    if cfg.not_worse_on and not cfg.slice:
        err(
            "evaluation.not_worse_on needs evaluation.slice (the column that names slices)",
            "evaluation",
            "not_worse_on",
        )
    if "not_worse_margin" in ev:
        cfg.not_worse_margin = float(ev["not_worse_margin"])
        if cfg.not_worse_margin < 0:
            err(
                "evaluation.not_worse_margin must be >= 0 (metric units)",
                "evaluation",
                "not_worse_margin",
            )
    cfg.block_kind = ev.get("block_kind", cfg.block_kind)
    if cfg.block_kind not in BLOCK_KINDS:
        err(
            f"evaluation.block_kind = {quote(cfg.block_kind)} is not one of {', '.join(BLOCK_KINDS)}",
            "evaluation",
            "block_kind",
        )
    cfg.repeats = ev.get("repeats", cfg.repeats)
    if cfg.repeats not in REPEATS:
        err(
            f"evaluation.repeats = {quote(cfg.repeats)} is not one of {', '.join(REPEATS)}",
            "evaluation",
            "repeats",
        )
    th = ev.get("threshold", "validation-cost")
    if isinstance(th, bool) or not (
        th == "validation-cost" or (isinstance(th, int | float) and 0 <= th <= 1)
    ):
        err(
            f'evaluation.threshold = {quote(th)} must be "validation-cost" or a number in [0, 1]',
            "evaluation",
            "threshold",
        )
    else:
        cfg.threshold = th if isinstance(th, str) else float(th)
    cfg.bins = ev.get("bins", cfg.bins)
    if not 1 <= cfg.bins <= 1000:
        err(f"evaluation.bins = {quote(cfg.bins)} must be between 1 and 1000", "evaluation", "bins")
    _read_design(cfg, ev, err)


def _read_design(cfg: Config, ev: dict, err: _Sink) -> None:
    """[evaluation] design: "split" (train, validation, test) or "cv" (cross-validation)."""
    cfg.design = ev.get("design", cfg.design)
    if cfg.design not in DESIGNS:
        err(
            f"evaluation.design = {quote(cfg.design)} is not one of {', '.join(DESIGNS)}",
            "evaluation",
            "design",
        )
    elif cfg.design == "cv" and cfg.kind != "model-vs-baseline":
        err(
            'evaluation.design = "cv" applies to model-vs-baseline projects (a before-after '
            "project scores one frozen question set)",
            "evaluation",
            "design",
        )


def _read_costs(cfg: Config, costs: dict, err: _Sink) -> None:
    """[costs]: the two error costs, the unit, cases per period."""
    cfg.false_positive = float(costs.get("false_positive", 1.0))
    cfg.false_negative = float(costs.get("false_negative", 1.0))
    if (
        cfg.false_positive < 0
        or cfg.false_negative < 0
        or cfg.false_positive + cfg.false_negative == 0
    ):
        err(
            "costs.false_positive and costs.false_negative must be >= 0 and not both 0",
            "costs",
            None,
        )
    cfg.unit = costs.get("unit", cfg.unit)
    if "cases_per_period" in costs:
        cfg.cases_per_period = float(costs["cases_per_period"])
        if cfg.cases_per_period <= 0:
            err("costs.cases_per_period must be > 0", "costs", "cases_per_period")
    cfg.period = costs.get("period")


def _task_and_unit(cfg: Config, claim: dict, err) -> None:
    """[claim] task (checked against the metric) and [claim] unit."""
    task = claim.get("task")
    if task is not None:
        if task not in TASKS:
            hint = did_you_mean(task, TASKS) if isinstance(task, str) else ""
            err(
                f"claim.task = {quote(task)} is not one of {', '.join(TASKS)}{hint}",
                "claim",
                "task",
            )
            return
        if cfg.kind != "model-vs-baseline":
            err(
                "claim.task applies to model-vs-baseline projects (a before-after project "
                "scores questions with correct = 0 or 1)",
                "claim",
                "task",
            )
            return
        cfg.task = task
        if cfg.metric in BUILTIN_METRICS and cfg.metric not in TASK_METRICS[task]:
            err(
                f"claim.metric = {quote(cfg.metric)} is not a metric of a {task} task; built in "
                f"for {task}: {', '.join(TASK_METRICS[task])} (or name a per-row column)",
                "claim",
                "metric",
            )
    unit = claim.get("unit")
    if unit is not None:
        if not unit.strip():
            err('claim.unit is empty; leave it out or name the unit (e.g. "mmHg")', "claim", "unit")
        else:
            cfg.claim_unit = clean_text(unit.strip(), 40)


def _display_names(models: dict[str, str], err: Callable[..., None]) -> dict[str, str]:
    """[models]: each model's display name, one line of printable text, at most
    MAX_DISPLAY_NAME characters (checked here, so no page prints a control character)."""
    out = {}
    for model, shown in models.items():
        text = " ".join(shown.split())
        if not text or len(text) > MAX_DISPLAY_NAME or not text.isprintable():
            err(
                f"models.{clean_text(model, 60)} = {quote(shown)} must be printable text of 1 to "
                f"{MAX_DISPLAY_NAME} characters",
                "models",
                model,
            )
            continue
        out[model] = text
    return out
