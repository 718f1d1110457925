"""The MCP server (``loa-memory mcp``): the CLI's commands as MCP tools and resources, over stdio.

Each tool calls the library function its CLI command calls and returns the record that command prints with
``--format json``. The MCP SDK is the optional extra ``loa-memory[mcp]``: only this package imports it.
"""

from __future__ import annotations

from pathlib import Path

from loa_memory.errors import ConfigError

INSTALL_HINT = "pip install 'loa-memory[mcp]'"


def _sdk_missing(exc: ImportError) -> ConfigError:
    from importlib.metadata import PackageNotFoundError, version

    try:
        installed = version("mcp")
    except PackageNotFoundError:
        problem = "the MCP SDK (the `mcp` package) is not installed"
    else:
        major = installed.split(".", 1)[0]
        problem = (
            f"mcp {installed} is installed and loa-memory needs mcp>=2"
            if major.isdigit() and int(major) < 2
            else f"the MCP SDK cannot be imported ({exc})"
        )
    return ConfigError(f"`loa-memory mcp` cannot start: {problem}", hint=f"install loa-memory[mcp]: {INSTALL_HINT}")


def serve(root: Path, world: str | None = None) -> None:
    """Serve the memory of the repository at ``root`` over stdio until the client disconnects."""
    try:
        from loa_memory.mcp.server import build_server, run_stdio
    except ImportError as exc:
        if exc.name and (exc.name == "mcp" or exc.name.startswith("mcp.") or exc.name == "pydantic"):
            raise _sdk_missing(exc) from None
        raise
    from loa_memory.search.embed import onnx_embed
    from loa_memory.store.cache import memo
    from loa_memory.threads import query_threads
    from loa_memory.write.add import session_id

    query_threads()  # query-time work only
    onnx_embed.lean()  # a long-lived process: what one embedding batch used is not kept for the session
    memo.enable()  # a long-lived process: reuse what was loaded while its files are unchanged
    session_id()  # one generated session for the whole process: tools run in copies of this context
    run_stdio(build_server(root, world))
