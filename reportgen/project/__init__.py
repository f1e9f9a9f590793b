"""Reading a project folder: evreport.toml, runs.csv, the manifest, predictions and check files."""

from reportgen.project.load import Project, ProjectPaths, inspect_project, load_project

__all__ = ["Project", "ProjectPaths", "inspect_project", "load_project"]
