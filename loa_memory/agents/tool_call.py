"""A Claude Code ``PreToolUse`` hook's tool call as an agent-neutral ``Action`` (None for tools that change
nothing: Read, Glob, Grep, LS, WebFetch...).

``tool_input`` by tool: Edit ``{file_path, old_string, new_string}``, MultiEdit ``{file_path, edits: [{old_string,
new_string}]}``, Write ``{file_path, content}``, NotebookEdit ``{notebook_path, new_source}``, Bash ``{command,
description}``. An edit also carries its new text under the lines of the file that enclose it, and the file as it
leaves it (read from disk, before the edit), so a change to ``path:`` under ``livenessProbe:`` is known for what it
changes, and a Go map written in a file that takes a lock elsewhere is written under it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from loa_memory.agents.hook_input import HookInput
from loa_memory.answer.cues import Action
from loa_memory.answer.cues.action import edit_action

PRE_TOOL_USE = "PreToolUse"


def is_tool_call(hook: HookInput) -> bool:
    """Whether the hook is about a tool call (``PreToolUse``, or any input naming a tool)."""
    return hook.event == PRE_TOOL_USE or (hook.event is None and hook.tool_name is not None)


def action_from_hook(hook: HookInput) -> Action | None:
    """The action a ``PreToolUse`` input describes, or None when its tool changes nothing."""
    tool, given = hook.tool_name or "", hook.tool_input

    def text(key: str, source: dict[str, Any] = given) -> str:
        value = source.get(key)
        return value if isinstance(value, str) else ""

    path = text("file_path") or text("notebook_path")
    paths = (path,) if path else ()
    if tool == "Bash":
        command = text("command")
        return Action("command", (), command, description=text("description")) if command.strip() else None
    if tool == "Write":
        return Action("write", paths, text("content"))
    if tool in ("Edit", "MultiEdit"):
        edits = [given] if tool == "Edit" else [e for e in given.get("edits") or [] if isinstance(e, dict)]
        return edit_action(paths, [(text("old_string", e), text("new_string", e), e.get("replace_all") is True)
                                   for e in edits], Path(hook.cwd or ".") / path if path else None)
    if tool == "NotebookEdit":
        return Action("edit", paths, text("new_source"))
    return None

