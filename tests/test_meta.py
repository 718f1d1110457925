"""Meta-tests: every command has help and is documented; the rule reference is up to date."""

from __future__ import annotations

from pathlib import Path

import click

from loa_memory.cli import cli
from loa_memory.lint.docs import rules_markdown

ROOT = Path(__file__).resolve().parents[1]


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    found = []
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        found.append((f"{prefix}{name}", command))
        if isinstance(command, click.Group):
            found.extend(_commands(command, f"{prefix}{name} "))
    return found


def test_every_command_has_help_and_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    for name, command in _commands(cli):
        assert (command.help or "").strip(), name
        assert f"`{name}" in readme, f"{name} is not documented in README.md"


def test_lint_rule_reference_is_generated_from_the_rules() -> None:
    assert (ROOT / "docs" / "lint-rules.md").read_text() == rules_markdown()
