"""Two branches that only add memories, merged where no merge driver runs (as GitHub's button, a fresh clone).

Each run: an upstream repository with a grimoire and two clones (git does not copy the merge driver's config;
loa-memory's writes set it up, so it is unset again before merging, as GitHub's merge button ignores it).
Branch ``a`` in one clone and ``b`` in the other each add 20 memories of the same five categories on the same
day through the in-process CLI (19 adds, some linking to an earlier entry of the branch, and one supersede), in
4 commits. Then, in clone ``a``: ``git merge origin/b`` (ort, default options) and, from ``a`` again, ``git
rebase origin/b``; each counts conflicts, entries lost or doubled, ids carried by two entries, and references
that no longer mean what their branch meant.

Scenarios: the layout and id form of a new grimoire (``entries``, random ids); the old list files for
comparison; and a grimoire that keeps Loa's 3-digit ids (``entries`` layout, ``id_style: loa``), where the PR
check ``lint --base origin/main`` must report every collision before the merge and ``lint --fix`` repair them
all after it, references rewritten.

Run: python benchmarks/merge_layout.py [--runs 50] [--adds 20]  → benchmarks/reports/merge-layout.md
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loa_memory.cli import run_command
from loa_memory.store import load_config, load_grimoire

REPORT = Path(__file__).resolve().parent / "reports" / "merge-layout.md"
CATEGORIES = ("decision", "fact", "learning", "error", "preference")
IDENTITY = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "LOA_MEMORY_SERVER": "off",
}


@dataclass
class Tally:
    """Counts over runs of one merge method."""

    runs: int = 0
    conflicts: int = 0  # runs that stopped on a conflict
    lost: int = 0  # entries missing after the merge
    doubled: int = 0  # entries present twice
    duplicate_ids: int = 0  # ids carried by more than one entry
    wrong_references: int = 0  # links/supersedes that point elsewhere than their branch meant


@dataclass
class PrCheck:
    """The 3-digit scenario: collisions, what `lint --base` reported, and what `lint --fix` left."""

    runs: int = 0
    collisions: int = 0
    reported: int = 0
    missed: int = 0
    merge_conflicts: int = 0
    left_after_fix: int = 0
    wrong_references: int = 0
    lost: int = 0
    fix_commands: int = 0


@dataclass
class Branch:
    """What one branch added: content → intended reference targets (by content)."""

    contents: list[str] = field(default_factory=list)
    refers: dict[str, list[str]] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)  # content → id as added


def git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=check, env={**os.environ, **IDENTITY}
    )


def loa(root: Path, *args: str) -> tuple[int, str]:
    """Run ``loa-memory`` in this process; (exit code, stdout)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = run_command(["--root", str(root), *args])
    return code, out.getvalue()


def _add(root: Path, args: list[str]) -> str:
    code, out = loa(root, *args, "--format", "json")
    if code:
        raise RuntimeError(f"loa-memory {' '.join(args)} failed ({code}): {out}")
    return str(json.loads(out)["id"])


