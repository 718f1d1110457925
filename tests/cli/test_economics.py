"""``stats --economics``: the recall log against the design's thresholds, through the CLI."""

from __future__ import annotations

import json
from typing import Any

import pytest

from loa_memory.render.contract import validate_output
from tests.fixtures import Cli

LOG = ".loa/token_economics.jsonl"


def economics(loa: Cli, *args: str) -> dict[str, Any]:
    data = loa.json("stats", "--economics", *args)
    validate_output("stats", data)  # the fixture checks it too; this names the schema it must meet
    assert list(data) == ["economics"]
    return dict(data["economics"])


@pytest.fixture
def seeded(loa: Cli) -> Cli:
    for n in range(6):
        assert loa("add", "decision", f"Decision {n}: use PostgreSQL for service {n} because of its JSONB support "
                   "and the team's long experience running it in production",
                   "--summary", f"PostgreSQL chosen for service {n} over SQLite, MySQL and a document store, for JSONB "
                                "and the team's experience").exit_code == 0
    return loa


def test_no_log_is_a_clear_message_and_exit_0(loa: Cli) -> None:
    result = loa("stats", "--economics")
    assert result.exit_code == 0
    assert result.stdout.strip() == ("no recalls logged in .loa/token_economics.jsonl yet: run `loa-memory recall "
                                     "TASK` (every recall is logged), then `loa-memory stats --economics`")
    data = economics(loa)
    assert data["recalls"] == 0 and data["checks"] == [] and data["message"]
    (loa.root / LOG).write_text("")
    assert loa("stats", "--economics").exit_code == 0


def test_thresholds_in_priority_order_with_actions(seeded: Cli) -> None:
    for task in ("choose the database for the new service", "how do we store JSON documents",
                 "add a column to the orders table"):
        assert seeded("recall", task).exit_code == 0
    data = economics(seeded)
    assert data["recalls"] == 3 and data["sessions"] == 3
    assert [c["metric"] for c in data["checks"]] == ["discovery_read_ratio", "savings_pct", "layer3_loads",
                                                     "discovery_tokens", "timeline_tokens", "tokens_saved"]
    assert data["breaches"] == [c["metric"] for c in data["checks"] if c["breached"]]
    timeline = next(c for c in data["checks"] if c["metric"] == "timeline_tokens")
    assert timeline["breached"]  # six decisions with long summaries: the timeline is bloated ...
    assert "shorten the summaries of the recent decisions MEM-" in timeline["action"]["text"]  # ... named by id
    text = seeded("stats", "--economics").stdout
    assert "5. [BREACH] timeline tokens scanned per recall:" in text
    assert "   → shorten-timeline: the recent-decisions timeline costs" in text
    assert text.splitlines()[-1].startswith(f"{len(data['breaches'])} of 6 thresholds breached; act on them in "
                                            "this order: ")


def test_malformed_lines_are_skipped_with_file_and_line(seeded: Cli) -> None:
    seeded("recall", "choose the database for the new service")
    with open(seeded.root / LOG, "a") as handle:
        handle.write("{not json\n")
        handle.write(json.dumps({"at": "2026-01-01T00:00:00Z", "discovery_tokens": "many"}) + "\n")
        handle.write("[1, 2]\n")
    seeded("recall", "how do we store JSON documents")
    data = economics(seeded)
    assert data["recalls"] == 2
    assert data["warnings"] == [
        ".loa/token_economics.jsonl:2: not valid JSON (Expecting property name enclosed in double quotes), skipped",
        ".loa/token_economics.jsonl:3: discovery_tokens is missing or not a whole number ≥ 0, skipped",
        ".loa/token_economics.jsonl:4: not a JSON object, skipped"]
    result = seeded("stats", "--economics")
    assert result.exit_code == 0
    assert result.stdout.startswith("[warning] .loa/token_economics.jsonl:2: not valid JSON")


def test_last_and_configured_thresholds(seeded: Cli) -> None:
    for task in ("choose the database", "store JSON documents", "add a column"):
        seeded("recall", task)
    assert economics(seeded, "--last", "2")["recalls"] == 2
    config = seeded.root / ".loa.config.yaml"
    config.write_text(config.read_text() + "  economics:\n    max_timeline_tokens: 10000\n")
    timeline = next(c for c in economics(seeded)["checks"] if c["metric"] == "timeline_tokens")
    assert timeline["threshold"] == 10000 and not timeline["breached"]
    misuse = seeded("stats", "--last", "2")
    assert misuse.exit_code == 2 and "--last goes with --economics" in misuse.stderr


def test_plain_stats_is_unchanged(seeded: Cli) -> None:
    data = seeded.json("stats")
    assert "economics" not in data and data["entries"] == 6
