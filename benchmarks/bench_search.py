"""Search and index speed at 1k, 10k and 100k entries: the full-text index (build, refresh), CLI and
in-process search (lexical, hybrid), the embeddings sidecar's first build, and ripgrep as a baseline.

Targets: 10k CLI search p50 < 0.3 s warm; lexical build from scratch < 60 s at 10k; refresh after one
edit < 1 s; 100k must work.

Run: python benchmarks/bench_search.py [--sizes 1000,10000,100000] [--model-sizes 1000] [--model mpnet|minilm]
     [--runs 1]
     → prints the table and writes benchmarks/reports/search.md (or --report PATH)

Cost: `--sizes 1000,10000` takes ~6 min on 2 cores; 100k adds ~15-20 min (corpus generation, two index builds
and a hashing sidecar of 100k entries). MiniLM vectors at 10k (`--model minilm --model-sizes 1000,10000`) add
~8-13 min; MPNet's (the default when installed) take about five times as long.

Every CLI figure is the wall time of a whole `loa-memory` process (`python -m loa_memory`), the way an
agent or a hook pays it: either running the command itself (LOA_MEMORY_SERVER=off) or, where the row says
"warm server", handing it to the repository's warm server (docs/server.md), which the bench starts before
and stops after those rows. The machine may be busy with other work: figures are medians (p50) and p95.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.corpus import WORDS, write_list_file  # noqa: E402

CLI = [sys.executable, "-m", "loa_memory"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com",
       "LOA_MEMORY_SERVER": "off",  # every command in its own process, except where `served` says otherwise
       "LOA_MEMORY_BACKGROUND": "inline"}  # a read embeds what it lacks before answering: no background work in timings
SERVED = {**ENV, "LOA_MEMORY_SERVER": "on", "XDG_RUNTIME_DIR": tempfile.mkdtemp(prefix="lmb", dir="/tmp")}
MEMDIR = "grimoires/loa/memory"
LIST_FILES = (("facts.yaml", "fact"), ("decisions.yaml", "decision"), ("learnings.yaml", "learning"),
              ("errors.yaml", "error"), ("preferences.yaml", "preference"), ("corrections.yaml", "correction"))
PER_FILE = 20_000  # larger grimoires are spread over several category files (written in parallel)
TARGETS = ("10k CLI search p50 < 0.3 s warm; lexical build from scratch < 60 s at 10k; "
           "refresh after one edit < 1 s; 100k must work")


# helpers --------------------------------------------------------------------------------------------

def pct(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def cli(path: Path, *args: str, env: dict[str, str] = ENV) -> tuple[float, str]:
    """Wall time and stdout of one `loa-memory` process."""
    start = time.perf_counter()
    done = subprocess.run([*CLI, *args], cwd=path, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise RuntimeError(f"loa-memory {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return seconds, done.stdout


def make_queries(count: int, seed: int = 11) -> list[str]:
    """Short keyword queries and longer prose questions built from the corpus vocabulary."""
    rng = random.Random(seed)
    shapes = ("{a} {b}", "{a} {b} {c}", "why did the {a} {b} fail", "how to {a} the {b} {c}",
              "{a} {b} after {c} {d}", "{a}")
    return [shapes[n % len(shapes)].format(**{k: rng.choice(WORDS) for k in "abcd"}) for n in range(count)]


def _write(args: tuple[str, int, str, int, int]) -> None:
    path, count, category, seed, start = args
    write_list_file(Path(path), count, category, seed=seed, start=start)


def make_repo(base: Path, size: int) -> tuple[Path, float]:
    """A git repository after `loa-memory init`, with ``size`` generated entries; and the generation time."""
    path = base / f"repo-{size}"
    path.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=path, check=True)
    cli(path, "init")
    files = max(1, -(-size // PER_FILE))
    jobs, start = [], 0
    for n in range(files):
        count = size // files + (1 if n < size % files else 0)
        name, category = LIST_FILES[n % len(LIST_FILES)]
        jobs.append((str(path / MEMDIR / name), count, category, 7 + n, start))
        start += count
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=min(len(jobs), os.cpu_count() or 1)) as pool:
        list(pool.map(_write, jobs))
    return path, time.perf_counter() - began


def edit_one(path: Path, n: int) -> None:
    """Change the summary of one entry of facts.yaml (a different entry and text each time)."""
    target = path / MEMDIR / "facts.yaml"
    text = target.read_text("utf-8")
    marker = "\n  summary: "
    at = -1
    for _ in range(1 + (n * 7919) % min(500, text.count(marker))):
        at = text.index(marker, at + 1)
    at += len(marker)
    target.write_text(text[:at] + f"Edited {n} " + text[at:], "utf-8")


def set_embedder(path: Path, name: str | None) -> None:
    """Point `retrieval.embedder` in .loa.config.yaml at ``name`` (None: the default)."""
    config = path / ".loa.config.yaml"
    lines = [line for line in config.read_text("utf-8").splitlines() if "embedder:" not in line]
    if name is not None:
        at = next(i for i, line in enumerate(lines) if line.strip() == "retrieval:")
        lines.insert(at + 1, f"    embedder: {name}")
    config.write_text("\n".join(lines) + "\n", "utf-8")


def cli_queries(path: Path, queries: Sequence[str], mode: str, runs: int,
                env: dict[str, str] = ENV) -> tuple[list[float], list[str]]:
    times: list[float] = []
    warnings: list[str] = []
    for _ in range(runs):
        for q in queries:
            seconds, out = cli(path, "search", q, "--mode", mode, "--format", "json", env=env)
            times.append(seconds)
            warnings.extend(json.loads(out).get("warnings", []))
    return times, warnings


def served_queries(path: Path, queries: Sequence[str], mode: str, runs: int) -> list[float]:
    """The same CLI calls answered by the repository's warm server (started first, stopped after)."""
    cli(path, "server", "start", "--idle", "600", env=SERVED)
    try:
        served = json.loads(cli(path, "server", "status", "--format", "json", env=SERVED)[1])["requests"]
        times, _ = cli_queries(path, queries, mode, runs, SERVED)
        answered = json.loads(cli(path, "server", "status", "--format", "json", env=SERVED)[1])["requests"]
        if answered - served != len(times):
            raise RuntimeError(f"the server answered {answered - served} of {len(times)} searches")
        return times
    finally:
        cli(path, "server", "stop", env=SERVED)


