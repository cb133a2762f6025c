"""The README states what the code does: its rulesets table is the presets' own, and its two commands are .ci/run's."""
from pathlib import Path

from rules.ruleset import markdown_table

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_readme_rulesets_table_matches_the_presets():
    assert markdown_table() in README, "README's rulesets table is stale: paste `python -m rules.ruleset`"


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parents[1] / ".ci/run").read_text()
    test_command = next(line.strip("` ") for line in README.splitlines() if "pytest" in line and "pip install" in line)
    assert test_command in ci
