"""The ``loa-memory`` command line: thin click commands behind one error boundary."""

from __future__ import annotations

import sys

from .app import cli
from .boundary import run


def main(argv: list[str] | None = None) -> None:
    """Run one command in this process (the console script starts in ``loa_memory.client``)."""
    sys.exit(run(cli, argv))


__all__ = ["cli", "main"]
