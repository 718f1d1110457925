"""Real-shaped memory texts for the checks and benchmarks: what the project embeds for each entry.

Texts come from the retrieval benchmark's memories and the project's own grimoire, passed through
the project's ``embedding_text`` so they are exactly what an embedder is given.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from loa_memory.model import Entry
from loa_memory.search.embed.text import embedding_text

MAIN = Path("/work/main")
MEMORIES = MAIN / "benchmarks" / "data" / "retrieval" / "memories.jsonl"
QUERIES = MAIN / "benchmarks" / "data" / "retrieval" / "queries.jsonl"
GRIMOIRE = MAIN / "grimoires" / "loa" / "memory"


def memory_texts() -> list[str]:
    """Every benchmark memory, then every grimoire entry, as embedding text."""
    entries = [Entry(json.loads(line), "bench", str(MEMORIES), n)
               for n, line in enumerate(MEMORIES.read_text(encoding="utf-8").splitlines()) if line.strip()]
    for path in sorted(GRIMOIRE.rglob("*.yaml")):
        items = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(items, list):
            entries.extend(Entry(item, "grimoire", str(path), 0) for item in items if isinstance(item, dict))
    return [embedding_text(e) for e in entries]


FROZEN = Path(__file__).resolve().parent / "sample.json"


def sample(count: int = 300, target_bytes: int = 700) -> list[str]:
    """``count`` texts whose byte lengths are closest to ``target_bytes`` (real shapes, ~700 bytes each).

    The first call writes them to ``sample.json`` and later calls read that: the grimoire is live
    (other work edits it), and reference vectors must stay aligned with their texts across runs.
    """
    if FROZEN.is_file():
        frozen: list[str] = json.loads(FROZEN.read_text(encoding="utf-8"))
        return frozen[:count]
    texts = memory_texts()
    texts.sort(key=lambda t: (abs(len(t.encode("utf-8")) - target_bytes), t))
    FROZEN.write_text(json.dumps(texts[:count], ensure_ascii=False, indent=0), encoding="utf-8")
    return texts[:count]


def queries(count: int = 50) -> list[str]:
    """The first ``count`` retrieval benchmark queries."""
    rows = [json.loads(line) for line in QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [str(r["query"]) for r in rows[:count]]
