"""A backend for Anthropic's memory tool (``memory_20250818``) that keeps ``/memories`` in the grimoire.

Pass it where the SDK takes a memory tool; nothing else changes::

    from anthropic import Anthropic
    from loa_memory.agents.anthropic_memory import GrimoireMemoryTool

    runner = Anthropic().beta.messages.tool_runner(
        model="claude-sonnet-4-5", max_tokens=2048, tools=[GrimoireMemoryTool(agent="support-bot")],
        messages=[{"role": "user", "content": "Remember that I deploy on Fridays"}])

Every file under ``/memories`` is a note (see ``loa_memory.agents.notes``): Markdown with front matter that
loa-memory owns, the agent's text as the body. The agent sees and edits the body only, line-numbered as
the SDK's own backend shows it. Writes go through the grimoire lock, validation and the secret gate;
``delete`` archives; ``rename`` keeps ids. Anything refused comes back to the model as a ``ToolError``
(a tool result with ``is_error``), never as an exception out of the tool runner.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

try:
    from anthropic.lib.tools import BetaAbstractMemoryTool, BetaAsyncAbstractMemoryTool, ToolError
    from anthropic.types.beta import (
        BetaCacheControlEphemeralParam,
        BetaMemoryTool20250818CreateCommand,
        BetaMemoryTool20250818DeleteCommand,
        BetaMemoryTool20250818InsertCommand,
        BetaMemoryTool20250818RenameCommand,
        BetaMemoryTool20250818StrReplaceCommand,
        BetaMemoryTool20250818ViewCommand,
    )
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the memory tool backend needs the anthropic SDK: "
                      "pip install 'loa-memory[anthropic]'") from exc

from loa_memory.agents.memory_paths import file_rel, folder_rel, memory_parts, shown_name, shown_path
from loa_memory.agents.memory_text import format_listing, format_view, insert_lines, replace_once, replace_snippet
from loa_memory.agents.note_write import archive_notes, create_note, edit_note, move_notes
from loa_memory.agents.notes import NOTE_CATEGORY, NoteSpace, list_notes, note_space, read_note, resolve
from loa_memory.errors import LoaError
from loa_memory.secrets.gate import check_name, check_secrets
from loa_memory.secrets.redact import redact_error, redact_name
from loa_memory.store.config import find_root, load_config

P = ParamSpec("P")
R = TypeVar("R")


def _as_tool_errors(method: Callable[P, R]) -> Callable[P, R]:
    """Report loa-memory's refusals to the model as tool errors, with the hint; a secret quoted in one (a path the
    model gave) is redacted, as the CLI does."""
    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except LoaError as exc:
            clean = redact_error(exc)
            hint = f" ({clean.hint})" if clean.hint else ""
            raise ToolError(f"{clean.message}{hint}") from None
        except ToolError as exc:
            raise ToolError(redact_name(str(exc))) from None
    return wrapper


class GrimoireMemoryTool(BetaAbstractMemoryTool):
    """The memory tool over a repository's grimoire (``root``: the repository; default: found from the cwd).

    ``world`` and ``category`` choose where notes go (default world, ``note``); ``agent`` and
    ``session_id`` are recorded in each new note's ``source`` (defaults: ``$LOA_AGENT`` or
    ``memory-tool``; ``$LOA_SESSION_ID``/``$CLAUDE_SESSION_ID`` or one per process).
    """

    def __init__(self, root: str | Path | None = None, *, world: str | None = None, category: str = NOTE_CATEGORY,
                 agent: str | None = None, session_id: str | None = None,
                 cache_control: BetaCacheControlEphemeralParam | None = None) -> None:
        super().__init__(cache_control=cache_control)
        config = load_config(Path(root) if root is not None else find_root(Path.cwd()))
        self.space: NoteSpace = note_space(config, world=world, category=category)
        self.source: dict[str, Any] = {"agent": agent or os.environ.get("LOA_AGENT") or "memory-tool",
                                       "capture": "memory-tool"}
        if session_id:
            self.source["session_id"] = session_id

    def _is_folder(self, parts: tuple[str, ...]) -> bool:
        return not parts or (not parts[-1].endswith(".md") and resolve(self.space, folder_rel(parts)).is_dir())

    def _existing_file(self, parts: tuple[str, ...], path: str) -> str:
        rel = file_rel(parts)
        if not resolve(self.space, rel).is_file():
            raise ToolError(f"The path {path} does not exist. Please provide a valid path.")
        return rel

    @_as_tool_errors
    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        parts = memory_parts(command.path)
        path = shown_path(parts)
        if not self._is_folder(parts):
            note = read_note(self.space, self._existing_file(parts, path))
            return format_view(path, note.body, command.view_range)
        folder = resolve(self.space, folder_rel(parts)) if parts else self.space.root
        items = []
        for item in list_notes(self.space, folder_rel(parts)):
            *folders, name = item.rel.split("/")[len(parts):]
            shown = f"{name}/" if item.is_dir else shown_name(name)
            items.append((item.size, "/".join((*folders, shown))))
        return format_listing(path, folder.lstat().st_size if folder.exists() else 0, items)

    @_as_tool_errors
    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        parts = memory_parts(command.path)
        rel = file_rel(parts)
        check_name(self.space.config, command.path)
        if resolve(self.space, rel).exists():
            raise ToolError(f"File {command.path} already exists")
        check_secrets(self.space.config, command.file_text, shown_path(parts), 1)
        create_note(self.space, rel, command.file_text, source=self.source)
        return f"File created successfully at: {command.path}"

    @_as_tool_errors
    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        parts = memory_parts(command.path)
        rel = self._existing_file(parts, command.path)
        changed: list[int] = []

        def change(body: str) -> str:
            new_body, line = replace_once(body, command.old_str, command.new_str, command.path)
            check_secrets(self.space.config, new_body, shown_path(parts), 1)
            changed.append(line)
            return new_body

        return replace_snippet(edit_note(self.space, rel, change), changed[0])

    @_as_tool_errors
    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        parts = memory_parts(command.path)
        rel = self._existing_file(parts, command.path)

        def change(body: str) -> str:
            new_body = insert_lines(body, command.insert_line, command.insert_text)
            check_secrets(self.space.config, new_body, shown_path(parts), 1)
            return new_body

        edit_note(self.space, rel, change)
        return f"The file {command.path} has been edited."

    @_as_tool_errors
    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        parts = memory_parts(command.path)
        if not parts:
            raise ToolError("Cannot delete the /memories directory itself")
        if self._is_folder(parts):
            archive_notes(self.space, folder_rel(parts))
        else:
            archive_notes(self.space, self._existing_file(parts, command.path))
        return f"Successfully deleted {command.path}"

    @_as_tool_errors
    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        old, new = memory_parts(command.old_path), memory_parts(command.new_path)
        check_name(self.space.config, command.new_path)
        if not old or not new:
            raise ToolError("Cannot rename the /memories directory itself")
        if self._is_folder(old):
            old_rel, new_rel = folder_rel(old), folder_rel(new)
        else:
            old_rel, new_rel = self._existing_file(old, command.old_path), file_rel(new)
        if resolve(self.space, new_rel).exists():
            raise ToolError(f"The destination {command.new_path} already exists")
        move_notes(self.space, old_rel, new_rel)
        return f"Successfully renamed {command.old_path} to {command.new_path}"

    @_as_tool_errors
    def clear_all_memory(self) -> str:
        """Archive every note (nothing is erased: the archive keeps them, with ``archive_reason: manual``)."""
        if list_notes(self.space):
            archive_notes(self.space, "")
        return "All memory cleared"


class AsyncGrimoireMemoryTool(BetaAsyncAbstractMemoryTool):
    """:class:`GrimoireMemoryTool` for the SDK's async clients: each command runs in a worker thread."""

    def __init__(self, root: str | Path | None = None, **options: Any) -> None:
        cache_control = options.pop("cache_control", None)
        super().__init__(cache_control=cache_control)
        self.sync = GrimoireMemoryTool(root, **options)

    async def _run(self, method: Callable[[Any], str], command: Any) -> str:
        from anyio import to_thread

        return await to_thread.run_sync(method, command)

    async def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return await self._run(self.sync.view, command)

    async def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return await self._run(self.sync.create, command)

    async def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return await self._run(self.sync.str_replace, command)

    async def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return await self._run(self.sync.insert, command)

    async def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return await self._run(self.sync.delete, command)

    async def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return await self._run(self.sync.rename, command)

    async def clear_all_memory(self) -> str:
        from anyio import to_thread

        return await to_thread.run_sync(self.sync.clear_all_memory)
