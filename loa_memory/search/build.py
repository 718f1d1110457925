"""``index``: bring the full-text index and the embeddings sidecar up to date (or rebuild both)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

from loa_memory.search.index import FullTextIndex, entry_keys
from loa_memory.store.config import Config
from loa_memory.store.load import load_grimoire


def build_index(config: Config, *, rebuild: bool = False, embed: bool = True,
                progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Refresh (or rebuild) everything derived for retrieval; returns what was done."""
    grimoire = load_grimoire(config)
    ix = FullTextIndex(config)
    done = ix.refresh(grimoire, rebuild=rebuild)
    with ix.searcher() as searcher:
        documents = searcher.doc_count()
    report: dict[str, Any] = {"added": done.added, "removed": done.removed, "rebuilt": done.rebuilt,
                              "documents": documents, "embedded": 0, "vectors": 0, "embedder": None,
                              "fallback": False}
    if not embed:
        return report
    from loa_memory.search.embed import Sidecar, embedding_text, select_embedder, text_hash

    choice = select_embedder(config.retrieval.embedder)
    root = config.local_dir / "embeddings"
    if rebuild:
        shutil.rmtree(root, ignore_errors=True)
    sidecar = Sidecar(root, choice.embedder)
    texts = {}
    for mf in grimoire.files:
        for _key, entry in entry_keys(grimoire, mf):
            text = embedding_text(entry)
            texts[text_hash(text)] = text
    report["embedded"] = sidecar.ensure(texts.items(), progress=progress)
    sidecar.prune(set(texts))
    report.update(vectors=len(sidecar), embedder=choice.embedder.name, fallback=choice.is_fallback)
    if choice.warning:
        report["warning"] = choice.warning
    return report
