"""Sessions: ``session start`` (the brief, plus an expiry check) and ``session end`` (an episode)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from loa_memory.answer.ledgers import check_agent
from loa_memory.answer.recall import contradiction_record, recall_budget
from loa_memory.answer.session import SESSION_SUMMARY, Brief, BriefOptions, brief_record, session_brief
from loa_memory.errors import UsageError
from loa_memory.lifecycle.archival import ArchivePlan, plan_archive, plan_record
from loa_memory.store.config import Config
from loa_memory.store.load import load_grimoire
from loa_memory.store.relations import Contradiction, contradictions
from loa_memory.store.times import now_utc
from loa_memory.write.add import Written, add_entry, default_source


@dataclass(frozen=True)
class SessionStart:
    brief: Brief
    check: ArchivePlan | None
    contradictions: list[Contradiction] = field(default_factory=list)


def brief_options(config: Config, budget: int | None = None, worlds: Sequence[str] = (),
                  agent: str | None = None) -> BriefOptions:
    """Options from ``retrieval.budget`` and ``lifecycle.session_episodes`` unless given."""
    for world in worlds:
        config.world(world)
    if agent is not None:
        check_agent(agent)
    return BriefOptions(recall_budget(config, budget),
                        int(config.lifecycle.session_episodes), worlds=tuple(worlds),
                        agent=agent)


def start_session(config: Config, options: BriefOptions, now: datetime | None = None) -> SessionStart:
    """The session brief; with ``lifecycle.check_on_session_start``, what is expired or expiring soon."""
    moment = now or now_utc()
    grimoire = load_grimoire(config, options.worlds or None)
    brief = session_brief(grimoire, options, moment)
    check = None
    if config.lifecycle.check_on_session_start:
        check = plan_archive(config, grimoire, moment, options.worlds)
    conflicts = [c for c in contradictions(grimoire, moment)
                 if not options.worlds or {c.holder.world, c.other.world} & set(options.worlds)]
    return SessionStart(brief, check, conflicts)


def session_start_record(start: SessionStart) -> dict[str, Any]:
    record = brief_record(start.brief)
    record["expiry_check"] = plan_record(start.check) if start.check is not None else None
    record["contradictions"] = [contradiction_record(c) for c in start.contradictions]
    return record


def end_session(config: Config, summary: str, *, outcome: str = "completed", session_id: str | None = None,
                tags: Sequence[str] = (), world: str | None = None) -> Written:
    """Append a ``session-summary`` episode through the normal write path (schema, secret gate, lock)."""
    if not summary.strip():
        raise UsageError("a session summary needs some text", hint='pass --summary "what was done and learned"')
    session = session_id or default_source()["session_id"]
    fields: dict[str, Any] = {"category": "episode", "content": summary, "session_id": session,
                              "outcome": outcome, "action_types": [SESSION_SUMMARY],
                              "source": {"session_id": session}}
    if tags:
        fields["tags"] = list(tags)
    return add_entry(config, fields, world=world)
