"""A correction heard by likeness: a reply to the agent that reads like the corrections users have given more than
like the other things they say, when no wording rule (``corrections.py``) hears it.

The wording rules are precise but each user finds new words ("why GlobalScope?", "that's the prod account.",
"-k again??"). The embedder that serves search compares the reply with ``data/correction_exemplars.json``: labelled
corrections and every other user message of the labelled transcript sets (``benchmarks/capture_exemplars.py``
writes it). The reply's score is its mean cosine to its ``NEIGHBOURS`` nearest corrections minus that to its nearest
other messages; at ``THRESHOLD`` or above it is a correction. The exemplars' vectors for the models we ship come
with the package (``data/correction_exemplars.<model>.npz``, float16, checked against the exemplars' hash), so no
capture waits to embed them; another model embeds them once per machine into the user's vector cache. The
spelling fallback (no model installed) measures no meaning: then only the rules hear.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from loa_memory.store.config import Config

NEIGHBOURS = 5
# chosen leaving each of blind transcript sets 7-12 out of the exemplars in turn (-0.04 before they joined them)
THRESHOLD = -0.055
TEXT_LIMIT = 600  # characters of a reply compared, as for the exemplars
EXEMPLARS = Path(__file__).parent / "data" / "correction_exemplars.json"


class Likeness:
    """Scores replies against the exemplars with one embedder."""

    def __init__(self, embedder: Any) -> None:
        import numpy as np

        self._embedder = embedder
        corrections, replies = _exemplars()
        texts = [*corrections, *replies]
        vectors = _shipped_vectors(embedder.name, texts)
        if vectors is None:
            vectors = _cached_vectors(embedder, texts)
        self._corrections = vectors[: len(corrections)]
        self._replies = vectors[len(corrections) :]
        self._np = np

    def scores(self, texts: Sequence[str]) -> list[float]:
        """Each text's likeness to a correction (positive: nearer the corrections than the other messages)."""
        if not texts:
            return []
        np = self._np
        vectors = _unit(self._embedder.embed([t[:TEXT_LIMIT] for t in texts]))
        near_correction = np.sort(vectors @ self._corrections.T, axis=1)[:, -NEIGHBOURS:].mean(axis=1)
        near_reply = np.sort(vectors @ self._replies.T, axis=1)[:, -NEIGHBOURS:].mean(axis=1)
        return [float(s) for s in near_correction - near_reply]

    def heard(self, text: str) -> bool:
        return self.scores([text])[0] >= THRESHOLD


def likeness_for(config: Config) -> Likeness | None:
    """The likeness test with the grimoire's embedder; None with the spelling fallback or when none can run."""
    return _likeness(config.retrieval.embedder, config.retrieval.embed_runtime)


@functools.cache
def _likeness(name: str | None, runtime: str | None) -> Likeness | None:
    from loa_memory.errors import ConfigError
    from loa_memory.search.embed import select_embedder

    try:
        choice = select_embedder(name, runtime)
    except ConfigError:
        return None
    if choice.is_fallback or choice.embedder.name == "hashing":
        return None
    return Likeness(choice.embedder)


@functools.cache
def _exemplars() -> tuple[tuple[str, ...], tuple[str, ...]]:
    data = json.loads(EXEMPLARS.read_text("utf-8"))
    return tuple(data["corrections"]), tuple(data["replies"])


def shipped_path(name: str) -> Path:
    """Where the package keeps the exemplars' vectors for the model ``name`` (its family, before any ``/``)."""
    family = name.split("/", 1)[0]
    return EXEMPLARS.with_name(f"correction_exemplars.{family}.npz")


def exemplars_digest(texts: Sequence[str]) -> str:
    import hashlib

    return hashlib.sha256("\n\x00".join(texts).encode("utf-8")).hexdigest()


def _shipped_vectors(name: str, texts: Sequence[str]) -> Any:
    """The packaged vectors of ``texts`` for the model ``name``, or None (no file, or made for other exemplars)."""
    import numpy as np

    path = shipped_path(name)
    try:
        with np.load(path) as data:
            if str(data["digest"]) != exemplars_digest(texts) or len(data["vectors"]) != len(texts):
                return None
            return _unit(data["vectors"].astype(np.float32))
    except (OSError, KeyError, ValueError):
        return None


def _cached_vectors(embedder: Any, texts: Sequence[str]) -> Any:
    """Unit vectors of ``texts``, from the user's vector cache where it has them (and put there when not)."""
    import numpy as np

    from loa_memory.search.embed import text_hash
    from loa_memory.search.embed.vector_cache import open_cache

    cache = open_cache(embedder.name, embedder.dim)
    hashes = [text_hash(t) for t in texts]
    held = cache.get(hashes) if cache is not None else {}
    missing = [i for i, h in enumerate(hashes) if h not in held]
    if missing:
        fresh = _unit(embedder.embed([texts[i] for i in missing]))
        for row, i in enumerate(missing):
            held[hashes[i]] = fresh[row]
        if cache is not None:
            cache.put([hashes[i] for i in missing], fresh)
    return _unit(np.stack([held[h] for h in hashes]).astype(np.float32))


def _unit(vectors: Any) -> Any:
    import numpy as np

    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1.0, norms)