def rg_times(path: Path, queries: Sequence[str], flags: str) -> list[float]:
    times = []
    for q in queries:
        patterns = [arg for word in dict.fromkeys(q.split()) for arg in ("-e", word)]
        start = time.perf_counter()
        subprocess.run(["rg", flags, *patterns, MEMDIR], cwd=path, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


# in-process --------------------------------------------------------------------------------------

def in_process_search(path: Path, queries: Sequence[str], mode: str, runs: int,
                      preload: bool) -> list[float]:
    from loa_memory.search.search import SearchOptions, search
    from loa_memory.store import load_config
    from loa_memory.store.load import load_grimoire

    config = load_config(path)
    grimoire = load_grimoire(config) if preload else None
    search(config, SearchOptions(queries[0], mode=mode), grimoire=grimoire)  # type: ignore[arg-type]  # warm up
    times = []
    for _ in range(runs):
        for q in queries:
            start = time.perf_counter()
            search(config, SearchOptions(q, mode=mode), grimoire=grimoire)  # type: ignore[arg-type]
            times.append(time.perf_counter() - start)
    return times


def in_process_refresh(path: Path, n: int) -> tuple[float, float, int]:
    """After one edit: load_grimoire seconds, index refresh seconds, documents added."""
    from loa_memory.search.index import FullTextIndex
    from loa_memory.store import load_config
    from loa_memory.store.load import load_grimoire

    edit_one(path, n)
    config = load_config(path)
    start = time.perf_counter()
    grimoire = load_grimoire(config)
    loaded = time.perf_counter()
    done = FullTextIndex(config).refresh(grimoire)
    return loaded - start, time.perf_counter() - loaded, done.added


def model_work(path: Path, model: str) -> tuple[float, int]:
    """Floating-point operations of the model's pass over every entry's embedding text, and the text count."""
    from benchmarks.embedders import model_flops
    from loa_memory.search.embed import bert, embedding_text
    from loa_memory.search.index import entry_keys
    from loa_memory.store import load_config
    from loa_memory.store.load import load_grimoire

    config = load_config(path)
    grimoire = load_grimoire(config)
    texts = list({embedding_text(e): None for mf in grimoire.files for _, e in entry_keys(grimoire, mf)})
    return model_flops(texts, 256, batch_size=bert._BATCH, model=model), len(texts)


MODEL_LABEL = {"mpnet": "MPNet", "minilm": "MiniLM"}


# one size ----------------------------------------------------------------------------------------

Row = dict[str, str]


def measure(base: Path, size: int, queries: Sequence[str], runs: int, model: str, model_sizes: set[int],
            peak: float | None, log: Callable[[str], None]) -> tuple[Row, list[str]]:
    from loa_memory.search.embed import select_embedder
    from loa_memory.search.retriever import eager_limit
    from loa_memory.store.settings import Retrieval

    limit = eager_limit(select_embedder().embedder, Retrieval().eager_embed_seconds)  # the default's

    row: Row = {}
    notes: list[str] = []

    def put(name: str, value: str) -> None:
        row[name] = value
        log(f"  {size:>7,}  {name}: {value}")

    row["load average at the start (1 / 5 / 15 min; 2 = both cores busy)"] = " / ".join(
        f"{x:.1f}" for x in os.getloadavg())
    path, gen = make_repo(base, size)
    data_mb = sum(p.stat().st_size for p in (path / MEMDIR).rglob("*.yaml")) / 1e6
    put("corpus (generated in)", f"{data_mb:.1f} MB, {data_mb * 1e6 / size:.0f} B/entry ({gen:.0f} s)")

    # lexical index -----------------------------------------------------------------------------
    shutil.rmtree(path / ".loa", ignore_errors=True)
    put("`index --no-embed` from scratch (`.loa/` deleted: YAML parse + index)",
        f"{cli(path, 'index', '--no-embed')[0]:.2f} s")
    put("`index --rebuild --no-embed` (parse cache warm: index only)",
        f"{cli(path, 'index', '--rebuild', '--no-embed')[0]:.2f} s")
    put("index size on disk", f"{sum(p.stat().st_size for p in (path / '.loa/index').rglob('*')) / 1e6:.1f} MB")
    noop = [cli(path, "index", "--no-embed")[0] for _ in range(3)]
    put("`index --no-embed`, nothing changed (p50)", f"{statistics.median(noop):.2f} s")
    edits = []
    for n in range(3):
        edit_one(path, n)
        edits.append(cli(path, "index", "--no-embed")[0])
    put("`index --no-embed` after editing one entry (p50 of 3)", f"{statistics.median(edits):.2f} s")
    refresh = [in_process_refresh(path, 10 + n) for n in range(3)]
    put("in-process after one edit: load_grimoire / index refresh (p50 of 3)",
        f"{statistics.median(r[0] for r in refresh):.3f} s / {statistics.median(r[1] for r in refresh):.3f} s")

    # lexical search ------------------------------------------------------------------------------
    lex, _ = cli_queries(path, queries, "lexical", runs)
    put("CLI `search --mode lexical`, warm (p50 / p95)", f"{pct(lex, 50):.2f} / {pct(lex, 95):.2f} s")
    after_edit = []
    for n in range(3):
        edit_one(path, 20 + n)
        after_edit.append(cli(path, "search", queries[n % len(queries)], "--mode", "lexical")[0])
    put("CLI `search --mode lexical` right after editing one entry (p50 of 3)",
        f"{statistics.median(after_edit):.2f} s (+{statistics.median(after_edit) - pct(lex, 50):.2f} s refresh)")
    lex = served_queries(path, queries, "lexical", runs)
    put("CLI `search --mode lexical`, warm server (p50 / p95)", f"{pct(lex, 50):.2f} / {pct(lex, 95):.2f} s")
    for preload, label in ((False, "incl. load_grimoire"), (True, "grimoire preloaded")):
        times = in_process_search(path, queries, "lexical", runs, preload)
        put(f"in-process `search()` lexical, {label} (p50 / p95)",
            f"{pct(times, 50) * 1000:.0f} / {pct(times, 95) * 1000:.0f} ms")

    # hybrid, the model's embeddings -------------------------------------------------------------
    if size > limit:
        hyb, warnings = cli_queries(path, queries, "hybrid", runs)
        put(f"CLI `search --mode hybrid`, no vectors yet (> the eager limit, {limit}: "
            "lexical answers + warning) (p50 / p95)", f"{pct(hyb, 50):.2f} / {pct(hyb, 95):.2f} s")
        if not any("no vectors yet" in w for w in warnings):
            notes.append(f"{size:,}: hybrid without vectors did not warn: {warnings[:1]}")
    label = MODEL_LABEL[model]
    if size in model_sizes:
        set_embedder(path, model)
        flops, texts = model_work(path, model)
        seconds, out = cli(path, "index", "--format", "json")
        report = json.loads(out)
        rate = report["embedded"] / seconds
        achieved = flops / seconds / 1e9
        share = f", {achieved / peak:.0%} of the {peak:.0f} GFLOP/s float32 matmul peak" if peak else ""
        put(f"`index` first embeddings build, {label} t256 (whole CLI call)",
            f"{seconds:.1f} s, {rate:.1f} entries/s, {achieved:.1f} GFLOP/s{share}")
        if texts != report["embedded"]:
            notes.append(f"{size:,}: {texts} distinct texts but {report['embedded']} embedded")
        hyb, _ = cli_queries(path, queries, "hybrid", runs)
        put(f"CLI `search --mode hybrid`, {label} vectors for all (p50 / p95)",
            f"{pct(hyb, 50):.2f} / {pct(hyb, 95):.2f} s")
        hyb = served_queries(path, queries, "hybrid", runs)
        put(f"CLI `search --mode hybrid`, {label}, warm server (p50 / p95)",
            f"{pct(hyb, 50):.2f} / {pct(hyb, 95):.2f} s")
        times = in_process_search(path, queries, "hybrid", runs, True)
        put(f"in-process `search()` hybrid, {label}, grimoire preloaded (p50 / p95)",
            f"{pct(times, 50) * 1000:.0f} / {pct(times, 95) * 1000:.0f} ms")
    elif size > limit:
        times = in_process_search(path, queries, "hybrid", runs, True)
        put("in-process `search()` hybrid, no vectors yet, grimoire preloaded (p50 / p95)",
            f"{pct(times, 50) * 1000:.0f} / {pct(times, 95) * 1000:.0f} ms")

    # hybrid with every vector present: the hashing embedder (cheap to build at any size) ---------
    set_embedder(path, "hashing")
    seconds, out = cli(path, "index", "--format", "json")
    put("`index` first embeddings build, hashing embedder (whole CLI call)",
        f"{seconds:.1f} s, {json.loads(out)['embedded'] / seconds:,.0f} entries/s")
    hyb, _ = cli_queries(path, queries, "hybrid", runs)
    put("CLI `search --mode hybrid`, hashing vectors for all (p50 / p95)", f"{pct(hyb, 50):.2f} / {pct(hyb, 95):.2f} s")
    hyb = served_queries(path, queries, "hybrid", runs)
    put("CLI `search --mode hybrid`, hashing vectors, warm server (p50 / p95)",
        f"{pct(hyb, 50):.2f} / {pct(hyb, 95):.2f} s")
    times = in_process_search(path, queries, "hybrid", runs, True)
    put("in-process `search()` hybrid, hashing vectors, grimoire preloaded (p50 / p95)",
        f"{pct(times, 50) * 1000:.0f} / {pct(times, 95) * 1000:.0f} ms")
    set_embedder(path, None)

    # baseline ------------------------------------------------------------------------------------
    if shutil.which("rg"):
        count, names = rg_times(path, queries, "-ic"), rg_times(path, queries, "-il")
        put("baseline `rg -i -c` / `rg -il` over the memory files (p50)",
            f"{pct(count, 50) * 1000:.0f} / {pct(names, 50) * 1000:.0f} ms")
    else:
        notes.append("ripgrep is not installed: no baseline (apt-get install ripgrep)")
    shutil.rmtree(path, ignore_errors=True)
    row["load average at the end (1 / 5 / 15 min; 2 = both cores busy)"] = " / ".join(
        f"{x:.1f}" for x in os.getloadavg())
    return row, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="comma-separated entry counts")
    parser.add_argument("--model-sizes", "--minilm-sizes", default="1000",
                        help="sizes at which to build the model's vectors (MiniLM ~12 entries/s, MPNet ~2.5)")
    parser.add_argument("--model", choices=sorted(MODEL_LABEL), default=None,
                        help="the embedder to measure (default: the default one, the best installed)")
    parser.add_argument("--queries", type=int, default=20)
    parser.add_argument("--runs", type=int, default=1, help="passes over the queries")
    parser.add_argument("--report", type=Path, default=ROOT / "benchmarks" / "reports" / "search.md")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    model_sizes = {int(s) for s in args.model_sizes.split(",") if s}
    queries = make_queries(args.queries)
    peak = None
    from loa_memory.search import embed

    model = args.model or next((m for m in embed.DEFAULT_EMBEDDERS if embed._AVAILABLE[m]()), "minilm")
    if model_sizes & set(sizes) and embed._AVAILABLE[model]():
        from benchmarks.embedders import peak_gflops

        peak = peak_gflops()
    elif model_sizes & set(sizes):
        model_sizes = set()
        print(f"{MODEL_LABEL[model]} weights are not installed: no measurements with it", file=sys.stderr)
    started = time.perf_counter()
    base = Path(tempfile.mkdtemp(prefix="loa-bench-search-"))
    rows: dict[int, Row] = {}
    notes: list[str] = []
    try:
        for size in sizes:
            rows[size], size_notes = measure(base, size, queries, args.runs, model, model_sizes, peak,
                                             lambda line: print(line, flush=True))
            notes += size_notes
    finally:
        shutil.rmtree(base, ignore_errors=True)
    names = list(dict.fromkeys(name for row in rows.values() for name in row))
    lines = ["# Search and index speed (measured by benchmarks/bench_search.py)", "",
             f"Machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; other processes may have been "
             f"running, so figures are medians (p50) and p95 over {len(queries)} queries × {args.runs} run(s), "
             "each a whole CLI process unless marked in-process. Corpus: benchmarks/corpus.py (a 96-word "
             f"vocabulary, so almost every query word matches most entries: a worst case for BM25); "
             f"over {PER_FILE:,} entries it is spread over several category files. Whole run: "
             f"{(time.perf_counter() - started) / 60:.1f} min.", "",
             f"Targets: {TARGETS}.", "",
             "| what | " + " | ".join(f"{s:,} entries" for s in rows) + " |",
             "|---|" + "---|" * len(rows)]
    lines += [f"| {name} | " + " | ".join(row.get(name, "—") for row in rows.values()) + " |" for name in names]
    lines += ["", "Queries: " + "; ".join(f"`{q}`" for q in queries)]
    if notes:
        lines += ["", "Notes:", *[f"- {n}" for n in notes]]
    report = "\n".join(lines) + "\n"
    print(report)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(report, "utf-8")


if __name__ == "__main__":
    main()
