"""``mcp``: serve the memory to MCP clients over stdio (the SDK is imported only when the command runs)."""

from __future__ import annotations

from pathlib import Path

import click

from .common import State, pass_state


@click.command("mcp")
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Repository root (default: the global --root, else found from the current directory).")
@click.option("--world", help="Default world of every tool (default: reads see all worlds, writes go to the "
              "config's default world).")
@pass_state
def mcp(state: State, /, root: Path | None, world: str | None) -> None:
    """Serve this repository's memory to MCP clients (Claude Code, Claude Desktop...) over stdio.

    \b
    Tools: session_start recall search show why list lint add supersede feedback session_end.
    Resources: loa://index, loa://telos, loa://telos/{world}, loa://memory/{id}.
    Needs the optional SDK: pip install 'loa-memory[mcp]'.
    claude mcp add loa-memory -- loa-memory mcp
    """
    from ..mcp import serve
    from ..store.config import load_config

    resolved = State(root=root or state.root).find_root()
    if world:
        load_config(resolved).world(world)  # an unknown world is a usage error now, not on every call
    serve(resolved, world)
