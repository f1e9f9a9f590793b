"""Recording from users' code: `Recorder` (docs/recording.md), re-exported from recorder.py."""

from reportgen.record.recorder import COLUMNS, PREDICTIONS_DIR, Recorder

__all__ = ["COLUMNS", "PREDICTIONS_DIR", "Recorder"]
