"""Tool results: the CLI's JSON record as structured content plus its text rendering, or an error; never a crash."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mcp.types import CallToolResult, TextContent

from loa_memory.errors import GrimoireError, LoaError
from loa_memory.render import to_json
from loa_memory.store.config import Config, load_config

log = logging.getLogger("loa_memory.mcp")


def ok(data: dict[str, Any], text: Callable[[Any], str]) -> CallToolResult:
    """The record as the CLI's ``--format json`` prints it, and the CLI's text as the content agents read."""
    structured = json.loads(to_json(data))  # exactly the CLI's JSON (dates and other YAML scalars as strings)
    return CallToolResult(content=[TextContent(type="text", text=text(data))], structured_content=structured)


def refused(error: LoaError) -> CallToolResult:
    """A tool error carrying the CLI's ``{"error": {...}}`` record; the text is what the CLI prints on stderr
    (a secret the error quoted redacted, as the CLI does)."""
    from loa_memory.secrets.redact import redact_error

    error = redact_error(error)
    lines = [f"error: {error}"]
    if isinstance(error, GrimoireError):
        lines += [f"  {p.where}: {p.message}" for p in error.problems[1:20]]
    return CallToolResult(content=[TextContent(type="text", text="\n".join(lines))],
                          structured_content={"error": error.as_record()}, is_error=True)


def crashed(tool: str, exc: Exception) -> CallToolResult:
    """An unexpected exception: logged with its traceback on stderr, reported as a tool error."""
    log.exception("tool %s failed unexpectedly", tool)
    error = LoaError(f"unexpected {type(exc).__name__} in {tool}: {exc}",
                     hint="this is a bug in loa-memory; the traceback is in the MCP server's log (stderr)")
    error.code = "internal"
    return refused(error)


class Backend:
    """What every tool shares: the repository, the default world, and one lock that serialises the calls.

    Each call asks for the config and the grimoire afresh; what was loaded is reused (``store.memo``) only while
    every file it was read from is unchanged, so the server sees what `git pull`, the CLI or another agent
    changed meanwhile.
    """

    def __init__(self, root: Path, world: str | None = None) -> None:
        self.root = root
        self.world = world
        self._lock = threading.Lock()  # tools run on worker threads; the library is not re-entrant

    def worlds(self, config: Config, worlds: Sequence[str] | None) -> tuple[str, ...]:
        """The worlds to read: those asked for (each must exist), else the server's --world, else all."""
        chosen = tuple(worlds or ((self.world,) if self.world else ()))
        for name in chosen:
            config.world(name)
        return chosen

    def warm_up(self) -> None:
        """Open the grimoire, the full-text index and the embedding model before the first call needs them."""
        from loa_memory.search.retriever import warm_up

        with self._lock:
            try:
                warm_up(load_config(self.root))
            except Exception:  # nothing to warm (not initialised, a broken file): the first call will say so
                log.debug("warm-up skipped", exc_info=True)

    def call(self, tool: str, work: Callable[[Config], dict[str, Any]], text: Callable[[Any], str]) -> CallToolResult:
        """Run ``work`` on a fresh config under the lock and turn every outcome into a tool result."""
        with self._lock:
            try:
                return ok(work(load_config(self.root)), text)
            except LoaError as error:
                log.info("tool %s refused (%s)", tool, error.code)  # the message may quote a secret
                return refused(error)
            except Exception as exc:
                return crashed(tool, exc)
