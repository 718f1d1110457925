"""Plain SQLite FTS5 over the same text fields as the lexical index: the baseline the lexical mode must match.

One FTS5 table (columns: the fields of ``loa_memory.search.index.document``), default ``bm25()`` with every
column weighted 1, the query's words ORed (a prose query ANDed would match almost nothing). Two tokenizers:
``porter`` (``porter unicode61``: stems) and plain ``unicode61``. No synonyms, no field boosts, no coverage.
Used by benchmarks/retrieval_quality.py (``--modes fts5-porter fts5-unicode61``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable

from loa_memory.model import Entry
from loa_memory.search.index import document

COLUMNS = ("summary", "content", "tags", "cue", "decision", "extra", "artifacts")
TOKENIZERS = {"fts5-porter": "porter unicode61", "fts5-unicode61": "unicode61"}


def build(entries: Iterable[Entry], tokenizer: str) -> Callable[[str, int], list[str]]:
    """An in-memory FTS5 table of ``entries``; returns ``rank(query, k)`` → the best ``k`` ids, best first."""
    db = sqlite3.connect(":memory:")
    db.execute(
        f"CREATE VIRTUAL TABLE memories USING fts5(id UNINDEXED, {', '.join(COLUMNS)}, tokenize = '{tokenizer}')"
    )
    rows = []
    for entry in entries:
        doc = document("", entry)
        rows.append((entry.id, *(doc[column] for column in COLUMNS)))
    db.executemany(f"INSERT INTO memories VALUES ({', '.join('?' * (len(COLUMNS) + 1))})", rows)

    def rank(query: str, k: int) -> list[str]:
        words = dict.fromkeys(w.lower() for w in re.findall(r"\w+", query))
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        found = db.execute("SELECT id FROM memories WHERE memories MATCH ? ORDER BY bm25(memories) LIMIT ?", (match, k))
        return [row[0] for row in found]

    return rank
