"""search: lexical and hybrid retrieval, filters, supersede handling, explain, and the CLI shape."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from loa_memory.search.rank import Weights, fuse
from loa_memory.search.strategy import actions, detect_task_type, same_action
from tests.fixtures import Cli

MEMORIES = [
    ("decision", "Use PostgreSQL for the database layer because of JSONB support and team expertise",
     "PostgreSQL selected over SQLite", "database"),
    ("fact", "The API gateway closes idle connections after 30 seconds", "Gateway idle timeout is 30 s", "gateway"),
    ("learning", "Real git repositories in tmp_path caught two bugs that mocks of the store hid",
     "Real repositories beat mocks in tests", "testing"),
    ("procedure", "1. bump the version\n2. tag the release\n3. push the tag to trigger the publish job",
     "Release a new version", "release"),
]


@pytest.fixture
def seeded(loa: Cli) -> Cli:
    for category, content, summary, tag in MEMORIES:
        assert loa("add", category, content, "--summary", summary, "--tags", tag).exit_code == 0
    return loa


def _ids(loa: Cli, *args: str) -> list[str]:
    return [r["id"] for r in loa.json("search", *args)["results"]]


def test_lexical_search_finds_by_words(seeded: Cli) -> None:
    results = seeded.json("search", "postgresql jsonb", "--mode", "lexical")["results"]
    assert results[0]["summary"] == "PostgreSQL selected over SQLite"
    assert results[0]["category"] == "decision" and results[0]["status"] == "active"


def test_filters_by_category_and_tag(seeded: Cli) -> None:
    assert {r["category"] for r in seeded.json("search", "version", "--category", "procedure")["results"]} == \
        {"procedure"}
    assert all("gateway" in r["entry"]["tags"] for r in seeded.json("search", "timeout", "--tag", "gateway")["results"])


def test_superseded_entry_stands_aside_for_its_successor(seeded: Cli) -> None:
    old = _ids(seeded, "postgresql jsonb", "--mode", "lexical")[0]
    new = seeded.json("supersede", old, "Move to CockroachDB for multi-region writes",
                      "--summary", "CockroachDB for multi-region writes")["id"]
    current = seeded.json("search", "postgresql jsonb", "--mode", "lexical")["results"]
    assert current[0]["id"] == new and current[0]["stands_in_for"] == [old]
    assert old not in [r["id"] for r in current]
    history = _ids(seeded, "postgresql jsonb", "--mode", "lexical", "--history")
    assert history.index(new) < history.index(old)


def test_explain_shows_ranks_and_factors(seeded: Cli) -> None:
    hit = seeded.json("search", "gateway idle timeout", "--explain")["results"][0]
    assert hit["explain"]["lexical"]["rank"] == 1
    assert set(hit["explain"]["factors"]) >= {"category", "confidence", "recency", "effectiveness"}
    text = seeded("search", "gateway idle timeout", "--explain").stdout
    assert "lexical rank 1" in text


def test_empty_query_is_a_usage_error(seeded: Cli) -> None:
    result = seeded("search", "  ")
    assert result.exit_code == 2 and "query is empty" in result.stderr


def test_track_writes_usage_events(seeded: Cli) -> None:
    assert seeded("search", "release version", "--track", "-k", "2").exit_code == 0
    lines = (seeded.root / ".loa" / "usage.jsonl").read_text().splitlines()
    assert len(lines) == 2 and all('"type": "applied"' in line for line in lines)


def test_fuse_prefers_semantic_when_words_do_not_match() -> None:
    lexical = [("noise", 9.0, 0.2)]
    semantic = [("target", 0.62), ("noise", 0.1)]
    ranked = fuse(lexical, semantic, Weights())
    assert [f.key for f in ranked] == ["target", "noise"]
    both = fuse([("a", 5.0, 1.0), ("b", 5.0, 0.3)], [("a", 0.4), ("b", 0.45)], Weights())
    assert both[0].key == "a"


@pytest.mark.parametrize(("text", "kind"), [
    ("fix the flaky test that fails on CI", "debugging"),
    ("review this pull request", "review"),
    ("refactor the loader into smaller modules", "refactoring"),
    ("how does the merge driver work", "exploration"),
    ("add an endpoint for exports", "implementation"),
])
def test_task_type_detection(text: str, kind: str) -> None:
    assert detect_task_type(text) == kind


def test_action_taxonomy_matches_rewordings() -> None:
    assert "schema-change" in actions("write a migration that drops the legacy_flag column") & \
        actions("drop a column from a database table")
    assert not actions("update the README wording") & {"schema-change", "data-deletion"}


@pytest.mark.parametrize(("task", "trigger", "shared"), [
    ("write an alembic migration that gets rid of the is_legacy attribute", "drop a column from a database table",
     "remove:schema"),
    ("rm yarn.lock and reinstall everything", "delete the lockfile to fix resolution errors", "remove:dependency"),
    ("bump react-router from v5 to v6", "upgrade a dependency to a new major version", "upgrade:dependency"),
    ("make origin/develop match my local history exactly", "force push to a shared branch", "overwrite-history:git"),
    ("mark test_refund_flow as xfail so CI goes green", "skip a failing test to unblock the pipeline", "skip:test"),
])
def test_same_action_across_rewordings(task: str, trigger: str, shared: str) -> None:
    assert shared in same_action(task, trigger)


@pytest.mark.parametrize(("task", "trigger"), [
    ("add an index to the orders table", "drop a column from a database table"),  # same object, other action
    ("drop the stale rows from the cache", "bump a dependency to a new major version"),
    ("update the README wording", "force push to a shared branch"),
])
def test_same_action_needs_both_action_and_object(task: str, trigger: str) -> None:
    assert not same_action(task, trigger)


def test_recency_and_confidence_factors_are_bounded() -> None:
    from loa_memory.model import Entry
    from loa_memory.search.rank import entry_factors

    entry = Entry({"id": "MEM-20260101-001", "category": "fact", "confidence": 0.9,
                   "source": {"timestamp": "2026-01-01T00:00:00Z"}}, "loa", "f", 1)
    factors = entry_factors(entry, Weights(), datetime(2026, 6, 1, tzinfo=UTC))
    assert 0.75 <= factors["confidence"] <= 1.0 and 1.0 <= factors["recency"] <= 1.1


@pytest.mark.parametrize(("kinds", "weight"), [
    (["correction"], 1.4), (["task"], 0.8), (["decision", "correction"], 1.4), ("correction", 0.8), (None, 0.8),
])
def test_an_episode_that_records_a_correction_weighs_as_one(kinds: object, weight: float) -> None:
    from loa_memory.model import Entry
    from loa_memory.search.rank import entry_factors
    from loa_memory.search.strategy import CATEGORY_WEIGHTS

    entry = Entry({"id": "MEM-20260101-001", "category": "episode", "action_types": kinds,
                   "source": {"timestamp": "2026-01-01T00:00:00Z"}}, "loa", "f", 1)
    weights = Weights(category=CATEGORY_WEIGHTS["implementation"])
    assert entry_factors(entry, weights, datetime(2026, 1, 2, tzinfo=UTC))["category"] == weight


def _model_ready() -> float:
    """Load (on a machine's first run: build) the default model, so that a command finds it ready; its rate."""
    from loa_memory.search.embed import select_embedder

    embedder = select_embedder().embedder
    embedder.embed(["warm"])
    return embedder.entries_per_second


def test_vectors_a_command_cannot_embed_in_time_are_left_to_the_background(seeded: Cli,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from loa_memory.search import retriever
    from loa_memory.search.embed import select_embedder

    monkeypatch.setenv("LOA_MEMORY_BACKGROUND", "off")  # answer from what there is, start nothing
    rate = _model_ready()
    config = seeded.root / ".loa.config.yaml"
    original = config.read_text()

    def allow(seconds: float) -> None:
        config.write_text(original.replace("  retrieval:\n", f"  retrieval:\n    eager_embed_seconds: {seconds}\n"))

    allow(0)
    text = seeded("search", "postgresql jsonb", "--mode", "hybrid")
    assert text.stdout.startswith(" 1. MEM-") and "note" not in text.stdout
    assert text.stderr == ("note: 4 entries are not embedded yet and were found by words only; embedding goes on in "
                           "the background (on a machine's first use, after preparing the model; `loa-memory index` "
                           "shows progress)\n")
    allow(3.5 / rate)  # room for 3 of the 4 entries
    assert retriever.eager_limit(select_embedder().embedder, 3.5 / rate) == 3
    waiting = seeded("search", "postgresql jsonb", "--mode", "hybrid", "--format", "json")
    data = json.loads(waiting.stdout)
    assert data["not_embedded"] == 1 and not data["warnings"]  # the count is a field, not a warning
    assert "1 entry is not embedded yet" in waiting.stderr
    assert data["results"][0]["summary"] == "PostgreSQL selected over SQLite"  # by its words
    assert seeded.json("index")["embedded"] == 1
    ready = seeded("search", "postgresql jsonb", "--mode", "hybrid", "--format", "json")
    assert json.loads(ready.stdout)["not_embedded"] == 0 and ready.stderr == ""
    assert json.loads(ready.stdout)["results"][0]["summary"] == "PostgreSQL selected over SQLite"


def test_inline_background_embeds_everything_before_answering(seeded: Cli) -> None:
    config = seeded.root / ".loa.config.yaml"  # no time at all for embedding, but the tests' setting is inline:
    config.write_text(config.read_text().replace("  retrieval:\n", "  retrieval:\n    eager_embed_seconds: 0\n"))
    assert seeded.json("search", "postgresql jsonb", "--mode", "hybrid")["not_embedded"] == 0
    assert seeded.json("index")["embedded"] == 0


def test_embed_some_embeds_a_few_missing_vectors_at_a_time(seeded: Cli) -> None:
    from loa_memory.search.embed import select_embedder
    from loa_memory.search.retriever import embed_some
    from loa_memory.store import load_config

    config = load_config(seeded.root)
    seconds = 3.5 / select_embedder().embedder.entries_per_second  # 3 of the 4 entries
    assert [embed_some(config, seconds), embed_some(config, seconds), embed_some(config, 0)] == [1, 0, 0]
    assert seeded.json("index")["embedded"] == 0


def test_deferred_embedding_embeds_little_before_answering(seeded: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    from loa_memory.search import retriever

    monkeypatch.setenv("LOA_MEMORY_BACKGROUND", "off")
    rate = _model_ready()
    monkeypatch.setattr(retriever, "DEFERRED_EAGER_SECONDS", 1.5 / rate)  # 1 entry per command; the budget 1 s
    with retriever.deferred_embedding():
        assert seeded.json("search", "jsonb")["not_embedded"] == 3
    hook = seeded("recall", "--hook-input", "--format", "json", input='{"prompt": "which database has jsonb"}')
    assert json.loads(hook.stdout)["not_embedded"] == 2  # a hook defers
    assert seeded.json("search", "jsonb")["not_embedded"] == 0  # and only while it runs
