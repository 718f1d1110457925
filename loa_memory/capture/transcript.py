"""Agent session transcripts read into turns: who said what, where in the file, and when.

Three shapes are understood:

- Claude Code session files (``~/.claude/projects/<project>/<session>.jsonl``): one JSON object a line,
  ``{"type": "user"|"assistant", "message": {"role", "content"}, "sessionId", "timestamp"}``; ``content``
  is a string or a list of blocks, of which ``text`` blocks are speech, ``tool_use`` blocks are tool calls
  and ``tool_result`` blocks are tool output. Bookkeeping lines (summaries, snapshots), sub-agent
  (sidechain) and meta lines are left out.
- Generic JSONL: ``{"role", "content"}`` a line (``content`` a string or blocks), optionally with
  ``session_id``/``sessionId`` and ``timestamp``; a ``message`` or ``payload`` object holding the role is
  looked into as well.
- Plain text: turns introduced by ``User:``/``Human:``/``Assistant:``/``AI:``/``Tool:``... prefixes, or, with
  no prefix anywhere, paragraphs whose speaker is unknown.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

Role = Literal["user", "assistant", "tool", "unknown"]

_ROLE_BY_NAME: dict[str, Role] = {
    "user": "user", "human": "user", "you": "user", "me": "user", "operator": "user",
    "assistant": "assistant", "ai": "assistant", "claude": "assistant", "agent": "assistant", "model": "assistant",
    "bot": "assistant", "codex": "assistant", "gemini": "assistant", "tool": "tool", "function": "tool",
    "output": "tool",
}
_PREFIX = re.compile(r"^\s*(?:\*\*)?(" + "|".join(_ROLE_BY_NAME) + r")(?:\*\*)?\s*[:>](?:\*\*)?\s?(.*)$", re.IGNORECASE)
_NOISE = re.compile(r"<(system-reminder|command-[a-z]+|local-command-[a-z]+)>.*?</\1>", re.DOTALL)
_SKIP_STARTS = ("Caveat: The messages below", "[Request interrupted", "<command-", "<local-command-")
_TEXT_BLOCKS = ("text", "input_text", "output_text")


@dataclass(frozen=True)
class Turn:
    """One utterance: ``line``..``end`` are 1-based lines of the transcript file."""

    role: Role
    text: str
    line: int
    end: int
    timestamp: str | None = None
    is_error: bool = False
    call_id: str | None = None  # a tool result: the call it answers


@dataclass(frozen=True)
class ToolCall:
    """A tool call an agent made (``tool_use`` / ``function_call``), at ``line`` of the transcript."""

    name: str
    input: dict[str, Any]
    line: int
    call_id: str | None = None
    timestamp: str | None = None


@dataclass(frozen=True)
class Transcript:
    path: Path
    session_id: str
    turns: tuple[Turn, ...]
    shape: Literal["claude-code", "jsonl", "text"]
    unreadable_lines: int = 0
    calls: tuple[ToolCall, ...] = ()
    cwd: str | None = None  # the agent's working folder, when the transcript records it


def read_transcript(path: Path) -> Transcript:
    """Read a transcript of any understood shape (the shape is told by its first non-blank line)."""
    raw = path.read_bytes()
    text = raw.decode("utf-8", errors="replace")
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if first.startswith("{"):
        return _read_jsonl(path, text, raw)
    return _read_text(path, text, raw)


def fallback_session_id(path: Path, raw: bytes) -> str:
    """A stable id for a transcript that names none: its file name plus a hash of its first 4 KiB
    (which stay the same while an agent appends to the file)."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", path.stem).strip("-")[:60] or "transcript"
    return f"{stem}-{hashlib.sha256(raw[:4096]).hexdigest()[:8]}"


def _read_jsonl(path: Path, text: str, raw: bytes) -> Transcript:
    turns: list[Turn] = []
    calls: list[ToolCall] = []
    session_id: str | None = None
    cwd: str | None = None
    unreadable = 0
    claude = False
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError):  # a line nested too deeply is as unreadable as a broken one
            unreadable += 1
            continue
        if not isinstance(record, dict):
            unreadable += 1
            continue
        session_id = session_id or _str(record.get("sessionId")) or _str(record.get("session_id"))
        cwd = cwd or _str(record.get("cwd"))
        claude = claude or ("sessionId" in record and record.get("type") in ("user", "assistant"))
        turns.extend(_record_turns(record, number))
        calls.extend(_record_calls(record, number))
    return Transcript(path, session_id or fallback_session_id(path, raw), tuple(turns),
                      "claude-code" if claude else "jsonl", unreadable, tuple(calls), cwd)


