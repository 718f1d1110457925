"""``search``: lexical (Whoosh BM25F) and semantic (embeddings sidecar) retrieval, fused and weighted.

By default only current knowledge is returned: archived, expired and ineffective entries are left
out, and a superseded entry that matches stands aside for its current successor. With ``history``
everything is returned, and a replaced entry always ranks below the entry that replaced it.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from loa_memory.errors import UsageError
from loa_memory.model import Entry, Finding
from loa_memory.render.problems import problem_records
from loa_memory.search.rank import Fused, Weights, fuse, max_factor, weigh
from loa_memory.search.retriever import Retriever
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire, load_grimoire
from loa_memory.store.settings import Mode
from loa_memory.store.times import now_utc

if TYPE_CHECKING:
    pass

# what a query (search, recall's task, a why question) may hold: far more than anyone types, far less than
# what would make one query cost seconds (every word is a term in every field)
MAX_QUERY_CHARS = 20_000


def check_query(text: str, what: str = "the query") -> str:
    """``text``, or a ``UsageError`` when it is longer than ``MAX_QUERY_CHARS``."""
    if len(text) > MAX_QUERY_CHARS:
        raise UsageError(f"{what} is {len(text):,} characters long; at most {MAX_QUERY_CHARS:,} are accepted",
                         hint="shorten it to the words that matter (a title, the error line, the file)")
    return text



@dataclass(frozen=True)
class SearchOptions:
    query: str
    k: int = 10
    categories: Sequence[str] = ()
    tags: Sequence[str] = ()
    worlds: Sequence[str] = ()
    history: bool = False
    mode: Mode | None = None
    min_confidence: float | None = None
    min_relevance: float = 0.0  # see RELEVANCE_FLOOR; 0 keeps every candidate (recall ranks its own way)


# What `search` shows a person: an entry that shares a word with the query, or whose meaning is at least this
# close (cosine). Unrelated sentences sit around 0 to 0.15 with the shipped models; without a floor a query
# about anything lists the whole grimoire, ranked by noise.
RELEVANCE_FLOOR = 0.2


def is_relevant(candidate: Fused, floor: float) -> bool:
    """The candidate matched a word of the query, or its cosine reaches ``floor``."""
    return candidate.lexical_rank is not None or (candidate.semantic_score or 0.0) >= floor


@dataclass
class Hit:
    entry: Entry
    status: str
    score: float
    fused: Fused
    factors: dict[str, float] = field(default_factory=dict)
    via: list[str] = field(default_factory=list)  # superseded entries whose match this hit stands in for


@dataclass
class SearchResult:
    hits: list[Hit]
    mode: str
    warnings: list[str] = field(default_factory=list)
    embedded_now: int = 0
    unembedded: int = 0  # entries found by words only: no vector yet (being embedded in the background)
    seconds: float = 0.0
    problems: list[Finding] = field(default_factory=list)  # files skipped because they do not parse


def weights_from(config: Config, category: dict[str, float] | None = None) -> Weights:
    retrieval = config.retrieval
    return Weights(recency_weight=float(retrieval.recency_weight),
                   episodic_half_life_days=float(retrieval.episodic_half_life_days),
                   category=category or {})


def _eligible(entry: Entry, options: SearchOptions, min_confidence: float) -> bool:
    if options.categories and entry.category not in options.categories:
        return False
    if options.tags and not set(options.tags) <= set(entry.tags):
        return False
    if options.worlds and entry.world not in options.worlds:
        return False
    return entry.confidence >= min_confidence or "confidence" not in entry.data


def search(config: Config, options: SearchOptions, *, grimoire: Grimoire | None = None,
           weights: Weights | None = None, now: datetime | None = None,
           progress: Callable[[int, int], None] | None = None) -> SearchResult:
    """Rank the grimoire's entries for ``options.query``."""
    grimoire = grimoire or load_grimoire(config, options.worlds or None)
    return run(Retriever(config, grimoire, progress), options, weights=weights, now=now)


def run(retriever: Retriever, options: SearchOptions, *, weights: Weights | None = None,
        now: datetime | None = None) -> SearchResult:
    """``search`` on an already open retriever (recall reuses it for its cue checks)."""
    started = time.perf_counter()
    check_query(options.query)
    if not options.query.strip():
        raise UsageError("the query is empty", hint='e.g. loa-memory search "why postgres"')
    config = retriever.config
    mode: Mode = options.mode or config.retrieval.mode
    weights = weights or weights_from(config)
    moment = now or now_utc()
    pool = max(50, options.k * 10)
    lexical = retriever.lexical(options.query, pool) if mode != "semantic" else []
    semantic = retriever.semantic(options.query, limit=max(300, options.k * 30),
                                  also=[key for key, _, _ in lexical]) if mode != "lexical" else []
    fused = fuse(lexical, semantic, weights)
    if options.min_relevance:
        fused = [candidate for candidate in fused if is_relevant(candidate, options.min_relevance)]
    minimum = options.min_confidence if options.min_confidence is not None else \
        float(config.retrieval.min_confidence)
    hits = _select(retriever.grimoire, retriever.entries, fused, options, minimum, weights, moment)
    return SearchResult(hits[: options.k], mode, retriever.warnings, retriever.embedded_now,
                        retriever.unembedded, time.perf_counter() - started, retriever.grimoire.unreadable)


