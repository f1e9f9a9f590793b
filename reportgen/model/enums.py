"""The closed vocabularies of report.json as StrEnums: a member equals its string, so
``rung.status == "shown"`` holds for a parsed report as for the plain dict."""

from __future__ import annotations

from enum import StrEnum


class RungStatus(StrEnum):
    """``ladder[].status``: how far a rung of the claim ladder is shown."""

    SHOWN = "shown"
    PARTLY = "partly"
    NOT_SHOWN = "not shown"


class Verdict(StrEnum):
    """``decision.verdict``: what the report recommends."""

    ADOPT = "adopt"
    KEEP_BASELINE = "keep-baseline"
    ROLL_BACK = "roll-back"
    INCONCLUSIVE = "inconclusive"


class Kind(StrEnum):
    """``project.kind``: the project's comparison (evreport.toml ``[project] kind``)."""

    MODEL_VS_BASELINE = "model-vs-baseline"
    BEFORE_AFTER = "before-after"


class Design(StrEnum):
    """The evaluation design (``[evaluation] design``); report.json shows "cv" by a non-null
    ``noise.cv`` and ``data.cv``, "split" by their absence."""

    SPLIT = "split"
    CV = "cv"


class Task(StrEnum):
    """``project.task``: what the predictions predict."""

    BINARY = "binary"
    MULTICLASS = "multiclass"
    REGRESSION = "regression"


class TaskSource(StrEnum):
    """``project.task_source``: where the task was read."""

    CONFIG = "config"
    PREDICTIONS = "predictions"
    METRIC = "metric"


class Repeats(StrEnum):
    """``project.repeats``: what the repeated runs are (``[evaluation] repeats``)."""

    SEEDS = "seeds"
    SAMPLES = "samples"


class Finding(StrEnum):
    """``relevance.finding``: the evaluation interval against the useful effect."""

    USEFUL_GAIN_SHOWN = "useful-gain-shown"
    POSITIVE_NOT_USEFUL = "positive-not-useful"
    EQUIVALENT = "equivalent"
    WORSE = "worse"
    NO_USEFUL_GAIN = "no-useful-gain"
    INCONCLUSIVE = "inconclusive"


class IntervalSource(StrEnum):
    """``noise.interval.source``: how the evaluation interval was measured."""

    BLOCK = "block"
    PAIRED_SEEDS = "paired-seeds"
    CV_CORRECTED = "cv-corrected"
    QUESTIONS = "questions"


class GeneralStatus(StrEnum):
    """``general.status``: whether the general set held after tuning."""

    HELD = "held"
    DROPPED = "dropped"
    NOT_SHOWN = "not shown"


class DiagnosisKind(StrEnum):
    """``comparisons[].diagnosis.kind``: the likely cause of a logged value that disagrees."""

    LOGGED_ROUNDED = "logged-rounded"
    SCORES_ROUNDED = "scores-rounded"
    COMPLEMENT = "complement"
    OTHER_METRIC = "other-metric"
    BEYOND_ROUNDING = "beyond-rounding"


class Severity(StrEnum):
    """``warnings[].severity``."""

    ERROR = "error"
    WARNING = "warning"


class ChartKey(StrEnum):
    """The charts a report can draw, in page order: charts.specs builds one per key, the view
    places each by its key (the SVG's id prefix, ``ch-<key>``). Not a report.json value."""

    SEED_STRIP = "seed_strip"
    EVAL_INTERVALS = "eval_intervals"
    BOOTSTRAP_HISTOGRAM = "bootstrap_histogram"
    CV_FOLD_GAPS = "cv_fold_gaps"
    THRESHOLD_COST = "threshold_cost"
    RANKING = "ranking"
    RELIABILITY = "reliability"
    CONFUSION = "confusion"
    TOP_LABEL_RELIABILITY = "top_label_reliability"
    PREDICTED_ACTUAL = "predicted_actual"
    RESIDUALS_BY_BLOCK = "residuals_by_block"
    SENSITIVITY = "sensitivity"
    SLICES = "slices"
    BEFORE_AFTER_INTERVAL = "before_after_interval"
    FIXED_BROKEN = "fixed_broken"
    FORGETTING = "forgetting"
    BUDGET = "budget"
