"""``feedback``: whether applying a memory helped, as an ``outcome`` event in the local usage log."""

from __future__ import annotations

import os
import uuid
from typing import Any

from ..errors import UsageError
from ..store.config import Config
from ..store.events import USAGE_FILE
from ..store.load import load_grimoire
from ..store.times import format_time, now_utc
from .gate import check_secrets
from .usage import append_events


def record_feedback(config: Config, memory_id: str, outcome: str, note: str | None = None) -> dict[str, Any]:
    """Append an ``outcome`` event for a known memory; the note passes the secret gate first."""
    if outcome not in ("success", "failure"):
        raise UsageError(f"unknown outcome {outcome!r}", hint="use --outcome success or --outcome failure")
    entry = load_grimoire(config).get(memory_id)
    if note:
        check_secrets(config, note, f".loa/{USAGE_FILE}", 1)
    event = {"event_id": uuid.uuid4().hex, "at": format_time(now_utc()), "type": "outcome", "memory_id": entry.id,
             "outcome": outcome, "note": note or "",
             "session_id": os.environ.get("LOA_SESSION_ID") or os.environ.get("CLAUDE_SESSION_ID") or ""}
    append_events(config, [event])
    return {**event, "summary": entry.summary}
