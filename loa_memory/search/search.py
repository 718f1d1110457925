"""``search``: lexical (Whoosh BM25F) and semantic (embeddings sidecar) retrieval, fused and weighted.

By default only current knowledge is returned: archived, expired and ineffective entries are left
out, and a superseded entry that matches stands aside for its current successor. With ``history``
everything is returned, and a replaced entry always ranks below the entry that replaced it.
"""

from __future__ import annotations

import contextlib
import heapq
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from loa_memory.errors import UsageError
from loa_memory.model import Entry
from loa_memory.search.index import FullTextIndex
from loa_memory.search.rank import Fused, Weights, fuse, max_factor, tier, weigh
from loa_memory.store.cache import memo
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire, load_grimoire
from loa_memory.store.times import now_utc

if TYPE_CHECKING:
    from loa_memory.search.embed import Embedder

Mode = Literal["hybrid", "lexical", "semantic"]
EAGER_EMBED_SECONDS = 240  # missing vectors embedded before answering, if the embedder can do them in this time
# (retrieval.eager_embed_seconds); more are embedded by `loa-memory index` or, between requests, by the warm
# server, and search meanwhile finds those entries by words
DEFERRED_EAGER_SECONDS = 5.0  # the same where answering fast matters more (the warm server, agent hooks)
_TEXT_HASHES = "text-hashes-1"  # bump when embedding_text changes


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
    unembedded: int = 0
    seconds: float = 0.0


def weights_from(config: Config, category: dict[str, float] | None = None) -> Weights:
    retrieval = config.section("retrieval")
    return Weights(recency_weight=float(retrieval.get("recency_weight", 0.1)),
                   episodic_half_life_days=float(retrieval.get("episodic_half_life_days", 14)),
                   category=category or {})


_deferred = False


@contextlib.contextmanager
def deferred_embedding() -> Iterator[None]:
    """Within it, commands embed before answering only what takes up to DEFERRED_EAGER_SECONDS and leave the
    rest to the warm server, which embeds between requests: for the server itself, and for agent hooks (a
    hook must answer within the agent's time limit; the client starts a server after it)."""
    global _deferred
    saved, _deferred = _deferred, True
    try:
        yield
    finally:
        _deferred = saved


def eager_limit(embedder: Embedder, seconds: float | None = None) -> int:
    """How many missing vectors a command embeds before answering: ``seconds`` (default EAGER_EMBED_SECONDS)
    of the embedder's work (about 2,600 entries for MiniLM, 600 for MPNet)."""
    return int((EAGER_EMBED_SECONDS if seconds is None else seconds) * embedder.entries_per_second)


