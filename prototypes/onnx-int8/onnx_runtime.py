"""all-mpnet-base-v2 and all-MiniLM-L6-v2 on onnxruntime, int8 (or float32), with the project's tokenizer.

Same weights, tokenisation, truncation, pooling and normalisation as the numpy embedders; the
graph is built from the installed weights on first use (``onnx_graph``), quantized and cached
(``onnx_quant``). Nothing is downloaded. The vectors differ from numpy's by quantization error
only (cosine ~0.99 or better for int8, 0.99999 for float32), so the embedder's ``name`` differs
too: cached vectors of one are never mixed with the other's.

Tokenisation stays the project's pure-Python WordPiece: Hugging Face ``tokenizers`` gives
identical ids but was no faster on these texts (see REPORT.md), and it is one dependency less.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from onnx_graph import UNFUSE, GraphOptions, Progress
from onnx_quant import QuantOptions, cached_model, file_sha256

if TYPE_CHECKING:
    import numpy as np
    import onnxruntime as ort
    from loa_memory.search.embed.bert import BertEncoder
    from loa_memory.search.embed.wordpiece import WordPiece

ModelName = Literal["mpnet", "minilm"]
Precision = Literal["int8", "fp32"]
IMPL_VERSION = 1  # bump when anything here changes the vectors


class _Weights(NamedTuple):
    """Where one model's files are, and what the cache file is keyed by."""

    model_id: str
    directory: Path  # holds vocab.txt, config.json, model.safetensors
    sha256: str
    cache: Path  # where the built ONNX files go
    mpnet: bool


@dataclass(frozen=True)
class _Spec:
    dim: int
    entries_per_second: float  # int8, ~700-byte entries, 2 cores (bench.py); float32 is ~40% of it
    batch_size: int  # fastest int8 batch in bench.py: small batches keep activations in the 2 MB L2


_SPECS: dict[ModelName, _Spec] = {"mpnet": _Spec(768, 12.0, 4), "minilm": _Spec(384, 60.0, 8)}


def locate(model: ModelName) -> _Weights:
    """The installed weights, unpacked if need be (the project's own unpacking and digest check)."""
    from loa_memory.errors import ConfigError
    from loa_memory.search.embed import minilm, mpnet

    if model == "mpnet":
        directory = mpnet.cache_dir()
        if not (directory / "model.safetensors").is_file():
            pieces = mpnet.part_files()
            if pieces is None:
                raise ConfigError(f"the embedding model {mpnet.MODEL_ID} is not installed", hint=mpnet.INSTALL_HINT)
            mpnet.unpack(pieces, directory)  # checks the weights' SHA-256
        sha = mpnet._WEIGHTS_SHA256
        return _Weights(mpnet.MODEL_ID, directory, sha, directory, True)
    source = minilm.find_model()
    if source is None or source.zipped:
        raise ConfigError(f"the embedding model {minilm.MODEL_ID} is not installed as files", hint=minilm.INSTALL_HINT)
    sha = file_sha256(source.path / "model.safetensors")  # the package may change under the same name
    # The package directory may be read-only: the built model goes to the user cache, like MPNet's files.
    cache = mpnet.cache_dir().parent / f"{minilm.MODEL_ID}-{sha[:12]}"
    return _Weights(minilm.MODEL_ID, source.path, sha, cache, False)


_GRAPH, _QUANT = GraphOptions(), QuantOptions()  # the chosen defaults (see REPORT.md)


def model_path(model: ModelName, precision: Precision = "int8", *, graph: GraphOptions = _GRAPH,
               quant: QuantOptions = _QUANT, progress: Progress | None = None) -> Path:
    """The ONNX file for ``model``: built, quantized and cached on first use, verified on every use."""
    weights = locate(model)
    stem = f"{weights.model_id}-{weights.sha256[:12]}-{graph.tag}-{quant.tag if precision == 'int8' else 'fp32'}"

    def build(say: Progress) -> bytes:
        from onnx_graph import build_graph
        from onnx_quant import CALIBRATION, find_outliers, quantize

        say("reading weights")
        encoder = _encoder(weights)
        proto = build_graph(encoder, mpnet=weights.mpnet, options=graph, progress=say)
        if precision == "fp32":
            data: bytes = proto.SerializeToString()
            return data
        if quant.split:
            say("finding outlier channels")
            tokenizer, pad = _tokenizer(weights), _pad_id(weights)
            batch = pad_batch([tokenizer.encode(t, 256) for t in CALIBRATION], pad)
            outliers = find_outliers(proto, [batch], quant)
            proto = build_graph(encoder, mpnet=weights.mpnet, options=graph, outliers=outliers, progress=say)
        say("quantizing")
        return quantize(proto, quant)

    return cached_model(weights.cache, stem, build, progress)


