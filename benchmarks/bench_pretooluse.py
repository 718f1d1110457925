"""PreToolUse latency through the warm server at 1,000 memories: the whole `loa-memory recall --hook-input` process
an agent's hook pays, answered by the repository's warm server.

The grimoire: the 400 memories of benchmarks/data/retrieval, the 40 corrections of a cue set (default: the second
blind activation set) added with `add --from-json -`, and generated facts up to ``--entries``; indexed with the
installed model before timing. Every call of the set's PreToolUse inputs is sent ``--runs`` times, each as its own
process with the server warm (one untimed call first). Reports p50/p95 of the process wall time, all calls and
per tool kind, next to `python -c pass` (the interpreter's own start on this machine at this load).

Run: python benchmarks/bench_pretooluse.py [--entries 1000] [--runs 3] [--keep DIR]
     → prints the table and writes benchmarks/reports/pretooluse.md (or --report PATH)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpus import entry
from benchmarks.recall_cues import seeded
from benchmarks.retrieval_quality import DATA, load_jsonl
from loa_memory.store import load_config, yamlio

SET = Path(__file__).parent / "data" / "blind-activation-2" / "bench_set.jsonl"
GENERATED_START = 900 * 27  # generated ids MEM-20200128-NNN: disjoint from the retrieval memories'


def _grow(root: Path, entries: int) -> int:
    """Append generated facts to the facts file until the grimoire holds ``entries`` memories; how many."""
    import random

    config = load_config(root)
    facts = config.memory_dir() / config.category("fact").path
    have = sum(1 for path in config.memory_dir().rglob("*.yaml") for line in path.read_text().splitlines()
               if line.startswith("- id: "))
    more = max(entries - have, 0)
    rng = random.Random(7)
    with facts.open("a", encoding="utf-8") as handle:
        for n in range(GENERATED_START, GENERATED_START + more):
            handle.write(yamlio.dump_item(entry(n, rng)))
    return more


def _cli(root: Path, *args: str, stdin: str = "", env: dict[str, str] | None = None) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "loa_memory", "--root", str(root), *args], input=stdin,
                          capture_output=True, text=True, env=env, check=False)
    if done.returncode not in (0,):
        raise SystemExit(f"loa-memory {' '.join(args)} failed: {done.stdout}{done.stderr}")
    return time.perf_counter() - started, done.stdout


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(q * len(ordered)) - 1)] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--set", type=Path, default=SET)
    parser.add_argument("--keep", type=Path, help="seed the grimoire here once and reuse it")
    parser.add_argument("--report", type=Path, default=Path(__file__).parent / "reports" / "pretooluse.md")
    args = parser.parse_args()
    rows = load_jsonl(args.set)
    base = args.keep or Path(tempfile.mkdtemp(prefix="loa-bench-pretooluse-"))
    root = base / "grimoire"
    env = {k: v for k, v in os.environ.items() if k != "LOA_MEMORY_SERVER"}
    try:
        fresh = not (root / ".ids.json").exists()
        seeded(root, load_jsonl(DATA / "memories.jsonl"), rows)
        if fresh:
            _grow(root, args.entries)
        _cli(root, "index", env={**env, "LOA_MEMORY_SERVER": "off"})
        _cli(root, "server", "start", env=env)
        calls = [row for row in rows if row["type"] != "correction"]
        warm = {**calls[0]["hook"], "cwd": str(root)}
        _cli(root, "recall", "--hook-input", stdin=json.dumps(warm), env=env)
        seconds: dict[str, list[float]] = {}
        fired = 0
        for _ in range(args.runs):
            for row in calls:
                hook = {**row["hook"], "cwd": str(root)}
                took, out = _cli(root, "recall", "--hook-input", stdin=json.dumps(hook), env=env)
                seconds.setdefault(str(hook["tool_name"]), []).append(took)
                fired += bool(out.strip())
        python = [_cli_python() for _ in range(10)]
        _cli(root, "server", "stop", env=env)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    every = [s for values in seconds.values() for s in values]
    load = os.getloadavg()
    lines = [
        "# PreToolUse latency through the warm server", "",
        f"`python benchmarks/bench_pretooluse.py --entries {args.entries} --runs {args.runs}`: {len(every)} "
        f"`loa-memory recall --hook-input` processes (the {len(calls)} PreToolUse calls of {args.set.name}, "
        f"{args.runs} times each) against a grimoire of {args.entries} memories, the repository's warm server "
        f"running; wall time of the whole process, as the agent's hook pays it. {fired} of them printed a cue.", "",
        "| calls | n | p50 | p95 |", "|---|---|---|---|",
        f"| all | {len(every)} | {_p(every, 0.5):.0f} ms | {_p(every, 0.95):.0f} ms |",
        *(f"| {tool} | {len(values)} | {_p(values, 0.5):.0f} ms | {_p(values, 0.95):.0f} ms |"
          for tool, values in sorted(seconds.items())),
        f"| `python -c pass` (the interpreter alone) | {len(python)} | {_p(python, 0.5):.0f} ms | "
        f"{_p(python, 0.95):.0f} ms |", "",
        f"Load average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores). "
        f"Median of all: {statistics.median(every) * 1000:.0f} ms.", ""]
    report = "\n".join(lines)
    print(report)
    args.report.write_text(report)


def _cli_python() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
