"""Writing agents' working memory: ledger checkpoints, handoffs, and their acceptance.

Every write goes through ``add_entry`` (schema, secret gate, lock, atomic append). Ledger and handoff
files are append-only: a new checkpoint is a new entry in ``ledgers/<agent>.yaml``, and accepting a
handoff appends an acceptance entry (``accepts``, ``accepted_by``) next to it instead of editing it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from loa_memory.answer.ledgers import accepted_by_receiver, check_agent, handoff_record, handoffs, is_handoff
from loa_memory.errors import NotFound, UsageError
from loa_memory.model import Entry
from loa_memory.store import git
from loa_memory.store.config import Config
from loa_memory.store.ids import shown_id
from loa_memory.store.load import Grimoire, load_grimoire
from loa_memory.write.add import Written, add_entry, clip

STATUSES = ("in-progress", "blocked", "paused", "done", "handed-off")


@dataclass(frozen=True)
class Checkpoint:
    """An agent's state: its current task, the files it changed, and the memories it learned or used."""

    agent: str
    task: str
    status: str = "in-progress"
    files: Sequence[str] = ()
    patterns: Sequence[str] = ()
    note: str | None = None
    world: str | None = None


@dataclass(frozen=True)
class Handoff:
    """What one agent hands to another."""

    from_agent: str
    to_agent: str
    done: Sequence[str] = ()
    artifacts: Sequence[str] = ()
    next_steps: Sequence[str] = ()
    known_issues: Sequence[str] = ()
    memory_ids: Sequence[str] = ()
    note: str | None = None
    summary: str | None = None
    world: str | None = None


@dataclass(frozen=True)
class Acceptance:
    """The handoff accepted, the acceptance written (None if it had been accepted before), what else waits."""

    handoff: Entry
    written: Written | None
    pending: list[str]


def _clip(text: str) -> str:
    """One line: whitespace runs collapsed, then ``clip``."""
    return clip(" ".join(text.split()))


def _resolve_ids(grimoire: Grimoire, ids: Sequence[str], option: str) -> list[str]:
    """The real ids of ``ids`` (aliases resolved), or ``NotFound`` naming the option."""
    resolved: list[str] = []
    for memory_id in ids:
        entry = grimoire.by_id.get(memory_id.strip())
        if entry is None:
            raise NotFound(f"{option} {shown_id(memory_id)}: no memory with that id",
                           hint="`loa-memory list` shows the ids; ids look like MEM-20260201-001")
        if entry.id not in resolved:
            resolved.append(entry.id)
    return resolved


def _lines(title: str, items: Sequence[str]) -> list[str]:
    return [f"{title}:", *(f"- {item}" for item in items)] if items else []


def _clean(items: Sequence[str]) -> list[str]:
    return [item.strip() for item in items if item.strip()]


def checkpoint(config: Config, state: Checkpoint, moment: datetime | None = None) -> Written:
    """Append a checkpoint of ``state.agent`` to ``ledgers/<agent>.yaml``."""
    agent = check_agent(state.agent)
    if not state.task.strip():
        raise UsageError("a checkpoint needs the current task", hint='pass --task "what you are working on"')
    if state.status not in STATUSES:
        raise UsageError(f"unknown status {state.status!r}", hint=f"use one of: {', '.join(STATUSES)}")
    patterns = _resolve_ids(load_grimoire(config), state.patterns, "--pattern")
    files = _clean(state.files)
    content = "\n".join([f"Task: {state.task.strip()}", f"Status: {state.status}",
                         *_lines("Files modified", files), *([state.note.strip()] if state.note else [])])
    fields: dict[str, Any] = {"category": "ledger", "summary": _clip(f"{agent} ({state.status}): {state.task}"),
                              "content": content, "source": {"agent": agent}, "agent": agent,
                              "task": state.task.strip(), "status": state.status}
    if files:
        fields["files_modified"] = files
    if patterns:
        fields["patterns"] = patterns
    return add_entry(config, fields, world=state.world, moment=moment)