class Retriever:
    """Keys ↔ entries, the index and the sidecar of one loaded grimoire."""

    def __init__(self, config: Config, grimoire: Grimoire,
                 progress: Callable[[int, int], None] | None = None) -> None:
        self.config = config
        self.grimoire = grimoire
        self.entries: dict[str, Entry] = grimoire.keyed
        self.index = FullTextIndex(config)
        self.progress = progress
        self.warnings: list[str] = []
        self.embedded_now = 0
        self.unembedded = 0
        self._sidecar: Any = None
        self._queries: dict[str, Any] = {}
        self.is_fallback = False

    def lexical(self, text: str, limit: int) -> list[tuple[str, float, float]]:
        self.index.refresh(self.grimoire)
        return [hit for hit in self.index.search(text, limit, self.grimoire.worlds) if hit[0] in self.entries]

    def semantic(self, text: str, *, limit: int | None = None, also: Sequence[str] = ()) -> list[tuple[str, float]]:
        """(key, cosine) of the ``limit`` nearest entries (default: all with a vector), best first,
        followed by those of ``also`` (the lexical hits, whose cosine fusion needs) not among them."""
        from loa_memory.search.embed.sidecar import top_k

        sidecar = self.sidecar()
        hash_of = self._text_hashes()
        keys, rows, position, missing = self._view(hash_of)
        seconds = self.config.section("retrieval").get("eager_embed_seconds", EAGER_EMBED_SECONDS)
        if _deferred:
            seconds = min(seconds, DEFERRED_EAGER_SECONDS)
        if missing and len(missing) <= eager_limit(sidecar.embedder, seconds):
            self.embedded_now = sidecar.ensure(missing.items(), progress=self.progress)
            keys, rows, position, missing = self._view(hash_of)
        elif missing:
            self.unembedded = len(missing)
            self.warnings.append(f"{len(missing)} entries have no vectors yet and are found by words only; "
                                 "run `loa-memory index` once to embed them (the warm server also embeds them "
                                 "between requests)")
        if not keys:
            return []  # nothing to compare with: the model is not even loaded
        scores = sidecar.scores(self.vectors([text])[0])[rows]
        top = top_k(scores, limit or len(keys))
        nearest = [(keys[i], float(scores[i])) for i in top]
        chosen = set(top.tolist())
        return nearest + [(key, float(scores[i])) for key in dict.fromkeys(also)
                          if (i := position.get(key, -1)) >= 0 and i not in chosen]

    def _view(self, hash_of: dict[str, str]) -> tuple[list[str], Any, dict[str, int], dict[str, str]]:
        """The keys that have a vector, their rows in the sidecar, each key's place in that list, and the
        embedding texts (by hash) of those without one; kept with the grimoire until the sidecar changes."""
        from loa_memory.search.embed import embedding_text, text_hash

        sidecar = self.sidecar()
        slot = ("vectors", str(sidecar.dir), sidecar.stamp)
        if slot not in self.grimoire.derived:
            every = list(hash_of)
            all_rows = sidecar.rows([hash_of[key] for key in every])
            keys: list[str] = []
            missing: dict[str, str] = {}
            for key, row in zip(every, all_rows.tolist(), strict=True):
                if row >= 0:
                    keys.append(key)
                else:  # hashed afresh: a remembered hash that was never stored may be out of date
                    text = embedding_text(self.entries[key])
                    hash_of[key] = text_hash(text)
                    missing[hash_of[key]] = text
            position = {key: n for n, key in enumerate(keys)}
            self.grimoire.derived[slot] = (keys, all_rows[all_rows >= 0], position, missing)
        return self.grimoire.derived[slot]  # type: ignore[no-any-return]

    def _text_hashes(self) -> dict[str, str]:
        """Each entry's embedding-text hash, by key (kept with the grimoire).

        An index key ends in its item's content hash, and an entry's embedding text depends on that
        content only, so the hash is remembered per item (``.loa/cache/text-hashes``): building the
        text of every entry on every query is most of a hybrid search's cost at 10k entries.
        """
        if "text-hashes" in self.grimoire.derived:
            return self.grimoire.derived["text-hashes"]  # type: ignore[no-any-return]
        from loa_memory.search.embed import embedding_text, text_hash
        from loa_memory.store.cache.disk import read_cache, write_cache

        path = self.config.local_dir / "cache" / "text-hashes"
        cached = read_cache(path)
        known: dict[str, str] = cached[1] if isinstance(cached, tuple) and cached[0] == _TEXT_HASHES else {}
        hash_of: dict[str, str] = {}
        learned = 0
        for key, entry in self.entries.items():
            item = key.rpartition("#")[2]
            digest = known.get(item)
            if digest is None:
                digest = text_hash(embedding_text(entry))
                if len(item) == 32:
                    known[item] = digest
                    learned += 1
            hash_of[key] = digest
        if learned:
            if len(known) > 2 * len(self.entries):  # forget items edited or deleted long ago
                current = {key.rpartition("#")[2] for key in self.entries}
                known = {item: digest for item, digest in known.items() if item in current}
            write_cache(path, (_TEXT_HASHES, known))
        self.grimoire.derived["text-hashes"] = hash_of
        return hash_of

    def sidecar(self) -> Any:
        """The embeddings sidecar of the configured embedder (the fallback, with a warning, if missing)."""
        if self._sidecar is None:
            from loa_memory.search.embed import Sidecar, select_embedder

            choice = select_embedder(self.config.section("retrieval").get("embedder"))
            if choice.warning:
                self.warnings.append(choice.warning)
            self.is_fallback = choice.is_fallback
            root = self.config.local_dir / "embeddings"
            self._sidecar = memo.reuse(("sidecar", str(root), choice.embedder.name), tuple,
                                       lambda: Sidecar(root, choice.embedder))  # it notices its own changes
        return self._sidecar

    def vectors(self, texts: Sequence[str], *, cache: bool = False) -> Any:
        """Unit vectors of ``texts`` (cached in the sidecar when ``cache``: short cue texts, not queries)."""
        sidecar = self.sidecar()
        if not cache:
            if len(texts) != 1:
                return sidecar.embedder.embed(list(texts))
            if texts[0] not in self._queries:  # recall asks for one task's vector several times
                self._queries[texts[0]] = sidecar.embedder.embed(list(texts))
            return self._queries[texts[0]]
        from loa_memory.search.embed import text_hash

        hashes = [text_hash(t) for t in texts]
        sidecar.ensure(zip(hashes, texts, strict=True))
        return sidecar.matrix(hashes)


