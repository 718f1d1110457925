"""Progress on stderr: a bar with rate and time left on a terminal, nothing when piped."""

from __future__ import annotations

import io
import sys

import pytest

from loa_memory.cli.common import progress_bar
from tests.fixtures import Cli


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_shows_count_rate_and_time_left_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    show = progress_bar("embedding", "entries")
    assert show is not None
    show(64, 256)
    show(256, 256)
    first, last = terminal.getvalue().split("\r")[1:]
    assert first.startswith("embedding [######..................] 64/256 entries ") and "/s" in first
    assert "left" in first and first.endswith("  ")  # not finished: the line stays open for the next update
    assert last.startswith("embedding [########################] 256/256 entries ") and last.endswith("\n")


def test_no_bar_when_stderr_is_piped(loa: Cli) -> None:
    assert progress_bar() is None  # pytest captures stderr: not a terminal
    assert loa("add", "fact", "The mail service listens on port 8025", "--summary", "Port of mail").exit_code == 0
    done = loa("index")
    assert done.exit_code == 0 and done.stderr == ""
    assert "the full-text index: 1 added" in done.stdout and "embeddings: 1 new" in done.stdout