def create_handoff(config: Config, handoff: Handoff, moment: datetime | None = None) -> Written:
    """Append a handoff from one agent to another, with the work tree's git state."""
    sender = check_agent(handoff.from_agent, "--from")
    receiver = check_agent(handoff.to_agent, "--to")
    if sender == receiver:
        raise UsageError(f"a handoff goes to another agent, not back to {sender}", hint="check --from and --to")
    done, steps, issues = _clean(handoff.done), _clean(handoff.next_steps), _clean(handoff.known_issues)
    if not done and not steps:
        raise UsageError("a handoff needs what was done or what needs doing",
                         hint='pass --done "..." and/or --next "..." (repeatable)')
    memory_ids = _resolve_ids(load_grimoire(config), handoff.memory_ids, "--memory")
    artifacts = _clean(handoff.artifacts)
    content = "\n".join([f"Handoff from {sender} to {receiver}.", *_lines("Done", done),
                         *_lines("Artifacts", artifacts), *_lines("Next steps", steps),
                         *_lines("Known issues", issues), *([handoff.note.strip()] if handoff.note else [])])
    fields: dict[str, Any] = {
        "category": "handoff", "summary": _clip(handoff.summary or f"{sender} → {receiver}: {(steps or done)[0]}"),
        "content": content, "source": {"agent": sender}, "from_agent": sender, "to_agent": receiver,
    }
    for key, values in (("done", done), ("next_steps", steps), ("known_issues", issues),
                        ("artifacts", artifacts), ("memory_ids", memory_ids)):
        if values:
            fields[key] = values
    state = git.work_state(config.root)
    if state:
        fields["git_state"] = state
    return add_entry(config, fields, world=handoff.world, moment=moment)


def find_handoff(grimoire: Grimoire, agent: str, handoff_id: str | None,
                 worlds: Sequence[str] = ()) -> Entry:
    """The handoff ``handoff_id`` (which must be addressed to ``agent``), else ``agent``'s oldest pending one."""
    if handoff_id:
        entry = grimoire.get(handoff_id)
        if not is_handoff(entry):
            raise UsageError(f"{entry.id} is a {entry.category} entry, not a handoff",
                             hint=f"`loa-memory handoff list --to {agent}` lists the handoffs to you")
        if entry.data.get("to_agent") != agent:
            raise UsageError(f"{entry.id} is addressed to {entry.data.get('to_agent')}, not to {agent}",
                             hint=f"accept it as {entry.data.get('to_agent')}, or pass the right --agent")
        return entry
    waiting = handoffs(grimoire, to_agent=agent, pending=True, worlds=worlds)
    if not waiting:
        raise NotFound(f"no pending handoff to {agent}",
                       hint=f"`loa-memory handoff list --to {agent}` lists every handoff to {agent}")
    return waiting[0]


def accept_handoff(config: Config, agent: str, handoff_id: str | None = None, *, worlds: Sequence[str] = (),
                   moment: datetime | None = None) -> Acceptance:
    """Accept a handoff addressed to ``agent`` (by id, else the oldest pending one) by appending an
    acceptance entry; accepting it again writes nothing."""
    agent = check_agent(agent)
    grimoire = load_grimoire(config)
    entry = find_handoff(grimoire, agent, handoff_id, worlds)
    others = [e.id for e in handoffs(grimoire, to_agent=agent, pending=True, worlds=worlds) if e.id != entry.id]
    if accepted_by_receiver(grimoire, entry) is not None:
        return Acceptance(entry, None, others)

    def still_pending(current: Grimoire) -> None:
        if accepted_by_receiver(current, current.get(entry.id)) is not None:
            raise UsageError(f"{entry.id} was accepted meanwhile", hint="nothing was written")

    fields = {"category": "handoff", "summary": _clip(f"{agent} accepted {entry.id}: {entry.summary}"),
              "content": f"{agent} accepted handoff {entry.id} from {entry.data.get('from_agent')}.",
              "source": {"agent": agent}, "accepts": entry.id, "accepted_by": agent}
    written = add_entry(config, fields, world=entry.world, moment=moment, check=still_pending)
    return Acceptance(entry, written, others)


def acceptance_record(config: Config, result: Acceptance) -> dict[str, Any]:
    """The stable JSON shape of ``handoff accept``: the handoff in full, and what was recorded."""
    grimoire = load_grimoire(config)
    written = result.written
    return {"handoff": handoff_record(grimoire, grimoire.get(result.handoff.id)),
            "already_accepted": written is None,
            "acceptance": {"id": written.data["id"], "path": written.path, "line": written.line} if written else None,
            "pending": result.pending}
