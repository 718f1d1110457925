"""Shared helpers: real git repositories, memory files, and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from loa_memory.cli import cli
from loa_memory.cli.boundary import run

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "Test Author", "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "Test Author", "GIT_COMMITTER_EMAIL": "author@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}
MEMDIR = "grimoires/loa/memory"


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True)
    return done.stdout


def make_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "commit.gpgsign", "false")
    return path


@dataclass(frozen=True)
class Outcome:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


class Cli:
    """Runs ``loa-memory`` in-process against one repository, through the real error boundary."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def __call__(self, *args: str, input: str | None = None) -> Outcome:
        with CliRunner().isolation(input=input) as (out, err, _mixed):
            code = run(cli, ["--root", str(self.root), *args])
            sys.stdout.flush()
            sys.stderr.flush()
            return Outcome(code, out.getvalue().decode(), err.getvalue().decode())

    def json(self, *args: str, input: str | None = None) -> Any:
        result = self(*args, "--format", "json", input=input)
        return json.loads(result.stdout)


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path
