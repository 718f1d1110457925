"""The always-available fallback embedder: hashed character n-grams, numpy only, no weights.

Each word (lowercased, padded with spaces) adds its 3-, 4- and 5-grams and the word itself
into a fixed number of signed buckets (the hashing trick), then the vector is L2-normalised.
It matches spelling, not meaning: good for typos and shared stems, blind to paraphrase.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

_WORD = re.compile(r"\w+")
_NGRAMS = (3, 4, 5)


class HashingEmbedder:
    """Signed feature hashing of character n-grams into ``dim`` buckets."""

    entries_per_second = 2000.0

    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.name = f"hash-char-ngrams/v1/d{dim}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text (all zeros for a text without words)."""
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature in _features(text):
                h = zlib.crc32(feature.encode("utf-8"))
                out[row, h % self.dim] += 1.0 if h & 0x80000000 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out /= np.maximum(norms, 1e-12)
        return out


def _features(text: str) -> list[str]:
    features: list[str] = []
    for word in _WORD.findall(text.lower()):
        padded = f" {word} "
        features.append(padded)
        for n in _NGRAMS:
            features.extend(padded[i: i + n] for i in range(len(padded) - n + 1))
    return features
