"""``stats``: how the grimoire is doing — counts, tiers, what expires soon, pending usage, last runs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from loa_memory.lifecycle.archival import plan_archive
from loa_memory.lifecycle.effectiveness import read_events, read_folded
from loa_memory.render.problems import problem_records
from loa_memory.store.config import Config
from loa_memory.store.load import load_grimoire
from loa_memory.store.local.runs import read_runs
from loa_memory.store.times import now_utc

JOBS = ("capture", "archive", "score", "lint-fix")
TIERS = ("high", "medium", "low", "ineffective", "unscored")


def grimoire_stats(config: Config, now: datetime | None = None, worlds: Sequence[str] = ()) -> dict[str, Any]:
    """Numbers about the grimoire (``worlds``, default all) and its lifecycle, as plain JSON values."""
    moment = now or now_utc()
    for world in worlds:
        config.world(world)
    grimoire = load_grimoire(config, worlds or None)
    statuses: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    tiers: Counter[str] = Counter()
    counted: Counter[str] = Counter({w.name: 0 for w in config.worlds if not worlds or w.name in worlds})
    for entry in grimoire.entries:
        status = grimoire.status(entry, moment)
        statuses[status] += 1
        categories[entry.category] += 1
        counted[entry.world] += 1
        if status == "active":
            tiers[entry.effectiveness.tier] += 1
    plan = plan_archive(config, grimoire, moment)
    folded = read_folded(config)
    events = read_events(config)
    runs = read_runs(config)
    return {
        "entries": len(grimoire.entries),
        "by_category": dict(sorted(categories.items())),
        "by_status": {name: statuses[name] for name in ("active", "superseded", "expired", "archived")},
        "by_tier": {name: tiers[name] for name in TIERS},
        "by_world": dict(sorted(counted.items())),
        "worlds": list(worlds) or [w.name for w in config.worlds],
        "problems": len(grimoire.problems),
        "unreadable": problem_records(grimoire.unreadable),
        "due_for_archival": dict(Counter(d.reason for d in plan.due)),
        "expiring_soon": [{"id": e.entry.id, "expires_at": e.entry.expires_at, "days_left": e.days_left,
                           "summary": e.entry.summary} for e in plan.expiring],
        "warn_before_archive_days": int(config.lifecycle.warn_before_archive_days),
        "usage": {"events": len(events), "pending": sum(1 for e in events if e["event_id"] not in folded)},
        "last_runs": {job: runs.get(job) for job in (*JOBS, *sorted(set(runs) - set(JOBS)))},
    }
