"""How far the ONNX vectors are from the numpy ones the project stores, and whether search notices.

    .venv/bin/python check.py [mpnet] [minilm]        (both by default; writes check.json)

For each model: cosine between the numpy float32 reference and (a) ONNX float32, (b) ONNX int8, on
300 real memory texts of ~700 bytes (the project's ``embedding_text`` of the retrieval benchmark's
memories and the grimoire), on tokenizer edge cases, and top-5 agreement for 50 benchmark queries
searched over those 300 texts. It also times building the int8 model from the weights.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus
from onnx_runtime import ModelName, OnnxEmbedder, Precision, model_path
from tok_check import EDGE

if TYPE_CHECKING:
    import numpy as np

OUT = Path(__file__).resolve().parent / "check.json"


def reference(model: ModelName, texts: list[str]) -> np.ndarray:
    """The project's own numpy vectors."""
    from loa_memory.search.embed import get_embedder

    vectors: np.ndarray = get_embedder(model).embed(texts)
    return vectors


def cosines(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    import numpy as np

    cos = (a * b).sum(axis=1)
    return {"min": float(cos.min()), "p1": float(np.percentile(cos, 1)), "mean": float(cos.mean())}


def top5_agreement(ref_docs: np.ndarray, ref_q: np.ndarray, docs: np.ndarray, q: np.ndarray) -> dict[str, float]:
    """Mean share of the reference top 5 found in the candidate's top 5, and how often top 1 matches."""
    import numpy as np

    want = np.argsort(-(ref_q @ ref_docs.T), axis=1)[:, :5]
    got = np.argsort(-(q @ docs.T), axis=1)[:, :5]
    overlap = [len(set(w) & set(g)) / 5 for w, g in zip(want, got, strict=True)]
    return {"top5_overlap": float(np.mean(overlap)), "top1_same": float(np.mean(want[:, 0] == got[:, 0]))}


def build_seconds(model: ModelName) -> float:
    """Time to build, calibrate and quantize the int8 model from the weights (nothing written)."""
    import onnx_runtime as rt
    from onnx_graph import build_graph
    from onnx_quant import CALIBRATION, QuantOptions, find_outliers, quantize

    start = time.perf_counter()
    weights = rt.locate(model)
    encoder = rt._encoder(weights)
    proto = build_graph(encoder, mpnet=weights.mpnet)
    tokenizer, pad = rt._tokenizer(weights), rt._pad_id(weights)
    outliers = find_outliers(proto, [rt.pad_batch([tokenizer.encode(t, 256) for t in CALIBRATION], pad)],
                             QuantOptions())
    quantize(build_graph(encoder, mpnet=weights.mpnet, outliers=outliers), QuantOptions())
    return time.perf_counter() - start


def check(model: ModelName) -> dict[str, Any]:
    texts, queries, edge = corpus.sample(), corpus.queries(50), EDGE + [t.upper() for t in EDGE]
    ref, ref_q, ref_edge = reference(model, texts), reference(model, queries), reference(model, edge)
    result: dict[str, Any] = {"texts": len(texts), "mean_bytes": sum(len(t.encode()) for t in texts) / len(texts),
                              "build_int8_s": build_seconds(model)}
    precisions: tuple[Precision, ...] = ("fp32", "int8")
    for prec in precisions:
        embedder = OnnxEmbedder(model, prec)
        vecs, q, e = embedder.embed(texts), embedder.embed(queries), embedder.embed(edge)
        result[prec] = {"name": embedder.name, "cosine": cosines(vecs, ref), "edge_cosine": cosines(e, ref_edge),
                             "retrieval": top5_agreement(ref, ref_q, vecs, q),
                             "file_mb": model_path(model, prec).stat().st_size / 1e6}
    return result


def main(argv: list[str]) -> None:
    known: tuple[ModelName, ...] = ("mpnet", "minilm")
    models = [m for m in known if not argv or m in argv]
    report = json.loads(OUT.read_text()) if OUT.is_file() else {}
    for model in models:
        report[model] = check(model)
        for precision in ("fp32", "int8"):
            r = report[model][precision]
            c, e, t = r["cosine"], r["edge_cosine"], r["retrieval"]
            print(f"{model:6s} {precision}: cosine vs numpy min {c['min']:.5f} p1 {c['p1']:.5f} mean {c['mean']:.5f}; "
                  f"edge cases min {e['min']:.5f}; top-5 overlap {t['top5_overlap']:.3f}, top-1 same "
                  f"{t['top1_same']:.2f} (50 queries); file {r['file_mb']:.0f} MB")
        print(f"{model:6s} build+quantize from weights: {report[model]['build_int8_s']:.1f} s")
    OUT.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main(sys.argv[1:])
