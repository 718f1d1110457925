"""Id collisions between branches: caught before the merge with --base, renumbered after it; references follow."""

from __future__ import annotations

import subprocess
from pathlib import Path

from loa_memory.store import load_config, load_grimoire
from tests.fixtures import Cli, git


def _commit(root: Path, message: str) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def _two_branches(loa: Cli) -> tuple[str, str]:
    """main and feature both add the day's next decision, so both allocate the same id."""
    assert loa("add", "fact", "Base fact for the collision test").exit_code == 0
    _commit(loa.root, "base")
    git(loa.root, "checkout", "-q", "-b", "feature")
    mine = loa.json("add", "decision", "Adopt gRPC for internal calls", "--confidence", "0.95")["id"]
    loa("add", "learning", "gRPC streaming needs HTTP/2 end to end", "--link", f"related_to:{mine}")
    _commit(loa.root, "feature")
    git(loa.root, "checkout", "-q", "main")
    theirs = loa.json("add", "decision", "Use REST for public APIs", "--confidence", "0.95")["id"]
    _commit(loa.root, "main")
    git(loa.root, "checkout", "-q", "feature")
    return mine, theirs


def test_collision_is_caught_before_the_merge_and_renumbered(loa: Cli) -> None:
    mine, theirs = _two_branches(loa)
    assert mine == theirs
    result = loa("lint", "--base", "main")
    assert result.exit_code == 1 and "(id-collision)" in result.stdout
    fixed = loa("lint", "--fix", "--base", "main")
    assert fixed.exit_code == 0, fixed.output
    assert "renumbered to" in fixed.stdout
    grimoire = load_grimoire(load_config(loa.root))
    decision = next(e for e in grimoire.entries if e.content == "Adopt gRPC for internal calls")
    assert decision.id != mine and decision.aliases == [mine]
    learning = next(e for e in grimoire.entries if e.category == "learning")
    assert learning.data["links"] == [{"to": decision.id, "relation": "related_to"}]
    assert loa.json("show", mine)["id"] == decision.id
    _commit(loa.root, "renumbered")
    merged = subprocess.run(["git", "-C", str(loa.root), "merge", "--no-edit", "-q", "main"], capture_output=True)
    assert merged.returncode == 0
    assert loa("lint").exit_code == 0


def test_duplicates_after_a_merge_are_renumbered_with_references(loa: Cli) -> None:
    mine, _ = _two_branches(loa)
    git(loa.root, "checkout", "-q", "main")
    assert subprocess.run(["git", "-C", str(loa.root), "merge", "--no-edit", "-q", "feature"],
                          capture_output=True).returncode == 0
    result = loa("lint")
    assert result.exit_code == 1 and "(duplicate-id)" in result.stdout
    assert loa("lint", "--fix").exit_code == 0
    grimoire = load_grimoire(load_config(loa.root))
    ids = [e.id for e in grimoire.entries]
    assert len(ids) == len(set(ids))
    renumbered = [e for e in grimoire.entries if e.aliases]
    assert [e.aliases for e in renumbered] == [[mine]]
    learning = next(e for e in grimoire.entries if e.category == "learning")
    target = grimoire.get(learning.data["links"][0]["to"])
    assert target.content == "Adopt gRPC for internal calls"  # the link still means what it meant on its branch
    assert loa("lint").exit_code == 0
