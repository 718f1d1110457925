"""``weights``: fold the local recall log into the committed summary, show the adaptive state, compare profiles.

``summarize`` counts each logged recall once (served) and its outcome once, when it is known: the keys of what
was folded are kept in ``.loa/weights.folded``, written in the same transaction as the summary, so running it
twice changes nothing. An outcome that arrives after its recall's outcome was folded is not counted again.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from loa_memory.lifecycle.effectiveness import read_events
from loa_memory.lifecycle.recall_log import link_outcomes, read_recall_log, recall_succeeded
from loa_memory.search.strategy import TASK_TYPES
from loa_memory.store import atomic
from loa_memory.store.config import Config
from loa_memory.store.local.runs import record_run
from loa_memory.store.lock import locked
from loa_memory.store.times import now_utc
from loa_memory.tuning.abtest import Arm, compare
from loa_memory.tuning.bandit import Counts, replay
from loa_memory.tuning.profiles import adaptive_settings, get_profile, load_profiles
from loa_memory.tuning.summary import (
    Summary,
    add_counts,
    dump_summary,
    merge_summaries,
    read_summary,
    summary_path,
    task_days,
    totals,
)
from loa_memory.write.add import recover

FOLDED_FILE = "weights.folded"


def _read_folded(config: Config) -> set[str]:
    try:
        return set((config.local_dir / FOLDED_FILE).read_text("utf-8").split())
    except OSError:
        return set()


def _pending(config: Config) -> tuple[Summary, set[str], list[str]]:
    """What the local logs add to the summary and is not folded yet: (counts, their keys, warnings)."""
    records, warnings = read_recall_log(config)
    folded = _read_folded(config)
    outcomes = link_outcomes(records, read_events(config))
    added: Summary = {}
    keys: set[str] = set()
    for record in records:
        recall_id, task = str(record.get("recall_id") or ""), record.get("task_type")
        if not recall_id or not isinstance(task, str):
            continue  # logged before recalls had ids: nothing to attribute
        served = 0 if f"s:{recall_id}" in folded else 1
        wins = losses = 0
        if recall_id in outcomes and f"o:{recall_id}" not in folded:
            won = recall_succeeded(*outcomes[recall_id])
            wins, losses = int(won), int(not won)
            keys.add(f"o:{recall_id}")
        if served:
            keys.add(f"s:{recall_id}")
        if served or wins or losses:
            add_counts(added, str(record["at"])[:10], task, str(record.get("profile") or "default"),
                       Counts(served, wins, losses))
    return added, keys, warnings


def _rel(config: Config, path: Any) -> str:
    return str(path.relative_to(config.root).as_posix()) if path.is_relative_to(config.root) else str(path)


def summarize(config: Config, *, dry_run: bool = False, now: datetime | None = None) -> dict[str, Any]:
    """Fold new recalls and outcomes into the summary file (exactly once, crash-safe)."""
    path = summary_path(config)
    with locked(config.local_dir):
        recover(config)
        summary = read_summary(path, config.root)  # a summary that does not parse stops here, untouched
        added, keys, warnings = _pending(config)
        if keys and not dry_run:
            folded = "".join(f"{key}\n" for key in sorted(_read_folded(config) | keys))
            atomic.write_many([(path, dump_summary(merge_summaries({}, summary, added))),
                               (config.local_dir / FOLDED_FILE, folded)], config.local_dir)
    cells = totals(added)
    report = {"path": _rel(config, path), "dry_run": dry_run, "written": bool(keys) and not dry_run,
              "recalls": sum(c.served for c in cells.values()),
              "successes": sum(c.successes for c in cells.values()),
              "failures": sum(c.failures for c in cells.values()),
              "days": sorted(added), "warnings": warnings}
    if not dry_run:
        record_run(config, "weights-summarize", {k: report[k] for k in ("recalls", "successes", "failures")}, now)
    return report


def _rounded(values: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 4) for k, v in values.items()}


def _rate(pair: tuple[int, int]) -> float | None:
    return round(pair[0] / pair[1], 4) if pair[1] else None


def weights_status(config: Config, now: datetime | None = None) -> dict[str, Any]:
    """Profiles, adaptive settings, and per task type the probabilities serving today (from the summary)."""
    settings = adaptive_settings(config)
    path = summary_path(config)
    summary = read_summary(path, config.root)
    today = (now or now_utc()).date().isoformat()
    added, _, warnings = _pending(config)
    tasks = []
    for task in TASK_TYPES:
        days = [(d, c) for d, c in task_days(summary, task) if d < today]
        states = replay(days, settings)
        current = states[-1]
        tasks.append({
            "task_type": task, "days": len(days), "probabilities": _rounded(current.probabilities),
            "target": _rounded(current.target), "last_event": current.event, "serves_from": current.serves or None,
            "evidence": {arm: current.evidence.get(arm, Counts())._asdict() for arm in settings.arms},
            "rolling": {"successes": current.rolling[0], "outcomes": current.rolling[1],
                        "rate": _rate(current.rolling)},
            "baseline": {"successes": current.baseline[0], "outcomes": current.baseline[1],
                         "rate": _rate(current.baseline)},
            "rollbacks": [{"serves_from": s.serves, "rolling_rate": _rate(s.rolling),
                           "baseline_rate": _rate(s.baseline)} for s in states if s.event == "rollback"]})
    return {
        "profile": settings.control,
        "profiles": [{"name": p.name, "builtin": p.builtin, "description": p.description, "lexical": p.lexical,
                      "semantic": p.semantic} for p in load_profiles(config).values()],
        "adaptive": {"enabled": settings.enabled, "profiles": list(settings.arms),
                     "exploration": settings.exploration, "max_daily_shift": settings.max_daily_shift,
                     "rollback_drop": settings.rollback_drop, "rolling_days": settings.rolling_days,
                     "min_outcomes": settings.min_outcomes},
        "summary": {"path": _rel(config, path), "exists": path.exists(), "days": len(summary)},
        "pending": {"recalls": sum(c.served for c in totals(added).values()),
                    "outcomes": sum(c.outcomes for c in totals(added).values())},
        "today": today, "task_types": tasks, "warnings": warnings}


def weights_compare(config: Config, a: str | None = None, b: str | None = None,
                    task_type: str | None = None) -> dict[str, Any]:
    """Success rates of profile B against A per task type and overall (summary + what is not yet summarized)."""
    settings = adaptive_settings(config)
    a = get_profile(config, a).name if a else settings.control
    others = [get_profile(config, b).name] if b else [p for p in load_profiles(config) if p != a]
    summary = read_summary(summary_path(config), config.root)
    added, _, warnings = _pending(config)
    cells = totals(merge_summaries({}, summary, added))
    tasks = [task_type] if task_type else ["all", *sorted({t for t, _ in cells})]
    comparisons = []
    for other in others:
        for task in tasks:
            def arm(name: str, task: str = task) -> Arm:
                got = Counts()
                for (t, profile), counts in cells.items():
                    if profile == name and task in ("all", t):
                        got = got.plus(counts)
                return Arm(name, got.served, got.successes, got.failures)

            comparisons.append({"task_type": task, **compare(arm(a), arm(other), settings.min_outcomes)})
    return {"a": a, "min_outcomes": settings.min_outcomes, "comparisons": comparisons,
            "source": {"summary": _rel(config, summary_path(config)), "summarized_days": len(summary),
                       "pending_recalls": sum(c.served for c in totals(added).values())},
            "warnings": warnings}
