"""The near-duplicate rule stays right across runs as its cache is reused and entries change."""

from __future__ import annotations

from tests.fixtures import Cli

TEXTS = ["Run the database migrations before seeding the integration test database",
         "Cache keys are content hashes so renames never invalidate them",
         "The gateway closes idle connections after thirty seconds of silence"]


def _near(loa: Cli) -> list[str]:
    return [f["entry_id"] for f in loa.json("lint")["findings"] if f["rule"] == "near-duplicate"]


def test_findings_follow_edits_between_runs(loa: Cli) -> None:
    ids = [loa.json("add", "fact", text)["id"] for text in TEXTS]
    assert _near(loa) == []
    copy = loa.json("add", "fact", TEXTS[0].replace("the integration", "integration"))["id"]
    assert _near(loa) == [copy]
    assert _near(loa) == [copy]  # second run: from the cache
    loa("supersede", copy, "Seed data comes from fixtures, not from migrations")
    assert _near(loa) == []
    third = loa.json("add", "fact", TEXTS[2] + " again")["id"]
    assert _near(loa) == [third] and ids