def add_memories(root: Path, name: str, adds: int) -> Branch:
    """``adds`` new entries on branch ``name``: every fifth links to the one before, the last supersedes the first
    decision; committed in four steps."""
    branch = Branch()
    step = max(1, adds // 4)
    for number in range(adds - 1):
        category = CATEGORIES[number % len(CATEGORIES)]
        content = f"Branch {name} {category} {number}: use tool-{name}-{number} for part {number}."
        args = ["add", category, content, "--confidence", "0.95"]
        if number % 5 == 4 and branch.contents:
            target = branch.contents[-1]
            args += ["--link", f"related_to:{branch.ids[target]}"]
            branch.refers[content] = [target]
        branch.ids[content] = _add(root, args)
        branch.contents.append(content)
        if (number + 1) % step == 0:
            git(root, "add", "-A")
            git(root, "commit", "-qm", f"{name}: memories up to {number}")
    first = branch.contents[0]
    content = f"Branch {name} decision replaced: use tool-{name}-new instead of tool-{name}-0."
    branch.ids[content] = _add(root, ["supersede", branch.ids[first], content, "--confidence", "0.95"])
    branch.contents.append(content)
    branch.refers[content] = [first]
    git(root, "add", "-A")
    git(root, "commit", "-qm", f"{name}: supersede")
    return branch


def setup(base: Path, layout: str, id_style: str | None) -> tuple[Path, Path, Path]:
    """An upstream repository with an initialised grimoire and two clones, none with a merge driver."""
    upstream = base / "upstream"
    upstream.mkdir(parents=True)
    git(upstream, "init", "-q", "-b", "main")
    loa(upstream, "init", "--layout", layout)
    if id_style:
        config = upstream / ".loa.config.yaml"
        config.write_text(config.read_text().replace("  layout:", f"  id_style: {id_style}\n  layout:", 1))
    git(upstream, "config", "--unset", "merge.loa-memory.driver", check=False)
    loa(upstream, "add", "fact", "The base fact every branch starts from.", "--confidence", "0.95")
    git(upstream, "add", "-A")
    git(upstream, "commit", "-qm", "base")
    git(upstream, "config", "receive.denyCurrentBranch", "ignore")
    clones = []
    for name in ("a", "b"):
        clone = base / name
        subprocess.run(["git", "clone", "-q", str(upstream), str(clone)], check=True, capture_output=True)
        git(clone, "config", "commit.gpgsign", "false")
        assert git(clone, "config", "--get", "merge.loa-memory.driver", check=False).stdout == ""
        git(clone, "checkout", "-q", "-b", name)
        clones.append(clone)
    return upstream, clones[0], clones[1]


def _grimoire_check(root: Path, branches: list[Branch], expected: list[str]) -> tuple[int, int, int, int]:
    """(lost, doubled, duplicate ids, wrong references) of the grimoire in ``root``."""
    grimoire = load_grimoire(load_config(root), use_cache=False)
    entries = [*grimoire.entries, *grimoire.invalid]
    seen = Counter(e.content for e in entries)
    lost = sum(1 for content in expected if not seen[content])
    doubled = sum(count - 1 for count in seen.values() if count > 1)
    ids = Counter(e.id for e in entries)
    duplicate_ids = sum(1 for count in ids.values() if count > 1)
    by_content = {e.content: e for e in entries}
    by_id: dict[str, Any] = {}
    for entry in entries:  # a real id wins over an alias, as in Grimoire.by_id
        for alias in entry.aliases:
            by_id.setdefault(alias, entry)
    by_id.update({e.id: e for e in entries})
    wrong = 0
    for branch in branches:
        for content, targets in branch.refers.items():
            entry = by_content.get(content)
            if entry is None:
                continue
            pointed = [link.get("to") for link in entry.data.get("links") or [] if isinstance(link, dict)]
            pointed += [entry.supersedes] if entry.supersedes else []
            meant = {target for target in targets}
            found = {by_id[ref].content for ref in pointed if ref in by_id}
            wrong += len(meant - found)
    return lost, doubled, duplicate_ids, wrong


def _no_driver(root: Path) -> None:
    """Merge as GitHub's button does: loa-memory's writes set the merge driver up in a clone, so unset it."""
    git(root, "config", "--unset", "merge.loa-memory.driver", check=False)


def _conflicted(root: Path) -> bool:
    return bool(git(root, "diff", "--name-only", "--diff-filter=U").stdout.strip())


def one_run(base: Path, layout: str, id_style: str | None, adds: int, merge: Tally, rebase: Tally) -> None:
    _upstream, a, b = setup(base, layout, id_style)
    branches = [add_memories(a, "a", adds), add_memories(b, "b", adds)]
    git(b, "push", "-q", "origin", "b")
    git(a, "fetch", "-q", "origin")
    expected = ["The base fact every branch starts from.", *branches[0].contents, *branches[1].contents]
    _no_driver(a)
    for tally, command in ((merge, ["merge", "--no-edit", "-q", "origin/b"]), (rebase, ["rebase", "-q", "origin/b"])):
        git(a, "checkout", "-q", "-B", f"try-{command[0]}", "a")
        tally.runs += 1
        done = git(a, *command, check=False)
        if done.returncode or _conflicted(a):
            tally.conflicts += 1
            git(a, command[0], "--abort", check=False)
            continue
        lost, doubled, duplicate_ids, wrong = _grimoire_check(a, branches, expected)
        tally.lost += lost
        tally.doubled += doubled
        tally.duplicate_ids += duplicate_ids
        tally.wrong_references += wrong


def pr_check_run(base: Path, adds: int, tally: PrCheck) -> None:
    """3-digit ids: a's pull request lands first; b's PR check runs against main; then b lands unrepaired (as
    a merge button that ignores the check would) and one `lint --fix` repairs main."""
    _upstream, a, b = setup(base, "entries", "loa")
    branches = [add_memories(a, "a", adds), add_memories(b, "b", adds)]
    git(a, "push", "-q", "origin", "a:main")
    git(b, "fetch", "-q", "origin")
    tally.runs += 1
    collisions = set(branches[0].ids.values()) & set(branches[1].ids.values())
    tally.collisions += len(collisions)
    _code, out = loa(b, "lint", "--base", "origin/main", "--format", "json")
    reported = {f["entry_id"] for f in json.loads(out)["findings"] if f["rule"] in ("id-collision", "duplicate-id")}
    tally.reported += len(collisions & reported)
    tally.missed += len(collisions - reported)
    git(b, "push", "-q", "origin", "b")
    git(a, "fetch", "-q", "origin")
    git(a, "checkout", "-q", "-B", "main", "origin/main")
    _no_driver(a)
    done = git(a, "merge", "--no-edit", "-q", "origin/b", check=False)
    if done.returncode or _conflicted(a):
        tally.merge_conflicts += 1
        return
    loa(a, "lint", "--fix")
    tally.fix_commands += 1
    expected = ["The base fact every branch starts from.", *branches[0].contents, *branches[1].contents]
    lost, _doubled, duplicate_ids, wrong = _grimoire_check(a, branches, expected)
    tally.left_after_fix += duplicate_ids
    tally.wrong_references += wrong
    tally.lost += lost


SCENARIOS = (
    ("entries", None, "new grimoire: `entries` layout, random ids (the default of `loa-memory init`)"),
    ("lists", "loa", "list files and 3-digit ids (the layout before this change), for comparison"),
)


def measure(runs: int, adds: int, lists_runs: int | None = None) -> dict[str, Any]:
    """Every scenario; returns the tallies (``lists_runs``: runs of the old layout, which conflicts every time;
    default ``runs``)."""
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for layout, style, label in SCENARIOS:
            merge, rebase = Tally(), Tally()
            for number in range(runs if layout == "entries" or lists_runs is None else lists_runs):
                one_run(Path(tmp) / f"{layout}-{number}", layout, style, adds, merge, rebase)
            results[label] = (merge, rebase)
        check = PrCheck()
        for number in range(runs):
            pr_check_run(Path(tmp) / f"pr-{number}", adds, check)
        results["pr-check"] = check
    return results


def _row(name: str, record: Any) -> str:
    return f"| {name} | " + " | ".join(str(getattr(record, f.name)) for f in fields(record)) + " |"


def report(results: dict[str, Any], runs: int, adds: int, seconds: float, load: str) -> str:
    lines = [
        "# Merging branches that only add memories, with no merge driver",
        "",
        f"`python benchmarks/merge_layout.py --runs {runs} --adds {adds}`: {runs} runs per scenario (fewer of "
        "the old list layout, see its table), two "
        f"branches of {adds} new memories each (five categories, same day, 19 adds + 1 supersede, references "
        f"to earlier entries of the branch), in clones with no merge driver configured; {seconds:.0f} s in "
        f"all, load average before the run: {load} (loa-memory's fsync calls off: `--fsync` keeps them).",
        "",
    ]
    for label, (merge, rebase) in ((k, v) for k, v in results.items() if k != "pr-check"):
        lines += [
            f"## {label}",
            "",
            "| method | " + " | ".join(f.name for f in fields(Tally)) + " |",
            "|---" * (len(fields(Tally)) + 1) + "|",
            _row("git merge (ort)", merge),
            _row("git rebase", rebase),
            "",
        ]
    check = results["pr-check"]
    lines += [
        "## Loa's 3-digit ids (`entries` layout, `id_style: loa`): the PR check and the repair",
        "",
        "Branch a lands on main first; b's PR check `loa-memory lint --base origin/main` runs; then b is "
        "merged unrepaired (as a merge button that ignores the check) and one `loa-memory lint --fix` runs "
        "on main.",
        "",
        "| " + " | ".join(f.name for f in fields(PrCheck)) + " |",
        "|---" * len(fields(PrCheck)) + "|",
        "| " + " | ".join(str(getattr(check, f.name)) for f in fields(PrCheck)) + " |",
        "",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--adds", type=int, default=20)
    parser.add_argument("--lists-runs", type=int, default=10, help="runs of the old list layout (it always conflicts)")
    parser.add_argument("--out", type=Path, default=REPORT)
    parser.add_argument("--fsync", action="store_true", help="keep loa-memory's fsync calls (slower)")
    args = parser.parse_args()
    os.environ.update(IDENTITY)
    if not args.fsync:  # the outcome of a merge does not depend on durability; fsync on a busy disk costs minutes
        os.fsync = lambda _fd: None
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else ["?"]
    start = time.perf_counter()
    results = measure(args.runs, args.adds, args.lists_runs)
    used = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    cpu = sum(u.ru_utime + u.ru_stime for u in used)
    text = report(results, args.runs, args.adds, time.perf_counter() - start, f"{', '.join(load)}; {cpu:.0f} s of CPU")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n", "utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
