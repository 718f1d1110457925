"""The ``loa-memory`` command line: thin click commands behind one error boundary."""

from __future__ import annotations

import sys

from loa_memory.cli.app import cli
from loa_memory.cli.boundary import run


def run_command(argv: list[str]) -> int:
    """Run one command line in this process behind the error boundary; its exit code."""
    return run(cli, argv)


def main(argv: list[str] | None = None) -> None:
    """Run one command in this process (the console script starts in ``loa_memory.main``, which may hand it to
    the warm server instead)."""
    sys.exit(run(cli, argv))


__all__ = ["cli", "main", "run_command"]
