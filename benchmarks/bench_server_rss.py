"""Memory of loa-memory's background processes with three repositories in use: the resident memory (VmRSS) of
every warm server and background `index` they leave running, summed.

Three throwaway git repositories get ``--memories`` memories each from benchmarks/data/retrieval (overlapping
slices of its 400), and are indexed (``LOA_MEMORY_SERVER=off``: the vectors exist before the servers start, so no
background `index` runs while it measures). Then, with the server enabled as users get it, ``--rounds`` rounds
each run ``search`` and ``recall`` in every repository, as their own processes: the first command in a
repository starts a server when none answers it, the later ones are answered by it. After the last round, the
process's VmRSS is read from /proc for every process of this run that runs ``-m loa_memory``: the run has its own
``XDG_RUNTIME_DIR`` (so its own server sockets), and a process counts when its environment carries that folder,
so servers of other sessions on the machine are left out. ``server status`` of each repository is reported too.

``--fresh`` skips the `index` and points the user's vector cache at an empty folder: the repositories are
embedded in the background while they are used (background `index` processes and the server); the report then
also says when that was done. The highest total of the servers and background `index` processes while it ran
(sampled every 0.5 s; the commands the benchmark runs and waits for are left out) is reported either way.
``--baseline PYTHON`` runs the same steps first with another installation (e.g. the previous release's virtual
environment), in the same run, for comparison.

Run: python benchmarks/bench_server_rss.py [--memories 150] [--rounds 3] [--baseline /path/to/python] [--fresh]
     → prints the table and writes benchmarks/reports/server-rss.md (server-rss-fresh.md; or --report PATH)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.retrieval_quality import DATA, load_jsonl, seed

TARGET_MB = 400
REPOSITORIES = 3


def _run(python: str, root: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [python, "-m", "loa_memory", *args], cwd=root, capture_output=True, text=True, env=env, check=False, timeout=900
    )
    if done.returncode not in (0, 1):
        raise SystemExit(f"loa-memory {' '.join(args)} failed in {root}: {done.stdout}{done.stderr}")
    return done


def _ours(runtime: Path) -> list[tuple[int, str, int]]:
    """(pid, command line, VmRSS in bytes) of every `-m loa_memory` process whose XDG_RUNTIME_DIR is ``runtime``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            environ = (entry / "environ").read_bytes().split(b"\0")
            status = (entry / "status").read_text("ascii")
        except OSError:
            continue  # gone meanwhile, or not ours to read
        words = [w.decode(errors="replace") for w in argv if w]
        if "loa_memory" not in words or f"XDG_RUNTIME_DIR={runtime}".encode() not in environ:
            continue
        rss = next((int(line.split()[1]) * 1024 for line in status.splitlines() if line.startswith("VmRSS:")), 0)
        found.append((int(entry.name), " ".join(words[words.index("loa_memory") + 1 :]), rss))
    return sorted(found)


def _background(command: str) -> bool:
    """A warm server or a background `index`, not a command the benchmark runs and waits for."""
    return "server start" in command or "index --quiet" in command


class _Peak(threading.Thread):
    """The highest sum of this run's background processes' RSS, sampled every half second."""

    def __init__(self, runtime: Path) -> None:
        super().__init__(daemon=True)
        self.runtime, self.peak, self.done = runtime, 0, threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.5):
            self.peak = max(self.peak, sum(rss for _pid, cmd, rss in _ours(self.runtime) if _background(cmd)))


