"""``mcp`` (the memory to MCP clients over stdio; the SDK is imported only when the command runs) and ``server``
(the warm server of read commands, see ``warm.py``)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from loa_memory.cli.common import State, emit, format_option, pass_state
from loa_memory.errors import LoaError


@click.command("mcp")
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Repository root (default: the global --root, else found from the current directory).",
)
@click.option(
    "--world",
    help="Default world of every tool (default: reads see all worlds, writes go to the config's default world).",
)
@pass_state
def mcp(state: State, /, root: Path | None, world: str | None) -> None:
    """Serve this repository's memory to MCP clients (Claude Code, Claude Desktop...) over stdio.

    \b
    Tools: session_start recall search show why list lint add supersede feedback session_end.
    Resources: loa://index, loa://telos, loa://telos/{world}, loa://memory/{id}.
    Needs the optional SDK: pip install 'loa-memory[mcp]'.
    claude mcp add loa-memory -- loa-memory mcp
    """
    from loa_memory.mcp import serve
    from loa_memory.store.config import load_config

    resolved = State(root=root or state.root).find_root()
    if world:
        load_config(resolved).world(world)  # an unknown world is a usage error now, not on every call
    serve(resolved, world)


@click.group("server")
def server() -> None:
    """The warm server that answers search, recall, why, show and list in milliseconds.

    \b
    One server per user (and installation) answers for all of that user's repositories. A read command
    that finds none runs in its own process and then starts one in the background (never with
    LOA_MEMORY_SERVER=off). The server reuses what it loaded while no file changes, drops what it loaded
    for a repository after --forget seconds without a command there, and exits after --idle seconds
    (default 900) without any.
    """


def _root(state: State) -> Path | None:
    """The repository of the current directory (or --root), if there is one: the server does not need it."""
    try:
        return state.find_root().resolve()
    except (LoaError, OSError):
        return None


@server.command("start")
@click.option(
    "--idle",
    type=click.FloatRange(1),
    default=900.0,
    show_default=True,
    help="Exit after this many seconds without a request.",
)
@click.option(
    "--forget",
    type=click.FloatRange(1),
    default=300.0,
    show_default=True,
    help="Drop what was loaded for a repository after this many seconds without a request for it.",
)
@click.option("--foreground", is_flag=True, help="Serve from this process until stopped (default: in the background).")
@format_option()
@pass_state
def server_start(state: State, /, idle: float, forget: float, foreground: bool, fmt: str | None) -> None:
    """Start this user's server, warming up this repository (nothing happens if one is running)."""
    from loa_memory.cli import run_command
    from loa_memory.server import warm

    root = _root(state)
    status = warm.running()
    if status is None and foreground:
        warm.serve(root, idle, run_command, forget)
        return
    if status is None:
        status = warm.start(root, idle, forget)
    if status is None:
        raise LoaError("the server did not start", hint="`loa-memory server start --foreground` shows why")
    emit(state, fmt, _record(root, status), _text)


@server.command("stop")
@format_option()
@pass_state
def server_stop(state: State, /, fmt: str | None) -> None:
    """Stop this user's server, for all repositories (commands then run in their own process until one starts
    again)."""
    from loa_memory.server import warm

    emit(state, fmt, _record(_root(state), warm.stop(), stopped=True), _text)


@server.command("status")
@format_option()
@pass_state
def server_status(state: State, /, fmt: str | None) -> None:
    """Whether this user's server runs, since when, its memory, and the repositories it served."""
    from loa_memory.server import warm

    emit(state, fmt, _record(_root(state), warm.running()), _text)


def _record(root: Path | None, status: dict[str, Any] | None, *, stopped: bool = False) -> dict[str, Any]:
    from loa_memory.server.protocol import socket_path

    record: dict[str, Any] = {"socket": str(socket_path()), "running": False}
    if root is not None:
        record["root"] = str(root)
    if status is not None:
        record.update(
            running=not stopped,
            pid=int(status["pid"]),
            requests=int(status["requests"]),
            idle_seconds=float(status["idle_seconds"]),
            started_at=datetime.fromtimestamp(float(status["started_at"]), UTC)
            .isoformat(timespec="seconds")
            .replace("+00:00", "Z"),
        )
        if status.get("rss_bytes") is not None:
            record["rss_mb"] = round(int(status["rss_bytes"]) / 2**20, 1)
        if status.get("forget_seconds") is not None:
            record["forget_seconds"] = float(status["forget_seconds"])
        record["repositories"] = [
            {
                "root": str(r["root"]),
                "requests": int(r["requests"]),
                "idle_for": float(r["idle_for"]),
                "loaded": bool(r["loaded"]),
            }
            for r in status.get("repositories", [])
        ]
    if stopped:
        record["stopped"] = status is not None
    return record


def _text(record: dict[str, Any]) -> str:
    if record.get("stopped"):
        return (
            f"stopped the server (pid {record['pid']}, {record['requests']} commands answered, "
            f"{len(record['repositories'])} repositories)"
        )
    if "stopped" in record:
        return "no server was running"
    if not record["running"]:
        return "no server running"
    memory = f", {record['rss_mb']:g} MB resident" if "rss_mb" in record else ""
    lines = [
        f"server running: pid {record['pid']}, since {record['started_at']}, {record['requests']} commands "
        f"answered{memory}, exits after {record['idle_seconds']:g} s idle"
    ]
    for repository in record["repositories"]:
        held = "" if repository["loaded"] else ", state dropped"
        lines.append(
            f"  {repository['root']}: {repository['requests']} commands, last {repository['idle_for']:.0f} s ago{held}"
        )
    return "\n".join(lines)