def _select(grimoire: Grimoire, entries: dict[str, Entry], fused: list[Fused], options: SearchOptions,
            minimum: float, weights: Weights, now: datetime) -> list[Hit]:
    hide_after = int(grimoire.config.lifecycle.ineffective_min_applications)
    hits: dict[str, Hit] = {}
    # fused is best first, so once the k-th best score is out of a candidate's reach, it is out of every
    # later one's. Not with history: swapping a replaced entry below its successor can free a place.
    bound = 0.0 if options.history else max_factor(weights)
    for number, candidate in enumerate(fused):
        if bound and number % 32 == 31 and _kth_score(hits, options, minimum) > candidate.score * bound:
            break
        entry = entries[candidate.key]
        status = grimoire.status(entry, now)
        if not options.history:
            if status == "superseded":
                current = _current(grimoire, entry)
                if current is None:
                    continue
                target_key = grimoire.key_of(current)
                if target_key is None:
                    continue
                score, factors = weigh(candidate, current, weights, now)
                existing = hits.get(target_key)
                if existing is None or existing.score < score:
                    via = (existing.via if existing else []) + [entry.id]
                    hits[target_key] = Hit(current, "active", score, candidate, factors, via)
                elif entry.id not in existing.via:
                    existing.via.append(entry.id)
                continue
            if status in ("archived", "expired") or _proven_ineffective(entry, hide_after):
                continue
        if not _eligible(entry, options, minimum):
            continue
        score, factors = weigh(candidate, entry, weights, now)
        if candidate.key not in hits or hits[candidate.key].score < score:
            hits[candidate.key] = Hit(entry, status, score, candidate, factors,
                                      hits[candidate.key].via if candidate.key in hits else [])
    ranked = sorted(hits.values(), key=lambda h: (-h.score, h.entry.id))
    if options.history:
        ranked = _successors_first(grimoire, ranked, now)
    return [h for h in ranked if _eligible(h.entry, options, minimum)]


def _kth_score(hits: dict[str, Hit], options: SearchOptions, minimum: float) -> float:
    """The k-th best score among the hits that will be shown (0 while there are fewer than k)."""
    scores = [h.score for h in hits.values() if _eligible(h.entry, options, minimum)]
    return heapq.nlargest(options.k, scores)[-1] if len(scores) >= options.k else 0.0


def _proven_ineffective(entry: Entry, min_applications: int) -> bool:
    return entry.effectiveness.proven_ineffective(min_applications)


def _current(grimoire: Grimoire, entry: Entry) -> Entry | None:
    """The end of ``entry``'s supersede chain (None if the chain loops or ends in nothing)."""
    seen = {entry.id}
    current = entry
    while (nxt := grimoire.superseder(current)) is not None:
        if nxt.id in seen:
            return None
        seen.add(nxt.id)
        current = nxt
    return current if current is not entry else None


def _successors_first(grimoire: Grimoire, ranked: list[Hit], now: datetime) -> list[Hit]:
    """With history shown, a replaced entry never ranks above the entry that replaced it (nor above any later
    entry of its chain; a consolidation, ``supersedes: [MEM-a, MEM-b]``, ranks above each entry it replaced).
    A successor that did not match is shown just above the replaced entry; when a replaced entry outscores its
    successor, the two swap scores."""
    position = {h.entry.id: n for n, h in enumerate(ranked)}
    result = list(ranked)
    for hit in result:  # grows while we walk it: a whole chain gets pulled in
        successor = grimoire.superseder(hit.entry)
        if successor is None:
            continue
        if successor.id not in position:
            if grimoire.key_of(successor) is None:
                continue
            result.append(Hit(successor, grimoire.status(successor, now), _just_above(hit.score), hit.fused,
                              dict(hit.factors), [hit.entry.id]))
            position[successor.id] = len(result) - 1
    changed = True
    guard = 0
    while changed and guard < len(result) + 1:  # a chain of n entries settles in n passes
        changed = False
        guard += 1
        result.sort(key=lambda h: (-h.score, h.entry.id))
        order = {h.entry.id: n for n, h in enumerate(result)}
        for hit in result:
            successor = grimoire.superseder(hit.entry)
            if successor is not None and successor.id in order and order[successor.id] > order[hit.entry.id]:
                better = result[order[successor.id]]
                better.score, hit.score = _just_above(max(better.score, hit.score)), min(better.score, hit.score)
                changed = True
    result.sort(key=lambda h: (-h.score, h.entry.id))
    return result


def _just_above(score: float) -> float:
    """A score that sorts strictly above ``score`` (``score * 1.0001`` does not when it is 0)."""
    return score * 1.0001 + 1e-9


def max_per_query(config: Config, k: int | None = None) -> int:
    """``k``, else ``retrieval.max_per_query`` (10)."""
    return k or int(config.retrieval.max_per_query)


def search_record(config: Config, query: str, result: SearchResult, explain: bool = False) -> dict[str, Any]:
    """The stable JSON shape of ``search``."""
    return {"query": query, "mode": result.mode, "results": [hit_record(h, explain) for h in result.hits],
            "warnings": result.warnings, "multiple_worlds": len(config.worlds) > 1,
            "problems": problem_records(result.problems), "not_embedded": result.unembedded}


def hit_record(hit: Hit, explain: bool = False) -> dict[str, Any]:
    """The stable JSON shape of one search result."""
    from loa_memory.model import headline

    record: dict[str, Any] = {
        "id": hit.entry.id, "category": hit.entry.category, "world": hit.entry.world, "status": hit.status,
        "score": round(hit.score, 6), "path": hit.entry.path, "line": hit.entry.line,
        "summary": headline(hit.entry), "entry": dict(hit.entry.data),
    }
    if hit.via:
        record["stands_in_for"] = hit.via
    if explain:
        record["explain"] = {
            "fused": round(hit.fused.score, 6),
            "lexical": {"rank": hit.fused.lexical_rank, "score": hit.fused.lexical_score,
                        "coverage": hit.fused.coverage},
            "semantic": {"rank": hit.fused.semantic_rank, "score": hit.fused.semantic_score},
            "factors": {k: round(v, 4) for k, v in hit.factors.items()},
        }
    return record
