"""A BERT encoder's forward pass in numpy, with mean pooling: what sentence-transformers runs.

float32 throughout; the matrix products go to numpy's BLAS. GELU is the exact (erf) form,
with erf from Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import numpy as np


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

    def __init__(self, tensors: Mapping[str, np.ndarray], *, heads: int, eps: float = 1e-12) -> None:
        import numpy as np

        def get(name: str) -> np.ndarray:
            return np.asarray(tensors[name], dtype=np.float32)

        def get_t(name: str) -> np.ndarray:
            return np.ascontiguousarray(get(name).T)

        self.heads = heads
        self.eps = eps
        self.word = get("embeddings.word_embeddings.weight")
        self.pos = get("embeddings.position_embeddings.weight")
        self.type0 = get("embeddings.token_type_embeddings.weight")[0]
        self.ln_g = get("embeddings.LayerNorm.weight")
        self.ln_b = get("embeddings.LayerNorm.bias")
        self.layers: list[_Layer] = []
        i = 0
        while f"encoder.layer.{i}.attention.self.query.weight" in tensors:
            p = f"encoder.layer.{i}."
            a = p + "attention."
            # torch Linear keeps (out, in); transpose once so every product is x @ W.
            qkv_w = np.concatenate([get(a + f"self.{n}.weight") for n in ("query", "key", "value")]).T
            qkv_b = np.concatenate([get(a + f"self.{n}.bias") for n in ("query", "key", "value")])
            self.layers.append(_Layer(
                np.ascontiguousarray(qkv_w), qkv_b,
                get_t(a + "output.dense.weight"), get(a + "output.dense.bias"),
                get(a + "output.LayerNorm.weight"), get(a + "output.LayerNorm.bias"),
                get_t(p + "intermediate.dense.weight"), get(p + "intermediate.dense.bias"),
                get_t(p + "output.dense.weight"), get(p + "output.dense.bias"),
                get(p + "output.LayerNorm.weight"), get(p + "output.LayerNorm.bias"),
            ))
            i += 1
        self.hidden = self.word.shape[1]
        self.max_positions = self.pos.shape[0]

    def encode(self, batch: Sequence[Sequence[int]]) -> np.ndarray:
        """Mean-pooled, L2-normalised sentence vectors for token id lists (one batch)."""
        import numpy as np

        n, length = len(batch), max(len(ids) for ids in batch)
        ids = np.zeros((n, length), dtype=np.int64)
        mask = np.zeros((n, length), dtype=np.float32)
        for row, seq in enumerate(batch):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1.0
        x = self.word[ids] + self.pos[:length] + self.type0
        x = _layer_norm(x, self.ln_g, self.ln_b, self.eps)
        # Padded keys get the most negative float32, as transformers does, so they weigh 0.
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        for layer in self.layers:
            x = self._block(x, bias, layer)
        summed = np.einsum("nld,nl->nd", x, mask)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        out: np.ndarray = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return out

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
