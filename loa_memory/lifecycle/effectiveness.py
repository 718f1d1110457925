"""Effectiveness: ``score`` folds usage events (``--track``, ``feedback``) into the memory files.

Counting rules (``.loa/usage.jsonl``, read in file order):

- every ``applied`` event (``recall --track``, ``search --track``) is one application;
- an ``outcome`` event pairs with the oldest earlier unpaired ``applied`` event of the same memory; an outcome
  with nothing to pair with counts as an application of its own (feedback says the memory was used), so
  ``successes`` can never exceed ``applications``;
- ``successes`` counts ``outcome: success``; ``score`` = round half up of 100 × successes / applications;
  ``last_applied`` = the time of the newest event counted as an application.

Never double-counting: the ids of folded events are kept in ``.loa/usage.folded``, written in the *same*
journaled transaction as the memory files (``atomic.write_many``), so after a crash either the counters and
the folded ids both changed or neither did, and ``score`` run twice changes nothing. Events for memories this
checkout does not have (another branch's) stay pending until they appear; events for archived or
operator-only/append-only entries (telos, episodes) are marked folded without changing any file.

Merges: ``effectiveness`` holds plain integers and a timestamp, so a 3-way merge adds the counters
(ours + theirs − base) and keeps the later ``last_applied``; the score is recomputed from the sums. Each
machine folds only its own local events, so merged counts add up without counting an event twice.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from loa_memory.model import Effectiveness, Entry
from loa_memory.store import yamlio
from loa_memory.store.config import Config
from loa_memory.store.load import load_grimoire
from loa_memory.store.local.events import read_events as events_of
from loa_memory.store.local.runs import record_run
from loa_memory.store.lock import locked
from loa_memory.store.save import Changeset
from loa_memory.store.times import format_time, parse_time
from loa_memory.write.add import recover, refuse_if_broken

FOLDED_FILE = "usage.folded"
Outcome = Literal["success", "failure"]


@dataclass(frozen=True)
class Contribution:
    """What one event adds to its memory's counters."""

    memory_id: str
    applications: int
    successes: int
    applied_at: str | None


@dataclass
class ScoreReport:
    folded: int = 0
    skipped: int = 0
    pending: int = 0
    updated: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    queued: list[Entry] = field(default_factory=list)


def read_events(config: Config) -> list[dict[str, Any]]:
    """Every complete, parseable event of the usage log, in file order (a torn last line is skipped)."""
    return events_of(config.local_dir)


def read_folded(config: Config) -> set[str]:
    try:
        return set((config.local_dir / FOLDED_FILE).read_text("utf-8").split())
    except OSError:
        return set()


def contributions(events: list[dict[str, Any]],
                  canonical: Callable[[str], str] = str) -> dict[str, Contribution]:
    """Each event's contribution by event id (see the module docstring for the rules).

    ``canonical`` maps an id to its memory's current id, so an alias pairs with its renumbered entry.
    """
    unpaired: Counter[str] = Counter()
    result: dict[str, Contribution] = {}
    for event in events:
        event_id, at = event["event_id"], event.get("at")
        memory_id = canonical(str(event.get("memory_id") or ""))
        if event_id in result or not memory_id:
            continue
        if event.get("type") == "applied":
            unpaired[memory_id] += 1
            result[event_id] = Contribution(memory_id, 1, 0, at)
        elif event.get("type") == "outcome":
            paired = unpaired[memory_id] > 0
            unpaired[memory_id] -= paired
            success = int(event.get("outcome") == "success")
            result[event_id] = Contribution(memory_id, 0 if paired else 1, success, None if paired else at)
    return result


def pending_events(config: Config) -> list[dict[str, Any]]:
    """Usage events not yet folded into the memory files."""
    folded = read_folded(config)
    return [e for e in read_events(config) if e["event_id"] not in folded]


