"""Entries per second: numpy float32 vs ONNX float32 vs ONNX int8, both models, in one process.

    .venv/bin/python bench.py [--rounds 3] [--texts 120]       (writes bench.json)

Also, in the same run: a calibration (numpy float32 GEMM GFLOP/s; onnxruntime's int8 GEMM on
1024x768 @ 768x3072 as the int8 peak this machine reaches) to express each model's achieved
int8 throughput as a fraction of it; int8 batch sizes; session start time; and the peak RSS of a
fresh process that loads each path and embeds 100 texts.

The machine is shared: every measurement waits for a quiet moment, records the CPU share others
took meanwhile (``timing``), and the quietest of ``--rounds`` is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import numpy as np  # noqa: E402

import corpus  # noqa: E402
import timing  # noqa: E402
from onnx_runtime import ModelName, OnnxEmbedder, model_path  # noqa: E402

OUT = HERE / "bench.json"
# Shapes of one MPNet feed-forward product on a batch of ~1024 tokens (what the models spend most time on).
M, K, N = 1024, 768, 3072


def best(work: Callable[[], object], rounds: int) -> timing.Sample:
    samples = []
    for _ in range(rounds):
        timing.wait_for_quiet(0.05, 10)
        samples.append(timing.measure(work))
    return timing.quietest(samples)


def numpy_gflops(rounds: int) -> float:
    a = np.random.default_rng(0).standard_normal((M, K), dtype=np.float32)
    b = np.random.default_rng(1).standard_normal((K, N), dtype=np.float32)
    a @ b
    s = best(lambda: [a @ b for _ in range(20)], rounds)
    return 2 * M * K * N * 20 / s.seconds / 1e9


def _one_op_session(node: Any, inputs: list[Any], initializers: list[Any]) -> Any:
    import onnx
    import onnxruntime as ort

    graph = onnx.helper.make_graph([node], "g", inputs, [onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT
                                                         if node.op_type != "MatMulInteger" else onnx.TensorProto.INT32,
                                                         None)], initializers)
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 17),
                                                         onnx.helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    options = ort.SessionOptions()
    options.intra_op_num_threads = os.cpu_count() or 1
    return ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])


def int8_gops(rounds: int) -> dict[str, float]:
    """onnxruntime's int8 GEMM: MatMulInteger (u8 x s8, inputs already int8) and DynamicQuantizeMatMul
    (float in, activation quantized on the fly: the kernel the int8 models run)."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(2)
    a8 = rng.integers(0, 255, (M, K), dtype=np.uint8)
    w8 = rng.integers(-127, 127, (K, N), dtype=np.int8)
    af = rng.standard_normal((M, K), dtype=np.float32)
    pure = _one_op_session(helper.make_node("MatMulInteger", ["a", "w"], ["y"]),
                           [helper.make_tensor_value_info("a", TensorProto.UINT8, [M, K])],
                           [numpy_helper.from_array(w8, "w")])
    scales = numpy_helper.from_array(np.full(N, 0.01, np.float32), "s")
    dyn = _one_op_session(helper.make_node("DynamicQuantizeMatMul", ["a", "w", "s"], ["y"], domain="com.microsoft"),
                          [helper.make_tensor_value_info("a", TensorProto.FLOAT, [M, K])],
                          [numpy_helper.from_array(w8, "w"), scales])
    out = {}
    for name, sess, feed in (("matmulinteger", pure, {"a": a8}), ("dynamicquantizematmul", dyn, {"a": af})):
        sess.run(None, feed)
        s = best(_repeat(sess, feed, 20), rounds)
        out[name] = 2 * M * K * N * 20 / s.seconds / 1e9
    return out


def _repeat(sess: Any, feed: dict[str, np.ndarray], times: int) -> Callable[[], object]:
    return lambda: [sess.run(None, feed) for _ in range(times)]


def _embed(embedder: Any, texts: Sequence[str]) -> Callable[[], object]:
    return lambda: embedder.embed(texts)


def model_ops(model: ModelName, texts: Sequence[str], batch: int) -> float:
    """Multiply-adds x2 the encoder does on ``texts`` batched as the embedders batch them (padding counted)."""
    from onnx_runtime import _tokenizer, locate

    tokenizer = _tokenizer(locate(model))
    lengths = sorted(len(tokenizer.encode(t, 256)) for t in texts)
    hidden, ff, layers = (768, 3072, 12) if model == "mpnet" else (384, 1536, 6)
    total = 0.0
    for start in range(0, len(lengths), batch):
        rows = lengths[start: start + batch]
        s, n = max(rows), len(rows)
        total += layers * n * (s * (4 * hidden * hidden + 2 * hidden * ff) + 2 * s * s * hidden)
    return 2 * total


