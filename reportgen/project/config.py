"""evreport.toml: the claim and the decision rule, fixed before the runs."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from reportgen.errors import Problem, clean_text, quote
from reportgen.names import RUNG_KEYS, did_you_mean
from reportgen.project.config_toml import (
    BOOL,
    DATE,
    INT,
    LIST,
    NUM,
    STR,
    Schema,
    Sink,
    check_keys,
    check_required,
    error_count,
    listed,
    load_toml,
)
from reportgen.stats.metric_registry import METRICS, TASKS, task_metrics, unit_power
from reportgen.words.i18n import LANGUAGES, _, local_number, n_, p_
from reportgen.words.nouns import metric_unit

#: the built-in metrics of each task (per-row, so the row-weighted estimand holds), from the
#: registry (stats/metric_registry.py), as are the two tuples below
TASK_METRICS: dict[str, tuple[str, ...]] = {t: task_metrics(t) for t in TASKS}
BUILTIN_METRICS = tuple(METRICS)
HIGHER_IS_BETTER_METRICS = tuple(n for n, m in METRICS.items() if m.higher_is_better)
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

#: table -> key -> (expected type, required)
SCHEMA: Schema = {
    None: {"title": (STR, True), "author": (STR, False)},
    "claim": {
        "text": (STR, True),
        "kind": (STR, False),
        "candidate": (STR, True),
        "baseline": (STR, True),
        "metric": (STR, True),
        "higher_is_better": (BOOL, False),
        "min_useful_effect": (NUM, False),
        "task": ('"binary", "multiclass" or "regression"', False),
        "unit": (STR, False),
    },
    "rule": {
        "written": (DATE, False),
        "seed_sd_multiple": (NUM, False),
        "seed_sd_from": (STR, False),
        "confidence": (NUM, False),
        "resamples": (INT, False),
        "random_seed": (INT, False),
        "seeds_paired": (BOOL, False),
    },
    "evaluation": {
        "block": (STR, False),
        "slice": (STR, False),
        "not_worse_on": (LIST, False),
        "not_worse_margin": (NUM, False),
        "block_kind": ('"period" or "group"', False),
        "repeats": ('"seeds" or "samples"', False),
        "threshold": ('"validation-cost" or a number in [0, 1]', False),
        "bins": (INT, False),
        "design": ('"split" or "cv"', False),
    },
    "costs": {
        "false_positive": (NUM, False),
        "false_negative": (NUM, False),
        "unit": (STR, False),
        "cases_per_period": (NUM, False),
        "period": (STR, False),
    },
    "general": {"split": (STR, False), "max_drop": (NUM, False)},
    #: the language the report is written in (the build's --lang wins)
    "report": {"language": ('"en" or "uk"', False)},
    "reconsider": {"when": (LIST, False)},
    "evidence": {k: (LIST, False) for k in RUNG_KEYS},
    #: model name (as runs.csv spells it) -> the name the report prints; any key is allowed
    "models": {},
}
#: tables whose keys are the user's own (model names), each value of the given type
OPEN_TABLES = {"models": STR}
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
    language: str = "en"  # [report] language: every sentence of the report (words/i18n.py)
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
        return metric_unit(self.claim_unit, power=unit_power(self.metric))

    @property
    def unit_after(self) -> str:
        """What follows a number in the metric's unit: " mmHg²", or "" without [claim] unit."""
        unit = self.metric_unit
        return f" {unit}" if unit else ""

    @property
    def metric_words(self) -> str:
        """The metric as sentences name its values, with [claim] unit: "log loss",
        "mean squared error in mmHg²", "mean absolute error in mmHg": a built-in metric's
        registry words (a per-row error is reported as its mean over rows: "mean")."""
        built_in = METRICS.get(self.metric)
        name = registry_words(built_in.words) if built_in else self.metric.replace("_", " ")
        unit = self.metric_unit
        return _("{metric} in {unit}", metric=name, unit=unit) if unit else name


