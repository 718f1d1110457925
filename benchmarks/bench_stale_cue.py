"""Speed of the ``stale-cue`` rule: a repository of 5,000 source files and 200 corrections that name code.

Cases: the first run (no cache: history walk, one ``git grep`` per commit that added cues, one of the index),
a second run on the same index (cache only), a run after one staged change (one ``git grep`` of the index),
and, for comparison, ``lint`` with the rule switched off.

Run: python benchmarks/bench_stale_cue.py  → prints the table and writes benchmarks/reports/stale-cue.md
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CLI = [sys.executable, "-m", "loa_memory"]
FILES = 5000
CUES = 200
ENV = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com", "GIT_COMMITTER_NAME": "b",
       "GIT_COMMITTER_EMAIL": "b@example.com"}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=ENV)


def lint(repo: Path, *extra: str) -> float:
    start = time.perf_counter()
    done = subprocess.run([*CLI, "lint", *extra], cwd=repo, capture_output=True, text=True, env=ENV)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    return elapsed


def build(repo: Path) -> None:
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    subprocess.run([*CLI, "init"], cwd=repo, check=True, capture_output=True, env=ENV)
    for n in range(FILES):
        path = repo / "src" / f"pkg{n % 50}" / f"module_{n}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"def handler_{n}_{k}(request):\n    return request.value * {k}\n\n" for k in range(8)))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "code")
    items = []
    for n in range(CUES):
        items.append(f"""- id: MEM-20260101-{n + 1:03d}
  category: correction
  content: handler_{n}_3 returned the wrong value once
  confidence: 0.9
  source:
    session_id: bench
    timestamp: '2026-01-01T10:00:00Z'
  ttl: permanent
  trigger: change `handler_{n}_3` or `handler_{n}_5()` in the request path
  lesson: run the request tests first
  artifacts: [src/pkg{n % 50}/module_{n}.py]
""")
    (repo / "grimoires/loa/memory/corrections.yaml").write_text("".join(items))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "cues")
    for n in range(0, CUES, 20):  # 10 cues lose their code
        (repo / "src" / f"pkg{n % 50}" / f"module_{n}.py").unlink()
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "remove some modules")


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    base = Path(tempfile.mkdtemp(prefix="loa-bench-stale-"))
    try:
        repo = base / "repo"
        build(repo)
        lint(repo, "--rule", "schema")  # warm the loader's cache: measure the rule, not the first parse
        cache = repo / ".loa" / "cache" / "code-refs.marshal"
        cold, warm, changed, without = [], [], [], []
        for run in range(runs):
            cache.unlink(missing_ok=True)
            cold.append(lint(repo))
            warm.append(lint(repo))
            target = repo / "src" / "pkg1" / "module_1.py"
            target.write_text(target.read_text() + f"\n# touched {run}\n")
            git(repo, "add", "-A")
            changed.append(lint(repo))
            without.append(lint(repo, "--rule", "schema"))
        found = subprocess.run([*CLI, "lint", "--rule", "stale-cue"], cwd=repo, capture_output=True, text=True,
                               env=ENV).stdout.count("(stale-cue)")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    rows = [("first run, no cache", cold), ("same index, cached", warm), ("one file staged since", changed),
            ("lint of one rule (schema), for comparison", without)]
    lines = ["# stale-cue speed", "",
             f"{FILES:,} tracked source files, {CUES} corrections naming 2 identifiers and 1 file each, 10 of them "
             f"stale; median of {runs} runs of `loa-memory lint` as a subprocess (Python start included), "
             f"2-core machine shared with other jobs. Findings: {found}.", "",
             "| case | median s | min s |", "|---|---|---|"]
    lines += [f"| {name} | {statistics.median(v):.2f} | {min(v):.2f} |" for name, v in rows]
    report = "\n".join(lines) + "\n"
    print(report)
    out = Path(__file__).resolve().parent / "reports" / "stale-cue.md"
    out.write_text(report, encoding="utf-8")


if __name__ == "__main__":
    main()
