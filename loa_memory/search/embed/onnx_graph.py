"""The BERT (all-MiniLM-L6-v2) and MPNet (all-mpnet-base-v2) sentence encoders as ONNX graphs, built from the
same weight arrays the numpy encoders read, with mean pooling and normalisation inside the graph.

Written with ``onnx.helper`` only (no torch, no exporter), so the model is reproducible from the installed
safetensors file alone. Per layer: one q|k|v ``MatMul``, onnxruntime's fused ``MultiHeadAttention`` (padding
mask and MPNet's relative position bias inside the kernel), then ``Add``/``LayerNormalization`` and exact
(erf) ``Gelu`` around the other three products. Every weight product is a plain ``MatMul`` with a constant
right-hand side, so dynamic int8 quantization (``onnx_build``) turns each into ``DynamicQuantizeMatMul``.

Inputs ``input_ids`` and ``attention_mask`` (int64, ``[batch, seq]``); output ``embedding`` (float32,
``[batch, dim]``, rows L2-normalised), equal to ``BertEncoder.encode`` within float rounding in float32.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import onnx

    from loa_memory.search.embed.bert import BertEncoder, _Layer

# Bump whenever the graph changes what it computes or how: it is part of the cached file's name.
GRAPH_VERSION = 2
OPSET = 17  # LayerNormalization is in the default domain from 17 on
_MS = "com.microsoft"
# onnxruntime fusions that bring back kernels measured slower on this CPU (onnxruntime 1.32: SkipLayerNorm ~4x
# slower than Add, Add, LayerNormalization; MiniLM int8 90 against 72 entries/s): the session disables them.
UNFUSE = ("SkipLayerNormFusion", "BiasGeluFusion")
Progress = Callable[[str], None]

Outliers = Mapping[str, Sequence[int]]
"""Input channels to take out of a weight product (by MatMul name, e.g. ``l7_down``) and multiply in float32 on
the side: the few channels whose activations are tens of times larger than the rest."""


def build_graph(
    encoder: BertEncoder, *, mpnet: bool, outliers: Outliers | None = None, progress: Progress | None = None
) -> onnx.ModelProto:
    """The whole encoder as one ONNX model, reading the weight arrays of a loaded numpy ``encoder``.

    Taking the project's encoder object (rather than re-reading names from the safetensors file) means the
    graph and the numpy path cannot disagree on which tensor is which. ``outliers`` splits those products in
    two; the result is the same in float32.
    """
    import onnx

    say = progress or (lambda _msg: None)
    g = _Builder(outliers or {})
    ids = onnx.helper.make_tensor_value_info("input_ids", onnx.TensorProto.INT64, ["batch", "seq"])
    mask = onnx.helper.make_tensor_value_info("attention_mask", onnx.TensorProto.INT64, ["batch", "seq"])
    out = onnx.helper.make_tensor_value_info("embedding", onnx.TensorProto.FLOAT, ["batch", encoder.hidden])
    x = _embeddings(g, encoder, mpnet)
    key_mask = g.node("Cast", ["attention_mask"], to=onnx.TensorProto.INT32)
    position_bias = _relative_bias(g, encoder) if mpnet else None
    for number, layer in enumerate(encoder.layers):
        say(f"layer {number + 1}/{len(encoder.layers)}")
        x = _layer(g, x, key_mask, position_bias, layer, encoder, f"l{number}")
    g.pool_and_normalise(x, "embedding")
    graph = onnx.helper.make_graph(g.nodes, "mpnet" if mpnet else "bert", [ids, mask], [out], g.initializers)
    model = onnx.helper.make_model(
        graph,
        opset_imports=[onnx.helper.make_opsetid("", OPSET), onnx.helper.make_opsetid(_MS, 1)],
        producer_name="loa-memory",
        producer_version=str(GRAPH_VERSION),
    )
    model.ir_version = 8  # what onnxruntime releases from 1.14 on all read
    return model


class _Builder:
    """Collects nodes and initializers, naming every intermediate value uniquely."""

    def __init__(self, outliers: Outliers) -> None:
        self.outliers = outliers
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self._count = 0

    def name(self, hint: str) -> str:
        self._count += 1
        return f"{hint}_{self._count}"

    def const(self, hint: str, value: np.ndarray) -> str:
        import onnx

        name = self.name(hint)
        self.initializers.append(onnx.numpy_helper.from_array(value, name))
        return name

    def ints(self, hint: str, values: Sequence[int]) -> str:
        import numpy as np

        return self.const(hint, np.asarray(values, dtype=np.int64))

    def node(self, op: str, inputs: Sequence[str], *, domain: str = "", name: str | None = None, **attrs: Any) -> str:
        """Add one node and return its output's name."""
        import onnx

        first = name or self.name(op)
        self.nodes.append(
            onnx.helper.make_node(op, list(inputs), [first], name=f"{first}_node", domain=domain, **attrs)
        )
        return first

    def matmul(self, x: str, weight: np.ndarray, name: str) -> str:
        """``x @ weight``; if ``name`` has outlier channels, those go through a small float32 product.

        The main product sees ``x`` with the outlier channels zeroed, so its int8 activation scale (one per
        tensor, from the min and max) is set by ordinary values, not by a few huge ones (LLM.int8()'s
        decomposition, in standard ops).
        """
        import numpy as np

        channels = list(self.outliers.get(name, ()))
        if not channels:
            return self.node("MatMul", [x, self.const(f"{name}_w", weight)], name=name)
        keep = np.ones(weight.shape[0], dtype=np.float32)
        keep[channels] = 0.0
        rest = self.node("Mul", [x, self.const(f"{name}_keep", keep)])
        main = self.node("MatMul", [rest, self.const(f"{name}_w", weight)], name=name)
        picked = self.node("Gather", [x, self.ints(f"{name}_channels", channels)], axis=-1)
        side = self.node(
            "MatMul",
            [picked, self.const(f"{name}_side_w", np.ascontiguousarray(weight[channels]))],
            name=f"{name}_side",
        )
        return self.node("Add", [main, side])

    def pool_and_normalise(self, x: str, output: str) -> None:
        """Mean over the unpadded tokens, then divide by the L2 norm (floors as in the numpy code)."""
        import numpy as np
        import onnx

        f32 = np.float32
        weights = self.node("Cast", ["attention_mask"], to=onnx.TensorProto.FLOAT)  # (batch, seq)
        summed = self.node(
            "ReduceSum",
            [self.node("Mul", [x, self.node("Unsqueeze", [weights, self.ints("ax", [2])])]), self.ints("ax", [1])],
            keepdims=0,
        )
        count = self.node("ReduceSum", [weights, self.ints("ax", [1])], keepdims=1)
        pooled = self.node("Div", [summed, self.node("Max", [count, self.const("tiny", np.array(1e-9, f32))])])
        norm = self.node(
            "Sqrt", [self.node("ReduceSum", [self.node("Mul", [pooled, pooled]), self.ints("ax", [1])], keepdims=1)]
        )
        norm = self.node("Max", [norm, self.const("tiny", np.array(1e-12, f32))])
        self.node("Div", [pooled, norm], name=output)