def throughput(models: Sequence[ModelName], texts: list[str], rounds: int) -> dict[str, Any]:
    from loa_memory.search.embed import get_embedder

    result: dict[str, Any] = {}
    for model in models:
        numpy_embedder = get_embedder(model)
        numpy_embedder.embed(texts[:4])  # weights mapped
        candidates: dict[str, Any] = {"numpy-fp32": numpy_embedder}
        for precision in ("fp32", "int8"):
            candidates[f"onnx-{precision}"] = OnnxEmbedder(model, precision)
            candidates[f"onnx-{precision}"].embed(texts[:4])
        samples: dict[str, list[timing.Sample]] = {k: [] for k in candidates}
        for _ in range(rounds):  # interleaved, so a noisy minute hits every candidate alike
            for key, embedder in candidates.items():
                count = len(texts) if key != "numpy-fp32" or model == "minilm" else len(texts) // 3
                timing.wait_for_quiet(0.05, 10)
                samples[key].append(timing.measure(_embed(embedder, texts[:count])))
        result[model] = {}
        for key, runs in samples.items():
            count = len(texts) if key != "numpy-fp32" or model == "minilm" else len(texts) // 3
            q = timing.quietest(runs)
            result[model][key] = {"entries_per_s": count / q.seconds, "others_cpu": q.foreign,
                                  "rounds": [[count / r.seconds, r.foreign] for r in runs]}
        q = timing.quietest(samples["onnx-int8"])
        result[model]["onnx-int8"]["achieved_gops"] = model_ops(model, texts, 8) / q.seconds / 1e9
    return result


def batch_sizes(models: Sequence[ModelName], texts: list[str], rounds: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for model in models:
        out[model] = {}
        for size in (1, 4, 8, 16, 32):
            embedder = OnnxEmbedder(model, "int8", batch_size=size)
            embedder.embed(texts[:4])
            s = best(_embed(embedder, texts), rounds)
            out[model][size] = {"entries_per_s": len(texts) / s.seconds, "others_cpu": s.foreign}
    return out


def session_start(models: Sequence[ModelName]) -> dict[str, float]:
    """Seconds from a built cache file to a ready session (digest check included)."""
    out = {}
    for model in models:
        for precision in ("fp32", "int8"):
            start = time.perf_counter()
            OnnxEmbedder(model, precision).load()
            out[f"{model}-{precision}"] = time.perf_counter() - start
    return out


def rss_child(model: ModelName, path: str) -> None:
    """(In a fresh process.) Load one path, embed 100 texts, print peak RSS in MB.

    Read from VmHWM, not ``getrusage``: Linux carries ``ru_maxrss`` over fork and exec, so a child of
    this (large) benchmark process would report the parent's peak.
    """
    texts = corpus.sample()[:100]
    if path == "numpy-fp32":
        from loa_memory.search.embed import get_embedder

        get_embedder(model).embed(texts)
    else:
        OnnxEmbedder(model, path.removeprefix("onnx-")).embed(texts)  # type: ignore[arg-type]
    status = Path("/proc/self/status").read_text(encoding="ascii")
    print(int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:"))) / 1024)


def peak_rss(models: Sequence[ModelName]) -> dict[str, float]:
    out = {}
    for model in models:
        for path in ("numpy-fp32", "onnx-fp32", "onnx-int8"):
            done = subprocess.run([sys.executable, __file__, "--rss", model, path], capture_output=True, text=True,
                                  check=True)
            out[f"{model}-{path}"] = float(done.stdout.split()[-1])
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--texts", type=int, default=120)
    parser.add_argument("--models", nargs="*", default=["mpnet", "minilm"])
    parser.add_argument("--rss", nargs=2)
    args = parser.parse_args()
    if args.rss:
        rss_child(args.rss[0], args.rss[1])
        return
    models: list[ModelName] = args.models
    for model in models:  # build the cache files first: building is not what is measured
        model_path(model, "fp32")
        model_path(model, "int8")
    texts = corpus.sample()[: args.texts]
    uptime = Path("/proc/loadavg").read_text().split()[:3]
    report: dict[str, Any] = {"load_average_at_start": uptime, "texts": len(texts),
                              "mean_bytes": sum(len(t.encode()) for t in texts) / len(texts)}
    report["calibration"] = {"numpy_fp32_gflops": numpy_gflops(args.rounds), **{
        f"ort_{k}_gops": v for k, v in int8_gops(args.rounds).items()}}
    print(json.dumps(report["calibration"]), flush=True)
    report["throughput"] = throughput(models, texts, args.rounds)
    peak = report["calibration"]["ort_matmulinteger_gops"]
    for model in models:
        r = report["throughput"][model]
        r["onnx-int8"]["fraction_of_int8_peak"] = r["onnx-int8"]["achieved_gops"] / peak
        int8 = r["onnx-int8"]
        print(model, json.dumps({k: round(v["entries_per_s"], 2) for k, v in r.items()}),
              f"int8 {int8['achieved_gops']:.0f} GOPS = {int8['fraction_of_int8_peak']:.0%} of peak", flush=True)
    report["int8_batch_sizes"] = batch_sizes(models, texts[:60], max(1, args.rounds - 1))
    print(json.dumps(report["int8_batch_sizes"]), flush=True)
    report["session_start_s"] = session_start(models)
    report["peak_rss_mb"] = peak_rss(models)
    print(json.dumps(report["session_start_s"]), json.dumps(report["peak_rss_mb"]), flush=True)
    report["load_average_at_end"] = Path("/proc/loadavg").read_text().split()[:3]
    OUT.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
