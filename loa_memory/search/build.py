"""``index``: bring the full-text index and the embeddings sidecar up to date (or rebuild both)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

from loa_memory.search import background
from loa_memory.search.index import FullTextIndex, entry_keys
from loa_memory.store.config import Config
from loa_memory.store.load import load_grimoire


def build_index(config: Config, *, rebuild: bool = False, embed: bool = True,
                progress: Callable[[int, int], None] | None = None, say: Callable[[str], None] | None = None,
                alone: bool = False) -> dict[str, Any]:
    """Refresh (or rebuild) everything derived for retrieval; returns what was done.

    While it runs it holds the repository's embedding lock (``background``), so read commands start no
    background embedding meanwhile. With ``alone`` (``index --quiet``, what the background runs) it does
    nothing when another process holds that lock (``skipped``); otherwise it works beside it, each taking
    the sidecar's batches in turn. ``say`` hears the one-time steps (unpacking or building the model).
    """
    with background.holding(config.local_dir) as held:
        if alone and not held:
            return {"added": 0, "removed": 0, "rebuilt": False, "documents": 0, "embedded": 0, "from_cache": 0,
                    "vectors": 0, "embedder": None, "fallback": False, "skipped": True}
        return _build(config, rebuild, embed, progress, say)


def _build(config: Config, rebuild: bool, embed: bool, progress: Callable[[int, int], None] | None,
           say: Callable[[str], None] | None) -> dict[str, Any]:
    grimoire = load_grimoire(config)
    ix = FullTextIndex(config)
    done = ix.refresh(grimoire, rebuild=rebuild)
    with ix.searcher() as searcher:
        documents = searcher.doc_count()
    report: dict[str, Any] = {"added": done.added, "removed": done.removed, "rebuilt": done.rebuilt,
                              "documents": documents, "embedded": 0, "from_cache": 0, "vectors": 0, "embedder": None,
                              "fallback": False}
    if not embed:
        return report
    from loa_memory.search.embed import embedding_text, is_ready, select_embedder, text_hash
    from loa_memory.search.retriever import open_sidecar

    choice = select_embedder(config.retrieval.embedder, config.retrieval.embed_runtime)
    if rebuild:
        shutil.rmtree(config.local_dir / "embeddings", ignore_errors=True)
    sidecar = open_sidecar(config, choice.embedder)
    texts = {}
    for mf in grimoire.files:
        for _key, entry in entry_keys(grimoire, mf):
            text = embedding_text(entry)
            texts[text_hash(text)] = text
    report["from_cache"] = sidecar.adopt(texts.items())
    if say is not None and not is_ready(choice.embedder) and any(h not in sidecar for h in texts):
        say(f"preparing the embedding model {choice.embedder.name} (once per machine; about 30 s)")
        if hasattr(choice.embedder, "progress"):
            choice.embedder.progress = say
    report["embedded"] = sidecar.ensure(texts.items(), progress=progress)
    report["from_cache"] += sidecar.adopted
    sidecar.prune(set(texts))
    report.update(vectors=len(sidecar), embedder=choice.embedder.name, fallback=choice.is_fallback)
    if choice.warning:
        report["warning"] = choice.warning
    return report
