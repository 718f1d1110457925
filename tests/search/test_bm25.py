"""The numpy BM25F evaluator gives Whoosh's own ranking and scores, on indexes of one or several segments, with
deleted documents and a world filter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from whoosh import index as windex
from whoosh import query as wquery

from loa_memory.search import bm25, synonyms
from loa_memory.search.index import _schema, build_query

WORDS = ["deploy", "deploying", "database", "migration", "migrations", "retry", "queue", "timeout", "cache",
         "postgres", "column", "drop", "rollback", "token", "latency", "index", "shard", "replica"]
FIELDS = ("summary", "content", "tags", "cue", "decision", "extra")
text = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)
document = st.fixed_dictionaries({name: text for name in FIELDS} | {"world": st.sampled_from(["loa", "ops"]),
                                                                     "artifacts": st.sampled_from(["", "src/db/x.py"])})


def _build(folder: Path, batches: list[list[dict[str, str]]], deletions: list[int]) -> Any:
    ix = windex.create_in(str(folder), _schema())
    number = 0
    for batch in batches:  # one commit each: several segments
        writer = ix.writer()
        for doc in batch:
            writer.add_document(key=f"k{number}", id=f"mem-{number}", category="fact", **doc)
            number += 1
        writer.commit(merge=False)
    if deletions:
        writer = ix.writer()
        for n in deletions:
            writer.delete_by_term("key", f"k{n % max(number, 1)}")
        writer.commit(merge=False)
    return ix


def _whoosh(searcher: Any, query: Any, limit: int, worlds: list[str] | None) -> list[tuple[str, float]]:
    only = wquery.Or([wquery.Term("world", w) for w in worlds]) if worlds else None
    return [(hit["key"], hit.score) for hit in searcher.search(query, limit=limit, optimize=False, filter=only)]


def _ours(searcher: Any, query: Any, limit: int, worlds: list[str] | None) -> list[tuple[str, float]]:
    scored = bm25.scores(searcher, query.subqueries, worlds)
    assert scored is not None, "the W3 codec's layout was not recognised"
    return [(searcher.stored_fields(doc)["key"], float(scored.score[doc])) for doc in bm25.top(scored, limit)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches=st.lists(st.lists(document, min_size=1, max_size=12), min_size=1, max_size=3),
       deletions=st.lists(st.integers(0, 40), max_size=4), query=text.filter(bool),
       worlds=st.sampled_from([None, ["ops"], ["loa", "ops"]]), limit=st.integers(1, 15))
def test_same_ranking_and_scores_as_whoosh(tmp_path_factory: Any, batches: list[list[dict[str, str]]],
                                           deletions: list[int], query: str, worlds: list[str] | None,
                                           limit: int) -> None:
    ix = _build(tmp_path_factory.mktemp("ix"), batches, deletions)
    parsed = build_query(query + " src/db/x.py", synonyms.table()).query  # synonyms: boosted terms
    with ix.searcher() as searcher:
        theirs = _whoosh(searcher, parsed, limit, worlds)
        ours = _ours(searcher, parsed, limit, worlds)
    assert [key for key, _ in ours] == [key for key, _ in theirs]
    for (_, a), (_, b) in zip(ours, theirs, strict=True):
        assert abs(a - b) <= 1e-9 * max(1.0, abs(b))


def test_words_say_which_query_words_each_document_holds(tmp_path: Path) -> None:
    ix = _build(tmp_path, [[{"summary": "database migration", "content": "", "world": "loa"},
                            {"summary": "retry", "content": "queue timeout", "world": "loa"}]], [])
    with ix.searcher() as searcher:
        scored = bm25.scores(searcher, build_query("database retry timeout").query.subqueries)
        assert scored is not None
        held = [{w for w, mask in scored.words.items() if mask[doc]} for doc in range(2)]
    assert held == [{"databas"}, {"retri", "timeout"}]


def test_ties_keep_whoosh_order_and_every_tie_at_the_cut(tmp_path: Path) -> None:
    same = {"summary": "cache", "content": "", "world": "loa"}
    ix = _build(tmp_path, [[same, same, same, {"summary": "cache cache", "content": "", "world": "loa"}]], [])
    with ix.searcher() as searcher:
        parsed = build_query("cache").query
        ours, theirs = _ours(searcher, parsed, 2, None), _whoosh(searcher, parsed, 2, None)
    assert [key for key, _ in ours] == [key for key, _ in theirs] == ["k3", "k0"]
