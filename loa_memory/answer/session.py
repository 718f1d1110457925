"""``session start``: what an agent should hold in mind at the start of a session, within a budget.

In order: telos (L4, every ``telos`` entry in full); for an agent (``agent``), the handoffs to it that it
has not accepted yet and its latest ledger checkpoint; knowledge that matters now (L3: active corrections as
``BEFORE <trigger>: <lesson>``, preferences as ``PREFER ...``, the most recent decisions), then the last
sessions (L2: episodes with ``action_types: [session-summary]``, newest first; every episode when there
are none). Items are taken in that order while they fit the token budget; what does not fit is named.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from loa_memory.answer.ledgers import checkpoints, handoffs
from loa_memory.answer.recall import Cue, timeline_line, tokens
from loa_memory.model import Entry, headline
from loa_memory.store.load import Grimoire
from loa_memory.store.times import now_utc

SESSION_SUMMARY = "session-summary"
LAYERS = (("telos", "telos"), ("handoff", "handoffs"), ("ledger", "ledger"), ("correction", "corrections"),
          ("preference", "preferences"), ("decision", "decisions"), ("episode", "episodes"))


@dataclass(frozen=True)
class BriefOptions:
    budget: int = 1500
    episodes: int = 5
    decisions: int = 5
    worlds: Sequence[str] = ()
    agent: str | None = None


@dataclass(frozen=True)
class Item:
    """One piece of the brief: its layer, entry, and the exact text that is shown (and budgeted)."""

    layer: str  # telos | handoff | ledger | correction | preference | decision | episode
    entry: Entry
    text: str


@dataclass
class Brief:
    budget: int
    agent: str | None = None
    items: list[Item] = field(default_factory=list)
    omitted: list[Item] = field(default_factory=list)

    @property
    def spent(self) -> int:
        return sum(tokens(item.text) for item in self.items)


def telos_text(entry: Entry) -> str:
    return f"{headline(entry)}\n{entry.content.strip()}".strip()


def episode_line(entry: Entry) -> str:
    outcome = entry.data.get("outcome")
    return f"{entry.timestamp[:10]} {entry.id} {headline(entry)}" + (f" (outcome: {outcome})" if outcome else "")


def handoff_brief(entry: Entry) -> str:
    """A pending handoff as the receiver should read it first: who, what is next, what to watch for."""
    data = entry.data
    lines = [f"{entry.id} from {data.get('from_agent')} ({entry.timestamp[:10]}): {headline(entry)}"]
    for key, label in (("done", "done"), ("next_steps", "next"), ("known_issues", "known issue")):
        lines += [f"  {label}: {item}" for item in data.get(key) or []]
    if data.get("memory_ids"):
        lines.append(f"  memories: {', '.join(map(str, data['memory_ids']))}")
    lines.append(f"  accept it: loa-memory handoff accept {entry.id} --agent {data.get('to_agent')}")
    return "\n".join(lines)


def checkpoint_brief(entry: Entry) -> str:
    data = entry.data
    files = data.get("files_modified") or []
    return (f"{entry.timestamp[:16].replace('T', ' ')} {entry.id} ({data.get('status')}): {data.get('task')}"
            + (f"; files: {', '.join(map(str, files))}" if files else ""))


def _newest(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (e.timestamp, e.id), reverse=True)


def candidates(grimoire: Grimoire, options: BriefOptions, now: datetime) -> list[Item]:
    """Every item the brief would show with an unlimited budget, in order."""
    active = [e for e in grimoire.entries if not e.archived and grimoire.status(e, now) == "active"
              and (not options.worlds or e.world in options.worlds)]
    of = {name: [e for e in active if e.category == name] for name in ("telos", "correction", "preference",
                                                                      "decision", "episode")}
    items = [Item("telos", e, telos_text(e)) for e in sorted(of["telos"], key=lambda e: e.path)]
    if options.agent:
        waiting = handoffs(grimoire, to_agent=options.agent, pending=True, worlds=options.worlds)
        items += [Item("handoff", e, handoff_brief(e)) for e in waiting]
        latest = checkpoints(grimoire, options.agent, options.worlds)[:1]
        items += [Item("ledger", e, checkpoint_brief(e)) for e in latest]
    corrections = sorted(_newest(of["correction"]), key=lambda e: -e.confidence)
    items += [Item("correction", e, Cue(e, 1.0, frozenset()).imperative) for e in corrections]
    items += [Item("preference", e, Cue(e, 1.0, frozenset()).imperative) for e in _newest(of["preference"])]
    items += [Item("decision", e, timeline_line(e)) for e in _newest(of["decision"])[: options.decisions]]
    summaries = [e for e in of["episode"] if SESSION_SUMMARY in e.action_types]
    items += [Item("episode", e, episode_line(e)) for e in _newest(summaries or of["episode"])[: options.episodes]]
    return items


def session_brief(grimoire: Grimoire, options: BriefOptions, now: datetime | None = None) -> Brief:
    """Take the candidates in order while they fit ``options.budget`` tokens."""
    brief = Brief(options.budget, options.agent)
    spent = 0
    for item in candidates(grimoire, options, now or now_utc()):
        cost = tokens(item.text)
        if spent + cost > options.budget:
            brief.omitted.append(item)
            continue
        brief.items.append(item)
        spent += cost
    return brief


def brief_record(brief: Brief) -> dict[str, Any]:
    """The stable JSON shape of a brief: one list per layer, in the order shown."""
    record: dict[str, Any] = {"budget": brief.budget, "tokens": brief.spent}
    record["agent"] = brief.agent
    for layer, key in LAYERS:
        record[key] = [{"id": item.entry.id, "category": item.entry.category, "world": item.entry.world,
                        "date": item.entry.timestamp[:10], "summary": headline(item.entry), "text": item.text}
                       for item in brief.items if item.layer == layer]
    record["omitted"] = [{"id": item.entry.id, "layer": item.layer, "tokens": tokens(item.text)}
                         for item in brief.omitted]
    return record