def _embeddings(g: _Builder, encoder: BertEncoder, mpnet: bool) -> str:
    """Word plus position (plus, for BERT, token type 0) embeddings, layer-normalised.

    BERT's constant token-type row is folded into the position table; MPNet's positions start at 2, so its
    table is stored from row 2 on. Either way the graph slices the first ``seq`` rows.
    """
    import numpy as np

    table = np.ascontiguousarray(encoder.pos[2:]) if mpnet else encoder.pos + encoder.type0
    words = g.node("Gather", [g.const("word_embeddings", encoder.word), "input_ids"])
    seq = g.node("Slice", [g.node("Shape", ["input_ids"]), g.ints("i", [1]), g.ints("i", [2])])
    positions = g.node("Slice", [g.const("position_embeddings", table), g.ints("i", [0]), seq, g.ints("i", [0])])
    summed = g.node("Add", [words, positions])
    return g.node(
        "LayerNormalization",
        [summed, g.const("ln_g", encoder.ln_g), g.const("ln_b", encoder.ln_b)],
        axis=-1,
        epsilon=encoder.eps,
    )


def _relative_bias(g: _Builder, encoder: BertEncoder) -> str:
    """MPNet's ``(1, heads, seq, seq)`` attention bias, shared by all layers.

    Buckets come from the project's own ``relative_buckets`` for the longest sequence the position table
    allows. A bucket depends only on key minus query, so the top-left ``seq x seq`` corner of that table is
    exactly what the numpy code computes for ``seq`` tokens.
    """
    import numpy as np
    import onnx

    from loa_memory.search.embed.bert import relative_buckets

    relative = encoder.relative  # type: ignore[attr-defined]  # (buckets, heads), MPNet only
    longest = encoder.pos.shape[0] - 2
    buckets = relative_buckets(longest, relative.shape[0]).astype(np.uint8)  # 32 buckets fit a byte
    seq = g.node("Slice", [g.node("Shape", ["input_ids"]), g.ints("i", [1]), g.ints("i", [2])])
    corner = g.node(
        "Slice",
        [g.const("buckets", buckets), g.ints("i", [0, 0]), g.node("Concat", [seq, seq], axis=0), g.ints("i", [0, 1])],
    )
    index = g.node("Cast", [corner], to=onnx.TensorProto.INT32)
    bias = g.node("Gather", [g.const("relative_attention_bias", np.asarray(relative, np.float32)), index])
    return g.node("Unsqueeze", [g.node("Transpose", [bias], perm=[2, 0, 1]), g.ints("ax", [0])], name="position_bias")


