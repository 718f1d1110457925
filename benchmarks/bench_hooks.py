"""What loa-memory's git hooks add to a commit that has no memory trailer (issue 18: target < 0.3 s).

Commits a one-line change N times (median wall time) in throwaway repositories:
no hooks; loa-memory's plain hooks (`hooks install`); the pre-commit framework with loa-memory's hooks
(`repo: local` copies of .pre-commit-hooks.yaml running this interpreter, as the tests do offline) against the
framework with the same hook types installed and no hooks configured. Also the two hook commands alone
against a bare Python start.
Run: python benchmarks/bench_hooks.py  → prints the table and writes benchmarks/reports/hooks.md
(``BENCH_RUNS=5`` for fewer runs). Note the machine's load (`uptime`) with the figures.
"""

from __future__ import annotations

import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
TYPES = ["pre-commit", "commit-msg", "post-commit", "post-merge"]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _repo(base: Path, name: str) -> Path:
    repo = base / name
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "commit.gpgsign", "false")
    subprocess.run([PY, "-m", "loa_memory", "init"], cwd=repo, check=True, capture_output=True)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "init", "--no-verify")
    return repo


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _commits(repo: Path, runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system, every process the commit ran) of a commit: on a
    busy machine the wall time grows with the load while the CPU time does not."""
    times, cpus = [], []
    for n in range(runs):
        (repo / "code.txt").write_text(f"{n}\n")
        _git(repo, "add", "code.txt")
        start, cpu = time.perf_counter(), _cpu()
        done = subprocess.run(
            ["git", "-C", str(repo), "commit", "-qm", f"change {n}"], capture_output=True, text=True, env=env
        )
        times.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
        if done.returncode:
            raise SystemExit(done.stdout + done.stderr)
    return statistics.median(times), statistics.median(cpus)


def _framework(repo: Path, hooks: list[dict[str, object]], env: dict[str, str]) -> None:
    config = {"default_install_hook_types": TYPES, "repos": [{"repo": "local", "hooks": hooks}] if hooks else []}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    _git(repo, "add", ".pre-commit-config.yaml")
    _git(repo, "commit", "-qm", "pre-commit config", "--no-verify")
    subprocess.run([PY, "-m", "pre_commit", "install"], cwd=repo, check=True, capture_output=True, env=env)


def _alone(args: list[str], cwd: Path, runs: int) -> tuple[float, float]:
    times, cpus = [], []
    for _ in range(runs):
        start, cpu = time.perf_counter(), _cpu()
        subprocess.run(args, cwd=cwd, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        cpus.append(_cpu() - cpu)
    return statistics.median(times), statistics.median(cpus)


def main() -> None:
    runs = int(os.environ.get("BENCH_RUNS", "11"))
    compileall.compile_dir(ROOT / "loa_memory", quiet=1)
    base = Path(tempfile.mkdtemp(prefix="loa-bench-hooks-"))
    env = {
        **os.environ,
        "LOA_MEMORY_SERVER": "off",
        "PRE_COMMIT_HOME": str(base / "pc-home"),
        "GIT_AUTHOR_NAME": "Bench",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "Bench",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
    }
    os.environ.update(env)
    rows = []
    bare = _commits(_repo(base, "bare"), runs, env)
    rows.append(("git commit, no hooks", bare, (0.0, 0.0)))
    plain = _repo(base, "plain")
    subprocess.run([PY, "-m", "loa_memory", "hooks", "install"], cwd=plain, check=True, capture_output=True)
    rows.append(("git commit, loa-memory plain hooks", _commits(plain, runs, env), bare))
    empty = _repo(base, "framework-empty")
    _framework(empty, [], env)
    framework_bare = _commits(empty, runs, env)
    rows.append(("git commit, pre-commit framework, no hooks configured", framework_bare, bare))
    ours = _repo(base, "framework")
    manifest = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    for hook in manifest:
        hook["entry"] = hook["entry"].replace("loa-memory", f"{PY} -m loa_memory", 1)
        hook["language"] = "system"
    _framework(ours, manifest, env)
    rows.append(("git commit, pre-commit framework, loa-memory hooks", _commits(ours, runs, env), framework_bare))
    message = base / "MSG"
    message.write_text("Change the retry policy\n\nThe gateway retries three times with jitter.\n")
    start_only = _alone([PY, "-c", "pass"], ours, runs)
    rows.append(("python -c pass", start_only, (0.0, 0.0)))
    rows.append(
        (
            "capture --post-commit, HEAD without trailers",
            _alone([PY, "-m", "loa_memory", "capture", "--post-commit"], ours, runs),
            start_only,
        )
    )
    rows.append(
        (
            "scan-secrets --commit-message, clean message",
            _alone([PY, "-m", "loa_memory", "scan-secrets", "--commit-message", str(message)], ours, runs),
            start_only,
        )
    )
    load = os.getloadavg()
    lines = [
        "# Hooks: what a commit without memory trailers pays",
        "",
        f"`python benchmarks/bench_hooks.py`, {runs} runs each, median wall time and CPU time (user + system "
        f"of every process it ran); load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs (`uptime`).",
        "",
        "| what | wall | added (wall) | CPU | added (CPU) |",
        "|---|---|---|---|---|",
    ]
    for name, (wall, cpu), (ref_wall, ref_cpu) in rows:
        added = (f"+{(wall - ref_wall) * 1000:.0f} ms", f"+{(cpu - ref_cpu) * 1000:.0f} ms") if ref_wall else ("-", "-")
        lines.append(f"| {name} | {wall * 1000:.0f} ms | {added[0]} | {cpu * 1000:.0f} ms | {added[1]} |")
    report = "\n".join(lines) + "\n"
    print(report)
    (ROOT / "benchmarks" / "reports" / "hooks.md").write_text(report)


if __name__ == "__main__":
    main()
