"""Task traces: what an agent did for each request of a transcript, as the fields of one episode.

A task starts at a user request and runs until the next one. A user turn that is a correction,
preference or decision (see ``capture/cues.py``), or a short reply ("yes", "go on"), does not start a task:
it continues the current one and its sentences become the task's constraints. A task is traced only if
the agent called tools for it. The trace holds:

- ``goal``: the request; ``constraints``: sentences of the request that constrain it ("keep it simple",
  "don't touch the schema") and the follow-up cues;
- ``files``: the files the tool calls named, relative to the agent's working folder (others are left out);
  ``artifacts``: those it wrote;
- ``actions``: a compact log, one line per call (``Edit: src/app.py``, ``Bash: pytest -q``), repeats folded;
- ``errors``: each failed call with the error line of its output and, when it was fixed, the resolution:
  the agent's own words if it said how ("fixed it by ..."), else the calls between the failure and a
  successful retry of the same action, as imperatives ("run `npm install` before retrying");
- ``outcome``: ``completed`` (every error resolved), ``partial`` (an error was left unresolved) or
  ``failed`` (the last call failed and nothing fixed it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from loa_memory.capture.corrections import sounds_like_correction
from loa_memory.capture.cues import LEAD, RESOLVED, RULES, error_line, sentences
from loa_memory.capture.transcript import ToolCall, Transcript, Turn

SHELL_TOOLS = frozenset({"bash", "shell", "exec_command", "local_shell", "run_terminal_cmd", "terminal"})
WRITE_TOOLS = frozenset({"write", "edit", "multiedit", "notebookedit", "create_file", "write_file", "apply_patch"})
_EDIT_COMMANDS = frozenset({"create", "str_replace", "insert", "write"})
_PATH_KEYS = ("file_path", "notebook_path", "path", "filename")
_CONSTRAINT = re.compile(r"\b(?:must|mustn'?t|should(?:n'?t| not)?|don'?t|do not|never|always|only|without|keep|"
                         r"make sure|ensure|avoid|no more than|at most|at least)\b", re.IGNORECASE)
ACTION_LIMIT = 40
TEXT_LIMIT = 300


@dataclass
class Task:
    """One request and what the agent did for it."""

    goal: str
    line: int
    end: int
    timestamp: str | None
    constraints: list[str] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    calls: list[ToolCall] = field(default_factory=list)


def clip(text: str, limit: int = TEXT_LIMIT) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def is_shell(call: ToolCall) -> bool:
    return call.name.lower() in SHELL_TOOLS


def _command(call: ToolCall) -> str:
    value = call.input.get("command", call.input.get("cmd", ""))
    if isinstance(value, list):
        value = " ".join(map(str, value))
    return clip(str(value).strip().splitlines()[0] if str(value).strip() else "", 120)


def call_path(call: ToolCall, cwd: str | None) -> str | None:
    """The file a call names, relative to ``cwd`` (None for none, or for one outside it)."""
    if call.name.lower() in ("grep", "glob", "ls"):
        return None
    raw = next((call.input[k] for k in _PATH_KEYS if isinstance(call.input.get(k), str) and call.input[k]), None)
    if raw is None:
        return None
    path = PurePosixPath(raw)
    if path.is_absolute():
        if not cwd or not path.is_relative_to(cwd):
            return None
        path = path.relative_to(cwd)
    return None if ".." in path.parts or not path.parts else path.as_posix()


def writes(call: ToolCall) -> bool:
    name = call.name.lower()
    return name in WRITE_TOOLS or (name.endswith("edit_tool") and call.input.get("command") in _EDIT_COMMANDS)


def describe(call: ToolCall, cwd: str | None) -> str:
    """One line of the action log: ``Tool: target``."""
    if is_shell(call):
        return f"{call.name}: {_command(call)}"
    target = call_path(call, cwd) or next((clip(str(v), 80) for k in ("pattern", "query", "url", "description")
                                            if (v := call.input.get(k))), "")
    return f"{call.name}: {target}" if target else call.name


def imperative(call: ToolCall, cwd: str | None) -> str:
    """A call as something to do: ``run `npm install```, ``edit src/app.py``."""
    if is_shell(call):
        return f"run `{_command(call)}`"
    path = call_path(call, cwd)
    return f"{'edit' if writes(call) else 'check'} {path}" if path else f"use {call.name}"


def _retry_key(call: ToolCall, cwd: str | None) -> tuple[str, str]:
    if is_shell(call):
        words = re.sub(r"^(?:cd \S+ *&& *)+", "", _command(call)).split()
        return call.name, " ".join(words[:2])  # the program and its subcommand: `npm ci` is no retry of `npm test`
    return call.name, call_path(call, cwd) or json.dumps(call.input, sort_keys=True)[:200]


def _is_cue(turn: Turn) -> bool:
    return any(sounds_like_correction(s) or any(rule.pattern.search(s) for rule in RULES) for s in sentences(turn.text))


def split_tasks(transcript: Transcript) -> list[Task]:
    """The transcript's tasks, in order (see the module docstring)."""
    tasks: list[Task] = []
    current: Task | None = None
    for turn in transcript.turns:
        if turn.role in ("user", "unknown"):
            follow_up = current is not None and (_is_cue(turn) or len(turn.text.split()) <= 3)
            if not follow_up:
                current = Task(clip(turn.text), turn.line, turn.end, turn.timestamp,
                               [clip(s, 200) for s in sentences(turn.text) if _CONSTRAINT.search(s)])
                tasks.append(current)
                continue
            assert current is not None
            current.constraints += [clip(s, 200) for s in sentences(turn.text) if not s.endswith("?")
                                    and LEAD.sub("", s).strip(" .!,;:")
                                    and (_CONSTRAINT.search(s) or sounds_like_correction(s)
                                         or any(r.pattern.search(s) for r in RULES))]
        if current is not None:
            current.turns.append(turn)
            current.end = max(current.end, turn.end)
    for call in transcript.calls:
        owner = next((t for t in reversed(tasks) if t.line <= call.line), None)
        if owner is not None:
            owner.calls.append(call)
            owner.end = max(owner.end, call.line)
    return [t for t in tasks if t.calls]


