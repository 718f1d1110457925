"""Shared helpers: real git repositories, memory files, and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from loa_memory.cli import cli
from loa_memory.cli.boundary import run
from loa_memory.cli.invocation import resolve
from loa_memory.errors import LoaError
from loa_memory.render.contract import ERROR, output_problems, schema_name

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
        argv = ["--root", str(self.root), *args]
        with CliRunner().isolation(input=input) as (out, err, _mixed):
            code = run(cli, argv)
            sys.stdout.flush()
            sys.stderr.flush()
            outcome = Outcome(code, out.getvalue().decode(), err.getvalue().decode())
        check_contract(argv, outcome)
        return outcome

    def json(self, *args: str, input: str | None = None) -> Any:
        result = self(*args, "--format", "json", input=input)
        return json.loads(result.stdout)


CONTRACT_CHECKS: Counter[str] = Counter()  # schema name → outputs validated in this test run


def check_contract(argv: list[str], outcome: Outcome) -> None:
    """Every JSON (and YAML) output the tests produce must match the command's published schema, and every
    failure in JSON mode must print the error envelope; a command with --format and no schema fails too."""
    invocation = resolve(cli, argv)
    if invocation.eager or invocation.fmt not in ("json", "yaml"):
        return
    shown = f"`loa-memory {' '.join(argv[2:])}` (exit {outcome.exit_code})"
    if not outcome.stdout.strip():
        # JSON mode always answers on stdout, except a command without JSON output that succeeded
        assert invocation.fmt == "yaml" or (not invocation.has_format_option and outcome.exit_code in (0, 1)), \
            f"{shown} printed nothing on stdout in JSON mode\nstderr: {outcome.stderr}"
        return
    try:
        data = json.loads(outcome.stdout) if invocation.fmt == "json" else yaml.safe_load(outcome.stdout)
    except (ValueError, yaml.YAMLError) as exc:
        raise AssertionError(f"{shown}: --format {invocation.fmt} printed something else on stdout ({exc}):\n"
                             f"{outcome.stdout[:2000]}") from None
    if isinstance(data, dict) and set(data) == {"error"}:
        name = ERROR
        assert outcome.exit_code != 0, f"{shown} printed an error envelope but exited 0"
    else:
        assert invocation.has_format_option, f"{shown}: a command without --format printed on stdout"
        name = schema_name(invocation.words)
        assert outcome.exit_code in (0, 1), f"{shown} printed output but failed:\n{outcome.stdout[:2000]}"
    CONTRACT_CHECKS[name] += 1
    try:
        problems = output_problems(name, data)
    except LoaError as exc:
        raise AssertionError(f"{shown}: {exc} (every command with --format publishes its output schema in "
                             f"loa_memory/schemas/output/{name}.schema.json)") from None
    assert not problems, (f"{shown}: the output breaks loa_memory/schemas/output/{name}.schema.json:\n  "
                          + "\n  ".join(problems[:20]) + f"\noutput:\n{outcome.stdout[:3000]}")


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


@contextmanager
def initialised_repo() -> Iterator[Path]:
    """A throwaway git repository with ``loa-memory init`` run, for tests that need many (hypothesis examples)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = make_repo(Path(tmp) / "repo")
        assert Cli(root)("init", "--layout", "lists").exit_code == 0
        yield root


def loa_process(root: Path, *args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    """``loa-memory ARGS`` as its own process in ``root``, the way a user or an agent runs it (``env`` added)."""
    return subprocess.run(
        [sys.executable, "-m", "loa_memory", *args],
        cwd=root,
        input=stdin,
        text=True,
        capture_output=True,
        env={**os.environ, **env},
        timeout=120,
    )

