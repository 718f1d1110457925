"""The cues for a tool call as an agent hook answers them: Claude Code's ``PreToolUse`` JSON, or plain lines."""

from __future__ import annotations

import json
from typing import Any


def pretooluse_output(data: dict[str, Any]) -> str:
    """``{"hookSpecificOutput": ...}`` for Claude Code: ``additionalContext`` with the imperatives, or, when a cue
    has ``severity: block``, ``permissionDecision: "ask"`` with them as the reason; "" when no cue fired."""
    cues = data["cues"]
    if not cues:
        return ""
    lines = "\n".join(c["imperative"] for c in cues)
    output: dict[str, Any] = {"hookEventName": "PreToolUse"}
    if any(c["severity"] == "block" for c in cues):
        output |= {"permissionDecision": "ask", "permissionDecisionReason": lines}
    else:
        output["additionalContext"] = f"loa-memory, before this tool call:\n{lines}"
    return json.dumps({"hookSpecificOutput": output}, ensure_ascii=False)


def action_cues_text(data: dict[str, Any]) -> str:
    """One imperative per line (nothing when no cue fired)."""
    return "\n".join(c["imperative"] for c in data["cues"])
