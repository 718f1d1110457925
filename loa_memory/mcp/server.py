"""The MCP server: the tools, resources and prompts of one repository's memory, served over stdio."""

from __future__ import annotations

import inspect
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.types import CallToolResult, TextContent, ToolAnnotations

from loa_memory import __version__
from loa_memory.mcp.reads import ReadTools
from loa_memory.mcp.resources import ResourceReads
from loa_memory.mcp.writes import WriteTools

INSTRUCTIONS = """\
loa-memory: this repository's memory (decisions, corrections, learnings, procedures...), kept as reviewed files in git.
- At the start of a session call `session_start`; before a task call `recall` with the task in a sentence and
  follow its corrections ("BEFORE <action>: <lesson>"); before a risky edit or command, `cues_for_action`.
- `search` finds memories by words and meaning, `show` reads one in full, `why` explains a file, line or question.
- When you learn something worth keeping, `add` it (a correction when you were corrected, a decision with its
  rejected alternatives); change a memory with `supersede`, never by adding a contradicting one.
- Say whether a recalled memory helped with `feedback`; end with `session_end` and a summary.
Writes are validated and secret-scanned: never put credentials or personal data in a memory."""


class Memory(ReadTools, WriteTools, ResourceReads):
    """Every tool and resource of one repository (the bound methods are what the server registers)."""

    def recall_prompt(self, task: str) -> str:
        """What to know before a task (the `recall` tool's Markdown), to start a prompt with."""
        return _text(self.recall(task))

    def session_prompt(self) -> str:
        """The session brief (the `session_start` tool's Markdown)."""
        return _text(self.session_start())


def _text(result: CallToolResult) -> str:
    text = "\n".join(block.text for block in result.content if isinstance(block, TextContent))
    if result.is_error:
        raise ValueError(text)
    return text


def published_schema(tool: str) -> dict[str, Any] | None:
    """The JSON Schema published for the CLI command behind ``tool`` (``schemas/output/<command>.schema.json``),
    with every ``$ref`` inlined: MCP clients resolve references only inside one document."""
    from loa_memory.render.contract import command_names, standalone_schema

    name = tool.replace("_", "-")
    return standalone_schema(name) if name in command_names() else None


class _RedactingTool(Tool):
    """A tool whose argument errors (the SDK's validation quotes the value given: ``input_value='ghp_…'``) show a
    value the secret gate flags redacted, as every other refusal does."""

    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        try:
            return await super().run(arguments, context, convert_result)
        except ToolError as exc:
            from loa_memory.secrets.redact import redact_name

            said = redact_name(str(exc))
            if said == str(exc):
                raise
            raise ToolError(said) from None


def _tools(memory: Memory) -> list[Tool]:
    read = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    write = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                            open_world_hint=False)
    spec: list[tuple[str, Callable[..., CallToolResult], ToolAnnotations]] = [
        ("session_start", memory.session_start, read), ("recall", memory.recall, read),
        ("cues_for_action", memory.cues_for_action, read),
        ("search", memory.search, read), ("show", memory.show, read), ("why", memory.why, read),
        ("list", memory.list_, read), ("lint", memory.lint, read),
        ("add", memory.add, write), ("supersede", memory.supersede, write), ("feedback", memory.feedback, write),
        ("session_end", memory.session_end, write),
    ]
    tools = []
    for name, method, hints in spec:
        tool = _RedactingTool.from_function(method, name=name, description=inspect.getdoc(method), annotations=hints)
        schema = published_schema(name)
        if schema is not None:  # advertised to clients, which validate the structured content against it
            tool.fn_metadata.output_schema = schema
        tools.append(tool)
    return tools


def build_server(root: Path, world: str | None = None) -> MCPServer:
    """The server for the repository at ``root``; ``world`` is the default world of every tool."""
    memory = Memory(root, world)

    @asynccontextmanager
    async def warm_up(_: MCPServer) -> AsyncIterator[dict[str, Any]]:
        threading.Thread(target=memory.warm_up, name="loa-memory-warm-up", daemon=True).start()
        yield {}

    server: MCPServer = MCPServer("loa-memory", instructions=INSTRUCTIONS, version=__version__,
                                  tools=_tools(memory), log_level="WARNING", lifespan=warm_up)
    server.resource("loa://index", name="index", mime_type="text/plain")(memory.index_resource)
    server.resource("loa://telos", name="telos", mime_type="text/markdown")(memory.telos_resource)
    server.resource("loa://telos/{world}", name="world-telos", mime_type="text/markdown")(memory.world_telos_resource)
    server.resource("loa://memory/{memory_id}", name="memory", mime_type="text/plain")(memory.memory_resource)
    server.prompt(name="recall")(memory.recall_prompt)
    server.prompt(name="session_start")(memory.session_prompt)
    return server


def run_stdio(server: MCPServer) -> None:
    """Serve over stdio until the client disconnects, answering a line that is not JSON with JSON-RPC's parse error
    (-32700) and a JSON value that is not a JSON-RPC message with invalid request (-32600), as the spec asks; the
    SDK's own stdio loop drops both without a word, and a client then waits for an answer that never comes."""
    import anyio

    anyio.run(_serve_stdio, server)


async def _serve_stdio(server: MCPServer) -> None:
    import anyio
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage
    from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

    async with stdio_server() as (read_stream, write_stream):
        send, receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)

        async def relay() -> None:
            async with send:
                async for item in read_stream:
                    if not isinstance(item, Exception):
                        await send.send(item)
                        continue
                    errors: list[dict[str, object]] = getattr(item, "errors", list)()
                    unparsed = any(e.get("type") == "json_invalid" for e in errors) or not errors
                    code, message = (PARSE_ERROR, "Parse error") if unparsed else (INVALID_REQUEST, "Invalid Request")
                    await write_stream.send(SessionMessage(JSONRPCError(
                        jsonrpc="2.0", id=None, error=ErrorData(code=code, message=message))))

        lowlevel = server._lowlevel_server
        async with anyio.create_task_group() as group:
            group.start_soon(relay)
            await lowlevel.run(receive, write_stream, lowlevel.create_initialization_options())
