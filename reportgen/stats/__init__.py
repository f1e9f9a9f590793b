"""Pure numeric functions for the report, one module per subject.

metric_registry  the built-in metrics, one entry each (per-row functions, direction, words)
results       the reason codes and the small result types (Sides, Bounds, TInterval)
metrics       per-row metrics and the sign rule (gap: candidate better is positive)
seeds         the seed rule and paired seeds (retraining noise)
ttests        Student t, the ratio (delta-method) t on blocks, Welch
bootstrap     block, per-seed and two-level bootstrap; the resampling index; the wider interval
blocks        the noise.block figures (bootstrap and t on paired blocks, in a fixed rng order)
budget        the variance budget and the seeds/blocks planning figures
proportions   the Wilson interval of a proportion
threshold     cost curve and the cost-minimising threshold
ranking       ROC and precision-recall points, AUC, average precision, curve thinning
calibration   reliability bins (with their Wilson intervals), ECE, Brier
before_after  fixed and broken questions, exact McNemar

Randomness comes in as an explicit ``numpy.random.Generator`` argument. Results are numbers
or frozen dataclasses with a reason code (``results.Reason``) where a figure is None; the
sentences are the checks' (checks/reasons.py).
"""
