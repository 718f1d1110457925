"""The JSON object an agent's hook command gets on stdin, in Claude Code's shape.

Every Claude Code hook event passes ``session_id``, ``transcript_path``, ``cwd``, ``permission_mode`` and
``hook_event_name``; ``UserPromptSubmit`` adds ``prompt``, ``SessionStart`` adds ``source`` (startup,
resume, clear, compact), ``SessionEnd`` adds ``reason`` and ``PreToolUse`` adds ``tool_name`` and
``tool_input`` (an object). Fields that are missing or not strings read as ``None`` (``tool_input``: empty):
each command asks only for what it needs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loa_memory.errors import UsageError

EXPECTED = '{"hook_event_name": ..., "session_id": ..., "transcript_path": ..., "prompt": ...}'


@dataclass(frozen=True)
class HookInput:
    """What a hook was told: the event, the session, its transcript and, before a task, the prompt."""

    event: str | None = None
    session_id: str | None = None
    transcript_path: Path | None = None
    prompt: str | None = None
    cwd: str | None = None
    source: str | None = None
    reason: str | None = None
    tool_name: str | None = None
    tool_input: dict[str, Any] = field(default_factory=dict)

    def transcript(self) -> Path:
        """The transcript file the hook names; ``UsageError`` if it names none or it does not exist."""
        if self.transcript_path is None:
            raise UsageError("the hook input has no transcript_path", path="<stdin>", hint=f"expected {EXPECTED}")
        if not self.transcript_path.is_file():
            raise UsageError(f"the hook's transcript {self.transcript_path} does not exist", hint="nothing to capture")
        return self.transcript_path


# what a hook reads of its standard input: a prompt, a tool call with a file's new text; beyond it the hook answers
# nothing rather than spend seconds on it (an agent waits for every hook)
MAX_HOOK_INPUT_CHARS = 2_000_000


def parse_hook_input(text: str) -> HookInput:
    """Read a hook's stdin; empty input is an empty ``HookInput``, anything but a JSON object a ``UsageError``."""
    try:
        data: Any = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise UsageError(f"the hook input is not JSON: {exc.msg}", path="<stdin>", line=exc.lineno, col=exc.colno,
                         hint=f"expected {EXPECTED}") from None
    except RecursionError:
        raise UsageError("the hook input is JSON nested too deeply", path="<stdin>", hint=f"expected {EXPECTED}") \
            from None
    if not isinstance(data, dict):
        raise UsageError("the hook input is not a JSON object", path="<stdin>", hint=f"expected {EXPECTED}")

    def text_of(key: str) -> str | None:
        value = data.get(key)
        return value if isinstance(value, str) and value.strip() else None

    transcript = text_of("transcript_path")
    return HookInput(text_of("hook_event_name"), text_of("session_id"),
                     Path(transcript).expanduser() if transcript else None, text_of("prompt"), text_of("cwd"),
                     text_of("source"), text_of("reason"), text_of("tool_name"),
                     tool_input if isinstance(tool_input := data.get("tool_input"), dict) else {})
