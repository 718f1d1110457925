"""Hooks for real: plain git hooks that chain, and a real `pre-commit run` with this repo's hook definitions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.fixtures import MEMDIR, Cli, git

ROOT = Path(__file__).resolve().parents[2]
SECRET = "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"


def _commit(repo: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(["git", "-C", str(repo), "commit", "-qm", "memory"], capture_output=True, text=True,
                          env=env)


def test_plain_hook_blocks_bad_commits_and_chains_the_previous_hook(loa: Cli) -> None:
    hooks = loa.root / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    previous = hooks / "pre-commit"
    previous.write_text("#!/bin/sh\necho previous >> \"$(git rev-parse --git-dir)/ran\"\n")
    previous.chmod(0o755)
    assert loa("hooks", "install").exit_code == 0
    assert loa("add", "fact", "The gateway times out after 30 seconds").exit_code == 0
    git(loa.root, "add", "-A")
    assert _commit(loa.root).returncode == 0
    assert (loa.root / ".git" / "ran").read_text() == "previous\n"
    facts = loa.root / MEMDIR / "facts.yaml"
    facts.write_text(facts.read_text() + f"# note {SECRET}\n")
    git(loa.root, "add", "-A")
    blocked = _commit(loa.root)
    assert blocked.returncode != 0
    assert "GitHub token" in blocked.stdout + blocked.stderr and SECRET not in blocked.stdout + blocked.stderr
    facts.write_text(facts.read_text().replace(f"# note {SECRET}\n", "").replace("confidence: 0.8",
                                                                                 "confidence: high"))
    git(loa.root, "add", "-A")
    blocked = _commit(loa.root)
    assert blocked.returncode != 0 and "(schema)" in blocked.stdout + blocked.stderr
    assert loa("hooks", "uninstall").exit_code == 0
    assert previous.read_text().startswith("#!/bin/sh\necho previous")


def _local_config(repo: Path) -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    local = []
    for hook in hooks:
        command = hook["entry"].replace("loa-memory", f"{sys.executable} -m loa_memory", 1)
        local.append({**hook, "entry": command, "language": "system"})
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump({"repos": [{"repo": "local", "hooks": local}]}))


@pytest.mark.parametrize("problem", ["clean", "secret", "schema"])
def test_pre_commit_framework_runs_the_published_hooks(loa: Cli, tmp_path: Path, problem: str) -> None:
    _local_config(loa.root)
    assert loa("add", "decision", "Use PostgreSQL for JSONB", "--confidence", "0.95").exit_code == 0
    decisions = loa.root / MEMDIR / "decisions.yaml"
    if problem == "secret":
        decisions.write_text(decisions.read_text().replace("Use PostgreSQL for JSONB",
                                                           f"Use PostgreSQL; CI token {SECRET}"))
    elif problem == "schema":
        decisions.write_text(decisions.read_text().replace("confidence: 0.95", "confidence: 0.5"))
    git(loa.root, "add", "-A")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pc-home"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "pre_commit", "run", "--all-files"], cwd=loa.root,
                          capture_output=True, text=True, env=env)
    output = done.stdout + done.stderr
    if problem == "clean":
        assert done.returncode == 0, output
    else:
        assert done.returncode == 1, output
        assert ("GitHub token" if problem == "secret" else "(min-confidence)") in output
        assert SECRET not in output
