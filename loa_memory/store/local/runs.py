"""When lifecycle jobs last ran and what they did: ``.loa/runs.json`` (local, derived, never committed).

``record_run(config, "archive", {...})`` keeps the latest run of each job (capture, archive, score,
lint-fix) with its time and a small summary; ``stats`` shows them.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from loa_memory.store import atomic
from loa_memory.store.config import Config
from loa_memory.store.lock import locked
from loa_memory.store.times import format_time, now_utc

RUNS_FILE = "runs.json"


def read_runs(config: Config) -> dict[str, dict[str, Any]]:
    """The last run of each job by name (empty when nothing ran or the file is unreadable)."""
    try:
        data = json.loads((config.local_dir / RUNS_FILE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def record_run(config: Config, name: str, summary: Mapping[str, Any], moment: datetime | None = None) -> None:
    """Remember that job ``name`` ran now with ``summary`` (plain JSON values); a failure to write is ignored."""
    with locked(config.local_dir, name="runs.lock"):
        runs = read_runs(config)
        runs[name] = {"at": format_time(moment or now_utc()), "summary": dict(summary)}
        with contextlib.suppress(OSError):
            atomic.write_atomic(config.local_dir / RUNS_FILE, json.dumps(runs, indent=2, sort_keys=True) + "\n")
