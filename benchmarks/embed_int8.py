"""Embedding throughput and memory: the float32 numpy forward pass against the int8 ONNX Runtime one, for MPNet and
MiniLM, on real memories of about 700 bytes, with the machine's float32 and int8 matmul rates measured in the same run.

Each (model, runtime) runs in its own process, so its peak RSS (VmHWM: load plus embedding) is its own; texts are
the embedding texts of benchmarks/data/retrieval's memories closest to 700 bytes; the first call (model load, or the
one-time build of the int8 model) is not timed. The calibration runs before and after: numpy float32 GEMM and
onnxruntime's MatMulInteger (u8 x s8, the int8 peak), both 1024x768 @ 768x3072. The share of the CPU that other
processes took during each measurement is recorded (from /proc/stat), since this machine is shared.

Run: python benchmarks/embed_int8.py [--mpnet-texts 40] [--minilm-texts 120] → writes benchmarks/reports/embed-int8.md
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

M, K, N = 1024, 768, 3072  # one feed-forward product of MPNet on 1,024 tokens


def _busy() -> tuple[int, int]:
    with open("/proc/stat", encoding="ascii") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    with open("/proc/self/stat", encoding="ascii") as f:
        own = f.read().rsplit(")", 1)[1].split()
    children = int(own[13]) + int(own[14])
    return sum(fields) - fields[3] - fields[4], int(own[11]) + int(own[12]) + children


def timed(work: Any) -> tuple[float, float]:
    """Wall seconds of ``work()`` and the share of all cores that other processes used meanwhile."""
    hz, cores = os.sysconf("SC_CLK_TCK"), os.cpu_count() or 1
    busy, own = _busy()
    start = time.perf_counter()
    work()
    seconds = time.perf_counter() - start
    busy2, own2 = _busy()
    foreign = max(0, (busy2 - busy) - (own2 - own)) / hz
    return seconds, min(1.0, foreign / (seconds * cores))


def texts(count: int) -> list[str]:
    from benchmarks.retrieval_quality import DATA, load_jsonl
    from loa_memory.model import Entry
    from loa_memory.search.embed import embedding_text

    every = [embedding_text(Entry(m, "loa", "f", 1)) for m in load_jsonl(DATA / "memories.jsonl")]
    return sorted(every, key=lambda t: abs(len(t.encode()) - 700))[:count]


def calibrate() -> dict[str, float]:
    """numpy float32 GFLOP/s and onnxruntime int8 GOP/s on one product shape, best of 3."""
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((M, K), dtype=np.float32), rng.standard_normal((K, N), dtype=np.float32)
    ops = 2 * M * K * N
    numpy_best = min(timed(lambda: [a @ b for _ in range(10)])[0] for _ in range(3))
    node = helper.make_node("MatMulInteger", ["a", "w"], ["y"])
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("a", TensorProto.UINT8, [M, K])],
        [helper.make_tensor_value_info("y", TensorProto.INT32, None)],
        [numpy_helper.from_array(rng.integers(-127, 127, (K, N), dtype=np.int8), "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    options = ort.SessionOptions()
    options.intra_op_num_threads = os.cpu_count() or 1
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    feed = {"a": rng.integers(0, 255, (M, K), dtype=np.uint8)}
    session.run(None, feed)
    int8_best = min(timed(lambda: [session.run(None, feed) for _ in range(10)])[0] for _ in range(3))
    return {"numpy_fp32_gflops": 10 * ops / numpy_best / 1e9, "ort_int8_gops": 10 * ops / int8_best / 1e9}


def child(model: str, runtime: str, count: int) -> dict[str, Any]:
    """One (model, runtime): load, embed ``count`` texts (best of 2 rounds), peak RSS."""
    from loa_memory.search.embed import get_embedder

    sample = texts(count)
    started = time.perf_counter()
    embedder = get_embedder(model, runtime)
    embedder.embed(sample[:2])  # load (and, the first time on a machine, build) the model
    load = time.perf_counter() - started
    rounds = [timed(lambda: embedder.embed(sample)) for _ in range(2)]
    seconds, foreign = min(rounds)
    with open("/proc/self/status", encoding="ascii") as f:
        peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    return {
        "model": model,
        "runtime": runtime,
        "name": embedder.name,
        "texts": count,
        "mean_bytes": sum(len(t.encode()) for t in sample) / count,
        "entries_per_s": count / seconds,
        "foreign_cpu": foreign,
        "load_s": load,
        "peak_rss_mb": peak / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mpnet-texts", type=int, default=40)
    parser.add_argument("--minilm-texts", type=int, default=120)
    parser.add_argument("--child", nargs=3, metavar=("MODEL", "RUNTIME", "COUNT"), help=argparse.SUPPRESS)
    parser.add_argument("--no-report", action="store_true")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1], int(args.child[2]))))
        return
    load_before = os.getloadavg()
    before = calibrate()
    rows = []
    for model, count in (("mpnet", args.mpnet_texts), ("minilm", args.minilm_texts)):
        for runtime in ("numpy", "onnx"):
            done = subprocess.run(
                [sys.executable, __file__, "--child", model, runtime, str(count)],
                capture_output=True,
                text=True,
                check=True,
            )
            rows.append(json.loads(done.stdout.splitlines()[-1]))
            print(rows[-1], flush=True)
    after = calibrate()
    load_after = os.getloadavg()
    by = {(r["model"], r["runtime"]): r for r in rows}
    lines = [
        "# Embedding throughput: float32 numpy against int8 ONNX Runtime",
        "",
        f"`python benchmarks/embed_int8.py --mpnet-texts {args.mpnet_texts} --minilm-texts {args.minilm_texts}`, "
        f"one run, {os.cpu_count()} cores; load average {' '.join(f'{x:.2f}' for x in load_before)} before, "
        f"{' '.join(f'{x:.2f}' for x in load_after)} after (other sessions share the machine: compare the "
        "ratios, measured side by side, and the calibration of the same run).",
        "",
        "| model | runtime | entries/s | others' CPU share meanwhile | 10,000 entries | load (s) | peak RSS |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        minutes = 10_000 / r["entries_per_s"] / 60
        lines.append(
            f"| {r['model']} | {r['runtime']} | {r['entries_per_s']:.1f} | {r['foreign_cpu']:.0%} | "
            f"{minutes:.0f} min | {r['load_s']:.2f} | {r['peak_rss_mb']:.0f} MB |"
        )
    lines += ["", "| ratio int8 / float32 | entries/s | peak RSS |", "|---|---|---|"]
    for model in ("mpnet", "minilm"):
        f32, i8 = by[model, "numpy"], by[model, "onnx"]
        lines.append(
            f"| {model} | {i8['entries_per_s'] / f32['entries_per_s']:.1f}x | "
            f"{i8['peak_rss_mb'] / f32['peak_rss_mb']:.2f} |"
        )
    lines += [
        "",
        "Calibration (best of 3, 10 products of 1024x768 @ 768x3072 each):",
        "",
        f"- numpy float32 GEMM: {before['numpy_fp32_gflops']:.0f} GFLOP/s before, "
        f"{after['numpy_fp32_gflops']:.0f} after",
        f"- onnxruntime MatMulInteger (u8 x s8, the int8 peak): {before['ort_int8_gops']:.0f} GOP/s before, "
        f"{after['ort_int8_gops']:.0f} after",
        "",
        f"Texts: {rows[0]['texts']} (MPNet) and {rows[2]['texts']} (MiniLM) embedding texts of "
        f"benchmarks/data/retrieval closest to 700 bytes (mean {rows[0]['mean_bytes']:.0f} and "
        f"{rows[2]['mean_bytes']:.0f} bytes); best of 2 rounds; the runtimes' names: "
        + ", ".join(f"`{r['name']}`" for r in rows)
        + ".",
    ]
    report = "\n".join(lines) + "\n"
    print(report)
    if not args.no_report:
        (Path(__file__).parent / "reports" / "embed-int8-throughput.md").write_text(report)


if __name__ == "__main__":
    main()