def _layer(
    g: _Builder, x: str, key_mask: str, position_bias: str | None, layer: _Layer, encoder: BertEncoder, tag: str
) -> str:
    """One transformer block: attention, add & norm, feed-forward, add & norm (post-norm, as BERT)."""
    qkv = g.matmul(x, layer.qkv_w, f"{tag}_qkv")
    hidden = encoder.hidden
    q, k, v = (
        g.node("Slice", [qkv, g.ints("i", [j * hidden]), g.ints("i", [(j + 1) * hidden]), g.ints("ax", [2])])
        for j in range(3)
    )
    inputs = [q, k, v, g.const(f"{tag}_qkv_b", layer.qkv_b), key_mask]
    if position_bias is not None:
        inputs.append(position_bias)
    ctx = g.node("MultiHeadAttention", inputs, domain=_MS, num_heads=encoder.heads)
    out = g.matmul(ctx, layer.out_w, f"{tag}_out")
    h = _add_norm(g, out, x, layer.out_b, layer.ln1_g, layer.ln1_b, encoder.eps, f"{tag}_ln1")
    up = g.matmul(h, layer.up_w, f"{tag}_up")
    act = g.node("Gelu", [g.node("Add", [up, g.const(f"{tag}_up_b", layer.up_b)])], domain=_MS)
    down = g.matmul(act, layer.down_w, f"{tag}_down")
    return _add_norm(g, down, h, layer.down_b, layer.ln2_g, layer.ln2_b, encoder.eps, f"{tag}_ln2")


def _add_norm(
    g: _Builder, x: str, skip: str, bias: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float, tag: str
) -> str:
    """LayerNorm(x + bias + skip), in plain ops (see ``UNFUSE``)."""
    summed = g.node("Add", [g.node("Add", [x, g.const(f"{tag}_bias", bias)]), skip])
    return g.node(
        "LayerNormalization", [summed, g.const(f"{tag}_g", gamma), g.const(f"{tag}_b", beta)], axis=-1, epsilon=eps
    )
