"""`evreport init`: a new project folder with a commented evreport.toml and an empty run log."""

from __future__ import annotations

from pathlib import Path

from reportgen.errors import UsageError, display_name
from reportgen.project.runs import OPTIONAL, REQUIRED

TEMPLATE = """\
# evreport.toml: the claim and the decision rule. Fix it BEFORE the runs: the report
# checks [rule] written against the run log. Format: docs/format.md.

title  = "My model against a baseline"       # required
author = "Your Name"

[claim]
text      = "The network beats the baseline by 0.01 test log loss."  # the claim as you would like to make it
kind      = "model-vs-baseline"   # or "before-after" (baseline = before, candidate = after)
candidate = "net"                 # a model name in runs.csv
baseline  = "baseline"            # a model name in runs.csv
metric    = "log_loss"            # log_loss | brier | accuracy | error_rate | cost | a per-row column
#                                 multi-class: log_loss | brier | accuracy | error_rate; regression: squared_error | absolute_error
# task              = "binary"    # binary | multiclass | regression (absent: read from the predictions' columns)
# unit              = "kWh"       # what the target is counted in (regression): printed beside every value, squared for squared_error
# higher_is_better  = false       # required only for a per-row column metric
# min_useful_effect = 0.005       # the smallest gap that would justify the change (metric units)

[rule]
# written          = 2026-09-01   # the day this rule was fixed
seed_sd_multiple = 2.0            # the validation gap must exceed this many seed sd
seed_sd_from     = "larger"       # candidate | baseline | larger
confidence       = 0.95
resamples        = 2000
random_seed      = 0
seeds_paired     = false          # true when seed i of both models shares data order/split

[evaluation]
# block        = "week"           # column cutting the evaluation rows into blocks (absent: each row is a block)
# slice        = "segment"        # column naming slices
# not_worse_on = ["shifted"]      # slices on which the candidate must not be worse
threshold    = "validation-cost"  # or a fixed number in [0, 1]
bins         = 10                 # reliability-diagram bins

[costs]
false_positive = 1.0
false_negative = 1.0
# unit             = "orders sent to manual review"
# cases_per_period = 10000
# period           = "week"

# [general]                       # before-after only: the general-abilities (forgetting) set
# split    = "general"
# max_drop = 0.02

[reconsider]
when = []                         # extra triggers, e.g. ["twelve more months of history"]

# [evidence]                      # rung -> artefacts, overriding discovery
# relevant = ["artefacts/cost-model.md"]
"""


def scaffold(project: str | Path, force: bool = False) -> list[Path]:
    """Create the project skeleton; refuse to overwrite files unless ``force``."""
    from reportgen.outputs import refuse_symlinks, write_error, write_file_atomic

    root = Path(project)
    files = {
        root / "evreport.toml": TEMPLATE,
        root / "runs.csv": ",".join(REQUIRED + OPTIONAL) + "\n",
    }
    existing = [p for p in files if p.exists() or p.is_symlink()]
    if existing and not force:
        raise UsageError(f"{display_name(existing[0])} already exists; use --force to overwrite")
    folders = (root / "split", root / "artefacts" / "checks", root / "artefacts" / "predictions")
    for p in (*files, *folders):  # all checked before anything is written
        refuse_symlinks(p, root)
    made = []
    for d in folders:
        try:
            d.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise write_error(d, e) from None
        made.append(d)
    for p, text in files.items():
        write_file_atomic(p, text.encode("utf-8"), root=root)
        made.append(p)
    return made
