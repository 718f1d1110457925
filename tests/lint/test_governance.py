"""Governance against git history (`lint --base`): telos by operators only, append-only episodes."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.fixtures import MEMDIR, Cli, git

OPERATOR = "lead@example.com"


def _commit(root: Path, message: str, email: str = "author@example.com") -> None:
    git(root, "add", "-A")
    env = {**os.environ, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_EMAIL": email}
    subprocess.run(["git", "-C", str(root), "commit", "-qm", message], check=True, env=env)


def _setup(loa: Cli) -> None:
    config = loa.root / ".loa.config.yaml"
    config.write_text(config.read_text().replace("operators: []", f"operators: [{OPERATOR}]"))
    assert loa("add", "telos", "Be the memory agents trust", "--summary", "Purpose").exit_code == 0
    episode = '{"category": "episode", "content": "Fixed the flaky test", "outcome": "success"}'
    assert loa("add", "--from-json", "-", input=episode).exit_code == 0
    _commit(loa.root, "base", OPERATOR)
    git(loa.root, "branch", "base")


def _telos(loa: Cli) -> Path:
    return next((loa.root / MEMDIR / "telos").glob("*.md"))


def test_telos_change_by_a_non_operator_fails_and_by_an_operator_passes(loa: Cli) -> None:
    _setup(loa)
    git(loa.root, "checkout", "-q", "-b", "intruder")
    _telos(loa).write_text(_telos(loa).read_text().replace("agents trust", "agents fear"))
    _commit(loa.root, "reword telos")
    result = loa("lint", "--base", "base")
    assert result.exit_code == 1
    line = next(ln for ln in result.stdout.splitlines() if "(governance)" in ln)
    assert "telos changed in commit" in line and "author@example.com" in line and "/telos/" in line
    git(loa.root, "checkout", "-q", "-b", "operator", "base")
    _telos(loa).write_text(_telos(loa).read_text().replace("agents trust", "people and agents trust"))
    _commit(loa.root, "reword telos", OPERATOR)
    assert loa("lint", "--base", "base").exit_code == 0


def test_editing_an_old_episode_fails(loa: Cli) -> None:
    _setup(loa)
    episodes = next((loa.root / MEMDIR / "episodic").glob("*.yaml"))
    episodes.write_text(episodes.read_text().replace("outcome: success", "outcome: failure"))
    _commit(loa.root, "rewrite history", OPERATOR)
    result = loa("lint", "--base", "base")
    assert result.exit_code == 1 and "append-only" in result.stdout and "(governance)" in result.stdout


def test_adding_episodes_and_superseding_pass(loa: Cli) -> None:
    _setup(loa)
    decision = loa.json("add", "decision", "Use REST", "--confidence", "0.95")["id"]
    _commit(loa.root, "decision")
    git(loa.root, "branch", "-f", "base")
    assert loa("supersede", decision, "Use gRPC internally").exit_code == 0
    assert loa("add", "--from-json", "-", input='{"category": "episode", "content": "Chose gRPC"}').exit_code == 0
    _commit(loa.root, "more")
    assert loa("lint", "--base", "base").exit_code == 0
