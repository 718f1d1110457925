"""The Whoosh full-text index under ``.loa/index/``: BM25F over an entry's fields, refreshed incrementally.

Documents are keyed by ``<file>#<item hash>``: an edited entry gets a new key, so a refresh deletes the
keys that vanished and adds the new ones, and never re-indexes an unchanged entry. A manifest of file
stats makes the common case (nothing changed) a few ``stat`` calls. The index is derived: when it is
missing or unreadable it is rebuilt from the files.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from loa_memory.model import Entry
from loa_memory.search import synonyms
from loa_memory.store.atomic import write_atomic
from loa_memory.store.cache import memo
from loa_memory.store.config import Config
from loa_memory.store.ids import ID_PATTERN
from loa_memory.store.load import Grimoire, MemoryFile
from loa_memory.store.lock import locked

INDEX_VERSION = 3  # 3: no positions (phrase=False): smaller posting blocks, nothing searched by phrase
FIELD_BOOSTS = {"summary": 3.0, "tags": 2.0, "cue": 2.0, "decision": 1.5, "content": 1.0, "extra": 1.0,
                "artifacts": 1.0}
TEXT_FIELDS = ("summary", "content", "tags", "cue", "decision", "extra")
SYNONYM_BOOST = 0.5  # a synonym's BM25 weight, relative to the query's own word
SYNONYM_CREDIT = 0.7  # how much of a query word's coverage a synonym earns
_ID = re.compile(rf"\b{ID_PATTERN}\b", re.I)
# paths and file names in a query; a match starts only where a word starts (the look-behind), so a long run of
# word characters is scanned once, not once per character (quadratic: a 100k-character token took 104 s)
_PATHLIKE = re.compile(r"(?<![\w-])(?:[\w-]+(?:/[\w.-]+)+|[\w-]+\.[a-z]{1,5}\b)")


def _schema() -> Any:
    from whoosh import analysis, fields

    stem = analysis.StemmingAnalyzer()
    paths = analysis.RegexTokenizer(r"[^/\s.:]+") | analysis.LowercaseFilter()

    def text(boost: float) -> Any:
        return fields.TEXT(analyzer=stem, phrase=False, field_boost=boost)

    return fields.Schema(
        key=fields.ID(stored=True, unique=True), id=fields.ID(stored=True), world=fields.ID(stored=True),
        category=fields.ID(stored=True), aliases=fields.KEYWORD(lowercase=True),
        summary=text(FIELD_BOOSTS["summary"]),
        content=text(FIELD_BOOSTS["content"]),
        tags=text(FIELD_BOOSTS["tags"]),
        cue=text(FIELD_BOOSTS["cue"]),
        decision=text(FIELD_BOOSTS["decision"]),
        extra=text(FIELD_BOOSTS["extra"]),
        artifacts=fields.TEXT(analyzer=paths, phrase=False, field_boost=FIELD_BOOSTS["artifacts"]),
    )


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return " ".join(_text(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_text(v) for v in value)
    return "" if value is None else str(value)


def document(key: str, entry: Entry) -> dict[str, str]:
    """The fields of one entry as the index sees them."""
    data = entry.data
    raw_source = data.get("source")
    source: dict[str, Any] = raw_source if isinstance(raw_source, dict) else {}
    artifacts = [*(data.get("artifacts") or []), *([source["file_path"]] if source.get("file_path") else [])]
    return {
        "key": key, "id": entry.id.lower(), "world": entry.world, "category": entry.category,
        "aliases": " ".join(a.lower() for a in entry.aliases),
        "summary": entry.summary, "content": entry.content, "tags": " ".join(t.replace("-", " ") for t in entry.tags),
        "cue": _text([data.get("trigger"), data.get("lesson")]),
        "decision": _text([data.get("alternatives"), data.get("rationale"), data.get("attempted"),
                           data.get("failure_reason")]),
        "extra": _text([data.get(k) for k in ("error", "resolution", "context", "evidence", "goal", "outcome",
                                              "title", "steps", "task", "next_steps", "known_issues")]),
        "artifacts": _text(artifacts),
    }


def entry_keys(grimoire: Grimoire, mf: MemoryFile) -> Iterator[tuple[str, Entry]]:
    """(key, entry) for every entry of one file."""
    for digest, line, data, _problems in grimoire.items.get(mf.rel, ()):
        if isinstance(data, dict):
            yield f"{mf.rel}#{digest or line}", Entry(data, mf.world, mf.rel, line + 1, mf.archived)


@dataclass(frozen=True)
class Refresh:
    """What a refresh did."""

    added: int
    removed: int
    rebuilt: bool


class FullTextIndex:
    """The index of one repository (all worlds), opened lazily."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.dir = config.local_dir / "index"
        self.manifest_path = self.dir / "manifest.json"
        self._ix: Any = None

    def _manifest(self) -> dict[str, Any]:
        try:
            data = json.loads(self.manifest_path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) and data.get("version") == INDEX_VERSION else {}

    def refresh(self, grimoire: Grimoire, *, rebuild: bool = False,
                progress: Callable[[int, int], None] | None = None) -> Refresh:
        """Bring the index up to date with the files (only changed entries are touched)."""
        from whoosh import index as windex

        stats = {}
        for mf in grimoire.files:
            try:
                st = mf.path.stat()
            except OSError:
                continue
            stats[mf.rel] = [st.st_size, st.st_mtime_ns]
        manifest = {} if rebuild else self._manifest()
        own = dict(stats)
        stats.update(self._other_worlds(grimoire, manifest.get("stats", {})))
        if manifest and manifest.get("stats") == stats and windex.exists_in(str(self.dir)):
            return Refresh(0, 0, False)
        with locked(self.config.local_dir, name="index.lock", timeout=600):
            manifest = {} if rebuild else self._manifest()
            rebuilt = not manifest or not windex.exists_in(str(self.dir))
            if not rebuilt:
                try:
                    self._ix = windex.open_dir(str(self.dir))
                except Exception:
                    rebuilt = True
            if rebuilt:
                shutil.rmtree(self.dir, ignore_errors=True)
                self.dir.mkdir(parents=True, exist_ok=True)
                self._ix = windex.create_in(str(self.dir), _schema())
                manifest = {"version": INDEX_VERSION, "stats": {}, "keys": {}}
            others = self._other_worlds(grimoire, manifest.get("stats", {}))  # none after a rebuild
            stats = {**own, **others}
            old_keys: dict[str, list[str]] = manifest.get("keys", {})
            new_keys: dict[str, list[str]] = {}
            removed: list[str] = []
            added: list[tuple[str, Entry]] = []
            for mf in grimoire.files:
                if mf.rel not in stats:
                    continue
                pairs = list(entry_keys(grimoire, mf))
                new_keys[mf.rel] = [key for key, _ in pairs]
                if manifest.get("stats", {}).get(mf.rel) == stats[mf.rel] and mf.rel in old_keys:
                    continue
                before = set(old_keys.get(mf.rel, []))
                now = set(new_keys[mf.rel])
                removed.extend(before - now)
                added.extend((key, entry) for key, entry in pairs if key not in before)
            for rel, keys in old_keys.items():
                if rel in others:
                    new_keys[rel] = keys  # a world this grimoire did not load: left as it is
                elif rel not in new_keys:
                    removed.extend(keys)
            if added or removed:
                self._write(added, removed, progress)
            write_atomic(self.manifest_path, json.dumps({"version": INDEX_VERSION, "stats": stats,
                                                         "keys": new_keys}))
        return Refresh(len(added), len(removed), rebuilt)

    def _other_worlds(self, grimoire: Grimoire, stats: dict[str, Any]) -> dict[str, Any]:
        """The manifest's files of worlds ``grimoire`` did not load (a scoped load must not drop them)."""
        if grimoire.worlds is None:
            return {}
        loaded = tuple(w.storage_dir.rstrip("/") + "/" for w in self.config.worlds if w.name in grimoire.worlds)
        return {rel: value for rel, value in stats.items() if not rel.startswith(loaded)}

    def _write(self, added: Sequence[tuple[str, Entry]], removed: Sequence[str],
               progress: Callable[[int, int], None] | None) -> None:
        from whoosh.writing import AsyncWriter

        big = len(added) > 2000
        writer = self._ix.writer(procs=1, limitmb=256, multisegment=False) if big else AsyncWriter(self._ix)
        for key in removed:
            writer.delete_by_term("key", key)
        for number, (key, entry) in enumerate(added, 1):
            writer.add_document(**document(key, entry))
            if progress is not None and number % 500 == 0:
                progress(number, len(added))
        writer.commit()

    @contextmanager
    def searcher(self) -> Iterator[Any]:
        """A Whoosh searcher of the index as it is now (in the warm server: the same one while it is)."""
        if memo.enabled():
            yield memo.reuse(("searcher", str(self.dir)), lambda: memo.stat_stamp([self.manifest_path]),
                             self._open, close=lambda searcher: searcher.close())
            return
        with self._open() as searcher:
            yield searcher

    def reopen(self) -> None:
        """Open the index again on the next read (another process rebuilt it)."""
        self._ix = None

    def _open(self) -> Any:
        from whoosh import index as windex

        if self._ix is None:
            self._ix = windex.open_dir(str(self.dir))
        return self._ix.searcher()

    def search(self, text: str, limit: int = 100,
               worlds: Sequence[str] | None = None) -> list[tuple[str, float, float]]:
        """(key, BM25F score, coverage) of the best ``limit`` documents for free text, best first.

        Coverage is the idf-weighted share of the query's words that the document contains. With
        ``worlds``, only those worlds' documents compete for the ``limit`` places.
        """
        extra = self.config.retrieval.synonyms or ()
        parsed = build_query(text, synonyms.table(extra))
        if parsed is None:
            return []
        with self.searcher() as searcher:
            idf = _word_idf(searcher, parsed)
            total = sum(idf.values()) or 1.0
            ranked = _ranked(searcher, parsed.query, limit, worlds)
            return [(key, score, min(_covered(parsed, idf, found) / total, 1.0)) for key, score, found in ranked]

    def remove(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def _ranked(searcher: Any, query: Any, limit: int,
            worlds: Sequence[str] | None) -> list[tuple[str, float, set[str]]]:
    """(key, BM25F score, the query words it contains) of the best ``limit`` documents, best first."""
    from whoosh import query as wquery

    from loa_memory.search import bm25

    scored = bm25.scores(searcher, query.subqueries, worlds)
    if scored is not None:
        return [(searcher.stored_fields(doc)["key"], float(scored.score[doc]),
                 {word for word, mask in scored.words.items() if mask[doc]}) for doc in bm25.top(scored, limit)]
    only = wquery.Or([wquery.Term("world", w) for w in worlds]) if worlds else None
    hits = searcher.search(query, limit=limit, terms=True, optimize=False, filter=only)  # Whoosh's own walk
    return [(hit["key"], float(hit.score),
             {text.decode() if isinstance(text, bytes) else text for _f, text in hit.matched_terms()})
            for hit in hits]


@dataclass(frozen=True)
class Parsed:
    """A free-text query: the Whoosh query, the query's own (stemmed) words, and per word the synonyms
    that were searched for too."""

    query: Any
    words: tuple[str, ...]
    related: Mapping[str, tuple[str, ...]]


def build_query(text: str, related: Mapping[str, tuple[str, ...]] | None = None) -> Parsed | None:
    """An OR over the query's stemmed words in every text field (no query syntax: users type prose), and
    over their synonyms from ``related`` at ``SYNONYM_BOOST``."""
    from whoosh import analysis, query

    analyzer = analysis.StemmingAnalyzer()
    words = tuple(dict.fromkeys(token.text for token in analyzer(text)))
    fields = [name for name in FIELD_BOOSTS if name != "artifacts"]
    also = {word: tuple(s for s in (related or {}).get(word, ()) if s not in words) for word in words}
    terms: list[Any] = [query.Term(name, word) for word in words for name in fields]
    extra = dict.fromkeys(s for word in words for s in also[word])
    terms.extend(query.Term(name, s, boost=SYNONYM_BOOST) for s in extra for name in fields)
    for name in _ID.findall(text):
        terms.append(query.Term("id", name.lower(), boost=10.0))
        terms.append(query.Term("aliases", name.lower(), boost=10.0))
    for token in _PATHLIKE.findall(text):
        for piece in re.split(r"[/\s.:]+", token.lower()):
            if piece:
                terms.append(query.Term("artifacts", piece))
    if not terms:
        return None
    return Parsed(query.Or(terms), words, {word: also[word] for word in words if also[word]})


def _word_idf(searcher: Any, parsed: Parsed) -> dict[str, float]:
    """Each query word's weight in coverage: its best idf over the text fields, or, for a word no entry
    uses, the best idf of the synonyms it was searched by."""
    def idf(word: str) -> float:
        return max((searcher.idf(name, word) for name in TEXT_FIELDS if searcher.doc_frequency(name, word)),
                   default=0.0)

    weights = {}
    for word in parsed.words:
        weights[word] = idf(word) or max((idf(s) for s in parsed.related.get(word, ())), default=0.0)
    return {word: w for word, w in weights.items() if w}


def _covered(parsed: Parsed, idf: Mapping[str, float], found: set[str]) -> float:
    """The idf-weighted query words a document holds: a word in full, a word met only as a synonym at
    ``SYNONYM_CREDIT``."""
    total = 0.0
    for word, weight in idf.items():
        if word in found:
            total += weight
        elif not found.isdisjoint(parsed.related.get(word, ())):
            total += SYNONYM_CREDIT * weight
    return total
