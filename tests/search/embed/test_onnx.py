"""The int8 runtime: its vectors against the numpy reference on real memories, the choice of runtime and its
fallback, and the built model's cache (digest check, rebuild, one builder at a time)."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from loa_memory.errors import ConfigError
from loa_memory.search import embed
from loa_memory.search.embed import embedding_text, minilm, mpnet, onnx_build, onnx_embed
from loa_memory.store import load_config
from loa_memory.store.load import load_grimoire

REPO = Path(__file__).resolve().parents[3]
needs_runtime = pytest.mark.skipif(not onnx_embed.is_installed(), reason="onnxruntime is not installed")
# The least cosine an int8 vector may have with the float32 numpy one, on this repository's own memories
# (measured: MPNet 0.992, MiniLM 0.997 at worst; benchmarks/reports/embed-int8.md).
MIN_COSINE = 0.98


def _real_memories() -> list[str]:
    grimoire = load_grimoire(load_config(REPO))
    return [embedding_text(e) for e in grimoire.keyed.values()]


@needs_runtime
@pytest.mark.parametrize(
    ("name", "available", "sample"),
    [
        ("minilm", minilm.is_available, None),
        ("mpnet", mpnet.is_available, 16),  # the longest 16: numpy MPNet is slow (2.5 entries/s)
    ],
)
def test_int8_vectors_stay_close_to_the_numpy_reference(name: str, available: object, sample: int | None) -> None:
    if not callable(available) or not available():
        pytest.skip(f"{name} is not installed")
    texts = _real_memories()
    assert len(texts) >= 30, "this repository's grimoire should hold real memories"
    if sample:
        texts = sorted(texts, key=len)[-sample:]
    int8 = embed.get_embedder(name, "onnx")
    reference = embed.get_embedder(name, "numpy")
    assert "onnx-int8" in int8.name and "numpy" in reference.name  # their vectors are never mixed
    cosines = np.sum(int8.embed(texts) * reference.embed(texts), axis=1)
    assert float(cosines.min()) >= MIN_COSINE, sorted(cosines)[:3]


@needs_runtime
def test_the_runtime_is_chosen_by_environment_then_config(monkeypatch: pytest.MonkeyPatch) -> None:
    if not minilm.is_available():
        pytest.skip("MiniLM is not installed")
    assert embed.get_embedder("minilm").name.startswith("all-MiniLM-L6-v2/onnx-int8-")
    assert embed.get_embedder("minilm", "numpy").name == "all-MiniLM-L6-v2/numpy-v1/t256"
    monkeypatch.setenv(embed.RUNTIME_ENV, "numpy")
    assert embed.get_embedder("minilm", "onnx").name == "all-MiniLM-L6-v2/numpy-v1/t256"  # the variable wins
    assert embed.get_embedder("hashing").name == "hash-char-ngrams/v1/d256"  # no runtime to choose
    monkeypatch.setenv(embed.RUNTIME_ENV, "gpu")
    with pytest.raises(ConfigError, match="LOA_MEMORY_EMBED_RUNTIME is 'gpu'") as info:
        embed.get_embedder("minilm")
    assert info.value.hint == "use auto, onnx or numpy"


def test_without_onnxruntime_numpy_is_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    if not minilm.is_available():
        pytest.skip("MiniLM is not installed")
    monkeypatch.setattr(onnx_embed, "is_installed", lambda: False)
    assert embed.get_embedder("minilm").name == "all-MiniLM-L6-v2/numpy-v1/t256"
    with pytest.raises(ConfigError, match="needs onnxruntime and onnx") as info:
        embed.get_embedder("minilm", "onnx")  # asked for by name: an error that says what to do
    assert info.value.hint is not None and "pip install onnxruntime onnx" in info.value.hint


@needs_runtime
def test_the_model_is_built_once_checked_by_digest_and_rebuilt_when_corrupt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not minilm.is_available():
        pytest.skip("MiniLM is not installed")
    monkeypatch.setenv("LOA_MEMORY_MODEL_CACHE", str(tmp_path / "models"))
    onnx_embed._LOADED.clear()
    heard: list[str] = []
    first = onnx_embed.model_path("minilm", heard.append)
    assert first.parent.parent == tmp_path / "models" and first.suffix == ".onnx"
    assert heard[0].startswith("building the int8 model of all-MiniLM-L6-v2") and "quantizing to int8" in heard
    assert onnx_build.verify(first) and onnx_embed.is_built("minilm")
    stamp = first.stat().st_mtime_ns
    heard.clear()
    assert onnx_embed.model_path("minilm", heard.append) == first and heard == []  # verified, not rebuilt
    assert first.stat().st_mtime_ns == stamp
    data = bytearray(first.read_bytes())
    data[len(data) // 2] ^= 0xFF
    first.write_bytes(bytes(data))
    assert not onnx_build.verify(first)
    assert onnx_embed.model_path("minilm", heard.append) == first and heard  # rebuilt
    assert onnx_build.verify(first)
    assert sorted(p.name for p in first.parent.iterdir() if not p.name.startswith(".")) == [
        first.name,
        first.name + ".sha256",
        first.name + ".verified",
    ]  # no temporary file left
    onnx_embed._LOADED.clear()


def test_concurrent_builders_build_once(tmp_path: Path) -> None:
    builds: list[int] = []
    started = threading.Event()

    def build(_say: object) -> bytes:
        builds.append(1)
        started.set()
        threading.Event().wait(0.3)  # long enough for the other thread to find the lock taken
        return b"model bytes"

    paths: list[Path] = []

    def run() -> None:
        paths.append(onnx_build.cached_model(tmp_path, "m", build))

    threads = [threading.Thread(target=run)]
    threads[0].start()
    started.wait(5)
    threads.append(threading.Thread(target=run))
    threads[1].start()
    for t in threads:
        t.join(10)
    assert builds == [1] and paths == [tmp_path / "m.onnx"] * 2
    assert (tmp_path / "m.onnx").read_bytes() == b"model bytes" and onnx_build.verify(tmp_path / "m.onnx")
