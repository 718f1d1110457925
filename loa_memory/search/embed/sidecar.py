"""The embeddings sidecar: vectors cached on disk by (embedder name, content hash).

Layout under ``<repo>/.loa/embeddings/<embedder slug>/``::

    manifest.json          {"format", "embedder", "dim", "dtype", "segments": [id, ...]}
    <id>.vec.npy           (rows, dim) vectors, float32 (memory-mapped for search) or float16
    <id>.keys.npy          (rows,) the content hashes of those rows, in order
    lock                   writers hold an flock on it; readers never lock

A write adds a segment (new files, fsynced) and then replaces ``manifest.json`` atomically, so a
reader sees either the old or the new set, never half of one; segments are merged when there are
too many, and ``prune`` rewrites them without the hashes no longer referenced. Everything here is
derived: a sidecar that fails to load is treated as empty and rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from loa_memory.errors import LockTimeout

if TYPE_CHECKING:
    import numpy as np

    from loa_memory.search.embed import Embedder
    from loa_memory.search.embed.vector_cache import VectorCache

FORMAT = 1
Progress = Callable[[int, int], None]


class _Segment(NamedTuple):
    id: str
    keys: list[str]
    vectors: np.ndarray  # memory-mapped, read-only


class _State(NamedTuple):
    stamp: tuple[int, int, int]
    segments: list[_Segment]
    row_of: dict[str, int]  # hash -> global row (segments concatenated in order)


class Sidecar:
    """Cached vectors of one embedder under ``root_dir`` (normally ``<repo>/.loa/embeddings``)."""

    def __init__(self, root_dir: Path, embedder: Embedder, *,
                 dtype: Literal["float16", "float32"] = "float32", batch_size: int = 64,
                 lock_timeout: float = 600.0, shared: VectorCache | None = None) -> None:
        self.embedder = embedder
        self.shared = shared  # the user's vector cache: consulted before embedding, fed after
        self.adopted = 0  # vectors the last ensure() or adopt() took from it
        self.dir = Path(root_dir) / _slug(embedder.name)
        self.dtype = dtype
        self.batch_size = batch_size
        self.lock_timeout = lock_timeout
        self._state: _State | None = None

    # reading ---------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._load().row_of)

    def __contains__(self, content_hash: object) -> bool:
        return content_hash in self._load().row_of

    def hashes(self) -> set[str]:
        """Every content hash that has a stored vector."""
        return set(self._load().row_of)

    @property
    def stamp(self) -> tuple[int, int, int]:
        """Changes whenever the stored vectors do (the manifest's modification time, inode and size)."""
        return self._load().stamp

    def rows(self, hashes: Sequence[str]) -> np.ndarray:
        """Each hash's row in :meth:`scores` (-1 when it has no vector)."""
        import numpy as np

        row_of = self._load().row_of
        return np.fromiter((row_of.get(h, -1) for h in hashes), dtype=np.int64, count=len(hashes))

    def scores(self, query_vec: np.ndarray) -> np.ndarray:
        """The cosine of every stored vector with the query, by row (empty when nothing is stored)."""
        import numpy as np

        state = self._load()
        q = np.asarray(query_vec, dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(q))
        if norm == 0.0 or not state.row_of:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate([_dot(seg.vectors, q / norm) for seg in state.segments])

    def matrix(self, hashes: Sequence[str], *, missing: Literal["zero", "raise"] = "zero") -> np.ndarray:
        """float32 ``(len(hashes), dim)``: the stored vectors in the order asked; zero rows if missing."""
        import numpy as np

        state = self._load()
        out = np.zeros((len(hashes), self.embedder.dim), dtype=np.float32)
        rows = [state.row_of.get(h, -1) for h in hashes]
        if missing == "raise" and -1 in rows:
            raise KeyError(f"no vector for {hashes[rows.index(-1)]}")
        start = 0
        for seg in state.segments:
            end = start + len(seg.keys)
            want = [(i, r - start) for i, r in enumerate(rows) if start <= r < end]
            if want:
                at, local = zip(*want, strict=True)
                out[list(at)] = seg.vectors[list(local)]
            start = end
        return out

    def search(self, query_vec: np.ndarray, hashes: Sequence[str] | None = None,
               k: int = 10) -> list[tuple[str, float]]:
        """The ``k`` best (hash, cosine) among ``hashes`` (default: all stored), best first.

        Hashes without a stored vector are left out. Scores are dot products, which are cosines
        because every stored vector and the query are unit length (an unnormalised query is
        normalised here).
        """
        import numpy as np

        state = self._load()
        scores = self.scores(query_vec)
        if not len(scores):
            return []
        if hashes is None:
            keys = [key for seg in state.segments for key in seg.keys]
            rows = np.arange(len(keys))
        else:
            keys = [h for h in dict.fromkeys(hashes) if h in state.row_of]
            rows = np.fromiter((state.row_of[h] for h in keys), dtype=np.int64, count=len(keys))
        if not keys or k <= 0:
            return []
        sub = scores[rows]
        return [(keys[i], float(sub[i])) for i in top_k(sub, k)]

    def search_text(self, query: str, hashes: Sequence[str] | None = None,
                    k: int = 10) -> list[tuple[str, float]]:
        """:meth:`search` with the query embedded first."""
        return self.search(self.embedder.embed([query])[0], hashes, k)

    # writing ---------------------------------------------------------------------------------

    def ensure(self, items: Iterable[tuple[str, str]], progress: Progress | None = None, *,
               deadline: float | None = None) -> int:
        """Store a vector for every (content_hash, text) item that has none yet; return how many were embedded.

        Vectors the user's cache (``shared``) holds are taken from it (``adopted``); the rest are embedded
        ``batch_size`` texts at a time, each batch committed at once (an interrupted run keeps what it did)
        under the writers' lock, which is held for one batch only: a second process embedding the same texts
        takes turns with this one and skips what it finds done. With a ``deadline`` (``time.monotonic()``) it
        works in batches of 4 and starts no batch after it: what a command may do before answering.
        """
        todo = self._missing(items)
        self.adopted = 0
        if not todo:
            return 0
        embedded = done = 0
        size = 4 if deadline is not None else self.batch_size
        for start in range(0, len(todo), size):
            if deadline is not None and time.monotonic() >= deadline:
                break
            chunk = todo[start: start + size]
            with self._locked():
                self._state = None
                chunk = [(h, t) for h, t in chunk if h not in self._load().row_of]
                chunk = self._adopt_locked(chunk)
                if chunk:
                    vectors = self.embedder.embed([t for _, t in chunk])
                    self._append([h for h, _ in chunk], vectors)
                    if self.shared is not None:
                        self.shared.put([h for h, _ in chunk], vectors)
            embedded += len(chunk)
            done = min(start + size, len(todo))
            if progress is not None:
                progress(done, len(todo))
        return embedded

    def adopt(self, items: Iterable[tuple[str, str]]) -> int:
        """Take the vectors the user's cache holds for items that have none here (no embedding); how many."""
        import numpy as np

        todo = self._missing(items)
        self.adopted = 0
        found = self.shared.get([h for h, _ in todo]) if todo and self.shared is not None else {}
        if found:  # the lock only when there is something to write
            with self._locked():
                self._state = None
                keys = [h for h in found if h not in self._load().row_of]
                if keys:
                    self._append(keys, np.stack([found[h] for h in keys]))
                self.adopted = len(keys)
        return self.adopted

    def _missing(self, items: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        wanted = dict(items)  # one hash is one text; a repeated hash keeps its last text
        index = self._load().row_of
        return [(h, t) for h, t in wanted.items() if h not in index]

    def _adopt_locked(self, todo: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """Store what the user's cache holds of ``todo`` (the lock held); the rest, still to embed."""
        import numpy as np

        if self.shared is None or not todo:
            return todo
        found = self.shared.get([h for h, _ in todo])
        if found:
            keys = [h for h, _ in todo if h in found]
            self._append(keys, np.stack([found[h] for h in keys]))
            self.adopted += len(keys)
        return [(h, t) for h, t in todo if h not in found]

    def prune(self, keep: Iterable[str]) -> int:
        """Drop the vectors whose hash is not in ``keep``; return how many were dropped."""
        import numpy as np

        keep_set = set(keep)
        with self._locked():
            self._state = None
            state = self._load()
            dropped = sum(1 for h in state.row_of if h not in keep_set)
            if dropped:
                keys = [k for seg in state.segments for k in seg.keys if k in keep_set]
                parts = [seg.vectors[[i for i, k in enumerate(seg.keys) if k in keep_set]]
                         for seg in state.segments]
                self._commit([self._write_segment(keys, np.concatenate(parts))] if keys else [])
        return dropped

    def _append(self, keys: list[str], vectors: np.ndarray) -> None:
        """Add a segment, merging tail segments like a binary counter: O(log n) segments, each
        vector rewritten O(log n) times however the work is split into calls."""
        import numpy as np

        segments = list(self._load().segments)
        tail_keys, tail_vectors = keys, [np.asarray(vectors, dtype=self.dtype)]
        while segments and len(segments[-1].keys) <= len(tail_keys):
            last = segments.pop()
            tail_keys = last.keys + tail_keys
            tail_vectors.insert(0, last.vectors)
        merged = tail_vectors[0] if len(tail_vectors) == 1 else np.concatenate(tail_vectors)
        self._commit([s.id for s in segments] + [self._write_segment(tail_keys, merged)])

    def _write_segment(self, keys: list[str], vectors: np.ndarray) -> str:
        import numpy as np

        seg_id = os.urandom(16).hex()
        _write_npy(self.dir / f"{seg_id}.keys.npy", np.array(keys, dtype=str))
        _write_npy(self.dir / f"{seg_id}.vec.npy", np.ascontiguousarray(vectors, dtype=self.dtype))
        return seg_id

    def _commit(self, segment_ids: list[str]) -> None:
        manifest = {"format": FORMAT, "embedder": self.embedder.name, "dim": self.embedder.dim,
                    "dtype": self.dtype, "segments": segment_ids}
        tmp = self.dir / f".tmp-{os.urandom(16).hex()}.json"
        with tmp.open("w", encoding="utf-8") as fh:
            json.dump(manifest, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.dir / "manifest.json")
        _fsync_dir(self.dir)
        live = {f"{s}.{kind}.npy" for s in segment_ids for kind in ("keys", "vec")}
        for path in self.dir.iterdir():
            if (path.name.endswith(".npy") and path.name not in live) or path.name.startswith(".tmp-"):
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
        self._state = None

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.dir.mkdir(parents=True, exist_ok=True)
        try:
            import fcntl
        except ImportError:  # no flock (Windows): replace-on-write still keeps files whole
            yield
            return
        with (self.dir / "lock").open("a") as fh:
            deadline = time.monotonic() + self.lock_timeout
            while True:
                try:
                    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise LockTimeout(f"another process is writing {self.dir}",
                                          hint="wait for it, or delete the folder to rebuild it") from None
                    time.sleep(0.05)
            try:
                yield
            finally:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)

    # loading ---------------------------------------------------------------------------------

    def _load(self) -> _State:
        path = self.dir / "manifest.json"
        try:
            st = path.stat()
            stamp = (st.st_mtime_ns, st.st_ino, st.st_size)
        except FileNotFoundError:
            stamp = (0, 0, 0)
        if self._state is not None and self._state.stamp == stamp:
            return self._state
        for _ in range(5):  # a writer may delete the segments of the manifest just read: read again
            try:
                self._state = _State(stamp, *self._read_segments(path)) if stamp[2] else _State(stamp, [], {})
                return self._state
            except FileNotFoundError:
                time.sleep(0.01)
            except (OSError, ValueError, KeyError, TypeError):
                break  # corrupt: treat as empty, the next write replaces it
        self._state = _State(stamp, [], {})
        return self._state

    def _read_segments(self, path: Path) -> tuple[list[_Segment], dict[str, int]]:
        import numpy as np

        manifest: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT or manifest.get("embedder") != self.embedder.name:
            raise ValueError("sidecar written by another format or embedder")
        segments: list[_Segment] = []
        index: dict[str, int] = {}
        for seg_id in manifest["segments"]:
            keys = np.load(self.dir / f"{seg_id}.keys.npy").tolist()
            vectors = np.load(self.dir / f"{seg_id}.vec.npy", mmap_mode="r")
            if vectors.shape != (len(keys), self.embedder.dim):
                raise ValueError(f"segment {seg_id} has shape {vectors.shape}")
            base = len(index)
            index.update((k, base + i) for i, k in enumerate(keys) if k not in index)
            if len(index) != base + len(keys):
                raise ValueError(f"segment {seg_id} repeats a hash")
            segments.append(_Segment(seg_id, keys, vectors))
        return segments, index


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """The indices of the ``k`` highest scores, highest first (ties in index order)."""
    import numpy as np

    top = np.argpartition(-scores, k - 1)[:k] if 0 < k < len(scores) else np.arange(len(scores))
    return top[np.argsort(-scores[top], kind="stable")]


def _dot(vectors: np.ndarray, q: np.ndarray) -> np.ndarray:
    import numpy as np

    if vectors.dtype == np.float32:
        out: np.ndarray = vectors @ q
        return out
    block = 16384  # convert half precision a block at a time: bounded memory, BLAS for the product
    return np.concatenate([np.asarray(vectors[i: i + block], dtype=np.float32) @ q
                           for i in range(0, len(vectors), block)] or [np.zeros(0, np.float32)])


def _write_npy(path: Path, array: np.ndarray) -> None:
    import numpy as np

    tmp = path.with_name(f".tmp-{path.name}")
    with tmp.open("wb") as fh:
        np.save(fh, array, allow_pickle=False)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform can open a directory
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _slug(name: str) -> str:
    """A folder name for an embedder: readable, and unique by a short hash of the full name."""
    readable = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-")[:60]
    return f"{readable}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"
