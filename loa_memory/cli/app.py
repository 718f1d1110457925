"""The ``loa-memory`` group and its global options."""

from __future__ import annotations

from pathlib import Path

import click

from .. import __version__
from ..render import FORMATS
from . import agents, hooks, lifecycle, lifecycle_cmds, lint, memory, retrieve, schema, serve, weights
from .common import State


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
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


for _command in (memory.init, memory.add, memory.supersede, memory.show, memory.list_, lint.lint,
                 lint.scan_secrets, hooks.hooks, retrieve.search, retrieve.index,
                 retrieve.recall, retrieve.why, hooks.merge_driver, lifecycle.capture, lifecycle_cmds.archive,
                 lifecycle_cmds.feedback, lifecycle_cmds.promote, lifecycle_cmds.score, lifecycle_cmds.session,
                 lifecycle_cmds.stats, lint.review, schema.schema, lifecycle_cmds.graduate,
                 agents.ledger, agents.handoff, serve.mcp, serve.server, weights.weights):
    cli.add_command(_command)
