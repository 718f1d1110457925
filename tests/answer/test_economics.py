"""Token economics (pure): each threshold of the design, in priority order, with a concrete action."""

from __future__ import annotations

from typing import Any

import pytest

from loa_memory.answer.economics import THRESHOLDS, Facts, evaluate
from loa_memory.store.settings import Economics

FACTS = Facts(budget=1500, min_confidence=0.5, full_load_tokens=9000, long_index_lines=("MEM-20260101-004",),
              long_timeline_lines=("MEM-20260101-002",), due_for_archival=3)
LIMITS = {t.metric: float(getattr(Economics(), t.key)) for t in THRESHOLDS}


def rec(discovery: int = 100, read: int = 1000, total: int = 1200, full: int = 9000, loads: int = 2,
        timeline: int | None = 50, session: str = "s1", read_ids: tuple[str, ...] = ()) -> dict[str, Any]:
    record: dict[str, Any] = {"at": "2026-05-01T10:00:00Z", "discovery_tokens": discovery, "read_tokens": read,
                              "total_tokens": total, "full_load_tokens": full, "layer3_loads": loads,
                              "session_id": session, "read": list(read_ids)}
    if timeline is not None:
        record["timeline_tokens"] = timeline
    return record


def by_metric(checks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {c["metric"]: c for c in checks}


def test_the_design_order_and_defaults() -> None:
    assert [(t.metric, t.op, LIMITS[t.metric]) for t in THRESHOLDS] == [
        ("discovery_read_ratio", ">", 0.15), ("savings_pct", "<", 50), ("layer3_loads", ">", 3),
        ("discovery_tokens", ">", 200), ("timeline_tokens", ">", 100), ("tokens_saved", "<", 1000)]


def test_a_healthy_log_breaches_nothing() -> None:
    checks = evaluate([rec(), rec(session="s2")], LIMITS, FACTS)
    assert [c["priority"] for c in checks] == [1, 2, 3, 4, 5, 6]
    assert not any(c["breached"] for c in checks)
    assert all(c["action"] is None for c in checks)


@pytest.mark.parametrize(("record", "metric", "words"), [
    (rec(discovery=180, read=600), "discovery_read_ratio", ["0.30 tokens per token read", "MEM-20260101-004",
                                                            "archive the 3 entries due"]),
    (rec(total=6000), "savings_pct", ["Lower `retrieval.budget` (1500) below half the full load (4500)"]),
    (rec(loads=6, read_ids=("MEM-1", "MEM-2", "MEM-3", "MEM-4", "MEM-5", "MEM-6")), "layer3_loads",
     ["6.0 full entries per task (> 3), different ones each time: lower `retrieval.budget` (1500)"]),
    (rec(discovery=260, read=5000), "discovery_tokens", ["260 tokens per recall", "MEM-20260101-004"]),
    (rec(timeline=140, discovery=150), "timeline_tokens", ["140 tokens per recall", "MEM-20260101-002"]),
    (rec(total=8500, full=9000), "tokens_saved", ["saved 500 tokens per session"]),
])
def test_each_breach_names_its_action(record: dict[str, Any], metric: str, words: list[str]) -> None:
    check = by_metric(evaluate([record], LIMITS, FACTS))[metric]
    assert check["breached"]
    for word in words:
        assert word in check["action"]["text"]


def test_entries_read_together_are_named() -> None:
    records = [rec(loads=4, read_ids=("MEM-1", "MEM-2", "MEM-3", "MEM-9")),
               rec(loads=5, read_ids=("MEM-1", "MEM-2", "MEM-4", "MEM-5", "MEM-6"))]
    check = by_metric(evaluate(records, LIMITS, FACTS))["layer3_loads"]
    assert "the entries read together most are MEM-1 (2×), MEM-2 (2×). Write one entry" in check["action"]["text"]


def test_breaches_are_listed_in_priority_order() -> None:
    record = rec(discovery=400, read=500, total=8200, loads=5, timeline=150)
    breached = [c["metric"] for c in evaluate([record], LIMITS, FACTS) if c["breached"]]
    assert breached == ["discovery_read_ratio", "savings_pct", "layer3_loads", "discovery_tokens", "timeline_tokens",
                        "tokens_saved"]


def test_nothing_read_in_full_is_a_ratio_breach() -> None:
    check = by_metric(evaluate([rec(read=0, discovery=120)], LIMITS, FACTS))["discovery_read_ratio"]
    assert check["value"] is None and check["breached"]
    assert check["action"]["text"].startswith("nothing was read in full")


def test_old_records_without_timeline_tokens_are_not_measured() -> None:
    checks = by_metric(evaluate([rec(timeline=None), rec(timeline=150)], LIMITS, FACTS))
    assert checks["timeline_tokens"]["measured"] == 1 and checks["timeline_tokens"]["value"] == 150


def test_sessions_sum_their_recalls_and_anonymous_recalls_stand_alone() -> None:
    records = [rec(total=8600, session="s1"), rec(total=8600, session="s1"), rec(total=8800, session=""),
               rec(total=8800, session="")]
    check = by_metric(evaluate(records, LIMITS, FACTS))["tokens_saved"]
    assert check["measured"] == 3  # s1, and two recalls without a session
    assert check["value"] == pytest.approx((800 + 200 + 200) / 3, abs=1e-3)
    assert check["breaching"] == 3


def test_thresholds_come_from_the_limits() -> None:
    check = by_metric(evaluate([rec(discovery=180, read=600)], {**LIMITS, "discovery_read_ratio": 0.5}, FACTS))
    assert not check["discovery_read_ratio"]["breached"]
    assert check["discovery_read_ratio"]["threshold"] == 0.5
