"""The retriever: one loaded grimoire's entries by index key, its full-text index and its embeddings sidecar.

``search.run`` ranks with it; ``recall`` reuses one for its cue checks. An entry without a vector takes it from
the user's vector cache when it holds one (no embedding); the rest are embedded before answering only within a
time budget (``eager_limit``, about a second), and ``background`` embeds what is left while the command answers
by words for those entries (``unembedded`` says how many). A model that is not ready (MPNet's weights not
unpacked, the int8 model not built yet) is not waited for either: the answer is lexical until it is.
``embed_some`` lets a long-lived process catch up between requests.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from loa_memory.model import Entry
from loa_memory.search import background
from loa_memory.search.index import FullTextIndex
from loa_memory.store.cache import memo
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire, load_grimoire

if TYPE_CHECKING:
    from loa_memory.search.embed import Embedder

# retrieval.eager_embed_seconds bounds the embedding a command does before answering; within deferred_embedding
# (the warm server, agent hooks), where answering fast matters more, it is at most this
DEFERRED_EAGER_SECONDS = 5.0
_TEXT_HASHES = "text-hashes-1"  # bump when embedding_text changes


# per command, not per process: the warm server runs each command in a fresh context (server/warm.py), so a
# hook's budget never leaks into the next command it serves
_deferred: contextvars.ContextVar[bool] = contextvars.ContextVar("loa_memory_deferred_embedding", default=False)


@contextlib.contextmanager
def deferred_embedding() -> Iterator[None]:
    """Within it, commands embed before answering only what takes up to DEFERRED_EAGER_SECONDS and leave the
    rest to the warm server, which embeds between requests: for agent hooks (a hook must answer within the
    agent's time limit; the client starts a server after it), in their own process or served alike."""
    token = _deferred.set(True)
    try:
        yield
    finally:
        _deferred.reset(token)


def eager_limit(embedder: Embedder, seconds: float) -> int:
    """How many missing vectors a command embeds before answering: ``seconds`` of the embedder's work
    (``retrieval.eager_embed_seconds``, 1 s by default: about 60 entries for MiniLM, 12 for MPNet in int8)."""
    return int(seconds * embedder.entries_per_second)


class Retriever:
    """Keys ↔ entries, the index and the sidecar of one loaded grimoire."""

    def __init__(self, config: Config, grimoire: Grimoire, progress: Callable[[int, int], None] | None = None, *,
                 waits: bool = False, say: Callable[[str], None] | None = None) -> None:
        """``waits``: embed everything asked for before answering (commands that cluster or compare vectors, such
        as ``promote`` and ``graduate --meta``, not read commands); ``say`` hears a model being prepared."""
        self.config = config
        self.waits = waits
        self.say = say
        self.grimoire = grimoire
        self.entries: dict[str, Entry] = grimoire.keyed
        self.index = FullTextIndex(config)
        self.progress = progress
        self.warnings: list[str] = []
        self.embedded_now = 0
        self.unembedded = 0  # entries without a vector, found by words only in this answer
        self.adopted = 0  # vectors taken from the user's vector cache
        self.model_pending = False  # the model is not ready: it is being prepared in the background
        self._deadline: float | None = None  # when this command stops embedding before answering
        self._sidecar: Any = None
        self._queries: dict[str, Any] = {}
        self.is_fallback = False

    def lexical(self, text: str, limit: int) -> list[tuple[str, float, float]]:
        from whoosh.index import EmptyIndexError

        for _ in range(2):
            self.index.refresh(self.grimoire)  # waits for a rebuild under way: it holds the index lock
            try:
                return [hit for hit in self.index.search(text, limit, self.grimoire.worlds) if hit[0] in self.entries]
            except (EmptyIndexError, FileNotFoundError):  # `index --rebuild` in another process removed it between
                self.index.reopen()  # the refresh and the read: read it again once that rebuild is done
        self.warnings.append("the full-text index changed while searching (`loa-memory index --rebuild` in another "
                             "process?); nothing was found by words this time")
        return []

    def semantic(self, text: str, *, limit: int | None = None, also: Sequence[str] = (),
                 vector: Any = None) -> list[tuple[str, float]]:
        """(key, cosine) of the ``limit`` nearest entries (default: all with a vector), best first,
        followed by those of ``also`` (the lexical hits, whose cosine fusion needs) not among them; ``vector``
        stands for ``text``'s own when given."""
        from loa_memory.search.embed.sidecar import top_k

        sidecar = self.sidecar()
        hash_of = self._text_hashes()
        keys, rows, position, missing = self._view(hash_of)
        if missing:
            self._catch_up(sidecar, missing)
            keys, rows, position, missing = self._view(hash_of)
        self.unembedded = len(missing)
        if not self.can_embed():
            self.unembedded = len(self.entries)  # no query vector without the model: every entry by words
            return []
        if not keys:
            return []  # nothing to compare with: the model is not even loaded
        query = self.vectors([text])[0] if vector is None else vector
        every = sidecar.scores(query)
        if len(rows) and int(rows.max()) >= len(every):  # the vectors changed since the rows were read (another
            keys, rows, position, missing = self._view(hash_of)  # process rebuilding them): read them again
            every = sidecar.scores(query)
            if not keys or (len(rows) and int(rows.max()) >= len(every)):
                self.warnings.append("the vectors changed while searching (`loa-memory index --rebuild` in another "
                                     "process?); found by words only this time")
                return []
        scores = every[rows]
        top = top_k(scores, limit or len(keys))
        nearest = [(keys[i], float(scores[i])) for i in top]
        chosen = set(top.tolist())
        return nearest + [(key, float(scores[i])) for key in dict.fromkeys(also)
                          if (i := position.get(key, -1)) >= 0 and i not in chosen]

    def can_embed(self) -> bool:
        """True when a text can be embedded now: the model loads in about a second (or the caller waits for it)."""
        from loa_memory.search.embed import is_ready

        if self.waits or background.mode() == "inline" or is_ready(self.sidecar().embedder):
            return True
        if not self.model_pending:
            self.model_pending = True
            self._start_background()
        return False

    def _catch_up(self, sidecar: Any, missing: dict[str, str], *, spawn: bool = True) -> None:
        """Take what the user's vector cache holds, embed what fits in the time budget (everything when the
        background step runs inline), and leave the rest to the background (``spawn``: entries, which the
        background `index` embeds; cue texts are not among them and wait for the next command's budget)."""
        patient = self.waits or background.mode() == "inline"
        if not patient and background.is_running(self.config.local_dir):
            return  # an `index` is at it, holding the sidecar's lock a batch at a time: do not wait for it
        sidecar.adopt(missing.items())
        self.adopted += sidecar.adopted
        left = [item for item in missing.items() if item[0] not in sidecar]
        if not left:
            return
        if patient:
            self.embedded_now += sidecar.ensure(left, progress=self.progress)
            return
        seconds = self.config.retrieval.eager_embed_seconds
        if _deferred.get():
            seconds = min(seconds, DEFERRED_EAGER_SECONDS)
        if self._deadline is None:  # one budget for the whole command, in wall-clock time (the machine may be busy)
            self._deadline = time.monotonic() + seconds
        budget = min(eager_limit(sidecar.embedder, seconds), len(left))
        done = 0
        if budget and time.monotonic() < self._deadline and self.can_embed():
            done = sidecar.ensure(left[:budget], progress=self.progress, deadline=self._deadline)
            self.embedded_now += done
        if len(left) > done and spawn and not background.left_to_server():
            self._start_background()

    def _start_background(self) -> None:
        if background.mode() == "spawn":
            background.start(self.config.root, self.config.local_dir)

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
            from loa_memory.search.embed import select_embedder

            choice = select_embedder(self.config.retrieval.embedder, self.config.retrieval.embed_runtime)
            if self.say is not None and hasattr(choice.embedder, "progress"):
                choice.embedder.progress = self.say  # a model built on first use says so
            if choice.warning:
                self.warnings.append(choice.warning)
            self.is_fallback = choice.is_fallback
            root = self.config.local_dir / "embeddings"
            self._sidecar = memo.reuse(("sidecar", str(root), choice.embedder.name), tuple,
                                       lambda: open_sidecar(self.config, choice.embedder))  # notices its own changes
        return self._sidecar

    def vectors(self, texts: Sequence[str], *, cache: bool = False) -> Any:
        """Unit vectors of ``texts`` (cached in the sidecar when ``cache``: short cue texts, not queries)."""
        sidecar = self.sidecar()
        if not self.can_embed():
            import numpy as np

            return np.zeros((len(texts), sidecar.embedder.dim), dtype=np.float32)
        if not cache:
            if len(texts) != 1:
                return sidecar.embedder.embed(list(texts))
            if texts[0] not in self._queries:  # recall asks for one task's vector several times
                self._queries[texts[0]] = sidecar.embedder.embed(list(texts))
            return self._queries[texts[0]]
        from loa_memory.search.embed import text_hash

        hashes = [text_hash(t) for t in texts]
        missing = {h: t for h, t in zip(hashes, texts, strict=True) if h not in sidecar}
        if missing:  # short cue texts: what the budget allows now, the rest at the next command
            self._catch_up(sidecar, missing, spawn=False)
        return sidecar.matrix(hashes)  # zero rows (cosine 0) for those still without a vector


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
    from loa_memory.search.embed import is_ready

    retriever = Retriever(config, load_grimoire(config))
    sidecar = retriever.sidecar()
    missing = retriever._view(retriever._text_hashes())[3]
    if not missing or background.is_running(config.local_dir):  # an `index` is at it: leave it the cores
        return 0
    if not is_ready(sidecar.embedder):  # the model is still to be built: a background `index` does that, not a
        return 0  # server whose commands would wait for it
    sidecar.adopt(missing.items())
    left = [item for item in missing.items() if item[0] not in sidecar]
    limit = max(1, eager_limit(sidecar.embedder, seconds))
    if left:
        sidecar.ensure(left[:limit])
    return max(len(left) - limit, 0)


def open_sidecar(config: Config, embedder: Embedder) -> Any:
    """The repository's vector sidecar for ``embedder``, backed by the user's vector cache (unless it is off)."""
    from loa_memory.search.embed import Sidecar
    from loa_memory.search.embed.vector_cache import open_cache

    return Sidecar(config.local_dir / "embeddings", embedder, shared=open_cache(embedder.name, embedder.dim))