def _encoder(weights: _Weights) -> BertEncoder:
    """The project's numpy encoder over the safetensors file: the graph reads its arrays."""
    from loa_memory.search.embed.bert import BertEncoder, MPNetEncoder
    from loa_memory.search.embed.tensors import load_safetensors

    config = json.loads((weights.directory / "config.json").read_text(encoding="utf-8"))
    tensors = load_safetensors(weights.directory / "model.safetensors")
    kind = MPNetEncoder if weights.mpnet else BertEncoder
    return kind(tensors, heads=int(config["num_attention_heads"]),
                eps=float(config.get("layer_norm_eps", 1e-5 if weights.mpnet else 1e-12)))


def _pad_id(weights: _Weights) -> int:
    return 1 if weights.mpnet else 0  # MPNet pads with <pad> (1), BERT with [PAD] (0)


def pad_batch(batch: Sequence[Sequence[int]], pad: int) -> tuple[np.ndarray, np.ndarray]:
    """``input_ids`` and ``attention_mask`` for token id lists, padded to the longest."""
    import numpy as np

    length = max(len(seq) for seq in batch)
    input_ids = np.full((len(batch), length), pad, dtype=np.int64)
    mask = np.zeros((len(batch), length), dtype=np.int64)
    for row, seq in enumerate(batch):
        input_ids[row, : len(seq)] = seq
        mask[row, : len(seq)] = 1
    return input_ids, mask


def _tokenizer(weights: _Weights) -> WordPiece:
    from loa_memory.search.embed.wordpiece import WordPiece

    vocab = (weights.directory / "vocab.txt").read_text(encoding="utf-8").splitlines()
    return WordPiece(vocab, cls="<s>", sep="</s>") if weights.mpnet else WordPiece(vocab)


def session(path: Path, threads: int | None = None) -> ort.InferenceSession:
    """A CPU session tuned for one batch at a time: all cores on each operator, no inter-op pool."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads or os.cpu_count() or 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # errors only: nothing on stderr in normal use
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"],
                                disabled_optimizers=list(UNFUSE))


class OnnxEmbedder:
    """Sentence vectors from ``model`` on onnxruntime; meets the project's ``Embedder`` protocol.

    Texts are sorted by token count and run ``batch_size`` at a time, so little work goes to padding.
    """

    def __init__(self, model: ModelName = "mpnet", precision: Precision = "int8", *, max_tokens: int = 256,
                 batch_size: int | None = None, threads: int | None = None, graph: GraphOptions = _GRAPH,
                 quant: QuantOptions = _QUANT, progress: Progress | None = None) -> None:
        from loa_memory.search.embed import minilm, mpnet

        model_id = mpnet.MODEL_ID if model == "mpnet" else minilm.MODEL_ID
        variant = f"{graph.tag}-{quant.tag}" if precision == "int8" else graph.tag
        self.name = f"{model_id}/onnx-{precision}-v{IMPL_VERSION}-{variant}/t{max_tokens}"
        self.dim = _SPECS[model].dim
        scale = 1.0 if precision == "int8" else 0.4
        self.entries_per_second = _SPECS[model].entries_per_second * scale
        self.model, self.precision, self.max_tokens = model, precision, max_tokens
        self.batch_size, self.threads = batch_size or _SPECS[model].batch_size, threads
        self._graph, self._quant, self._progress = graph, quant, progress
        self._loaded: tuple[WordPiece, ort.InferenceSession, int] | None = None

    def load(self) -> tuple[WordPiece, ort.InferenceSession, int]:
        """Tokenizer, session and padding id; the first call may build the model (seconds, once)."""
        if self._loaded is None:
            weights = locate(self.model)
            path = model_path(self.model, self.precision, graph=self._graph, quant=self._quant,
                              progress=self._progress)
            self._loaded = (_tokenizer(weights), session(path, self.threads), _pad_id(weights))
        return self._loaded

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text, in order."""
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        tokenizer, sess, pad = self.load()
        ids = [tokenizer.encode(t, self.max_tokens) for t in texts]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start: start + self.batch_size]
            out[rows] = self.run(sess, [ids[i] for i in rows], pad)
        return out

    @staticmethod
    def run(sess: ort.InferenceSession, batch: Sequence[Sequence[int]], pad: int) -> np.ndarray:
        """One padded batch through the session."""
        input_ids, mask = pad_batch(batch, pad)
        result: np.ndarray = sess.run(["embedding"], {"input_ids": input_ids, "attention_mask": mask})[0]
        return result
