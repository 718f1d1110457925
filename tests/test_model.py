"""The records every layer shares: an entry's effectiveness and its tier."""

from __future__ import annotations

import pytest

from loa_memory.model import Effectiveness, Entry, effectiveness_tier


@pytest.mark.parametrize(("score", "applications", "tier"), [
    (100, 5, "high"), (80, 5, "high"), (79, 5, "medium"), (50, 1, "medium"), (49, 3, "low"), (20, 3, "low"),
    (19, 3, "ineffective"), (0, 9, "ineffective"), (None, 4, "unscored"), (90, 0, "unscored"),
])
def test_tiers_follow_the_design(score: int | None, applications: int, tier: str) -> None:
    assert effectiveness_tier(score, applications) == tier


@pytest.mark.parametrize(("block", "expected"), [
    ({"applications": 6, "successes": 1, "score": 17, "last_applied": "2026-02-01T18:00:00Z"},
     Effectiveness(6, 1, 17, "2026-02-01T18:00:00Z")),
    ({"applications": "3", "score": "high"}, Effectiveness(3, 0, None, None)),  # a hand-edited block: no score
    (None, Effectiveness()), ("broken", Effectiveness()), ({}, Effectiveness()),
])
def test_a_block_reads_leniently(block: object, expected: Effectiveness) -> None:
    entry = Entry({"id": "MEM-20260101-001", "effectiveness": block}, "loa", "facts.yaml", 1)
    assert entry.effectiveness == expected


def test_proven_ineffective_needs_enough_applications() -> None:
    assert Effectiveness(5, 0, 0).proven_ineffective(5)
    assert not Effectiveness(4, 0, 0).proven_ineffective(5)
    assert not Effectiveness(9, 9, 100).proven_ineffective(5)
