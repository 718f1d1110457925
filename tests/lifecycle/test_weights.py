"""Weight profiles and adaptive weights through the CLI: logging, outcomes, summary, merge, the policy's picks."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from loa_memory.lifecycle.recall_log import link_outcomes, recall_succeeded
from loa_memory.search.strategy import CATEGORY_WEIGHTS
from loa_memory.tuning.bandit import AdaptiveSettings, Counts, choose, state_for
from loa_memory.tuning.summary import add_counts, dump_summary, merge_summaries, parse_summary, task_days
from tests.fixtures import Cli, git

SCHEMAS = Path(__file__).resolve().parents[2] / "loa_memory" / "schemas" / "output"
SUMMARY = "grimoires/loa/retrieval-weights.yaml"
PROFILES = """    profiles:
      decisions-first:
        description: decisions and facts up front
        categories:
          all: {decision: 3.0}
"""


def valid(name: str, data: Any) -> Any:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(data)
    return data


def configure(loa: Cli, extra: str) -> None:
    path = loa.root / ".loa.config.yaml"
    text = path.read_text()
    path.write_text(text.replace("    recency_weight: 0.1\n", "    recency_weight: 0.1\n" + extra))


def log(loa: Cli) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (loa.root / ".loa" / "token_economics.jsonl").read_text().splitlines()]


@pytest.fixture
def seeded(loa: Cli) -> Cli:
    for args in (("decision", "Use PostgreSQL for the database layer because of JSONB support",
                  "--summary", "PostgreSQL selected over SQLite"),
                 ("fact", "The billing service stores amounts in cents", "--summary", "Amounts are stored in cents"),
                 ("error", "Database migrations time out on the large orders table",
                  "--error", "lock timeout", "--resolution", "run the migration in batches")):
        assert loa("add", *args).exit_code == 0
    configure(loa, PROFILES)
    return loa


def test_every_recall_logs_its_profile_weights_and_ids(seeded: Cli) -> None:
    data = seeded.json("recall", "debug the failing database migration", "--track")
    assert len(data["recall_id"]) == 16
    assert data["profile"] == {"name": "default", "selected_by": "config"}
    record = log(seeded)[-1]
    assert record["recall_id"] == data["recall_id"] and record["task_type"] == "debugging"
    assert record["weights"] == {"lexical": 1.0, "semantic": 1.0,
                                 "category": dict(sorted(CATEGORY_WEIGHTS["debugging"].items()))}
    assert record["shown"] == [i["id"] for i in data["index"]]
    assert record["read"] == [e["id"] for e in data["entries"]]
    assert record["discovery_tokens"] == record["index_tokens"] + record["timeline_tokens"]
    events = [json.loads(line) for line in (seeded.root / ".loa" / "usage.jsonl").read_text().splitlines()]
    assert {e["recall_id"] for e in events} == {data["recall_id"]}

    forced = seeded.json("recall", "debug the failing database migration", "--profile", "decisions-first")
    assert forced["profile"] == {"name": "decisions-first", "selected_by": "flag"}
    assert log(seeded)[-1]["weights"]["category"]["decision"] == 3.0


def test_search_with_a_profile_uses_its_weights(seeded: Cli) -> None:
    plain = seeded.json("search", "database", "--explain")["results"]
    weighted = seeded.json("search", "database", "--explain", "--profile", "decisions-first")["results"]
    factor = {r["category"]: r["explain"]["factors"]["category"] for r in weighted}
    assert factor["decision"] == 3.0
    assert all(r["explain"]["factors"]["category"] == 1.0 for r in plain)
    unknown = seeded("search", "database", "--profile", "nope")
    assert unknown.exit_code == 2 and "unknown weight profile 'nope'" in unknown.stderr


@pytest.mark.parametrize(("extra", "message"), [
    ("    profiles:\n      default: {lexical: 2}\n", "default"),
    ("    profile: missing\n", "unknown weight profile 'missing'"),
    (PROFILES + "      errors-first: {categories: {debugging: {error: 3}}}\n"
     "    adaptive: {enabled: true, exploration: 0.4, profiles: [default, decisions-first, errors-first]}\n",
     "too large"),
    ("    adaptive: {enabled: true, exploration: 0.6}\n", "exploration"),
    ("    adaptive: {enabled: true, rolling_days: 0}\n", "rolling_days"),
    ("    adaptive: {enabled: true, profiles: [default, nope]}\n", "unknown weight profile 'nope'"),
])
def test_bad_weight_settings_are_config_errors(loa: Cli, extra: str, message: str) -> None:
    configure(loa, extra)
    result = loa("recall", "anything")
    assert result.exit_code == 2, result.output
    assert message in result.stderr and ".loa.config.yaml" in result.stderr, result.stderr


def test_outcomes_link_to_recalls_and_fold_exactly_once(seeded: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOA_SESSION_ID", "session-1")
    first = seeded.json("recall", "debug the failing database migration", "--track")
    second = seeded.json("recall", "explore how amounts are stored", "--profile", "decisions-first")
    shown = first["index"][0]["id"]
    linked = seeded.json("feedback", shown, "--outcome", "success")  # linked by session + memory, now
    assert linked["recall_id"] == first["recall_id"]
    assert seeded("feedback", "--recall", second["recall_id"], "--outcome", "failure").exit_code == 0
    report = valid("weights-summarize", seeded.json("weights", "summarize"))
    assert (report["recalls"], report["successes"], report["failures"], report["written"]) == (2, 1, 1, True)
    summary = parse_summary((seeded.root / SUMMARY).read_text())
    (day,) = summary
    assert summary[day]["debugging"]["default"] == Counts(1, 1, 0)
    assert summary[day]["exploration"]["decisions-first"] == Counts(1, 0, 1)
    before = (seeded.root / SUMMARY).read_text()
    again = seeded.json("weights", "summarize")
    assert (again["recalls"], again["written"]) == (0, False)
    assert (seeded.root / SUMMARY).read_text() == before
    # a later outcome for a recall whose outcome is folded is not counted again
    seeded("feedback", "--recall", first["recall_id"], "--outcome", "failure")
    seeded("feedback", "--recall", first["recall_id"], "--outcome", "failure")
    assert seeded.json("weights", "summarize")["failures"] == 0
    third = seeded.json("recall", "review the database choice")
    seeded.json("weights", "summarize")
    judged = seeded("feedback", "--recall", third["recall_id"], "--outcome", "success")
    assert judged.exit_code == 0, judged.output
    late = seeded.json("weights", "summarize")  # served folded before, its outcome now
    assert (late["recalls"], late["successes"]) == (0, 1)
    assert parse_summary((seeded.root / SUMMARY).read_text())[day]["review"]["default"] == Counts(1, 1, 0)


def test_link_outcomes_rules() -> None:
    records = [{"recall_id": "r1", "at": "2026-05-01T10:00:00Z", "session_id": "s", "shown": ["M1", "M2"]},
               {"recall_id": "r2", "at": "2026-05-01T11:00:00Z", "session_id": "s", "shown": ["M1"]},
               {"recall_id": "r3", "at": "2026-05-01T11:30:00Z", "session_id": "t", "shown": ["M1"]}]
    events = [
        {"type": "outcome", "memory_id": "M1", "session_id": "s", "at": "2026-05-01T10:30:00Z", "outcome": "success"},
        {"type": "outcome", "memory_id": "M1", "session_id": "s", "at": "2026-05-01T12:00:00Z", "outcome": "failure"},
        {"type": "outcome", "memory_id": "M2", "session_id": "s", "at": "2026-05-01T09:00:00Z", "outcome": "success"},
        {"type": "recall_outcome", "recall_id": "r3", "outcome": "success"},
        {"type": "recall_outcome", "recall_id": "gone", "outcome": "success"},
        {"type": "outcome", "memory_id": "M1", "recall_id": "r1", "outcome": "failure"},
        {"type": "applied", "memory_id": "M1", "recall_id": "r1"}]
    assert link_outcomes(records, events) == {"r1": (1, 1), "r2": (0, 1), "r3": (1, 0)}
    assert [recall_succeeded(*v) for v in ((1, 1), (2, 1), (0, 0))] == [False, True, False]


def test_feedback_for_an_unknown_recall_is_refused(seeded: Cli) -> None:
    result = seeded("feedback", "--recall", "0123456789abcdef", "--outcome", "success")
    assert result.exit_code == 1 and "no recall '0123456789abcdef'" in result.stderr
    assert seeded("feedback", "--outcome", "success").exit_code == 2


def test_a_broken_summary_is_never_rewritten_and_recall_still_works(seeded: Cli) -> None:
    configure(seeded, "    adaptive: {enabled: true, min_outcomes: 1}\n")
    path = seeded.root / SUMMARY
    text = "kind: loa-memory/retrieval-weights\nversion: 1\ndays:\n  '2026-05-01':\n    debugging:\n" \
           "      default: {served: -3, successes: 0, failures: 0}\n"
    path.write_text(text)
    seeded("recall", "debug the failing database migration")
    result = seeded("weights", "summarize")
    assert result.exit_code == 1
    assert "grimoires/loa/retrieval-weights.yaml:6:7: counters must be whole numbers" in result.stderr
    assert path.read_text() == text
    data = seeded.json("recall", "debug the failing database migration")
    assert data["profile"]["selected_by"] == "config"
    assert any("adaptive weights off for this recall" in w for w in data["warnings"])


def test_merge_adds_both_sides_counters(seeded: Cli) -> None:
    assert f"{SUMMARY} merge=loa-memory" in (seeded.root / ".gitattributes").read_text()
    day = "2026-05-01"
    base: dict[str, Any] = {}
    add_counts(base, day, "debugging", "default", Counts(10, 4, 2))
    ours = parse_summary(dump_summary(base))
    theirs = parse_summary(dump_summary(base))
    add_counts(ours, day, "debugging", "default", Counts(3, 1, 1))
    add_counts(theirs, day, "debugging", "default", Counts(5, 2, 0))
    add_counts(theirs, day, "review", "decisions-first", Counts(1, 1, 0))
    assert merge_summaries(base, ours, theirs)[day] == {"debugging": {"default": Counts(18, 7, 3)},
                                                        "review": {"decisions-first": Counts(1, 1, 0)}}
    path = seeded.root / SUMMARY
    path.write_text(dump_summary(base))
    git(seeded.root, "add", "-A")
    git(seeded.root, "commit", "-qm", "base")
    git(seeded.root, "checkout", "-qb", "theirs")
    path.write_text(dump_summary(theirs))
    git(seeded.root, "commit", "-qam", "theirs")
    git(seeded.root, "checkout", "-q", "main")
    path.write_text(dump_summary(ours))
    git(seeded.root, "commit", "-qam", "ours")
    git(seeded.root, "merge", "-q", "--no-edit", "theirs")
    merged = parse_summary(path.read_text())
    assert merged[day]["debugging"]["default"] == Counts(18, 7, 3)
    assert merged[day]["review"]["decisions-first"] == Counts(1, 1, 0)


def test_the_policy_picks_profiles_from_the_committed_summary(seeded: Cli) -> None:
    """End to end: recalls with --track, feedback, summarize, then the adaptive policy picks per its state."""
    configure(seeded, "    adaptive: {enabled: true, exploration: 0.1, max_daily_shift: 0.2, min_outcomes: 10}\n")
    for n in range(6):
        data = seeded.json("recall", "debug the failing database migration", "--track")
        assert data["profile"]["selected_by"] == "adaptive"
        seeded("feedback", "--recall", data["recall_id"], "--outcome", "success" if n % 2 else "failure")
    status = valid("weights-status", seeded.json("weights", "status"))
    assert status["pending"] == {"recalls": 6, "outcomes": 6}
    assert seeded.json("weights", "summarize")["recalls"] == 6
    # a teammate's summary, merged in: decisions-first did much better on debugging over the past days
    path = seeded.root / SUMMARY
    summary = parse_summary(path.read_text())
    today = datetime.now(UTC).date()
    for back in range(1, 6):
        day = (today - timedelta(days=back)).isoformat()
        add_counts(summary, day, "debugging", "default", Counts(20, 8, 12))
        add_counts(summary, day, "debugging", "decisions-first", Counts(20, 17, 3))
    path.write_text(dump_summary(summary))
    status = valid("weights-status", seeded.json("weights", "status"))
    debugging = next(t for t in status["task_types"] if t["task_type"] == "debugging")
    assert debugging["last_event"] == "update" and debugging["probabilities"]["decisions-first"] > 0.5
    settings = AdaptiveSettings(True, ("default", "decisions-first"), "default", 0.1, 0.2, 0.15, 3, 10)
    state = state_for(task_days(parse_summary(path.read_text()), "debugging"), settings, today.isoformat())
    picks = []
    for _ in range(12):
        data = seeded.json("recall", "debug the failing database migration")
        assert data["profile"]["name"] == choose(state.probabilities, data["recall_id"])
        picks.append(data["profile"]["name"])
    assert "decisions-first" in picks
    compared = valid("weights-compare", seeded.json("weights", "compare", "default", "decisions-first",
                                                     "--task-type", "debugging"))
    (item,) = compared["comparisons"]
    assert item["enough_data"] and item["verdict"].startswith("decisions-first is better than default")
