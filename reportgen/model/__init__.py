"""The typed model of report.json: ``Report.from_json(data)`` parses a report strictly and
``report.to_json()`` writes it back, byte for byte once dumped as report.json is.

base.py          Model, key(), MISSING, ReportShapeError: parsing and writing by the annotations
enums.py         the closed vocabularies (rung status, verdict, kind, task, finding, ...)
common.py        small shapes many sections share: per-model pairs, bounds, a t interval
header.py        schema, tool, build, project, inputs
ladder.py        ladder rows, claim, decision, checks, fairness facts
noise.py         noise and its evaluation interval; seed.py, block.py, budget.py, cv.py its lines
relevance.py     relevance, slices, descriptions
results.py       results: each model's own figures per part and metric
threshold.py, ranking.py (and calibration), multiclass.py, regression.py: per-model figures
before_after.py  before_after and general
data.py          data, comparisons, warnings
sensitivity.py   per-model input sensitivity, from the check files
report.py        Report: the 28 top-level keys
schema.py        the JSON Schema and the key tables of docs/report-json.md, from the types
"""

from __future__ import annotations

from reportgen.model.base import MISSING, Missing, Model, ReportShapeError, key
from reportgen.model.report import Report

__all__ = ["MISSING", "Missing", "Model", "Report", "ReportShapeError", "key"]
