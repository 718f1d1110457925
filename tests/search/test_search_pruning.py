"""Search stops weighing candidates that cannot reach the top k, and remembers embedding-text hashes:
both must leave results exactly as a full evaluation gives them."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from loa_memory.search.search import SearchOptions, search
from loa_memory.store import load_config, yamlio
from tests.fixtures import MEMDIR

WORDS = ("database migration index column cache latency timeout retry queue worker deploy rollback flag "
         "token session header request endpoint client server cluster replica shard backup restore alert "
         "metric trace incident outage fixture pipeline release branch merge parser encoder buffer").split()
CATEGORIES = (("facts.yaml", "fact", 0.9), ("decisions.yaml", "decision", 0.95),
              ("learnings.yaml", "learning", 0.8), ("corrections.yaml", "correction", 0.9))
QUERIES = ("database migration rollback", "cache latency", "retry the queue worker after a timeout",
           "release branch merge", "why did the deploy fail", "restore a backup of the cluster")


def _seed(root: Path, count: int = 160) -> None:
    rng = random.Random(11)
    items: dict[str, list[str]] = {name: [] for name, _, _ in CATEGORIES}
    ids = []
    for n in range(count):
        name, category, confidence = CATEGORIES[n % len(CATEGORIES)]
        memory_id = f"MEM-2026{1 + n % 9:02d}{10 + n % 18:02d}-{n + 1:03d}"
        data: dict[str, object] = {
            "id": memory_id, "category": category,
            "summary": " ".join(rng.choices(WORDS, k=6)).capitalize(),
            "content": " ".join(rng.choices(WORDS, k=40)).capitalize() + ".",
            "confidence": round(confidence + rng.random() * (1 - confidence), 2),
            "source": {"session_id": "s1", "timestamp": f"2026-{1 + n % 9:02d}-{10 + n % 18:02d}T10:00:00Z"},
            "tags": sorted(set(rng.choices(WORDS, k=2))),
        }
        if category == "correction":
            data["trigger"], data["lesson"] = " ".join(rng.choices(WORDS, k=4)), "check the " + rng.choice(WORDS)
        if n % 10 == 9 and ids:  # some supersede chains, so redirection to successors is exercised
            old = ids[-4]
            data["supersedes"] = old
        ids.append(memory_id)
        items[name].append(yamlio.dump_item(data))
    for name, texts in items.items():
        (root / MEMDIR / name).write_text("".join(texts), "utf-8")
    config = root / ".loa.config.yaml"
    config.write_text(config.read_text("utf-8").replace("  retrieval:\n", "  retrieval:\n    embedder: hashing\n"))


@pytest.mark.parametrize("history", [False, True])
@pytest.mark.parametrize("mode", ["hybrid", "lexical"])
def test_top_k_is_the_prefix_of_a_longer_list(grimoire: Path, mode: str, history: bool) -> None:
    _seed(grimoire)
    config = load_config(grimoire)
    now = datetime(2026, 11, 1, tzinfo=UTC)  # recency depends on the clock
    for query in QUERIES:
        full = search(config, SearchOptions(query, k=160, history=history, mode=mode), now=now)  # type: ignore[arg-type]
        for k in (1, 3, 10):
            short = search(config, SearchOptions(query, k=k, history=history, mode=mode),  # type: ignore[arg-type]
                           now=now)
            assert [h.entry.id for h in short.hits] == [h.entry.id for h in full.hits][:k], (query, k)
            assert [round(h.score, 9) for h in short.hits] == [round(h.score, 9) for h in full.hits][:k]


def test_an_edited_entry_is_embedded_again(grimoire: Path) -> None:
    _seed(grimoire, 40)
    config = load_config(grimoire)
    query = "zebra crossing lighthouse"
    before = search(config, SearchOptions(query, k=3, mode="semantic"))
    path = grimoire / MEMDIR / "facts.yaml"
    text = path.read_text("utf-8")
    first_summary = text.split("summary: ", 1)[1].split("\n", 1)[0]
    path.write_text(text.replace(first_summary, "Zebra crossing lighthouse", 1), "utf-8")
    after = search(load_config(grimoire), SearchOptions(query, k=3, mode="semantic"))
    assert after.hits[0].entry.summary == "Zebra crossing lighthouse"
    assert after.embedded_now == 1 and before.hits[0].entry.summary != "Zebra crossing lighthouse"
