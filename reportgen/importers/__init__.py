"""Importers: turn runs logged by other tools into an evreport project's runs.csv and predictions."""