def registry_words(words: str) -> str:
    """A built-in metric's registry words in the language being written: the errors of a
    regression are said in words, the metrics known by their names ("log loss", "accuracy")
    keep them."""
    said = {
        "mean squared error": p_("metric", "mean squared error"),
        "mean absolute error": p_("metric", "mean absolute error"),
    }
    return said.get(words, words)


def parse_config(text: str, name: str, problems: list[Problem]) -> Config | None:
    """Parse and validate evreport.toml text; every problem names the line, unknown keys the closest known one."""
    doc = load_toml(text, name, problems)
    if doc is None:
        return None
    before = error_count(problems)
    err = Sink(text, name, problems)
    cfg = Config()
    cfg.lines = check_keys(doc, SCHEMA, OPEN_TABLES, err)
    if err.dropped:
        problems.append(
            Problem(
                n_(
                    "(and {n} more problems in this file)",
                    "(and {n} more problems in this file)",
                    err.dropped,
                ),
                name,
                slug="more-problems",
            )
        )
    check_required(doc, SCHEMA, err)
    if error_count(problems) > before:
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
    _at_least(cfg.max_drop, 0, "general.max_drop", err)
    for label, high in UPPER_BOUNDS.items():
        table, key = label.split(".")
        value = (doc.get(table) or {}).get(key)
        if isinstance(value, int | float) and value > high:
            err(
                _(
                    "{key} = {value} must be at most {high}",
                    key=label,
                    value=quote(value),
                    high=local_number(f"{high:g}"),
                ),
                table,
                key,
            )
    cfg.language = (doc.get("report") or {}).get("language", cfg.language)
    _one_of(cfg.language, LANGUAGES, "report.language", err)
    cfg.reconsider_when = list(doc.get("reconsider", {}).get("when", []))
    cfg.evidence = {k: list(v) for k, v in doc.get("evidence", {}).items()}
    cfg.display_names = _display_names(doc.get("models") or {}, err)
    if error_count(problems) > before:
        return None
    return cfg


def _one_of(value, allowed: tuple[str, ...], label: str, err: Sink, hint: str = "") -> bool:
    """False after a problem when ``value`` is not one of ``allowed``."""
    if value in allowed:
        return True
    table, key = label.split(".")
    err(
        _(
            "{key} = {value} is not one of {allowed}",
            key=label,
            value=quote(value),
            allowed=listed(allowed),
        )
        + hint,
        table,
        key,
    )
    return False


def _at_least(value, low: float, label: str, err: Sink, strict: bool = False, note: str = ""):
    """A problem when ``value`` is below ``low`` (or at it, when ``strict``)."""
    if value < low or (strict and value == low):
        table, key = label.split(".")
        low_text = local_number(str(low))
        if strict:
            msg = _("{key} must be > {low}", key=label, low=low_text)
        else:
            msg = _("{key} must be >= {low}", key=label, low=low_text)
        err(msg + note, table, key)


def _between(value, low: float, high: float, label: str, err: Sink, note: str = "") -> None:
    """A problem when ``value`` is outside [low, high]."""
    if not low <= value <= high:
        table, key = label.split(".")
        msg = _(
            "{key} = {value} must be between {low} and {high}",
            key=label,
            value=quote(value),
            low=local_number(str(low)),
            high=local_number(str(high)),
        )
        err(msg + note, table, key)


def _read_claim(cfg: Config, claim: dict, err: Sink) -> None:
    """[claim]: kind, the two models, the metric and its direction, min_useful_effect."""
    cfg.claim_text = claim["text"]
    cfg.kind = claim.get("kind", cfg.kind)
    _one_of(cfg.kind, KINDS, "claim.kind", err)
    cfg.candidate, cfg.baseline, cfg.metric = claim["candidate"], claim["baseline"], claim["metric"]
    if cfg.candidate == cfg.baseline:
        err(
            _("claim.candidate and claim.baseline are both {model}", model=quote(cfg.candidate)),
            "claim",
            "baseline",
        )
    _task_and_unit(cfg, claim, err)
    _direction(cfg, claim, err)
    if "min_useful_effect" in claim:
        cfg.min_useful_effect = float(claim["min_useful_effect"])
        note = _(" (metric units, gap direction)")
        _at_least(cfg.min_useful_effect, 0, "claim.min_useful_effect", err, note=note)


