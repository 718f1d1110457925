"""Reading agents' working memory: ledger checkpoints and handoffs, with the memories they name resolved.

A ledger entry (``ledgers/<agent>.yaml``) is one checkpoint of an agent's state; the newest one is the
agent's current state. A handoff entry (``handoffs/<date>.yaml``) is either a handoff (``from_agent``,
``to_agent``, ``done``, ``next_steps`` ...) or the acceptance of one (``accepts``, ``accepted_by``): both
files are append-only, so accepting a handoff adds an entry instead of editing the handoff. A handoff is
pending while no acceptance by its receiver names it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from loa_memory.errors import UsageError
from loa_memory.model import Entry, headline
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire, load_grimoire

AGENT_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def check_agent(name: str | None, option: str = "--agent") -> str:
    """An agent name as given, or ``UsageError``: ledger files are named by it, so it must be a plain name."""
    if not name or not name.strip():
        raise UsageError(f"{option} is missing", hint=f"pass {option} NAME, or set LOA_AGENT")
    if not AGENT_NAME.match(name):
        raise UsageError(f"{name!r} is not an agent name",
                         hint="use 1-64 lower-case letters, digits, '-' and '_', starting with a letter or digit "
                              "(e.g. eng-1)")
    return name


def _newest(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (e.timestamp, e.id), reverse=True)


def _in(entry: Entry, worlds: Sequence[str]) -> bool:
    return not worlds or entry.world in worlds


def checkpoints(grimoire: Grimoire, agent: str, worlds: Sequence[str] = ()) -> list[Entry]:
    """An agent's ledger checkpoints, newest first."""
    return _newest([e for e in grimoire.entries if e.category == "ledger" and e.data.get("agent") == agent
                    and not e.archived and _in(e, worlds)])


def acceptances(grimoire: Grimoire) -> dict[str, list[Entry]]:
    """Acceptance entries by the id of the handoff they accept."""
    found: dict[str, list[Entry]] = {}
    for entry in grimoire.entries:
        if entry.category == "handoff" and entry.data.get("accepts"):
            found.setdefault(str(entry.data["accepts"]), []).append(entry)
    return found


def is_handoff(entry: Entry) -> bool:
    return entry.category == "handoff" and not entry.data.get("accepts")


def accepted_by_receiver(grimoire: Grimoire, handoff: Entry,
                         accepted: dict[str, list[Entry]] | None = None) -> Entry | None:
    """The acceptance of ``handoff`` by its receiver, if there is one."""
    accepted = accepted if accepted is not None else acceptances(grimoire)
    names = {handoff.id, *handoff.aliases}
    receiver = handoff.data.get("to_agent")
    return next((a for name in names for a in accepted.get(name, []) if a.data.get("accepted_by") == receiver),
                None)


def handoffs(grimoire: Grimoire, *, to_agent: str | None = None, from_agent: str | None = None,
             pending: bool = False, worlds: Sequence[str] = ()) -> list[Entry]:
    """Handoffs (not acceptances), oldest first, filtered by receiver, sender, world and pending state."""
    accepted = acceptances(grimoire)
    found = [e for e in grimoire.entries if is_handoff(e) and not e.archived and _in(e, worlds)
             and (to_agent is None or e.data.get("to_agent") == to_agent)
             and (from_agent is None or e.data.get("from_agent") == from_agent)
             and (not pending or accepted_by_receiver(grimoire, e, accepted) is None)]
    return sorted(found, key=lambda e: (e.timestamp, e.id))


def resolve_memory(grimoire: Grimoire, memory_id: str) -> dict[str, Any]:
    """A referenced memory as a short record; a superseded one also names its current successor."""
    entry = grimoire.by_id.get(memory_id)
    if entry is None:
        return {"id": memory_id, "exists": False}
    record: dict[str, Any] = {"id": entry.id, "exists": True, "category": entry.category, "world": entry.world,
                              "status": grimoire.status(entry), "summary": headline(entry)}
    current, seen = entry, {entry.id}
    while (nxt := grimoire.superseder(current)) is not None and nxt.id not in seen:
        current = nxt
        seen.add(nxt.id)
    if current is not entry:
        record["superseded_by"] = {"id": current.id, "status": grimoire.status(current),
                                   "summary": headline(current)}
    return record


def _strings(entry: Entry, key: str) -> list[str]:
    value = entry.data.get(key)
    return [str(v) for v in value] if isinstance(value, list) else []


def checkpoint_record(grimoire: Grimoire, entry: Entry) -> dict[str, Any]:
    """The stable JSON shape of a ledger checkpoint, its pattern memories resolved."""
    return {"id": entry.id, "world": entry.world, "agent": entry.data.get("agent"), "task": entry.data.get("task"),
            "status": entry.data.get("status"), "at": entry.timestamp, "files_modified": _strings(entry,
                                                                                                 "files_modified"),
            "patterns": [resolve_memory(grimoire, i) for i in _strings(entry, "patterns")],
            "note": entry.content, "path": entry.path, "line": entry.line}


def handoff_record(grimoire: Grimoire, entry: Entry) -> dict[str, Any]:
    """The stable JSON shape of a handoff: what it carries, its memories resolved, and who accepted it."""
    acceptance = accepted_by_receiver(grimoire, entry)
    git_state = entry.data.get("git_state")
    return {"id": entry.id, "world": entry.world, "from": entry.data.get("from_agent"),
            "to": entry.data.get("to_agent"), "at": entry.timestamp, "summary": headline(entry),
            "done": _strings(entry, "done"), "artifacts": _strings(entry, "artifacts"),
            "next_steps": _strings(entry, "next_steps"), "known_issues": _strings(entry, "known_issues"),
            "git_state": dict(git_state) if isinstance(git_state, dict) else None,
            "memories": [resolve_memory(grimoire, i) for i in _strings(entry, "memory_ids")],
            "note": entry.content, "path": entry.path, "line": entry.line,
            "accepted": {"id": acceptance.id, "by": acceptance.data.get("accepted_by"),
                         "at": acceptance.timestamp} if acceptance else None}


def ledger_view(config: Config, agent: str, worlds: Sequence[str] = (), limit: int = 5) -> dict[str, Any]:
    """``ledger show``: an agent's latest checkpoint in full and its last ``limit`` checkpoints in brief."""
    check_agent(agent, "AGENT")
    for world in worlds:
        config.world(world)
    grimoire = load_grimoire(config, worlds or None)
    found = checkpoints(grimoire, agent, worlds)
    return {"agent": agent, "latest": checkpoint_record(grimoire, found[0]) if found else None,
            "history": [{"id": e.id, "at": e.timestamp, "status": e.data.get("status"), "task": e.data.get("task")}
                        for e in found[:limit]], "count": len(found)}


def handoff_list_view(config: Config, *, to_agent: str | None = None, from_agent: str | None = None,
                      pending: bool = False, worlds: Sequence[str] = ()) -> dict[str, Any]:
    """``handoff list``: the matching handoffs, oldest first, each in full."""
    for name, option in ((to_agent, "--to"), (from_agent, "--from")):
        if name is not None:
            check_agent(name, option)
    for world in worlds:
        config.world(world)
    grimoire = load_grimoire(config)
    found = handoffs(grimoire, to_agent=to_agent, from_agent=from_agent, pending=pending, worlds=worlds)
    records = [handoff_record(grimoire, e) for e in found]
    return {"handoffs": records, "count": len(records)}
