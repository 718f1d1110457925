"""Usage events: which memories were applied (``--track``) and with what outcome (``feedback``).

Events go to ``.loa/usage.jsonl``, one JSON object per line, appended with O_APPEND under the lock so
concurrent writers never interleave. Each event has a unique id, so folding them into the committed
``effectiveness`` counters (``score``) can skip events already counted. A query or prompt is never logged as text
(it may hold a secret or a user's words): only ``query_hash``, a short sha256 that tells repeats apart.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Sequence
from typing import Any

from loa_memory.secrets.redact import query_digest
from loa_memory.store.config import Config
from loa_memory.store.env import env_session_id
from loa_memory.store.local.events import USAGE_FILE
from loa_memory.store.lock import ensure_local_dir, locked
from loa_memory.store.times import format_time, now_utc


def append_events(config: Config, events: Sequence[dict[str, Any]]) -> None:
    """Append events (each gets ``event_id`` and ``at`` if missing) to the usage log."""
    if not events:
        return
    ensure_local_dir(config.local_dir)
    lines = []
    for event in events:
        full = {"event_id": uuid.uuid4().hex, "at": format_time(now_utc()), **event}
        lines.append(json.dumps(full, ensure_ascii=False, sort_keys=True) + "\n")
    with locked(config.local_dir, name="usage.lock"):
        fd = os.open(config.local_dir / USAGE_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, "".join(lines).encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)


def record_applications(config: Config, memory_ids: Sequence[str], *, source: str, query: str = "",
                        session_id: str | None = None, recall_id: str = "") -> None:
    """One ``applied`` event per memory shown to a user or agent who asked to track it."""
    session = session_id or env_session_id() or ""
    extra = {"recall_id": recall_id} if recall_id else {}
    extra.update(_query_fields(query))
    append_events(config, [{"type": "applied", "memory_id": memory_id, "source": source, "session_id": session,
                            **extra} for memory_id in memory_ids])


def record_recall(config: Config, fired_ids: Sequence[str], *, query: str = "", source: str = "recall",
                  session_id: str | None = None, recall_id: str = "") -> None:
    """A ``recall`` event (this session recalled) and one ``fired`` event per cue put in front of the agent.

    Logged on every recall, tracked or not: ``lint`` (``unfired-cue``) and ``graduate`` count sessions from
    them. The session is ``session_id``, else ``LOA_SESSION_ID`` / ``CLAUDE_SESSION_ID``, else one per process.
    """
    from loa_memory.write.add import session_id as current_session

    session = session_id or current_session()
    extra = {"recall_id": recall_id} if recall_id else {}
    events: list[dict[str, Any]] = [{"type": "recall", "source": source, "session_id": session, **extra,
                                     **_query_fields(query)}]
    events += [{"type": "fired", "memory_id": memory_id, "source": source, "session_id": session, **extra}
               for memory_id in fired_ids]
    append_events(config, events)


def _query_fields(query: str) -> dict[str, str]:
    return {"query_hash": query_digest(query)} if query else {}