def warm_up(config: Config) -> None:
    """Load what a search needs (grimoire, index, vectors, the embedding model) without embedding anything:
    long-lived processes call it before their first request."""
    retriever = Retriever(config, load_grimoire(config))
    retriever.lexical("warm up", 1)
    retriever.vectors(["warm up"])
    retriever._view(retriever._text_hashes())


def embed_some(config: Config, seconds: float) -> int:
    """Embed as many of the entries that have no vector yet as the embedder does in about ``seconds`` (at least
    one); how many are still missing after that.

    The warm server calls it between requests, so a grimoire too large to embed before answering catches up
    in the background, a little at a time (each batch is committed to the sidecar at once).
    """
    retriever = Retriever(config, load_grimoire(config))
    sidecar = retriever.sidecar()
    missing = retriever._view(retriever._text_hashes())[3]
    limit = max(1, eager_limit(sidecar.embedder, seconds))
    if missing:
        sidecar.ensure(list(missing.items())[:limit])
    return max(len(missing) - limit, 0)


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
    if not options.query.strip():
        raise UsageError("the query is empty", hint='e.g. loa-memory search "why postgres"')
    config = retriever.config
    mode: Mode = options.mode or config.section("retrieval").get("mode", "hybrid")
    weights = weights or weights_from(config)
    moment = now or now_utc()
    pool = max(50, options.k * 10)
    lexical = retriever.lexical(options.query, pool) if mode != "semantic" else []
    semantic = retriever.semantic(options.query, limit=max(300, options.k * 30),
                                  also=[key for key, _, _ in lexical]) if mode != "lexical" else []
    fused = fuse(lexical, semantic, weights)
    minimum = options.min_confidence if options.min_confidence is not None else \
        float(config.section("retrieval").get("min_confidence", 0.0))
    hits = _select(retriever.grimoire, retriever.entries, fused, options, minimum, weights, moment)
    return SearchResult(hits[: options.k], mode, retriever.warnings, retriever.embedded_now,
                        retriever.unembedded, time.perf_counter() - started)


def _select(grimoire: Grimoire, entries: dict[str, Entry], fused: list[Fused], options: SearchOptions,
            minimum: float, weights: Weights, now: datetime) -> list[Hit]:
    hide_after = int(grimoire.config.section("lifecycle").get("ineffective_min_applications", 5))
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
    """Ineffective after enough applications to be sure (one unanswered application proves nothing)."""
    eff = entry.data.get("effectiveness")
    applications = int(eff.get("applications") or 0) if isinstance(eff, dict) else 0
    return tier(entry) == "ineffective" and applications >= min_applications


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
    """With history shown, a replaced entry never ranks above the entry that replaced it."""
    position = {h.entry.id: n for n, h in enumerate(ranked)}
    result = list(ranked)
    for hit in result:  # grows while we walk it: a whole chain gets pulled in
        successor = grimoire.superseder(hit.entry)
        if successor is None:
            continue
        if successor.id not in position:
            if grimoire.key_of(successor) is None:
                continue
            result.append(Hit(successor, grimoire.status(successor, now), hit.score * 1.0001, hit.fused,
                              dict(hit.factors), [hit.entry.id]))
            position[successor.id] = len(result) - 1
    changed = True
    guard = 0
    while changed and guard < 50:
        changed = False
        guard += 1
        result.sort(key=lambda h: (-h.score, h.entry.id))
        order = {h.entry.id: n for n, h in enumerate(result)}
        for hit in result:
            successor = grimoire.superseder(hit.entry)
            if successor is not None and successor.id in order and order[successor.id] > order[hit.entry.id]:
                better = result[order[successor.id]]
                better.score, hit.score = max(better.score, hit.score) * 1.0001, min(better.score, hit.score)
                changed = True
    result.sort(key=lambda h: (-h.score, h.entry.id))
    return result


def max_per_query(config: Config, k: int | None = None) -> int:
    """``k``, else ``retrieval.max_per_query`` (10)."""
    return k or int(config.section("retrieval").get("max_per_query", 10))


def search_record(config: Config, query: str, result: SearchResult, explain: bool = False) -> dict[str, Any]:
    """The stable JSON shape of ``search``."""
    return {"query": query, "mode": result.mode, "results": [hit_record(h, explain) for h in result.hits],
            "warnings": result.warnings, "multiple_worlds": len(config.worlds) > 1}


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
