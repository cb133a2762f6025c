"""The README states what the code does: its rulesets table is the presets' own, and its two commands are .ci/run's."""
import shlex
import subprocess
import sys
from pathlib import Path

from rules.ruleset import markdown_table

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_readme_rulesets_table_matches_the_presets():
    assert markdown_table() in README, "README's rulesets table is stale: paste `python -m rules.ruleset`"


def test_ci_runs_the_readme_test_command():
    ci = (Path(__file__).resolve().parents[1] / ".ci/run").read_text()
    test_command = next(line.strip("` ") for line in README.splitlines() if "pytest" in line and "pip install" in line)
    assert test_command in ci


def test_readme_hand_examples_print_what_the_cli_prints():
    """The Command line section's `riichi-lens hand` examples, each with the output shown under it (the payments
    had been shown in another order than the CLI prints them)."""
    section = README.split("## Command line", 1)[1].split("```")[1]
    examples = section.split("$ riichi-lens ")[1:]
    assert len(examples) == 2
    for block in examples:
        command, _, shown = block.partition("\n")
        result = subprocess.run([sys.executable, "-m", "server.cli", *shlex.split(command)], capture_output=True,
                                text=True)
        assert result.stdout.strip() == shown.strip(), command
