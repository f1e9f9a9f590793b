"""The decision, the claim rewritten to the strongest sentence the shown rungs support, and reconsider-when."""

from __future__ import annotations

from reportgen.checks.text import interval, num, pct
from reportgen.project import Project


def decide(
    project: Project, ladder: list[dict], iv: dict | None, sup: int, seed_measured: bool = True
) -> dict:
    """Verdict and recommendation for model-vs-baseline. A tie recommends the simpler baseline."""
    cfg = project.config
    st = {r["name"]: r["status"] for r in ladder}
    reasons = []
    if iv is not None and iv["high"] < 0:
        reasons.append(
            f"the baseline is better: the test interval {interval(iv['low'], iv['high'])} lies below zero"
        )
        return {"verdict": "keep-baseline", "recommend": cfg.baseline, "reasons": reasons}
    if sup >= 4:
        reasons.append("correct, fair, larger than noise and relevant are all shown")
        if st["bounded"] != "shown":
            reasons.append("adopt within the measured bounds only: " + (ladder[4]["missing"] or ""))
        return {"verdict": "adopt", "recommend": cfg.candidate, "reasons": reasons}
    for r in ladder[:4]:
        if r["status"] != "shown":
            reasons.append(f"rung {r['rung']} ({r['name']}) is {r['status']}: {r['missing']}")
    measured = iv is not None and seed_measured
    if measured and st["larger than noise"] != "shown":
        verdict = "keep-baseline"
        reasons.append(f"a tie is a finding: keep the simpler baseline ({cfg.baseline})")
    elif not measured or st["correct"] != "shown" or st["fair"] != "shown":
        verdict = "inconclusive"
        reasons.append(
            f"the evidence is incomplete, so the simpler baseline ({cfg.baseline}) stays"
        )
    else:
        verdict = "keep-baseline"
        reasons.append(
            f"the gain is real but not shown to be worth the change: keep {cfg.baseline}"
        )
    return {"verdict": verdict, "recommend": cfg.baseline, "reasons": reasons}


def rewrite_claim(
    project: Project,
    ladder: list[dict],
    sup: int,
    iv: dict | None,
    seed: dict,
    rel: dict | None,
    slices: list[dict] | None,
    data: dict,
) -> str:
    """One sentence with numbers, never above the supported rung."""
    cfg = project.config
    c, b, metric = cfg.candidate, cfg.baseline, cfg.metric.replace("_", " ")
    conf = pct(cfg.confidence)
    measured = (
        (
            f"a test {metric} gap of {num(iv['gap'])} ({conf} interval {interval(iv['low'], iv['high'])}, "
            f"{iv['what']})"
        )
        if iv
        else f"a validation {metric} gap of {num(seed.get('validation_gap'))}"
    )
    if sup == 0:
        return (
            f"Nothing is established yet: {ladder[0]['missing']}; until then {measured} between {c} and {b} "
            "is a measurement, not evidence that either is better."
        )
    if sup == 1:
        return (
            f"{c}'s code passes its sanity checks, but the comparison with {b} is not shown to be fair "
            f"({ladder[1]['missing']}), so {measured} does not say which model is better."
        )
    if iv is not None and iv["high"] < 0:
        return (
            f"Under a fair comparison, {b} beats {c} by {num(-iv['gap'])} test {metric} ({conf} interval "
            f"{interval(-iv['high'], -iv['low'])}, {iv['what']})."
        )
    if sup == 2:
        sd = seed.get("gap_in_sd")
        seed_txt = (
            f"the validation gap is {num(sd, 2)} seed sd against a bar of {num(cfg.seed_sd_multiple)}"
            if sd is not None
            else "retraining noise is unmeasured"
        )
        test_txt = (
            f"the test gap of {num(iv['gap'])} has a {conf} interval of {interval(iv['low'], iv['high'])} over "
            f"{iv['what']}"
            if iv
            else "there is no test interval"
        )
        return f"Under a fair comparison, {c} and {b} are tied on {metric}: {seed_txt}, and {test_txt}."
    base = (
        f"{c} beats {b} by {num(iv['gap'])} test {metric} ({conf} interval {interval(iv['low'], iv['high'])}, "
        f"{iv['what']}), more than retraining noise ({num(seed['gap_in_sd'], 2)} seed sd)"
    )
    if sup == 3:
        return (
            base + f", but whether that is worth acting on is not shown ({ladder[3]['missing']})."
        )
    base += f", at least the useful effect of {num(cfg.min_useful_effect)}"
    if rel and rel.get("cost_per_period") is not None:
        base += f" (about {num(rel['cost_per_period'])} {cfg.unit} per {cfg.period or 'period'})"
    if sup == 4:
        return base + f"; where it stops holding is not shown ({ladder[4]['missing']})."
    where = []
    if slices:
        where.append("on each of the " + str(len(slices)) + " slices tested")
    if data.get("blocks") and cfg.block:
        where.append(f"over {cfg.block}s {data['first_block']} to {data['last_block']}")
    return base + (", " + " and ".join(where) if where else "") + "."


def reconsider(
    project: Project,
    ladder: list[dict],
    seed: dict,
    iv: dict | None,
    rel: dict | None,
    slices: list[dict] | None,
    verdict: str,
) -> list[str]:
    """Concrete evidence that would reopen the decision, with today's values, plus [reconsider] when."""
    cfg = project.config
    items = []
    n_c, n_b = seed["n"]["candidate"], seed["n"]["baseline"]
    want_n = max(5, n_c, n_b)
    if ladder[0]["status"] != "shown":
        items.append(f"rung 1 is shown: {ladder[0]['missing']} (now {ladder[0]['status']})")
    if ladder[1]["status"] != "shown":
        items.append(f"the comparison is shown fair: {ladder[1]['missing']}")
    if seed.get("gap_in_sd") is None:
        items.append(
            f"retraining noise is measured: at least {want_n} seeds per model "
            f"(now {n_c} {cfg.candidate}, {n_b} {cfg.baseline})"
        )
    elif not seed.get("passes"):
        items.append(
            f"the validation gap exceeds {num(cfg.seed_sd_multiple)} seed sd over {want_n} or more seeds "
            f"(now {num(seed['gap_in_sd'], 2)} sd over {n_c} and {n_b})"
        )
    if iv is None:
        items.append(
            "per-row test predictions for both models give an evaluation interval (now none)"
        )
    elif iv["low"] <= 0:
        items.append(
            f"the test interval excludes zero (now {interval(iv['low'], iv['high'])} over {iv['what']})"
        )
    m = cfg.min_useful_effect
    if m is None:
        items.append("a min_useful_effect is fixed in evreport.toml before new runs (now none)")
    elif iv is not None and iv["low"] < m:
        items.append(
            f"the interval's lower end reaches the useful effect {num(m)} (now {num(iv['low'])})"
        )
    for s in slices or []:
        if s["required"] and s["worse"]:
            items.append(
                f"{cfg.candidate} is no worse on slice {s['slice']!r} (now {num(s['gap'])}, interval "
                f"{interval(s['low'], s['high'])})"
            )
    if verdict == "adopt" and m is not None:
        items.append(f"the live {cfg.block or 'period'} gap falls below the useful effect {num(m)}")
    items += cfg.reconsider_when
    return items
