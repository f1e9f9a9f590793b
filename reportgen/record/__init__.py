"""Recording from users' code: `Recorder` writes runs.csv rows, predictions, folds and the
manifest (docs/recording.md); the steps it takes live in the modules beside it."""

from reportgen.record.recorder import COLUMNS, PREDICTIONS_DIR, Recorder

__all__ = ["COLUMNS", "PREDICTIONS_DIR", "Recorder"]
