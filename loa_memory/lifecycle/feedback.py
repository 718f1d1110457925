"""``feedback``: whether applying a memory (or a whole recall) helped, as an event in the local usage log."""

from __future__ import annotations

import uuid
from typing import Any

from loa_memory.errors import NotFound, UsageError
from loa_memory.lifecycle.usage import append_events
from loa_memory.secrets.gate import check_secrets
from loa_memory.store.config import Config
from loa_memory.store.env import env_session_id
from loa_memory.store.load import load_grimoire
from loa_memory.store.local.events import USAGE_FILE
from loa_memory.store.times import format_time, now_utc


def record_feedback(config: Config, memory_id: str | None, outcome: str, note: str | None = None,
                    recall_id: str | None = None) -> dict[str, Any]:
    """Append an outcome event for a known memory and/or a logged recall; the note passes the secret gate first.

    With a memory id it is an ``outcome`` (folded into the memory's effectiveness by ``score``, and credited to
    ``recall_id``, or else to the latest recall of this session that showed the memory, resolved now and written
    into the event); with only a recall id it is a ``recall_outcome``, which judges the recall's weight profile
    and no memory.
    """
    if outcome not in ("success", "failure"):
        raise UsageError(f"unknown outcome {outcome!r}", hint="use --outcome success or --outcome failure")
    if not memory_id and not recall_id:
        raise UsageError("feedback needs a memory id or --recall RECALL_ID",
                         hint="e.g. loa-memory feedback MEM-20260201-001 --outcome success")
    from loa_memory.lifecycle.recall_log import latest_recall_showing, read_recall_log

    records = read_recall_log(config)[0] if recall_id or memory_id else []
    if recall_id and recall_id not in {str(r.get("recall_id")) for r in records}:
        raise NotFound(f"no recall {recall_id!r} in the local recall log",
                       hint="use the recall_id that `loa-memory recall --format json` printed on this machine")
    session = env_session_id() or ""
    summary = ""
    if memory_id:
        entry = load_grimoire(config).get(memory_id)
        memory_id, summary = entry.id, entry.summary
        recall_id = recall_id or latest_recall_showing(records, session, entry.id)
    if note:
        check_secrets(config, note, f".loa/{USAGE_FILE}", 1)
    event: dict[str, Any] = {
        "event_id": uuid.uuid4().hex, "at": format_time(now_utc()),
        "type": "outcome" if memory_id else "recall_outcome", "outcome": outcome, "note": note or "",
        "session_id": session}
    if memory_id:
        event["memory_id"] = memory_id
    if recall_id:
        event["recall_id"] = recall_id
    append_events(config, [event])
    return {**event, "memory_id": memory_id or "", "recall_id": recall_id or "", "summary": summary}
