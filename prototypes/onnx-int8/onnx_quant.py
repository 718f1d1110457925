"""Dynamic int8 quantization of the encoder graphs, and the on-disk cache of the built models.

Dynamic quantization needs no calibration data: weights are quantized once, here, and each
activation is quantized on the fly from its own range. onnxruntime then runs every weight product
as one fused ``DynamicQuantizeMatMul`` on the CPU's int8 dot-product instructions (VNNI).

Building a graph and quantizing it takes seconds, so the result is cached beside the unpacked
weights, in a file named by model id, weights digest, graph version and quantization options. It
is written atomically (temporary file, then ``os.replace``) with its SHA-256 in a file beside it,
and the digest is checked before every load: a truncated or altered model is rebuilt, never run.
Nothing here prints; callers pass a ``progress`` callback to hear what is happening.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import onnx

Progress = Callable[[str], None]
QUANT_VERSION = 1  # bump when quantize() changes what it writes for the same options


@dataclass(frozen=True)
class QuantOptions:
    """How to quantize; ``None`` for the ``int8`` field of a cache entry means "keep float32".

    ``exclude`` lists kinds of weight product to keep in float32: ``"qkv"``, ``"out"`` (attention
    output), ``"up"``, ``"down"`` (feed-forward), optionally limited to layers, e.g. ``"down@11"``.
    """

    per_channel: bool = True
    reduce_range: bool = False
    embeddings: bool = False  # also store the word-embedding table as int8 (smaller file, less RSS)
    exclude: tuple[str, ...] = ()
    # Products whose outlier input channels run in float32 beside the int8 product (see find_outliers).
    split: tuple[str, ...] = ("up", "down")
    outlier_ratio: float = 6.0
    max_outliers: int = 8

    @property
    def tag(self) -> str:
        """A short, file-name-safe name for every field that changes the quantized model."""
        parts = [f"q{QUANT_VERSION}", "pc" if self.per_channel else "pt"]
        if self.reduce_range:
            parts.append("rr")
        if self.embeddings:
            parts.append("emb")
        parts.extend(f"x{e.replace('@', 'L')}" for e in self.exclude)
        if self.split:
            parts.append(f"s{'.'.join(self.split)}-r{self.outlier_ratio:g}-m{self.max_outliers}")
        return "-".join(parts)


# Any ordinary text shows the outlier channels: they belong to the model, and appear on its delimiter and
# punctuation tokens whatever the words. Changing these texts may change the model: bump QUANT_VERSION.
CALIBRATION = (
    "Use PostgreSQL for the job queue instead of Redis: we already run it, it is backed up nightly, and "
    "SKIP LOCKED gives us at-least-once delivery without another service to operate.",
    "The deploy failed because the migration added a NOT NULL column without a default; the fix was a "
    "two-step migration (add nullable, backfill in batches of 10,000 rows, then set NOT NULL).",
    "Tests in tests/test_sidecar.py hang on macOS when the lock file lives on a network share; flock() "
    "is not reliable there. Workaround: set LOA_MEMORY_CACHE to a local directory.",
    "Prefer small functions with docstrings that say why, type everything for mypy --strict, and keep "
    "imports of numpy inside the functions that need them so the CLI starts fast.",
    "Incident 2024-03-07: p99 latency rose from 120 ms to 2.4 s after the cache TTL dropped to 5 s; "
    "rollback at 14:32 UTC restored it. Lesson: alert on cache hit rate, not only on latency.",
    "Tags: performance, yaml, regex, lint, search, embeddings, release, ci, security, docs",
)


def find_outliers(model: onnx.ModelProto, batches: Sequence[tuple[np.ndarray, np.ndarray]],
                  options: QuantOptions) -> dict[str, list[int]]:
    """Input channels of the ``options.split`` products whose largest activation on the calibration
    batches exceeds ``outlier_ratio`` times the median channel's (at most ``max_outliers``, largest first).

    Dynamic quantization gives each activation tensor one scale from its range: a single channel at
    100 where the rest stay under 5 leaves the others a handful of int8 levels. all-mpnet-base-v2 has
    one to four such channels at the feed-forward inputs of most layers (cosine to float32 fell to
    0.81 quantizing them); taking them out restores it.
    """
    import numpy as np
    import onnx
    import onnxruntime as ort

    wanted = {n.name.removesuffix("_node"): n.input[0] for n in model.graph.node
              if n.op_type == "MatMul" and n.name.removesuffix("_node").partition("_")[2] in options.split}
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    for tensor in sorted(set(wanted.values())):
        probe.graph.output.append(onnx.helper.make_tensor_value_info(tensor, onnx.TensorProto.FLOAT, None))
    session = ort.InferenceSession(probe.SerializeToString(), providers=["CPUExecutionProvider"])
    names = list(wanted)
    peak: dict[str, np.ndarray] = {}
    for ids, mask in batches:
        values = session.run([wanted[n] for n in names], {"input_ids": ids, "attention_mask": mask})
        for name, value in zip(names, values, strict=True):
            largest = np.abs(value[mask.astype(bool)]).max(axis=0)
            peak[name] = np.maximum(peak[name], largest) if name in peak else largest
    found: dict[str, list[int]] = {}
    for name, largest in peak.items():
        order = np.argsort(-largest)[: options.max_outliers]
        picked = [int(c) for c in order if largest[c] > options.outlier_ratio * float(np.median(largest))]
        if picked:
            found[name] = sorted(picked)
    return found


def excluded_nodes(model: onnx.ModelProto, exclude: tuple[str, ...]) -> list[str]:
    """Names of the MatMul nodes ``exclude`` selects (graph names look like ``l3_down_node``)."""
    names = []
    for node in model.graph.node:
        if node.op_type != "MatMul":
            continue
        layer, _, kind = node.name.removesuffix("_node").partition("_")
        for rule in exclude:
            want_kind, _, want_layer = rule.partition("@")
            if kind == want_kind and (not want_layer or layer == f"l{want_layer}"):
                names.append(node.name)
    return names


def quantize(model: onnx.ModelProto, options: QuantOptions) -> bytes:
    """The int8 model's serialised bytes (float32 model in, nothing printed)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    op_types = ["MatMul", "Gather"] if options.embeddings else ["MatMul"]
    # Only the word-embedding Gather may become int8: MPNet's small relative-bias table stays exact.
    skip = excluded_nodes(model, options.exclude)
    skip += [n.name for n in model.graph.node if n.name.endswith("_side_node")]  # the outliers stay float32
    skip += [n.name for n in model.graph.node if n.op_type == "Gather" and "word_embeddings" not in n.input[0]]
    with tempfile.TemporaryDirectory(prefix="loa-quant-") as scratch, _quiet():
        target = Path(scratch) / "int8.onnx"
        quantize_dynamic(model, target, op_types_to_quantize=op_types, per_channel=options.per_channel,
                         reduce_range=options.reduce_range, weight_type=QuantType.QInt8,
                         nodes_to_exclude=skip, extra_options={"MatMulConstBOnly": True,
                                        # onnx's shape inference cannot type contrib-op outputs: all float32
                                        "DefaultTensorType": onnx.TensorProto.FLOAT})
        return target.read_bytes()


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence the quantizer's advice ("consider pre-processing"), logged to the root logger."""
    import logging as log

    previous = log.root.manager.disable
    log.disable(log.WARNING)
    try:
        yield
    finally:
        log.disable(previous)


def cached_model(directory: Path, stem: str, build: Callable[[Progress], bytes],
                 progress: Progress | None = None) -> Path:
    """The verified model file ``<directory>/<stem>.onnx``, built with ``build`` if absent or corrupt.

    ``stem`` must name everything the bytes depend on (model id, weights digest, graph and
    quantization versions and options): a file whose name matches is trusted once its digest is.
    """
    say = progress or (lambda _msg: None)
    path = directory / f"{stem}.onnx"
    if verify(path):
        return path
    say(f"building {path.name}")
    data = build(say)
    directory.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(data).hexdigest()
    _write_atomic(path, data)
    _write_atomic(_digest_path(path), f"{digest}  {path.name}\n".encode())
    say(f"wrote {path.name} ({len(data) / 1e6:.0f} MB)")
    return path


def verify(path: Path) -> bool:
    """True when ``path`` exists and its SHA-256 matches the digest recorded beside it."""
    try:
        recorded = _digest_path(path).read_text(encoding="ascii").split()[0]
        return file_sha256(path) == recorded
    except (OSError, IndexError, UnicodeDecodeError):
        return False


def file_sha256(path: Path) -> str:
    """SHA-256 of a file, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _digest_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so readers see the old file or the whole new one, never a part."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
