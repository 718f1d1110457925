"""Token economics: the design's thresholds over the recall log, in priority order, with corrective actions.

Thresholds and their priority come from the token-economics section of the progressive-disclosure memory
design (Loki Mode's ``references/memory-system.md``, "Action Thresholds" and "Priority Order"): cost
control first (discovery/read ratio, savings), then structure (layer-3 loads, index size, timeline size),
then return on investment (tokens saved per session). Layers here: 1 = the index lines, 2 = the timeline of
recent decisions, 3 = full entries; cues (corrections, preferences) are counted in neither discovery nor read.
Pure functions: the records come from ``.loa/token_economics.jsonl``, the facts from the grimoire.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any, Literal

from loa_memory.store.settings import Economics

LONG_INDEX_TOKENS = 25  # an index line over this (≈ 100 characters) is long
LONG_TIMELINE_TOKENS = 20  # a timeline line over this is long (the design's layer 2 is ≈ 100 tokens for 5 lines)


@dataclass(frozen=True)
class Threshold:
    priority: int
    metric: str
    key: str  # under `economics:` in .loa.config.yaml
    label: str
    op: Literal[">", "<"]
    per: Literal["window", "recall", "session"]
    definition: str
    action: str
    rationale: str


THRESHOLDS: tuple[Threshold, ...] = (
    Threshold(1, "discovery_read_ratio", "max_discovery_read_ratio", "discovery/read ratio", ">", "window",
              "index and timeline tokens (discovery) per token of full entries read (layer 3), over all recalls",
              "compress-discovery", "cost control: discovery overhead is paid by every recall"),
    Threshold(2, "savings_pct", "min_savings_pct", "savings vs full load", "<", "window",
              "100 × (1 − tokens recall spent / tokens of loading every active entry), over all recalls",
              "review-relevance", "return: progressive disclosure must save more than it costs"),
    Threshold(3, "layer3_loads", "max_layer3_loads", "layer-3 loads per task", ">", "recall",
              "full entries loaded per recall (mean)", "composite-entry",
              "structure: entries read together lack an entry that sums them up"),
    Threshold(4, "discovery_tokens", "max_discovery_tokens", "discovery tokens per recall", ">", "recall",
              "index + timeline tokens per recall (mean)", "prune-index",
              "index bloat: layer 1 should stay lean to scan"),
    Threshold(5, "timeline_tokens", "max_timeline_tokens", "timeline tokens scanned per recall", ">", "recall",
              "tokens of the recent-decisions timeline per recall (mean)", "shorten-timeline",
              "timeline bloat: layer 2 scanning becomes expensive"),
    Threshold(6, "tokens_saved", "min_tokens_saved", "tokens saved per session", "<", "session",
              "full load − tokens spent, summed over a session's recalls (mean over sessions; a recall without "
              "a session id is a session of its own)", "evaluate-roi",
              "informational: memory may not be needed for sessions like these"),
)


@dataclass(frozen=True)
class Facts:
    """What the grimoire says about where the tokens go, for naming corrective actions concretely."""

    budget: int
    min_confidence: float
    full_load_tokens: int
    long_index_lines: tuple[str, ...] = ()  # ids of active entries whose index line is long, longest first
    long_timeline_lines: tuple[str, ...] = ()  # ids among the timeline's decisions whose line is long
    due_for_archival: int = 0


def _breaches(op: str, value: float, limit: float) -> bool:
    return value > limit if op == ">" else value < limit


def _sessions(records: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for n, record in enumerate(records):
        key = str(record.get("session_id") or "") or f"\0recall-{n}"
        groups.setdefault(key, []).append(record)
    return list(groups.values())


def _saved(record: Mapping[str, Any]) -> int:
    return max(0, int(record["full_load_tokens"]) - int(record["total_tokens"]))


def measure(t: Threshold, records: Sequence[Mapping[str, Any]], limit: float) -> tuple[float | None, int, int]:
    """(value, units measured, units that breach on their own) of one metric over the records."""
    if t.metric == "discovery_read_ratio":
        discovery = sum(int(r["discovery_tokens"]) for r in records)
        read = sum(int(r["read_tokens"]) for r in records)
        each = sum(1 for r in records if (r["read_tokens"] and r["discovery_tokens"] / r["read_tokens"] > limit)
                   or (not r["read_tokens"] and r["discovery_tokens"]))
        return (discovery / read if read else None), len(records), each
    if t.metric == "savings_pct":
        full = sum(int(r["full_load_tokens"]) for r in records)
        spent = sum(int(r["total_tokens"]) for r in records)
        each = sum(1 for r in records if r["full_load_tokens"] and
                   100 * (1 - r["total_tokens"] / r["full_load_tokens"]) < limit)
        return (100 * (1 - spent / full) if full else None), len(records), each
    if t.metric == "tokens_saved":
        totals = [sum(_saved(r) for r in group) for group in _sessions(records)]
        return (fmean(totals) if totals else None), len(totals), sum(1 for v in totals if v < limit)
    values = [float(r[t.metric]) for r in records if isinstance(r.get(t.metric), (int, float))]
    return (fmean(values) if values else None), len(values), sum(1 for v in values if _breaches(t.op, v, limit))


def _ids(ids: Sequence[str], most: int = 5) -> str:
    shown = ", ".join(ids[:most])
    return shown + (f" and {len(ids) - most} more" if len(ids) > most else "")


def action_text(t: Threshold, value: float | None, limit: float, facts: Facts,
                records: Sequence[Mapping[str, Any]]) -> str:
    """The corrective action for a breach, with the grimoire's numbers."""
    longs = (f"shorten the summaries of the {len(facts.long_index_lines)} entries whose index line is over "
             f"{LONG_INDEX_TOKENS} tokens ({_ids(facts.long_index_lines)})") if facts.long_index_lines else \
        "shorten the longest summaries"
    due = f"; archive the {facts.due_for_archival} entries due (`loa-memory archive`)" if facts.due_for_archival else ""
    if t.metric == "discovery_read_ratio":
        if value is None:
            return (f"nothing was read in full: the budget ({facts.budget} tokens) is used up by cues, index and "
                    f"timeline. Raise `retrieval.budget` / `recall --budget`, and {longs}{due}")
        return (f"discovery costs {value:.2f} tokens per token read (> {limit:g}): the index and timeline are long for "
                f"what is then read in full. {longs[0].upper()}{longs[1:]}{due}; or raise `retrieval.budget` "
                f"({facts.budget}) so more of what is indexed gets read")
    if t.metric == "savings_pct":
        return (f"recall spent {100 - (value or 0):.0f}% of what loading everything costs ({facts.full_load_tokens} "
                f"tokens): the budget is large for this grimoire or too much qualifies. Lower `retrieval.budget` "
                f"({facts.budget}) below half the full load ({facts.full_load_tokens // 2}), or raise "
                f"`retrieval.min_confidence` ({facts.min_confidence:g}) so fewer marginal entries qualify")
    if t.metric == "layer3_loads":
        read = Counter(str(m) for r in records if (r.get("layer3_loads") or 0) > limit for m in r.get("read") or [])
        top = [f"{memory_id} ({n}×)" for memory_id, n in read.most_common(5) if n > 1]
        if not top:
            return (f"recall read {value:.1f} full entries per task (> {limit:g}), different ones each time: lower "
                    f"`retrieval.budget` ({facts.budget}) so fewer are read in full, and let the index point to them")
        return (f"recall read {value:.1f} full entries per task (> {limit:g}); the entries read together most are "
                f"{', '.join(top)}. Write one entry that sums them up (a procedure, or a decision that links them "
                f"with `derived_from`/`elaborates`) so one read replaces several; or lower `retrieval.budget` "
                f"({facts.budget})")
    if t.metric == "discovery_tokens":
        return (f"the index and timeline cost {value:.0f} tokens per recall (> {limit:g}): {longs}; merge the "
                f"near-duplicates `loa-memory lint` reports{due}")
    if t.metric == "timeline_tokens":
        longs_tl = (f"shorten the summaries of the recent decisions {_ids(facts.long_timeline_lines)} (over "
                    f"{LONG_TIMELINE_TOKENS} tokens a line)") if facts.long_timeline_lines else \
            "shorten the summaries of the most recent decisions"
        return (f"the recent-decisions timeline costs {value:.0f} tokens per recall (> {limit:g}): {longs_tl}, or "
                f"supersede decisions that no longer hold")
    return (f"recall saved {value:.0f} tokens per session (< {limit:g}): the whole grimoire costs only "
            f"{facts.full_load_tokens} tokens to load. For sessions like these, loading every entry costs about "
            f"the same as recall; recall's selection pays off as the grimoire grows")


def evaluate(records: Sequence[Mapping[str, Any]], limits: Mapping[str, float], facts: Facts) -> list[dict[str, Any]]:
    """Every threshold in priority order: its value, whether it is breached, and the corrective action."""
    checks = []
    for t in THRESHOLDS:
        limit = float(limits.get(t.metric, getattr(Economics(), t.key)))
        value, units, breaching = measure(t, records, limit)
        nothing_read = t.metric == "discovery_read_ratio" and value is None and \
            any(r["discovery_tokens"] for r in records)
        breached = nothing_read or (value is not None and _breaches(t.op, value, limit))
        checks.append({
            "priority": t.priority, "metric": t.metric, "label": t.label, "definition": t.definition,
            "op": t.op, "threshold": limit, "value": None if value is None else round(value, 4), "per": t.per,
            "measured": units, "breaching": breaching, "breached": breached, "rationale": t.rationale,
            "action": {"name": t.action, "text": action_text(t, value, limit, facts, records)} if breached else None})
    return checks
