"""A replaced entry never ranks above an entry that replaces it, in any mode, with chains and consolidations
(``supersedes: [MEM-a, MEM-b]``); without ``--history`` no replaced entry is shown at all."""

from __future__ import annotations

import itertools
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loa_memory.search.search import SearchOptions, search
from loa_memory.store import load_config, yamlio
from tests.fixtures import MEMDIR

WORDS = ["cache", "queue", "postgres", "deploy", "retry", "timeout", "schema", "index"]
NOW = datetime(2026, 6, 1, tzinfo=UTC)
_STAMPS = itertools.count(1_700_000_000_000_000_000, 1_000_000_000)


@st.composite
def grimoires(draw: Any) -> tuple[list[dict[str, Any]], str]:
    """Entries with random words and random supersede links: each entry may replace one or several earlier
    entries that nothing replaced yet (chains and consolidations, no forks), in either Loa's one-id form or a
    list; the query is a few of the words."""
    count = draw(st.integers(2, 9))
    entries: list[dict[str, Any]] = []
    free: list[int] = []
    for n in range(count):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5))
        data: dict[str, Any] = {
            "id": f"MEM-20260101-{n + 1:03d}",
            "category": "fact",
            "summary": f"note {n} " + " ".join(words),
            "content": " ".join(words) + f" (entry {n})",
            "confidence": draw(st.sampled_from([0.8, 0.9, 1.0])),
            "source": {"session_id": "s1", "timestamp": f"2026-01-{n + 1:02d}T10:00:00Z"},
            "ttl": "permanent",
        }
        if free:
            replaced = draw(st.lists(st.sampled_from(free), max_size=3, unique=True))
            if replaced:
                ids = [entries[i]["id"] for i in replaced]
                data["supersedes"] = ids[0] if len(ids) == 1 and draw(st.booleans()) else ids
                for i in replaced:
                    if draw(st.booleans()):  # the back-link is optional: either side makes the link
                        entries[i]["superseded_by"] = data["id"]
                    free.remove(i)
        free.append(n)
        entries.append(data)
    query = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)))
    return entries, query


def _write(root: Path, entries: list[dict[str, Any]]) -> None:
    shutil.rmtree(root / ".loa" / "index", ignore_errors=True)  # each example starts from a fresh index
    path = root / MEMDIR / "facts.yaml"
    path.write_text("".join(yamlio.dump_item(e) for e in entries))
    stamp = next(_STAMPS)  # caches trust a file's size and mtime: examples follow each other within one tick
    os.utime(path, ns=(stamp, stamp))


@pytest.fixture
def hashed(grimoire: Path) -> Path:
    config = grimoire / ".loa.config.yaml"
    config.write_text(config.read_text("utf-8").replace("  retrieval:\n", "  retrieval:\n    embedder: hashing\n"))
    return grimoire


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=grimoires())
def test_replaced_entries_rank_below_every_entry_that_replaces_them(
    hashed: Path, case: tuple[list[dict[str, Any]], str]
) -> None:
    entries, query = case
    _write(hashed, entries)
    config = load_config(hashed)
    successor = {}  # from the written data, not from the code under test
    for data in entries:
        replaced = data.get("supersedes") or []
        for old in [replaced] if isinstance(replaced, str) else replaced:
            successor[old] = data["id"]
    for mode, history, k in itertools.product(("lexical", "semantic", "hybrid"), (True, False), (3, 10)):
        result = search(config, SearchOptions(query, k=k, history=history, mode=mode), now=NOW)  # type: ignore[arg-type]
        shown = [hit.entry.id for hit in result.hits]
        assert len(shown) == len(set(shown))
        assert shown or mode == "lexical"  # the semantic side ranks every entry
        for place, memory_id in enumerate(shown):
            if not history:
                assert memory_id not in successor, (mode, query, shown, memory_id)
            later = successor.get(memory_id)
            while later is not None:  # every entry that replaces it, directly or not
                if later in shown:
                    assert shown.index(later) < place, (mode, history, query, shown, memory_id, later)
                later = successor.get(later)