def _str(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _record_turns(record: dict[str, Any], number: int) -> list[Turn]:
    if record.get("isSidechain") or record.get("isMeta") or record.get("isCompactSummary"):
        return []
    message: Any = record
    for key in ("message", "payload"):
        inner = record.get(key)
        if isinstance(inner, dict) and ("role" in inner or "content" in inner):
            message = inner
            break
    payload = record.get("payload")
    item: dict[str, Any] = payload if isinstance(payload, dict) else record
    stamp = _str(record.get("timestamp")) or _str(message.get("timestamp"))
    if item.get("type") == "function_call_output":  # an OpenAI-style tool output item, on its own line
        message, role_name = {"content": [item]}, "tool"
    else:
        role_name = _str(message.get("role")) or _str(record.get("role")) or _str(record.get("type")) or ""
    role = _ROLE_BY_NAME.get(role_name.lower())
    if role is None:
        return []
    content = message.get("content", message.get("text"))
    turns: list[Turn] = []
    if isinstance(content, str):
        turns.append(Turn(role, content, number, number, stamp))
    elif isinstance(content, list):
        for block in content:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind in _TEXT_BLOCKS and isinstance(block.get("text"), str):
                turns.append(Turn(role, block["text"], number, number, stamp))
            elif kind in ("tool_result", "function_call_output"):
                output = _block_text(block.get("content", block.get("output")))
                failed = bool(block.get("is_error")) or bool(_EXIT_FAILED.search(output[:400]))
                call_id = _str(block.get("tool_use_id")) or _str(block.get("call_id"))
                turns.append(Turn("tool", output, number, number, stamp, failed, call_id))
    return [_clean(turn) for turn in turns if _clean(turn).text]


_EXIT_FAILED = re.compile(r"\b(?:exit(?:ed with)? (?:code|status)|\"exit_code\")\s*[:=]?\s*[1-9][0-9]*\b",
                          re.IGNORECASE)


def _record_calls(record: dict[str, Any], number: int) -> list[ToolCall]:
    """The tool calls of one record: Anthropic ``tool_use`` blocks, OpenAI ``function_call`` items."""
    if record.get("isSidechain") or record.get("isMeta"):
        return []
    message = record.get("message") if isinstance(record.get("message"), dict) else record
    content = message.get("content") if isinstance(message, dict) else None
    blocks = content if isinstance(content, list) else [record.get("payload") or record]
    stamp = _str(record.get("timestamp"))
    calls = []
    for block in blocks:
        if not isinstance(block, dict) or block.get("type") not in ("tool_use", "function_call"):
            continue
        name = _str(block.get("name"))
        arguments: Any = block.get("input", block.get("arguments"))
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except (json.JSONDecodeError, RecursionError):
                arguments = {"arguments": arguments}
        if name:
            calls.append(ToolCall(name, arguments if isinstance(arguments, dict) else {}, number,
                                  _str(block.get("id")) or _str(block.get("call_id")), stamp))
    return calls


def _block_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return ""


def _clean(turn: Turn) -> Turn:
    text = _NOISE.sub("", turn.text).strip()
    if turn.role == "user" and text.startswith(_SKIP_STARTS):
        text = ""
    return turn if text == turn.text else Turn(turn.role, text, turn.line, turn.end, turn.timestamp, turn.is_error,
                                               turn.call_id)


def _read_text(path: Path, text: str, raw: bytes) -> Transcript:
    lines = text.splitlines()
    prefixed = any(_PREFIX.match(line) for line in lines)
    turns: list[Turn] = []
    role: Role = "unknown"
    body: list[str] = []
    start = 1

    def flush(end: int) -> None:
        joined = "\n".join(body).strip()
        if joined:
            turns.append(Turn(role, joined, start, max(start, end)))

    for number, line in enumerate(lines, 1):
        match = _PREFIX.match(line) if prefixed else None
        if match or (not prefixed and not line.strip()):
            flush(number - 1)
            body = [match[2]] if match else []
            role = _ROLE_BY_NAME[match[1].lower()] if match else "unknown"
            start = number if match else number + 1
        else:
            if not body and not line.strip():
                start = number + 1
                continue
            body.append(line)
    flush(len(lines))
    return Transcript(path, fallback_session_id(path, raw), tuple(turns), "text")
