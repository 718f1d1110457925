"""``promote``: recurring episode cues across sessions become one semantic entry with derived_from links."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from loa_memory.search.embed import minilm
from tests.fixtures import Cli

needs_model = pytest.mark.skipif(not minilm.is_available(), reason="MiniLM weights not installed")

LINT = [("Committed without running the linter", "Run ruff check before every commit"),
        ("Forgot to lint before committing", "Always run `ruff check` first, then commit"),
        ("Pushed code that failed lint in CI", "Lint locally with ruff before you commit anything")]
UNRELATED = ("Stored a naive datetime", "Always use timezone-aware UTC datetimes")


def when(day: int) -> str:
    """A recent timestamp (episodes expire after 30 days), ``day`` orders them."""
    return f"{datetime.now(UTC) - timedelta(days=10 - day):%Y-%m-%dT%H:%M:%SZ}"


def episode(loa: Cli, session: str, trigger: str, lesson: str, kind: str = "correction",
            day: int = 1, tags: tuple[str, ...] = ()) -> str:
    entry: dict[str, Any] = {
        "category": "episode", "content": f"No. {lesson}", "confidence": 0.8, "session_id": session,
        "action_types": [kind], "trigger": trigger, "lesson": lesson, "tags": [kind, *tags],
        "source": {"session_id": session, "timestamp": when(day), "agent": "transcript-capture"},
    }
    result = loa("add", "--from-json", "-", "--format", "json", input=json.dumps(entry))
    assert result.exit_code == 0, result.output
    return str(json.loads(result.stdout)["id"])


def corrections(loa: Cli) -> list[dict[str, Any]]:
    return [e for e in loa.json("list", "--category", "correction")["entries"]]


@needs_model
def test_three_sessions_become_one_correction(loa: Cli) -> None:
    ids = [episode(loa, f"s-{n}", trigger, lesson, day=n + 1, tags=(f"t{n}",))
           for n, (trigger, lesson) in enumerate(LINT)]
    other = episode(loa, "s-9", *UNRELATED, day=5)
    report = loa.json("promote")
    assert len(report["promoted"]) == 1, report
    promoted = report["promoted"][0]
    assert sorted(promoted["episodes"]) == sorted(ids)
    assert other not in promoted["episodes"]
    entry = promoted["entry"]
    assert entry["category"] == "correction"
    assert {(link["to"], link["relation"]) for link in entry["links"]} == {(i, "derived_from") for i in ids}
    assert (entry["trigger"], entry["lesson"]) in LINT
    assert {"correction", "t0", "t1", "t2"} <= set(entry["tags"])
    assert entry["confidence"] == 0.8
    listed = corrections(loa)
    assert [e["id"] for e in listed] == [entry["id"]]
    lint = loa("lint")
    assert lint.exit_code == 0, lint.output


@needs_model
def test_promoting_twice_adds_nothing(loa: Cli) -> None:
    for n, (trigger, lesson) in enumerate(LINT):
        episode(loa, f"s-{n}", trigger, lesson, day=n + 1)
    first = loa.json("promote")
    second = loa.json("promote")
    assert len(first["promoted"]) == 1
    assert second["promoted"] == []
    assert [c["id"] for c in second["already_promoted"]] == [first["promoted"][0]["id"]]
    assert len(corrections(loa)) == 1
    # a fourth session repeating it still does not make a second entry
    episode(loa, "s-4", *LINT[0], day=6)
    assert loa.json("promote")["promoted"] == []
    assert len(corrections(loa)) == 1


@needs_model
def test_two_sessions_are_not_enough(loa: Cli) -> None:
    ids = [episode(loa, f"s-{n}", trigger, lesson, day=n + 1) for n, (trigger, lesson) in enumerate(LINT[:2])]
    report = loa.json("promote")
    assert report["promoted"] == []
    assert [sorted(c["episodes"]) for c in report["below_threshold"]] == [sorted(ids)]
    assert corrections(loa) == []
    assert "not yet: correction seen in 2 of 3 sessions" in loa("promote").stdout


@needs_model
def test_one_session_repeating_itself_is_not_enough(loa: Cli) -> None:
    for n, (trigger, lesson) in enumerate(LINT):
        episode(loa, "s-same", trigger, lesson, day=n + 1)
    assert loa.json("promote")["promoted"] == []


@needs_model
def test_dry_run_writes_nothing(loa: Cli) -> None:
    for n, (trigger, lesson) in enumerate(LINT):
        episode(loa, f"s-{n}", trigger, lesson, day=n + 1)
    memdir = loa.root / "grimoires/loa/memory"
    before = {p: p.read_bytes() for p in memdir.rglob("*") if p.is_file()}
    report = loa.json("promote", "--dry-run")
    assert report["dry_run"] is True and len(report["promoted"]) == 1
    assert {p: p.read_bytes() for p in memdir.rglob("*") if p.is_file()} == before
    assert "would promote" in loa("promote", "--dry-run").stdout
    assert not (loa.root / ".loa/runs.json").exists() or "promote" not in json.loads(
        (loa.root / ".loa/runs.json").read_text())


@needs_model
def test_kinds_are_not_mixed(loa: Cli) -> None:
    episode(loa, "s-0", *LINT[0], day=1)
    episode(loa, "s-1", *LINT[1], day=2)
    episode(loa, "s-2", *LINT[2], kind="preference", day=3)
    assert loa.json("promote")["promoted"] == []


def test_nothing_to_promote(loa: Cli) -> None:
    result = loa("promote")
    assert result.exit_code == 0, result.output
    assert "promoted 0 clusters of 0 cue episodes" in result.stdout
    assert loa.json("promote")["promoted"] == []
