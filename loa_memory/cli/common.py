"""What every command shares: the global state, the --format option, output."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click

from loa_memory.render import FORMATS, render
from loa_memory.store.config import Config, find_root, load_config

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class State:
    """Global options, filled by the group and read by every command."""

    root: Path | None = None
    fmt: str = "text"

    def find_root(self) -> Path:
        return find_root(self.root or Path.cwd())

    def config(self) -> Config:
        return load_config(self.find_root())


pass_state = click.make_pass_decorator(State, ensure=True)


def format_option(extra: tuple[str, ...] = ()) -> Callable[[F], F]:
    """``--format``; defaults to the group-level ``--format``."""
    return click.option("--format", "fmt", type=click.Choice(FORMATS + extra), default=None,
                        help="Output format (default: the global --format, else text).")


def emit(state: State, fmt: str | None, data: Any, text: Callable[[Any], str]) -> None:
    output = render(data, fmt or state.fmt, text)
    if output:
        click.echo(output)


def warn_skipped(problems: list[dict[str, Any]]) -> None:
    """Name on stderr each memory file a read command skipped because it does not parse (exit code unchanged)."""
    from loa_memory.render.problems import skipped_lines

    for line in skipped_lines(problems):
        click.echo(line, err=True)


def progress_bar(what: str = "embedding", unit: str = "entries") -> Callable[[int, int], None] | None:
    """A progress bar with rate and time left on stderr when it is a terminal; nothing when piped."""
    if not sys.stderr.isatty():
        return None
    import time

    started = time.monotonic()

    def show(done: int, total: int) -> None:
        elapsed = time.monotonic() - started
        rate = done / elapsed if elapsed > 0 else 0.0
        left = f"{int((total - done) / rate) // 60}:{int((total - done) / rate) % 60:02d} left" if rate else ""
        filled = int(24 * done / total) if total else 24
        click.echo(f"\r{what} [{'#' * filled}{'.' * (24 - filled)}] {done}/{total} {unit}  {rate:.1f}/s  {left}  ",
                   nl=done >= total, err=True)

    return show


def say_on_stderr(quiet: bool = False) -> Callable[[str], None] | None:
    """One-time steps (unpacking or building the model) as lines on stderr, terminal or not: a wait of
    seconds that says why."""
    if quiet:
        return None
    return lambda message: click.echo(message, err=True)


def note_not_embedded(count: int) -> None:
    """Say on stderr that ``count`` entries were found by words only, and that they are being embedded."""
    if count:
        click.echo(f"note: {count} entr{'y is' if count == 1 else 'ies are'} not embedded yet and "
                   f"{'was' if count == 1 else 'were'} found by words only; embedding goes on in the background "
                   "(on a machine's first use, after preparing the model; `loa-memory index` shows progress)",
                   err=True)


def note_unblocking(problems: list[dict[str, Any]]) -> None:
    """Name on stderr the problems elsewhere in the grimoire that a write went past (they did not block it)."""
    for r in problems:
        click.echo(f"{r['path']}:{r['line']}:{r['col']}: {r['message']} ({r['rule']}); elsewhere, so it did not "
                   "block this write (`loa-memory lint` shows every problem)", err=True)


def split_csv(values: tuple[str, ...]) -> list[str]:
    """``--tags a,b --tags c`` → ``[a, b, c]``."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def setup_merge_driver(root: Path) -> None:
    """Configure the merge driver in this clone if it is missing (quietly); say on stderr how if that fails."""
    from loa_memory.store.git import ensure_merge_driver

    warning = ensure_merge_driver(root).warning
    if warning:
        click.echo(warning, err=True)
