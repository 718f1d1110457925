"""The int8 ONNX models of the shipped encoders: built from the installed weights once per machine, cached
beside the unpacked weights, checked by SHA-256 before every load.

Building (``build_model``): the float32 graph (``onnx_graph``), a calibration pass that finds the feed-forward
input channels whose activations dwarf the rest, the graph again with those channels split off into small
float32 products, then onnxruntime's dynamic quantization of every other weight product (per-channel int8
weights; activations quantized on the fly). Without the split all-mpnet-base-v2's vectors fell to a cosine of
0.81 with float32's; with it the worst real memory stays above 0.99 (docs/embeddings.md).

The cache (``cached_model``): ``<model id>-<weights sha12>-g<graph version>-q<quant version>.onnx`` plus its
digest in ``.sha256`` beside it, both written atomically; a missing or mismatching digest means a rebuild,
never a run. One process builds while the others wait on a lock beside it, then find the file made. Nothing
is downloaded and nothing printed: progress goes to a callback.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    import onnx

Progress = Callable[[str], None]
QUANT_VERSION = 1  # bump when quantization (or the calibration texts) changes what is written
SPLIT = ("up", "down")  # products whose outlier input channels stay float32
OUTLIER_RATIO = 6.0  # a channel is an outlier when its peak exceeds this many times the median channel's
MAX_OUTLIERS = 8

# Any ordinary text shows the outlier channels: they belong to the model and sit on its delimiter and
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


def find_outliers(model: onnx.ModelProto, batch: tuple[np.ndarray, np.ndarray]) -> dict[str, list[int]]:
    """Input channels of the ``SPLIT`` products whose largest activation on ``batch`` exceeds ``OUTLIER_RATIO``
    times the median channel's (at most ``MAX_OUTLIERS``, largest first).

    Dynamic quantization gives each activation tensor one scale from its range: one channel at 100 where the
    rest stay under 5 leaves the others a handful of int8 levels.
    """
    import numpy as np
    import onnx
    import onnxruntime as ort

    wanted = {
        n.name.removesuffix("_node"): n.input[0]
        for n in model.graph.node
        if n.op_type == "MatMul" and n.name.removesuffix("_node").partition("_")[2] in SPLIT
    }
    probe = onnx.ModelProto()
    probe.CopyFrom(model)
    for tensor in sorted(set(wanted.values())):
        probe.graph.output.append(onnx.helper.make_tensor_value_info(tensor, onnx.TensorProto.FLOAT, None))
    options = ort.SessionOptions()
    options.log_severity_level = 3  # errors only
    session = ort.InferenceSession(probe.SerializeToString(), options, providers=["CPUExecutionProvider"])
    ids, mask = batch
    names = list(wanted)
    values = session.run([wanted[n] for n in names], {"input_ids": ids, "attention_mask": mask})
    found: dict[str, list[int]] = {}
    for name, value in zip(names, values, strict=True):
        largest = np.abs(value[mask.astype(bool)]).max(axis=0)
        order = np.argsort(-largest)[:MAX_OUTLIERS]
        picked = [int(c) for c in order if largest[c] > OUTLIER_RATIO * float(np.median(largest))]
        if picked:
            found[name] = sorted(picked)
    return found


def quantize(model: onnx.ModelProto) -> bytes:
    """The int8 model's serialised bytes: weight products int8 per channel, outlier side products and every
    ``Gather`` (embedding tables, MPNet's relative bias) kept float32."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    skip = [n.name for n in model.graph.node if n.name.endswith("_side_node")]
    with tempfile.TemporaryDirectory(prefix="loa-quant-") as scratch, _quiet_logging():
        target = Path(scratch) / "int8.onnx"
        quantize_dynamic(
            model,
            target,
            op_types_to_quantize=["MatMul"],
            per_channel=True,
            reduce_range=False,
            weight_type=QuantType.QInt8,
            nodes_to_exclude=skip,
            # onnx's shape inference cannot type contrib-op outputs: they are all float32
            extra_options={"MatMulConstBOnly": True, "DefaultTensorType": onnx.TensorProto.FLOAT},
        )
        return target.read_bytes()


@contextlib.contextmanager
def _quiet_logging() -> Iterator[None]:
    """Silence the quantizer's advice ("consider pre-processing"), logged to the root logger."""
    import logging

    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        yield
    finally:
        logging.disable(previous)


def cached_model(
    directory: Path, stem: str, build: Callable[[Progress], bytes], progress: Progress | None = None
) -> Path:
    """The verified model file ``<directory>/<stem>.onnx``, built with ``build`` if absent or corrupt.

    ``stem`` must name everything the bytes depend on (model id, weights digest, graph and quantization
    versions): a file whose name matches is trusted once its digest is.
    """
    say = progress or (lambda _msg: None)
    path = directory / f"{stem}.onnx"
    if verify(path):
        return path
    directory.mkdir(parents=True, exist_ok=True)
    with _build_lock(directory / f".{stem}.lock", say):
        if verify(path):  # another process built it while this one waited
            return path
        data = build(say)
        _write_atomic(path, data)
        _write_atomic(digest_path(path), f"{hashlib.sha256(data).hexdigest()}  {path.name}\n".encode())
        say(f"wrote {path} ({len(data) / 1e6:.0f} MB)")
    return path


def is_built(directory: Path, stem: str) -> bool:
    """True when the model file and its digest file exist (not verified: that is a load's job)."""
    path = directory / f"{stem}.onnx"
    return path.is_file() and digest_path(path).is_file()


def verify(path: Path) -> bool:
    """True when ``path`` exists and its SHA-256 matches the digest recorded beside it.

    Hashing 182 MB takes 0.1-2 s (quiet or busy machine), so a full check is remembered in ``.verified``
    beside it with the file's size, modification time and inode: a load re-hashes only when one of those changed.
    """
    try:
        recorded = digest_path(path).read_text(encoding="ascii").split()[0]
        st = path.stat()
    except (OSError, IndexError, UnicodeDecodeError):
        return False
    stamp = f"{st.st_size} {st.st_mtime_ns} {st.st_ino} {recorded}\n"
    seen = path.with_name(path.name + ".verified")
    try:
        if seen.read_text(encoding="ascii") == stamp:
            return True
    except (OSError, UnicodeDecodeError):
        pass
    try:
        if file_sha256(path) != recorded:
            return False
    except OSError:
        return False
    with contextlib.suppress(OSError):
        _write_atomic(seen, stamp.encode())
    return True


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def digest_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


@contextlib.contextmanager
def _build_lock(path: Path, say: Progress) -> Iterator[None]:
    """One builder at a time per model file; the others wait (a build takes seconds to a minute)."""
    import fcntl

    with path.open("a") as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say("another process is building this model: waiting for it")
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _write_atomic(path: Path, data: bytes) -> None:
    """Readers see the old file or the whole new one, never a part."""
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