def _direction(cfg: Config, claim: dict, err: Sink) -> None:
    """[claim] higher_is_better: fixed by a built-in metric, required for a per-row column."""
    if cfg.metric in BUILTIN_METRICS:
        cfg.higher_is_better = cfg.metric in HIGHER_IS_BETTER_METRICS
        if "higher_is_better" in claim and claim["higher_is_better"] != cfg.higher_is_better:
            err(
                _(
                    "claim.higher_is_better = {value} contradicts metric {metric}",
                    value=claim["higher_is_better"],
                    metric=quote(cfg.metric),
                ),
                "claim",
                "higher_is_better",
            )
    elif cfg.metric in DESCRIPTIVE_METRICS and "higher_is_better" not in claim:
        err(
            _(
                "claim.metric = {metric} is not a mean of per-row values, so the "
                "row-weighted estimand of the noise rules does not hold for it; the report shows it "
                "as a description (multi-class macro F1, regression R², binary ROC AUC); make the "
                "claim on a built-in metric of the task, or set claim.higher_is_better if your "
                "predictions carry a per-row column of that name (docs/methods.md, Descriptions)",
                metric=quote(cfg.metric),
            ),
            "claim",
            "metric",
        )
    elif "higher_is_better" not in claim:
        err(
            _(
                "claim.higher_is_better is required for the per-row metric {metric} "
                "(built-in metrics: {known})",
                metric=quote(cfg.metric),
                known=listed(BUILTIN_METRICS),
            ),
            "claim",
            "metric",
        )
    else:
        cfg.higher_is_better = claim["higher_is_better"]


def _read_rule(cfg: Config, rule: dict, err: Sink) -> None:
    """[rule]: when it was written, the seed rule, confidence, resamples, the random seed."""
    if "written" in rule:
        w = rule["written"]
        if isinstance(w, dt.datetime):
            w = w.date()
        elif isinstance(w, str):
            try:
                w = dt.date.fromisoformat(w)
            except ValueError:
                msg = _("rule.written = {value} is not a date (YYYY-MM-DD)", value=quote(w))
                err(msg, "rule", "written")
                w = None
        cfg.written = w
    cfg.seed_sd_multiple = float(rule.get("seed_sd_multiple", cfg.seed_sd_multiple))
    _at_least(cfg.seed_sd_multiple, 0, "rule.seed_sd_multiple", err, strict=True)
    cfg.seed_sd_from = rule.get("seed_sd_from", cfg.seed_sd_from)
    _one_of(cfg.seed_sd_from, SD_FROM, "rule.seed_sd_from", err)
    cfg.confidence = float(rule.get("confidence", cfg.confidence))
    _between(cfg.confidence, 0.5, MAX_CONFIDENCE, "rule.confidence", err)
    cfg.resamples = rule.get("resamples", cfg.resamples)
    note = _(
        " (resamples x blocks bounds the build time; {n} is plenty for a {pct} interval)",
        n=local_number("2000"),
        pct=local_number("95%"),
    )
    _between(cfg.resamples, 100, MAX_RESAMPLES, "rule.resamples", err, note)
    cfg.random_seed = rule.get("random_seed", cfg.random_seed)
    _at_least(cfg.random_seed, 0, "rule.random_seed", err)
    cfg.seeds_paired = rule.get("seeds_paired", cfg.seeds_paired)