def _results(task: Task) -> dict[str, Turn]:
    return {turn.call_id: turn for turn in task.turns if turn.role == "tool" and turn.call_id}


def _errors(task: Task, cwd: str | None) -> Iterator[dict[str, Any]]:
    results = _results(task)
    calls = task.calls
    for index, call in enumerate(calls):
        result = results.get(call.call_id or "")
        if result is None or not result.is_error:
            continue
        found = error_line(result.text)
        first = next((line.strip() for line in result.text.splitlines() if line.strip()), "failed")
        item: dict[str, Any] = {"action": describe(call, cwd), "error": clip(found[0] if found else first, 200)}
        later = calls[index + 1:]
        retry = next((n for n, c in enumerate(later) if _retry_key(c, cwd) == _retry_key(call, cwd)), None)
        retried_ok = retry is not None and not _failed(later[retry], results)
        limit = later[retry].line if retry is not None else task.end + 1
        said = next((s for turn in task.turns if result.line < turn.line <= limit and turn.role == "assistant"
                     for s in sentences(turn.text) if RESOLVED.search(s) and not s.endswith("?")), None)
        if said:
            item["resolution"] = clip(said, 200)
        elif retried_ok and retry is not None:
            fixes = [imperative(c, cwd) for c in later[:retry] if not _failed(c, results)]
            if describe(later[retry], cwd) != item["action"]:
                fixes.append(f"use `{_command(later[retry])}`" if is_shell(later[retry])
                             else imperative(later[retry], cwd))
            item["resolution"] = clip("; ".join(dict.fromkeys(fixes)) + " before retrying" if fixes
                                      else "retry: it passed unchanged (flaky)", 200)
        yield item


def _failed(call: ToolCall, results: dict[str, Turn]) -> bool:
    result = results.get(call.call_id or "")
    return result is not None and result.is_error


def _fold(actions: Sequence[str]) -> list[str]:
    folded: list[tuple[str, int]] = []
    for action in actions:
        if folded and folded[-1][0] == action:
            folded[-1] = (action, folded[-1][1] + 1)
        else:
            folded.append((action, 1))
    lines = [f"{a} (x{n})" if n > 1 else a for a, n in folded]
    if len(lines) > ACTION_LIMIT:
        lines = [*lines[:ACTION_LIMIT - 1], f"... and {len(lines) - ACTION_LIMIT + 1} more"]
    return lines


def trace_fields(task: Task, cwd: str | None) -> dict[str, Any]:
    """The episode fields of one task's trace (without source, session or commit)."""
    results = _results(task)
    errors = list(_errors(task, cwd))
    last = describe(task.calls[-1], cwd)
    unresolved = [e for e in errors if "resolution" not in e]
    last_failed = _failed(task.calls[-1], results) and any(e["action"] == last for e in unresolved)
    outcome = "failed" if last_failed else "partial" if unresolved else "completed"
    files = list(dict.fromkeys(p for c in task.calls if (p := call_path(c, cwd))))
    written = list(dict.fromkeys(p for c in task.calls if writes(c) and (p := call_path(c, cwd))
                                 and not _failed(c, results)))
    last_words = next((t.text for t in reversed(task.turns) if t.role == "assistant"), "")
    content = f"Goal: {task.goal}\nOutcome: {outcome}" + (f". {clip(last_words, 400)}" if last_words else "")
    fields: dict[str, Any] = {"goal": task.goal, "actions": _fold([describe(c, cwd) for c in task.calls]),
                              "outcome": outcome, "content": content, "summary": clip(f"Task: {task.goal}", 200)}
    for key, value in (("constraints", list(dict.fromkeys(task.constraints))[:10]), ("files", files),
                       ("errors", errors), ("artifacts", written)):
        if value:
            fields[key] = value
    return fields