def _caught_up(python: str, roots: list[Path], env: dict[str, str], runtime: Path, seconds: float = 900) -> float:
    """Wait until every repository has all its vectors and no background `index` runs; how long it took."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        waiting = sum(
            int(json.loads(_run(python, root, env, "search", "x", "--format", "json").stdout).get("not_embedded", 0))
            for root in roots
        )
        if not waiting and not any(" index " in f" {cmd} " for _pid, cmd, _rss in _ours(runtime)):
            break
        time.sleep(2)
    return time.monotonic() - started


def measure(python: str, roots: list[Path], queries: list[str], rounds: int, fresh: bool) -> dict[str, Any]:
    """Use the three repositories with ``python``'s loa-memory and sum what its background processes hold
    (``fresh``: not indexed first, and an empty vector cache, so everything is embedded in the background)."""
    runtime = Path(tempfile.mkdtemp(prefix="lmrss", dir="/tmp"))  # short: a socket path has ~100 bytes
    env = {k: v for k, v in os.environ.items() if k not in ("LOA_MEMORY_SERVER", "CI", "LOA_MEMORY_BACKGROUND")}
    env["XDG_RUNTIME_DIR"] = str(runtime)
    if fresh:
        env["LOA_MEMORY_VECTOR_CACHE"] = str(runtime / "vectors")
    peak = _Peak(runtime)
    peak.start()
    caught_up = 0.0
    try:
        for root in roots:
            if fresh:
                shutil.rmtree(root / ".loa", ignore_errors=True)
            else:
                _run(python, root, {**env, "LOA_MEMORY_SERVER": "off"}, "index", "--quiet")
        commands = 0
        for turn in range(rounds):
            for n, root in enumerate(roots):
                query = queries[(turn * len(roots) + n) % len(queries)]
                _run(python, root, env, "search", query)
                _run(python, root, env, "recall", query)
                commands += 2
            if turn == 0:  # the first commands ran in their own processes and started servers: let them come up
                deadline = time.monotonic() + 120
                while time.monotonic() < deadline and not all(
                    json.loads(_run(python, root, env, "server", "status", "--format", "json").stdout)["running"]
                    for root in roots
                ):
                    time.sleep(0.5)
        if fresh:
            caught_up = _caught_up(python, roots, env, runtime)
        time.sleep(2)  # anything the last command started in the background has begun
        processes = _ours(runtime)
        statuses = [
            json.loads(_run(python, root, env, "server", "status", "--format", "json").stdout) for root in roots
        ]
        for root in roots:
            _run(python, root, env, "server", "stop")
        return {
            "python": python,
            "processes": processes,
            "statuses": statuses,
            "commands": commands,
            "total_mb": sum(rss for _pid, _cmd, rss in processes) / 2**20,
            "peak_mb": peak.peak / 2**20,
            "caught_up_s": caught_up,
        }
    finally:
        peak.done.set()
        for pid, _cmd, _rss in _ours(runtime):  # a server `server stop` did not reach: only this run's
            with __import__("contextlib").suppress(OSError):
                os.kill(pid, 15)
        shutil.rmtree(runtime, ignore_errors=True)


def _describe(result: dict[str, Any], label: str) -> list[str]:
    lines = [
        f"### {label}",
        "",
        f"`{result['python']}`: {result['commands']} commands; processes left running (VmRSS from /proc):",
        "",
        "| pid | command | RSS |",
        "|---|---|---|",
    ]
    lines += [f"| {pid} | `{cmd}` | {rss / 2**20:.0f} MB |" for pid, cmd, rss in result["processes"]]
    lines += [f"| **total** | {len(result['processes'])} processes | **{result['total_mb']:.0f} MB** |", ""]
    lines.append(
        f"Highest total of the servers and background `index` processes while it ran (sampled every 0.5 s): "
        f"{result['peak_mb']:.0f} MB."
    )
    if result["caught_up_s"]:
        lines.append(f"Every entry embedded and no background `index` left after {result['caught_up_s']:.0f} s.")
    lines.append("")
    pids = {status.get("pid") for status in result["statuses"] if status.get("running")}
    lines.append(
        f"`server status` in the three repositories: {len(pids)} server process(es), "
        + ", ".join(f"pid {s.get('pid')} {s.get('rss_mb', '?')} MB" for s in result["statuses"])
        + "."
    )
    return [*lines, ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=150, help="memories per repository (of the 400)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", help="another installation's python, measured first in the same run")
    parser.add_argument("--baseline-label", default="Baseline", help="what the baseline is, for the report")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="no `index` first and an empty vector cache: the "
        "repositories are embedded in the background while they are used",
    )
    parser.add_argument("--report", type=Path, help="default: benchmarks/reports/server-rss.md (-fresh.md)")
    args = parser.parse_args()
    reports = Path(__file__).parent / "reports"
    args.report = args.report or reports / ("server-rss-fresh.md" if args.fresh else "server-rss.md")
    memories = load_jsonl(DATA / "memories.jsonl")
    queries = [str(q["query"]) for q in load_jsonl(DATA / "queries.jsonl")][:12]
    base = Path(tempfile.mkdtemp(prefix="loa-bench-rss-"))
    step = (len(memories) - args.memories) // (REPOSITORIES - 1)
    roots = [base / f"repo{n}" for n in range(REPOSITORIES)]
    before = os.getloadavg()
    try:
        for n, root in enumerate(roots):
            seed(root, memories[n * step : n * step + args.memories])
        baseline = measure(args.baseline, roots, queries, args.rounds, args.fresh) if args.baseline else None
        result = measure(sys.executable, roots, queries, args.rounds, args.fresh)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    after = os.getloadavg()
    from loa_memory.search.embed import select_embedder

    embedder = select_embedder().embedder.name
    verdict = "meets" if result["total_mb"] <= TARGET_MB else "misses"
    lines = [
        "# Background memory with three repositories in use",
        "",
        f"`python benchmarks/bench_server_rss.py --memories {args.memories} --rounds {args.rounds}"
        + (" --baseline PYTHON" if baseline else "")
        + (" --fresh" if args.fresh else "")
        + f"`: {REPOSITORIES} git repositories of {args.memories} memories each (benchmarks/data/retrieval), "
        + (
            "not indexed and with an empty vector cache (embedded in the background while in use)"
            if args.fresh
            else "indexed"
        )
        + f", then `search` and `recall` {args.rounds} times in each with the warm server enabled; the resident "
        "memory of every loa-memory process left running, summed.",
        "",
        f"**This installation: {result['total_mb']:.0f} MB** in {len(result['processes'])} process(es) "
        f"({verdict} the {TARGET_MB} MB target)"
        + (
            f"; the baseline installation: {baseline['total_mb']:.0f} MB in {len(baseline['processes'])}."
            if baseline
            else "."
        ),
        "",
        *(_describe(baseline, f"Baseline: {args.baseline_label}") if baseline else []),
        *_describe(result, "This installation"),
        f"Load average before: {before[0]:.2f} {before[1]:.2f} {before[2]:.2f}; after: {after[0]:.2f} "
        f"{after[1]:.2f} {after[2]:.2f} ({os.cpu_count()} cores). The embedder is the default one installed: "
        f"{embedder}.",
        "",
    ]
    report = "\n".join(lines)
    print(report)
    args.report.write_text(report)


if __name__ == "__main__":
    main()
