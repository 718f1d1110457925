"""MCP server latency: process start to `initialize` answered, and per-call `search` / `recall` latency, with the
SDK's own stdio client, next to the same queries as whole CLI processes.

Run: python benchmarks/bench_mcp.py [--root REPO] [--starts 5] [--runs 3]
     → prints the table and writes benchmarks/reports/mcp.md (or --report PATH)

By default it copies this repository's own grimoire (`.loa.config.yaml`, `grimoires/`) into a temporary git
repository, so nothing here is touched; `--root` measures another repository in place (its `.loa/` is used).
Cost: about a minute on 2 cores. The machine may be busy with other work: figures are medians (p50) and p95.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
ENV = {"PYTHONPATH": str(ROOT), "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
       "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}
QUERIES = ("why whoosh", "how are secrets kept out of memory files", "which embedding model and why",
           "round trip yaml comments", "duplicate ids after a merge", "lint rule documentation",
           "what happens when a file fails to parse", "token budget for recall", "archive expired entries",
           "git hooks in pre-commit")
IDLE = 3.0  # seconds between `initialize` and the first call, in every other server
TASKS = ("add a new lint rule", "write a migration that drops a column", "change the embeddings model",
         "fix a flaky concurrency test", "review a pull request that edits memory files")


def pct(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def ms(values: Sequence[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} / {pct(values, 95) * 1000:.0f} ms"


def copy_grimoire(target: Path) -> Path:
    target.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(target)], check=True)
    shutil.copy2(ROOT / ".loa.config.yaml", target / ".loa.config.yaml")
    shutil.copytree(ROOT / "grimoires", target / "grimoires")
    return target


async def one_session(root: Path, runs: int, idle: float, timings: dict[str, list[float]]) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "loa_memory", "--root", str(root), "mcp"],
                                   env=ENV)
    started = time.perf_counter()
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        timings["initialise"].append(time.perf_counter() - started)
        await anyio.sleep(idle)  # an agent's first call comes later: the model loads in the background meanwhile
        first = {"search": "search first after idle" if idle else "search first", "recall": "recall first"}
        for name, key, texts in (("search", "query", QUERIES), ("recall", "task", TASKS)):
            for n in range(runs):
                for i, text in enumerate(texts):
                    began = time.perf_counter()
                    result = await session.call_tool(name, {key: text})
                    assert not result.is_error, result
                    timings[first[name] if n == i == 0 else name].append(time.perf_counter() - began)
        began = time.perf_counter()
        await session.list_tools()
        timings["list_tools"].append(time.perf_counter() - began)


def cli_times(root: Path, command: str, texts: Sequence[str]) -> list[float]:
    times = []
    for text in texts:
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "loa_memory", "--root", str(root), command, text, "--format", "json"],
                       env={**os.environ, **ENV}, capture_output=True, check=True)
        times.append(time.perf_counter() - began)
    return times


def measure(root: Path, starts: int, runs: int) -> dict[str, Any]:
    timings: dict[str, list[float]] = {k: [] for k in ("initialise", "list_tools", "search first", "search",
                                                        "search first after idle", "recall first", "recall")}
    subprocess.run([sys.executable, "-m", "loa_memory", "--root", str(root), "index"], env={**os.environ, **ENV},
                   capture_output=True, check=True)  # vectors built once, as after any first CLI use
    for n in range(starts):
        anyio.run(one_session, root, runs if n == 0 else 1, IDLE if n % 2 else 0.0, timings)
    return {**timings, "cli search": cli_times(root, "search", QUERIES), "cli recall": cli_times(root, "recall", TASKS),
            "entries": subprocess.run([sys.executable, "-m", "loa_memory", "--root", str(root), "list"],
                                      env={**os.environ, **ENV}, capture_output=True, text=True
                                      ).stdout.strip().splitlines()[-1]}


def report(data: dict[str, Any], root: str, starts: int) -> str:
    rows = [
        ("server start → `initialize` answered (process spawn, imports, handshake)", ms(data["initialise"])),
        ("`tools/list`", ms(data["list_tools"])),
        ("`search`, first call right after `initialize` (waits for the embedding model to load)",
         ms(data["search first"])),
        (f"`search`, first call {IDLE:.0f} s after `initialize` (model loaded in the background)",
         ms(data["search first after idle"])),
        ("`search`, warm (hybrid, default k)", ms(data["search"])),
        ("`recall`, first call of a server (after its searches)", ms(data["recall first"])),
        ("`recall`, warm (default budget)", ms(data["recall"])),
        ("for comparison: `loa-memory search --format json`, whole CLI process", ms(data["cli search"])),
        ("for comparison: `loa-memory recall --format json`, whole CLI process", ms(data["cli recall"])),
    ]
    load = os.getloadavg()
    lines = ["# MCP server latency (measured by benchmarks/bench_mcp.py)", "",
             f"Machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average at the end "
             f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}. Grimoire: {root} ({data['entries']}). "
             f"{starts} server processes; warm figures over {len(data['search'])} searches and "
             f"{len(data['recall'])} recalls. Each call is a round trip through the SDK's stdio client.", "",
             "| what | p50 / p95 |", "|---|---|"]
    lines += [f"| {what} | {value} |" for what, value in rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, help="measure this repository in place (default: a copy of ours)")
    parser.add_argument("--starts", type=int, default=6,
                        help="server processes to start (default 6; every other one idles before its first call)")
    parser.add_argument("--runs", type=int, default=3, help="passes over the queries in the first server")
    parser.add_argument("--report", type=Path, default=ROOT / "benchmarks" / "reports" / "mcp.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.root.resolve() if args.root else copy_grimoire(Path(tmp) / "repo")
        text = report(measure(root, args.starts, args.runs), str(args.root) if args.root else
                      "a copy of this repository's grimoires/loa/memory", args.starts)
    print(text)
    args.report.write_text(text, "utf-8")


if __name__ == "__main__":
    main()
