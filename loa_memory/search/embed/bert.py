"""BERT and MPNet encoders' forward pass in numpy, with mean pooling: what sentence-transformers runs.

MPNet is BERT with other weight names, no token types, positions counted from 2, and a learned
bias per head on the attention scores for each bucket of relative distance (shared by all layers).

float32 throughout; the matrix products go to numpy's BLAS. GELU is the exact (erf) form,
with erf from Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, NamedTuple

if TYPE_CHECKING:
    import numpy as np

    from loa_memory.search.embed.wordpiece import WordPiece

_BATCH = 8


class _Layer(NamedTuple):
    qkv_w: np.ndarray  # (hidden, 3 * hidden), so x @ qkv_w gives q|k|v
    qkv_b: np.ndarray
    out_w: np.ndarray
    out_b: np.ndarray
    ln1_g: np.ndarray
    ln1_b: np.ndarray
    up_w: np.ndarray
    up_b: np.ndarray
    down_w: np.ndarray
    down_b: np.ndarray
    ln2_g: np.ndarray
    ln2_b: np.ndarray


class BertEncoder:
    """Weights of a ``BertModel`` (Hugging Face names) and a pooled, normalised forward pass."""

    # Where a layer's attention weights live, under encoder.layer.N.attention.
    _ATTENTION: ClassVar[dict[str, str]] = {"q": "self.query", "k": "self.key", "v": "self.value",
                                            "o": "output.dense", "norm": "output.LayerNorm"}
    pad_id = 0

    def __init__(self, tensors: Mapping[str, np.ndarray], *, heads: int, eps: float = 1e-12) -> None:
        self.heads = heads
        self.eps = eps
        self.word = _get(tensors, "embeddings.word_embeddings.weight")
        self.pos = _get(tensors, "embeddings.position_embeddings.weight")
        self.ln_g = _get(tensors, "embeddings.LayerNorm.weight")
        self.ln_b = _get(tensors, "embeddings.LayerNorm.bias")
        self.layers = _read_layers(tensors, self._ATTENTION)
        self.hidden = self.word.shape[1]
        self._init_extra(tensors)

    def _init_extra(self, tensors: Mapping[str, np.ndarray]) -> None:
        self.type0 = _get(tensors, "embeddings.token_type_embeddings.weight")[0]

    def encode(self, batch: Sequence[Sequence[int]]) -> np.ndarray:
        """Mean-pooled, L2-normalised sentence vectors for token id lists (one batch)."""
        import numpy as np

        n, length = len(batch), max(len(ids) for ids in batch)
        ids = np.full((n, length), self.pad_id, dtype=np.int64)
        mask = np.zeros((n, length), dtype=np.float32)
        for row, seq in enumerate(batch):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1.0
        x = _layer_norm(self._embed(ids), self.ln_g, self.ln_b, self.eps)
        # Padded keys get the most negative float32, as transformers does, so they weigh 0.
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        bias = self._add_position_bias(bias, length)
        for layer in self.layers:
            x = self._block(x, bias, layer)
        summed = np.einsum("nld,nl->nd", x, mask)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        out: np.ndarray = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return out

    def _embed(self, ids: np.ndarray) -> np.ndarray:
        out: np.ndarray = self.word[ids] + self.pos[: ids.shape[1]] + self.type0
        return out

    def _add_position_bias(self, bias: np.ndarray, length: int) -> np.ndarray:
        return bias  # BERT's positions are absolute, in the embeddings

    def _block(self, x: np.ndarray, bias: np.ndarray, w: _Layer) -> np.ndarray:
        import numpy as np

        n, length, hidden = x.shape
        heads, size = self.heads, hidden // self.heads
        flat = x.reshape(n * length, hidden)
        qkv = (flat @ w.qkv_w + w.qkv_b).reshape(n, length, 3, heads, size)
        q, k, v = (qkv[:, :, j] for j in range(3))  # (n, length, heads, size) views
        # einsum hands these batched products to BLAS; matmul on the 4-d views is ~3x slower here.
        scores = np.einsum("nlhd,nmhd->nhlm", q, k, optimize=True)
        scores *= np.float32(1.0 / np.sqrt(size))
        scores += bias
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        ctx = np.einsum("nhlm,nmhd->nlhd", scores, v, optimize=True).reshape(n * length, hidden)
        h = _layer_norm(ctx @ w.out_w + w.out_b + flat, w.ln1_g, w.ln1_b, self.eps)
        up = _gelu(h @ w.up_w + w.up_b)
        out = _layer_norm(up @ w.down_w + w.down_b + h, w.ln2_g, w.ln2_b, self.eps)
        return out.reshape(n, length, hidden)


class MPNetEncoder(BertEncoder):
    """Weights of an ``MPNetModel`` (Hugging Face names), e.g. all-mpnet-base-v2."""

    _ATTENTION: ClassVar[dict[str, str]] = {"q": "attn.q", "k": "attn.k", "v": "attn.v", "o": "attn.o",
                                            "norm": "LayerNorm"}
    pad_id = 1
    _FIRST_POSITION = 2  # positions start after the padding index (1), as transformers counts them

    def _init_extra(self, tensors: Mapping[str, np.ndarray]) -> None:
        self.relative = _get(tensors, "encoder.relative_attention_bias.weight")  # (buckets, heads)

    def _embed(self, ids: np.ndarray) -> np.ndarray:
        first = self._FIRST_POSITION
        out: np.ndarray = self.word[ids] + self.pos[first: first + ids.shape[1]]
        return out

    def _add_position_bias(self, bias: np.ndarray, length: int) -> np.ndarray:
        import numpy as np

        buckets = relative_buckets(length, self.relative.shape[0])
        position = self.relative[buckets].transpose(2, 0, 1)[None]  # (1, heads, query, key)
        # The padding bias is already the most negative float32: clip so the sum stays finite.
        out: np.ndarray = np.maximum(bias + position, np.finfo(np.float32).min)
        return out


def relative_buckets(length: int, buckets: int = 32, max_distance: int = 128) -> np.ndarray:
    """The bucket of each (query, key) distance in a sequence, as MPNet (and T5) assign them.

    Half the buckets are for keys before the query, half for keys after; within each half, distances
    below a quarter of ``buckets`` get one bucket each, and longer ones share buckets on a log scale
    up to ``max_distance``.
    """
    import numpy as np

    position = np.arange(length)
    distance = position[None, :] - position[:, None]  # key minus query
    half = buckets // 2
    exact = half // 2
    out = np.where(distance > 0, half, 0)
    n = np.abs(distance)
    far = exact + (np.log(np.maximum(n, 1) / exact) / np.log(max_distance / exact) * (half - exact))
    far = np.minimum(far.astype(np.int64), half - 1)
    result: np.ndarray = out + np.where(n < exact, n, far)
    return result


def embed_batched(load: Callable[[], tuple[WordPiece, BertEncoder]], texts: Sequence[str], max_tokens: int,
                  dim: int) -> np.ndarray:
    """Vectors for ``texts`` in order, run in batches of similar length (less work wasted on padding).

    ``load`` gives the tokenizer and encoder; it is not called for no texts.
    """
    import numpy as np

    out = np.zeros((len(texts), dim), dtype=np.float32)
    if not texts:
        return out
    tokenizer, encoder = load()
    ids = [tokenizer.encode(t, max_tokens) for t in texts]
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    for start in range(0, len(order), _BATCH):
        rows = order[start: start + _BATCH]
        out[rows] = encoder.encode([ids[i] for i in rows])
    return out


def _get(tensors: Mapping[str, np.ndarray], name: str) -> np.ndarray:
    import numpy as np

    return np.asarray(tensors[name], dtype=np.float32)


def _read_layers(tensors: Mapping[str, np.ndarray], attention: Mapping[str, str]) -> list[_Layer]:
    import numpy as np

    def get_t(name: str) -> np.ndarray:
        return np.ascontiguousarray(_get(tensors, name).T)

    layers = []
    i = 0
    while f"encoder.layer.{i}.attention.{attention['q']}.weight" in tensors:
        p = f"encoder.layer.{i}."
        a = {key: f"{p}attention.{name}." for key, name in attention.items()}
        # torch Linear keeps (out, in); transpose once so every product is x @ W.
        qkv_w = np.concatenate([_get(tensors, a[n] + "weight") for n in "qkv"]).T
        qkv_b = np.concatenate([_get(tensors, a[n] + "bias") for n in "qkv"])
        layers.append(_Layer(
            np.ascontiguousarray(qkv_w), qkv_b,
            get_t(a["o"] + "weight"), _get(tensors, a["o"] + "bias"),
            _get(tensors, a["norm"] + "weight"), _get(tensors, a["norm"] + "bias"),
            get_t(p + "intermediate.dense.weight"), _get(tensors, p + "intermediate.dense.bias"),
            get_t(p + "output.dense.weight"), _get(tensors, p + "output.dense.bias"),
            _get(tensors, p + "output.LayerNorm.weight"), _get(tensors, p + "output.LayerNorm.bias"),
        ))
        i += 1
    return layers


def _layer_norm(x: np.ndarray, g: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    import numpy as np

    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    var = np.mean(centred * centred, axis=-1, keepdims=True)
    out: np.ndarray = centred / np.sqrt(var + np.float32(eps)) * g + b
    return out


def _gelu(x: np.ndarray) -> np.ndarray:
    """x * Φ(x) = x/2 * (1 + erf(x/√2)), computed in place in ``x`` with two scratch arrays."""
    import numpy as np

    f32 = np.float32
    z = x * f32(0.7071067811865476)
    a = np.abs(z)
    sign = np.sign(z, out=z)  # z is not needed after this
    t = a * f32(0.3275911)
    t += f32(1.0)
    np.reciprocal(t, out=t)
    poly = np.empty_like(t)
    np.multiply(t, f32(1.061405429), out=poly)
    for coef in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly += f32(coef)
        poly *= t
    np.multiply(a, a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a  # 1 - erf(|z|)
    np.subtract(f32(1.0), poly, out=poly)  # erf(|z|)
    poly *= sign  # erf(z)
    poly += f32(1.0)
    x *= f32(0.5)
    x *= poly
    return x
