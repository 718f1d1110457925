"""Reading the local usage log (``.loa/usage.jsonl``) and what it says about cues.

Writers live in ``lifecycle/usage.py``; this module only reads, so the lint rules (floor 3) can use it too.
Event types: ``applied`` (``--track``), ``outcome`` (``feedback``), ``recall`` (one per ``recall`` run, the
session it ran in) and ``fired`` (one per correction or preference a recall put in front of the agent).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loa_memory.store.lock import locked

USAGE_FILE = "usage.jsonl"
CUE_EVENTS = ("fired", "applied", "outcome")  # events that show a cue reached an agent in a session


def read_events(local_dir: Path, *, lock: bool = True) -> list[dict[str, Any]]:
    """Every complete, parseable event of the usage log, in file order (a torn last line is skipped).

    ``lock=False`` reads without waiting for writers (lint): appends are whole lines, and a line
    being written is incomplete, so it is skipped like a torn one.
    """
    path = local_dir / USAGE_FILE
    if not path.exists():
        return []
    if lock:
        with locked(local_dir, name="usage.lock"):
            raw = path.read_bytes()
    else:
        raw = path.read_bytes()
    events = []
    for line in raw.decode("utf-8", errors="replace").split("\n")[:-1]:
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if isinstance(event, dict) and isinstance(event.get("event_id"), str):
            events.append(event)
    return events


@dataclass
class CueHistory:
    """Which sessions ran ``recall`` (in order of their first recall) and in which sessions each memory fired.

    ``sessions`` holds session ids in the order they first recalled; ``first_seen`` the time of each
    session's first recall; ``fired`` maps a memory id to the sessions it fired (or was applied) in.
    """

    sessions: list[str] = field(default_factory=list)
    first_seen: dict[str, str] = field(default_factory=dict)
    fired: dict[str, set[str]] = field(default_factory=dict)

    @property
    def known(self) -> bool:
        """True when the log recorded any recall at all (a fresh clone has none: say nothing then)."""
        return bool(self.sessions)

    def sessions_since(self, timestamp: str) -> list[str]:
        """Sessions whose first recall came at or after ``timestamp`` (ISO strings in UTC compare as text)."""
        return [s for s in self.sessions if self.first_seen[s] >= timestamp]

    def fired_sessions(self, memory_id: str, aliases: Iterable[str] = ()) -> set[str]:
        found = set(self.fired.get(memory_id, set()))
        for alias in aliases:
            found |= self.fired.get(alias, set())
        return found


def cue_history(events: Iterable[dict[str, Any]]) -> CueHistory:
    """Fold usage events into a ``CueHistory`` (events without a session id are left out)."""
    history = CueHistory()
    for event in events:
        session = str(event.get("session_id") or "")
        if not session:
            continue
        kind = event.get("type")
        if kind == "recall" and session not in history.first_seen:
            history.sessions.append(session)
            history.first_seen[session] = str(event.get("at") or "")
        elif kind in CUE_EVENTS and event.get("memory_id"):
            history.fired.setdefault(str(event["memory_id"]), set()).add(session)
    return history
