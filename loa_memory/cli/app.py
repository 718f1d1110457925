"""The ``loa-memory`` group and its global options."""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from loa_memory import __version__
from loa_memory.cli.common import State
from loa_memory.render import FORMATS

# name -> (module of loa_memory.cli, attribute): a command's module is imported only when it runs (or for --help)
COMMANDS = {
    "init": ("memory", "init"), "add": ("memory", "add"), "supersede": ("memory", "supersede"),
    "show": ("memory", "show"), "list": ("memory", "list_"), "lint": ("lint", "lint"),
    "scan-secrets": ("lint", "scan_secrets"), "review": ("lint", "review"), "hooks": ("hooks", "hooks"),
    "merge-driver": ("hooks", "merge_driver"), "search": ("search", "search"), "index": ("search", "index"),
    "recall": ("search", "recall"), "why": ("search", "why"), "capture": ("capture", "capture"),
    "archive": ("lifecycle", "archive"), "feedback": ("lifecycle", "feedback"),
    "promote": ("lifecycle", "promote"), "score": ("lifecycle", "score"),
    "session": ("lifecycle", "session"), "stats": ("lifecycle", "stats"),
    "graduate": ("lifecycle", "graduate"), "schema": ("schema", "schema"), "ledger": ("ledgers", "ledger"),
    "handoff": ("ledgers", "handoff"), "mcp": ("serve", "mcp"), "server": ("serve", "server"),
    "weights": ("weights", "weights"), "migrate": ("layout", "migrate"), "export": ("layout", "export"),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use: a hook that runs `lint` does not pay for `mcp`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context | None, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name]
        command: click.Command = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="loa-memory")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Repository root (default: found by walking up from the current directory).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Default output format of every command.")
@click.pass_context
def cli(ctx: click.Context, root: Path | None, fmt: str) -> None:
    """Git-native memory for software projects and their coding agents.

    Memories are schema-validated YAML and Markdown files in grimoires/<world>/memory/,
    committed with the code and reviewed in pull requests.
    """
    ctx.obj = State(root=root, fmt=fmt)