def _read_evaluation(cfg: Config, ev: dict, err: Sink) -> None:
    """[evaluation]: block and slice columns, non-inferiority, threshold, bins."""
    cfg.block = ev.get("block")
    cfg.slice = ev.get("slice")
    cfg.not_worse_on = list(ev.get("not_worse_on", []))
    if cfg.not_worse_on and not cfg.slice:
        err(
            _("evaluation.not_worse_on needs evaluation.slice (the column that names slices)"),
            "evaluation",
            "not_worse_on",
        )
    if "not_worse_margin" in ev:
        cfg.not_worse_margin = float(ev["not_worse_margin"])
        note = _(" (metric units)")
        _at_least(cfg.not_worse_margin, 0, "evaluation.not_worse_margin", err, note=note)
    cfg.block_kind = ev.get("block_kind", cfg.block_kind)
    _one_of(cfg.block_kind, BLOCK_KINDS, "evaluation.block_kind", err)
    cfg.repeats = ev.get("repeats", cfg.repeats)
    _one_of(cfg.repeats, REPEATS, "evaluation.repeats", err)
    th = ev.get("threshold", "validation-cost")
    if isinstance(th, bool) or not (
        th == "validation-cost" or (isinstance(th, int | float) and 0 <= th <= 1)
    ):
        err(
            _(
                'evaluation.threshold = {value} must be "validation-cost" or a number in [0, 1]',
                value=quote(th),
            ),
            "evaluation",
            "threshold",
        )
    else:
        cfg.threshold = th if isinstance(th, str) else float(th)
    cfg.bins = ev.get("bins", cfg.bins)
    _between(cfg.bins, 1, 1000, "evaluation.bins", err)
    _read_design(cfg, ev, err)


def _read_design(cfg: Config, ev: dict, err: Sink) -> None:
    """[evaluation] design: "split" (train, validation, test) or "cv" (cross-validation)."""
    cfg.design = ev.get("design", cfg.design)
    valid = _one_of(cfg.design, DESIGNS, "evaluation.design", err)
    if valid and cfg.design == "cv" and cfg.kind != "model-vs-baseline":
        err(
            _(
                'evaluation.design = "cv" applies to model-vs-baseline projects (a before-after '
                "project scores one frozen question set)"
            ),
            "evaluation",
            "design",
        )


def _read_costs(cfg: Config, costs: dict, err: Sink) -> None:
    """[costs]: the two error costs, the unit, cases per period."""
    cfg.false_positive = float(costs.get("false_positive", 1.0))
    cfg.false_negative = float(costs.get("false_negative", 1.0))
    if (
        cfg.false_positive < 0
        or cfg.false_negative < 0
        or cfg.false_positive + cfg.false_negative == 0
    ):
        err(
            _("costs.false_positive and costs.false_negative must be >= 0 and not both 0"),
            "costs",
            None,
        )
    cfg.unit = costs.get("unit", cfg.unit)
    if "cases_per_period" in costs:
        cfg.cases_per_period = float(costs["cases_per_period"])
        _at_least(cfg.cases_per_period, 0, "costs.cases_per_period", err, strict=True)
    cfg.period = costs.get("period")


def _task_and_unit(cfg: Config, claim: dict, err) -> None:
    """[claim] task (checked against the metric) and [claim] unit."""
    task = claim.get("task")
    if task is not None:
        hint = did_you_mean(task, TASKS) if isinstance(task, str) and task not in TASKS else ""
        if not _one_of(task, TASKS, "claim.task", err, hint):
            return
        if cfg.kind != "model-vs-baseline":
            err(
                _(
                    "claim.task applies to model-vs-baseline projects (a before-after project "
                    "scores questions with correct = 0 or 1)"
                ),
                "claim",
                "task",
            )
            return
        cfg.task = task
        if cfg.metric in BUILTIN_METRICS and cfg.metric not in TASK_METRICS[task]:
            err(
                _(
                    "claim.metric = {metric} is not a metric of a {task} task; built in "
                    "for {task}: {known} (or name a per-row column)",
                    metric=quote(cfg.metric),
                    task=task,
                    known=listed(TASK_METRICS[task]),
                ),
                "claim",
                "metric",
            )
    unit = claim.get("unit")
    if unit is not None:
        if not unit.strip():
            msg = _('claim.unit is empty; leave it out or name the unit (e.g. "mmHg")')
            err(msg, "claim", "unit")
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
                _(
                    "models.{model} = {value} must be printable text of 1 to {n} characters",
                    model=clean_text(model, 60),
                    value=quote(shown),
                    n=local_number(str(MAX_DISPLAY_NAME)),
                ),
                "models",
                model,
            )
            continue
        out[model] = text
    return out
