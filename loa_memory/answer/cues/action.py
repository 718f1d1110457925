"""An action an agent is about to take, in terms no agent owns: what kind of tool, which files, what text.

Agents' hooks (``agents/tool_call.py`` for Claude Code) and the MCP tool ``cues_for_action`` build one;
``answer.cues.match`` says which corrections bear on it.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

ActionKind = Literal["edit", "write", "command"]
ACTION_KINDS: tuple[ActionKind, ...] = ("edit", "write", "command")
# the embedder sees this much of the change: the start of a diff says what it is about. The query embedding is most
# of a call's time (one thread, about 0.45 ms a word): 600 matched no better than 300 on four blind sets at twice the
# time; 200 against 300 over blind sets 1-20 fired 703 guarded calls of 800 against 706, near misses and harmless
# calls alike, and took the warm server's p95 at 1,000 memories from 160 to 137 ms (benchmarks/reports/pretooluse.md)
RENDER_CHARS = 200
READ_LIMIT = 512 * 1024  # a larger file is edited without its enclosing lines (reading it would slow every call)


@dataclass(frozen=True)
class Action:
    """``edit``: change part of a file (``text`` the new text, ``removed`` the text it replaces); ``write``:
    create or overwrite a file with ``text``; ``command``: run the shell command ``text``. ``description`` is
    the agent's own words for it, when it gave any. For an edit of a file that could be read: ``enclosing``, its
    new text under the lines of the file that enclose it (``enclosing_lines``); ``after``, the file as the edit
    leaves it."""

    kind: ActionKind
    paths: tuple[str, ...] = ()
    text: str = ""
    removed: str = ""
    description: str = ""
    enclosing: str = ""
    after: str = ""

    @property
    def added(self) -> str:
        """The lines the change brings in (for an edit, those of ``text`` not already in ``removed``)."""
        if self.kind != "edit" or not self.removed:
            return self.text
        before = {line.strip() for line in self.removed.splitlines()}
        return "\n".join(line for line in self.text.splitlines() if line.strip() not in before)


def enclosing_lines(source: str, old: str, new: str) -> str:
    """``new`` put in place of ``old`` in ``source``, under the lines above it that enclose it: each line indented
    less than every line after it so far (a YAML key and its parents, a block's header), the nearest last. An edit
    of a probe's check (``path: /livez`` -> ``path: /health/db``) reads ``livenessProbe:`` / ``httpGet:`` /
    ``path: /health/db``. Empty when ``old`` is not in ``source``."""
    at = source.find(old) if old else -1
    if at < 0:
        return ""
    start = source.rfind("\n", 0, at) + 1  # the edit's first line, from its start
    changed = source[start:at] + new
    widths = [len(line) - len(line.lstrip()) for line in changed.splitlines() if line.strip()]
    width = min(widths, default=len(changed) - len(changed.lstrip()))
    above: list[str] = []
    for line in reversed(source[:start].splitlines()):
        if line.strip() and (indent := len(line) - len(line.lstrip())) < width:
            above.append(line)
            width = indent
            if not width:
                break
    return "\n".join([*reversed(above), changed])


def edited(source: str, edits: list[tuple[str, str, bool]]) -> str:
    """``source`` with each edit (old text, new text, whether every occurrence) made in turn, as the editor makes
    them; "" when an old text is not there."""
    for old, new, every in edits:
        if not old or old not in source:
            return ""
        source = source.replace(old, new, -1 if every else 1)
    return source


def edit_action(paths: tuple[str, ...], edits: list[tuple[str, str, bool]], file: Path | None,
                description: str = "") -> Action:
    """An edit of ``paths`` making ``edits`` (old text, new text, whether every occurrence) in turn, read in the
    file it changes (``file``, when it can be read): its new text under the lines that enclose it, and the file as
    the edit leaves it."""
    source = file_text(file) if file else ""
    enclosing = (enclosing_lines(source, old, new) for old, new, _ in edits)
    return Action("edit", paths, "\n".join(new for _, new, _ in edits), "\n".join(old for old, _, _ in edits),
                  description, enclosing="\n".join(e for e in enclosing if e), after=edited(source, edits))


def file_text(path: Path) -> str:
    """The text of a file an edit is about to change, or "" when it cannot be read: missing, unreadable, not UTF-8,
    or over READ_LIMIT."""
    try:
        if path.stat().st_size > READ_LIMIT:
            return ""
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def relative_paths(action: Action, root: Path) -> tuple[str, ...]:
    """The action's paths relative to ``root`` with ``/`` separators (paths outside it stay as given), plus, for a
    command, the words of it that look like paths."""
    paths = list(action.paths)
    if action.kind == "command":
        paths += command_paths(action.text)
    shown = []
    for path in paths:
        candidate = Path(path)
        if candidate.is_absolute():
            inside = os.path.relpath(candidate, root)
            path = str(candidate) if inside.startswith("..") else inside
        shown.append(path.replace(os.sep, "/").removeprefix("./"))
    return tuple(dict.fromkeys(shown))


_PATHLIKE = re.compile(r"^[\w.~/-]*(?:/[\w.-]+|\.[A-Za-z]\w{0,5})$")


def command_paths(command: str) -> list[str]:
    """Words of a shell command that name files (``a/b``, ``x.lock``), options and URLs left out."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        words = command.split()
    return [w for w in words if not w.startswith("-") and "://" not in w and _PATHLIKE.match(w)]


def render_action(action: Action, paths: tuple[str, ...], glosses: list[str]) -> str:
    """A short text of the action for the embedder: what it does in words (the classes found), where, and how."""
    verb = {"edit": "edit", "write": "write", "command": "run"}[action.kind]
    head = "; ".join(glosses)
    where = ", ".join(paths[:3]) if action.kind != "command" else ""
    body = action.added if action.kind != "command" else action.text
    parts = [head, action.description, f"{verb} {where}".strip(), " ".join(body.split())[:RENDER_CHARS]]
    return ". ".join(p for p in parts if p)
