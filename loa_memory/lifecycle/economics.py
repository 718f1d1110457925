"""``stats --economics``: the recall log's token economics against the design's thresholds, with actions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from loa_memory.answer.economics import LONG_INDEX_TOKENS, LONG_TIMELINE_TOKENS, THRESHOLDS, Facts, evaluate
from loa_memory.answer.recall import ECONOMICS_LOG, TIMELINE, full_text, index_line, timeline_line, tokens
from loa_memory.lifecycle.archival import plan_archive
from loa_memory.lifecycle.recall_log import read_recall_log
from loa_memory.store.config import Config
from loa_memory.store.load import load_grimoire
from loa_memory.store.times import now_utc


def thresholds(config: Config) -> dict[str, float]:
    """metric → threshold: ``economics.<key>`` from the config (its defaults: ``store/settings.py``)."""
    return {t.metric: float(getattr(config.economics, t.key)) for t in THRESHOLDS}


def gather_facts(config: Config, now: datetime | None = None) -> Facts:
    moment = now or now_utc()
    grimoire = load_grimoire(config)
    active = [e for e in grimoire.entries if not e.archived and grimoire.status(e, moment) == "active"]
    long_index = sorted(((tokens(index_line(e)), e.id) for e in active if tokens(index_line(e)) > LONG_INDEX_TOKENS),
                        reverse=True)
    decisions = sorted((e for e in active if e.category == "decision"), key=lambda e: e.timestamp, reverse=True)
    long_timeline = [e.id for e in decisions[:TIMELINE] if tokens(timeline_line(e)) > LONG_TIMELINE_TOKENS]
    retrieval = config.retrieval
    return Facts(budget=int(retrieval.budget), min_confidence=float(retrieval.min_confidence),
                 full_load_tokens=sum(tokens(full_text(e)) for e in active),
                 long_index_lines=tuple(memory_id for _, memory_id in long_index),
                 long_timeline_lines=tuple(long_timeline),
                 due_for_archival=len(plan_archive(config, grimoire, moment).due))


# Thresholds on what recall saves over loading everything: meaningless while everything fits in the budget.
SAVINGS_METRICS = ("discovery_read_ratio", "savings_pct", "tokens_saved")


def economics_report(config: Config, *, last: int | None = None, now: datetime | None = None) -> dict[str, Any]:
    """``{"economics": {...}}``: totals over the logged recalls and every threshold in priority order."""
    records, warnings = read_recall_log(config)
    if last:
        records = records[-last:]
    log = f"{config.local_dir.name}/{ECONOMICS_LOG}"
    result: dict[str, Any] = {"log": log, "recalls": len(records), "warnings": warnings}
    if not records:
        result.update(message=f"no recalls logged in {log} yet: run `loa-memory recall TASK` (every recall is "
                              "logged), then `loa-memory stats --economics`", sessions=0, period=None, totals={},
                      checks=[], breaches=[])
        return {"economics": result}
    facts = gather_facts(config, now)
    checks = evaluate(records, thresholds(config), facts)
    message = ""
    if facts.full_load_tokens <= facts.budget:  # recall saves tokens only on a grimoire larger than its budget
        for check in checks:
            if check["metric"] in SAVINGS_METRICS:
                check.update(breached=False, action=None, judged=False)
        message = (f"savings not judged yet: the whole grimoire ({facts.full_load_tokens} tokens) fits in recall's "
                   f"budget ({facts.budget}), so recall cannot save tokens over loading everything; "
                   f"{', '.join(SAVINGS_METRICS)} count once it outgrows the budget")
    sessions = {str(r.get("session_id") or "") or f"recall-{n}" for n, r in enumerate(records)}
    keys = ("discovery_tokens", "read_tokens", "cue_tokens", "total_tokens", "full_load_tokens")
    totals = {key: sum(int(r.get(key) or 0) for r in records) for key in keys}
    totals["tokens_saved"] = sum(max(0, int(r["full_load_tokens"]) - int(r["total_tokens"])) for r in records)
    result.update(message=message, sessions=len(sessions), totals=totals, checks=checks,
                  period={"from": min(str(r["at"]) for r in records), "to": max(str(r["at"]) for r in records)},
                  breaches=[c["metric"] for c in checks if c["breached"]])
    return {"economics": result}
