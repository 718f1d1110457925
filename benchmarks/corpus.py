"""Synthetic but realistic-sized grimoires for speed benchmarks (~780-byte entries, like real ones)."""

from __future__ import annotations

import random
from pathlib import Path

from loa_memory.store import yamlio

WORDS = tuple("""
    database migration index column table schema query cache latency timeout retry queue worker
    deploy rollback feature flag config secret token auth session cookie header request response
    endpoint version client server container cluster node replica shard partition backup restore
    monitor alert metric log trace error exception stack failure incident outage review test
    fixture mock integration pipeline build artifact release branch merge commit rebase conflict
    module package dependency upgrade pin lock file format parser encoder decoder stream buffer
    memory
""".split())


_SYLLABLES = ("ka", "lo", "mi", "ner", "sto", "val", "quo", "tri", "ban", "del", "fi", "gor", "hu", "jax", "ko",
              "lum", "mas", "nix", "or", "pel", "ru", "sen", "tov", "ul", "ver", "wim", "xan", "yel", "zor", "ash")
# a vocabulary with a long tail, like real project text: common technical words plus ~27,000 rarer terms
# (identifiers, product and component names), drawn with a Zipf-like skew
VOCABULARY = WORDS + tuple(a + b + c for a in _SYLLABLES for b in _SYLLABLES for c in _SYLLABLES)
_WEIGHTS = [1.0 / (rank + 1) ** 0.8 for rank in range(len(VOCABULARY))]


def entry(n: int, rng: random.Random, category: str = "fact") -> dict[str, object]:
    words = rng.choices(VOCABULARY, weights=_WEIGHTS, k=95)
    return {
        "id": f"MEM-{20200101 + (n // 900) % 28 + (n // 25200) * 100:08d}-{n % 900 + 1:03d}",
        "category": category,
        "summary": " ".join(words[:9]).capitalize(),
        "content": " ".join(words[9:]).capitalize() + ".",
        "confidence": 0.9,
        "source": {"session_id": f"bench-{n % 50}", "agent": "benchmark",
                   "timestamp": f"2026-0{1 + n % 9}-1{n % 10}T10:00:00Z"},
        "ttl": "permanent",
        "tags": sorted({rng.choice(WORDS) for _ in range(3)}),
    }


def write_list_file(path: Path, count: int, category: str = "fact", seed: int = 7, start: int = 0) -> None:
    """A list file of ``count`` entries with unique ids (numbered from ``start``: files written with
    disjoint ranges have disjoint ids)."""
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        handle.write(f"# {count} generated {category} entries\n")
        for n in range(start, start + count):
            handle.write(yamlio.dump_item(entry(n, rng, category)))
