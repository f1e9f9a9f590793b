"""Helpers shared by the example generators: deterministic writing and freezing.

Import it before numpy (``import _common`` sorts first among the third-party imports): it
pins the linear-algebra libraries to one thread, so every regeneration sums in the same
order, and puts the repository on ``sys.path`` for ``reportgen``.
"""

from __future__ import annotations

import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import hashlib  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from datetime import datetime, timedelta  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

EXAMPLES = Path(__file__).resolve().parent
REPO = EXAMPLES.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
P_DECIMALS = 6
P_MIN = 10.0**-P_DECIMALS


def env_string() -> str:
    """The `env` column: interpreter and library versions (deterministic on one machine)."""
    import sklearn

    py = ".".join(platform.python_version_tuple()[:2])
    return f"python={py};numpy={np.__version__};scikit-learn={sklearn.__version__}"


def fresh_dir(path: Path) -> Path:
    """Remove and recreate a project folder so stale files never survive a regeneration."""
    if path.exists():
        shutil.rmtree(path)
    (path / "split").mkdir(parents=True)
    (path / "artefacts" / "predictions").mkdir(parents=True)
    (path / "artefacts" / "checks").mkdir(parents=True)
    return path


def write_csv(df: pd.DataFrame, path: Path, float_format: str = "%.6f") -> None:
    df.to_csv(path, index=False, float_format=float_format, lineterminator="\n")


def write_json(obj: dict, path: Path) -> None:
    path.write_text(json.dumps(obj, indent=2) + "\n")


def round_p(p: np.ndarray) -> np.ndarray:
    """Probabilities exactly as they will be read back from the written file.

    Clipped to [1e-6, 1 - 1e-6] first, so no printed p is 0 or 1 and the log loss
    stays finite; then formatted with 6 decimals and parsed back.
    """
    p = np.clip(np.asarray(p, dtype=float), P_MIN, 1.0 - P_MIN)
    return np.array([float(f"{x:.{P_DECIMALS}f}") for x in p])


def fmt_value(v: float | None) -> str:
    """Run-log values: 12 significant digits; a missing value (failed run) is empty."""
    return "" if v is None else f"{v:.12g}"


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def clock(start: datetime, step_minutes: int = 7):
    """A synthetic, fixed clock for `started_at`: each call is `step_minutes` later."""
    t = start
    while True:
        yield iso(t)
        t += timedelta(minutes=step_minutes)


def select_threshold(p: np.ndarray, y: np.ndarray, c_fp: float = 1.0, c_fn: float = 1.0) -> float:
    """The validation-cost threshold of methods.md section 4 (predict 1 when p >= t).

    Candidates: every distinct score, 0.5 and the "predict none" sentinel
    nextafter(1, inf). Minimum mean cost with ties within 8 eps relative; among
    ties the one closest to 0.5 (same tolerance), then the higher threshold.
    """
    p = np.asarray(p, dtype=float)
    y = np.asarray(y, dtype=int)
    none = float(np.nextafter(1.0, np.inf))
    cands = np.unique(np.concatenate([p, [0.5, none]]))
    order = np.argsort(p, kind="stable")
    ps, ys = p[order], y[order]
    # rows with p >= t are predicted positive: count them with searchsorted on sorted p
    n = len(p)
    pos_total = int(ys.sum())
    cum_pos = np.concatenate([[0], np.cumsum(ys)])  # positives among the first k (lowest) rows
    k = np.searchsorted(ps, cands, side="left")  # rows below t
    fn = cum_pos[k]
    tp = pos_total - fn
    fp = (n - k) - tp
    cost = (c_fp * fp + c_fn * fn) / n
    tol = 8 * np.finfo(float).eps
    best = cost.min()
    tied = cost <= best + tol * abs(best)
    dist = np.abs(cands - 0.5)
    dmin = dist[tied].min()
    closest = tied & (dist <= dmin + tol * abs(dmin))
    return float(cands[closest].max())


def accuracy_at(p: np.ndarray, y: np.ndarray, t: float) -> float:
    return float(((np.asarray(p) >= t).astype(int) == np.asarray(y)).mean())


def freeze(project: Path, created: str) -> None:
    """Write split/manifest.json with `evreport freeze`; fall back to our own writer."""
    cmd = [sys.executable, "-m", "reportgen", "freeze", str(project), "--created", created]
    try:
        r = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
        ok = r.returncode == 0 and (project / "split" / "manifest.json").exists()
        why = (r.stderr or r.stdout).strip().splitlines()[-1:] if not ok else []
    except (OSError, subprocess.TimeoutExpired) as e:
        ok, why = False, [str(e)]
    if not ok:
        print(
            f"WARNING: `evreport freeze` unavailable ({' '.join(why) or 'no output'}); "
            f"writing {project.name}/split/manifest.json with the fallback writer",
            file=sys.stderr,
        )
        fallback_freeze(project, created)


def fallback_freeze(project: Path, created: str) -> None:
    """FALLBACK ONLY: the manifest in the exact JSON form of project-format.md.

    sha256 of the file bytes and the number of data rows of each split/*.csv,
    parts named after the file stem, sorted by path as `evreport freeze` does,
    so both writers give the same bytes.
    """
    files = sorted((project / "split").glob("*.csv"))
    entries = []
    for f in files:
        data = f.read_bytes()
        rows = len(pd.read_csv(f, dtype=str, keep_default_na=False))
        entries.append(
            {
                "part": f.stem,
                "path": f"split/{f.name}",
                "sha256": hashlib.sha256(data).hexdigest(),
                "rows": rows,
            }
        )
    write_json(
        {"created": created, "row_id": "row_id", "files": entries},
        project / "split" / "manifest.json",
    )


def toml_table(name: str, items: dict[str, str]) -> str:
    """A TOML table with its ``=`` signs aligned; each value already written as TOML."""
    width = max(map(len, items))
    return f"[{name}]\n" + "".join(f"{key:<{width}} = {value}\n" for key, value in items.items())


def claim_table(text: str, candidate: str, baseline: str, metric: str, useful: float) -> str:
    """The [claim] table of a model-against-baseline example."""
    words = {"text": text, "kind": "model-vs-baseline", "candidate": candidate}
    words |= {"baseline": baseline, "metric": metric}
    return toml_table(
        "claim", {k: json.dumps(v) for k, v in words.items()} | {"min_useful_effect": str(useful)}
    )


def rule_table(written: str, seeds_paired: bool) -> str:
    """The [rule] table of a model-against-baseline example: the seed rule at 2 sd."""
    rule = {"written": written, "seed_sd_multiple": "2.0", "seed_sd_from": '"larger"'}
    rule |= {"confidence": "0.95", "resamples": "2000", "random_seed": "0"}
    return toml_table("rule", rule | {"seeds_paired": "true" if seeds_paired else "false"})