def score_of(applications: int, successes: int) -> int:
    """100 × successes / applications, rounded half up, within 0..100."""
    return min(100, (200 * successes + applications) // (2 * applications)) if applications else 0


def _merged(block: Any, applications: int, successes: int, last: str | None) -> dict[str, Any]:
    old = Effectiveness.from_block(block)
    apps = old.applications + applications
    wins = old.successes + successes
    stamps = [t for t in (parse_time(old.last_applied or ""), parse_time(last or "")) if t]
    updated: dict[str, Any] = {"applications": apps, "successes": wins, "score": score_of(apps, wins)}
    if stamps:
        updated["last_applied"] = format_time(max(stamps))
    return updated


_BLOCK = re.compile(r"^  effectiveness:.*\n(?:    .*\n)*", re.M)
_TRAILER = re.compile(r"(?:^[ \t]*(?:#.*)?\n)*\Z", re.M)


def _patch_effectiveness(changes: Changeset, path: Path, entry: Entry, after: dict[str, Any]) -> None:
    """Set the block by text (ruamel costs ~5 ms an entry), checked by parsing; else the round-trip patch."""
    if path.suffix == ".yaml":
        ft = changes.list_file(path)
        old = ft.item_text(entry.line)
        block = "  effectiveness:\n" + "".join(f"    {k}: {_scalar(v)}\n" for k, v in after.items())
        found = list(_BLOCK.finditer(old))
        text = (old[:found[0].start()] + block + old[found[0].end():] if len(found) == 1
                else _before_trailer(old, block) if not found and "effectiveness" not in entry.data
                else None)
        if text is not None and _loads(text) == [{**entry.data, "effectiveness": after}]:
            ft.replace(entry.line, text)
            return
    changes.patch(path, entry.line, {"effectiveness": after})


def _before_trailer(item: str, block: str) -> str | None:
    """``block`` added as the item's last field, above trailing blank and comment lines."""
    if not item.endswith("\n"):
        return None
    cut = _TRAILER.search(item)
    at = cut.start() if cut else len(item)
    return item[:at] + block + item[at:]


def _scalar(value: Any) -> str:
    return str(value) if isinstance(value, int) else "'" + str(value).replace("'", "''") + "'"


def _loads(text: str) -> Any:
    try:
        return yamlio.load_text(text)
    except yamlio.YamlSyntaxError:
        return None


def score_grimoire(config: Config, now: datetime | None = None) -> ScoreReport:
    """Fold new usage events into each entry's ``effectiveness`` block, crash-safely and exactly once."""
    report = ScoreReport()
    minimum = int(config.lifecycle.ineffective_min_applications)
    frozen = {c.name for c in config.categories if c.operator_only or c.append_only}
    with locked(config.local_dir):
        recover(config)
        grimoire = load_grimoire(config)
        refuse_if_broken(grimoire)
        folded = read_folded(config)
        events = read_events(config)
        by_id = grimoire.by_id
        counted = contributions(events, lambda m: by_id[m].id if m in by_id else m)
        sums: dict[str, list[Any]] = defaultdict(lambda: [0, 0, None])
        newly: set[str] = set()
        for event in events:
            event_id = event["event_id"]
            if event_id in folded or event_id in newly:
                continue
            part = counted.get(event_id)
            entry = grimoire.by_id.get(part.memory_id) if part else None
            if part is not None and entry is None:
                report.pending += 1
                continue
            newly.add(event_id)
            if part is None or entry is None or entry.archived or entry.category in frozen:
                report.skipped += 1
                continue
            total = sums[entry.id]
            total[0] += part.applications
            total[1] += part.successes
            if part.applied_at and (total[2] is None or (parse_time(part.applied_at) or datetime.min) >
                                    (parse_time(total[2]) or datetime.min)):
                total[2] = part.applied_at
        changes = Changeset(config, grimoire)
        for memory_id, (apps, wins, last) in sums.items():
            entry = grimoire.by_id[memory_id]
            before = entry.data.get("effectiveness")
            after = _merged(before, apps, wins, last)
            _patch_effectiveness(changes, config.root / entry.path, entry, after)
            report.updated.append((memory_id, dict(before) if isinstance(before, dict) else {}, after))
        if newly:
            text = "".join(f"{event_id}\n" for event_id in sorted(folded.union(newly)))
            changes.write(config.local_dir / FOLDED_FILE, text)
        changes.commit()
        report.folded = len(newly) - report.skipped
        after_by_id = {memory_id: after for memory_id, _, after in report.updated}
        for entry in grimoire.entries:
            eff = after_by_id.get(entry.id, entry.data.get("effectiveness"))
            if entry.archived or grimoire.status(entry, now) != "active" or not isinstance(eff, dict):
                continue
            if Effectiveness.from_block(eff).proven_ineffective(minimum):
                report.queued.append(Entry({**entry.data, "effectiveness": eff}, entry.world, entry.path, entry.line))
    record_run(config, "score", {"folded": report.folded, "updated": len(report.updated),
                                 "pending": report.pending, "queued_for_archival": len(report.queued)}, now)
    return report


def score_record(report: ScoreReport) -> dict[str, Any]:
    """The stable JSON shape of a ``score`` run."""
    return {"folded_events": report.folded, "skipped_events": report.skipped, "pending_events": report.pending,
            "updated": [{"id": memory_id, "before": before, "after": after}
                        for memory_id, before, after in report.updated],
            "queued_for_archival": [{"id": e.id, "summary": e.summary, "effectiveness": dict(e.data["effectiveness"])}
                                    for e in report.queued]}
