"""Pure numeric functions for the report: metrics, noise, threshold, ranking, calibration."""
