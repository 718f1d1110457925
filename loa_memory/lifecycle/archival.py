"""``archive``: retire what has run its course to ``archive/``, as one transaction under the lock.

Three reasons, checked in this order for each entry not yet archived:

- ``expired``: past ``expires_at`` (the ``expired`` lint rule's test). An episode is kept while an entry
  that is not an episode and not archived links to it with ``relation: derived_from``.
- ``superseded``: replaced by an entry whose ``source.timestamp`` is more than
  ``lifecycle.superseded_retention_days`` (default 90) old; the audit trail moves, it is not lost.
- ``ineffective``: effectiveness tier ineffective (score < 20) after at least
  ``lifecycle.ineffective_min_applications`` (default 5) applications.

Telos (operator-only categories) is never touched. Entries expiring within
``lifecycle.warn_before_archive_days`` are reported as warnings so they can be renewed first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from loa_memory.model import Entry
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire, load_grimoire
from loa_memory.store.local.runs import record_run
from loa_memory.store.lock import locked
from loa_memory.store.save import Changeset
from loa_memory.store.times import now_utc, parse_time
from loa_memory.write.add import recover, refuse_if_broken
from loa_memory.write.moves import stage_archive

REASONS = ("expired", "superseded", "ineffective")


@dataclass(frozen=True)
class Due:
    """An entry to archive, why, and where it goes (``destination`` is set once it moved)."""

    entry: Entry
    reason: str
    detail: str
    destination: str | None = None


@dataclass(frozen=True)
class Expiring:
    entry: Entry
    days_left: int


@dataclass
class ArchivePlan:
    """What ``archive`` would do (``dry_run``) or did."""

    due: list[Due] = field(default_factory=list)
    expiring: list[Expiring] = field(default_factory=list)
    kept: list[tuple[Entry, str]] = field(default_factory=list)
    dry_run: bool = True


def _settings(config: Config) -> tuple[int, int, int]:
    section = config.lifecycle
    return (int(section.superseded_retention_days), int(section.ineffective_min_applications),
            int(section.warn_before_archive_days))


def plan_archive(config: Config, grimoire: Grimoire, now: datetime | None = None,
                 worlds: Sequence[str] = ()) -> ArchivePlan:
    """Decide what is due for archival and what expires soon (in ``worlds``, default all); reads only."""
    moment = now or now_utc()
    retention, min_apps, warn_days = _settings(config)
    protected = {cat.name for cat in config.categories if cat.operator_only}
    derived = {target: entry.id for entry in grimoire.entries
               if not entry.archived and entry.category != "episode" for target in entry.linked("derived_from")}
    plan = ArchivePlan()
    for entry in grimoire.entries:
        if entry.archived or entry.category in protected or (worlds and entry.world not in worlds):
            continue
        status = grimoire.status(entry, moment)
        if status == "archived":
            continue
        if status == "expired":
            if entry.category == "episode" and entry.id in derived:
                plan.kept.append((entry, f"{derived[entry.id]} derives from it"))
                continue
            plan.due.append(Due(entry, "expired", f"expired on {entry.expires_at}"))
            continue
        if status == "superseded":
            successor = grimoire.superseder(entry)
            since = parse_time(successor.timestamp) if successor else None
            if successor and since and moment - since > timedelta(days=retention):
                plan.due.append(Due(entry, "superseded", f"superseded by {successor.id} on {successor.timestamp[:10]}"))
                continue
        eff = entry.effectiveness
        if eff.proven_ineffective(min_apps):
            plan.due.append(Due(entry, "ineffective", f"score {eff.score} after {eff.applications} applications"))
            continue
        expires = parse_time(entry.expires_at or "")
        if status == "active" and expires is not None and warn_days > 0 and expires <= moment + timedelta(warn_days):
            plan.expiring.append(Expiring(entry, max(0, (expires - moment).days)))
    return plan


def archive_grimoire(config: Config, *, dry_run: bool = False, now: datetime | None = None,
                     worlds: Sequence[str] = ()) -> ArchivePlan:
    """Move every due entry (of ``worlds``, default all) to the archive, or with ``dry_run`` only say so."""
    moment = now or now_utc()
    for world in worlds:
        config.world(world)
    if dry_run:
        return plan_archive(config, load_grimoire(config), moment, worlds)
    with locked(config.local_dir):
        recover(config)
        grimoire = load_grimoire(config)
        refuse_if_broken(grimoire)
        plan = plan_archive(config, grimoire, moment, worlds)
        changes = Changeset(config, grimoire)
        by_reason: dict[str, list[Due]] = defaultdict(list)
        for due in plan.due:
            by_reason[due.reason].append(due)
        moved: list[Due] = []
        for reason in REASONS:
            dues = by_reason.get(reason, [])
            staged = stage_archive(changes, [d.entry for d in dues], reason, moment)
            where = {entry.id: path.relative_to(config.root).as_posix() for entry, path in staged}
            moved += [Due(d.entry, d.reason, d.detail, where.get(d.entry.id)) for d in dues]
        changes.commit()
    plan.due = moved
    plan.dry_run = False
    counts = {reason: len(by_reason.get(reason, [])) for reason in REASONS}
    record_run(config, "archive", {"moved": len(moved), **counts, "expiring_soon": len(plan.expiring)}, moment)
    return plan


def plan_record(plan: ArchivePlan) -> dict[str, object]:
    """The stable JSON shape of an archive run or plan."""
    return {
        "dry_run": plan.dry_run,
        "entries": [
            {"id": d.entry.id, "category": d.entry.category, "world": d.entry.world, "reason": d.reason,
             "detail": d.detail, "path": d.entry.path, "line": d.entry.line, "summary": d.entry.summary,
             **({"destination": d.destination} if d.destination else {})} for d in plan.due],
        "expiring_soon": [{"id": e.entry.id, "category": e.entry.category, "world": e.entry.world,
                           "expires_at": e.entry.expires_at, "days_left": e.days_left, "path": e.entry.path,
                           "line": e.entry.line, "summary": e.entry.summary} for e in plan.expiring],
        "kept": [{"id": entry.id, "why": why} for entry, why in plan.kept],
    }
