"""``hooks install|uninstall``."""

from __future__ import annotations

from pathlib import Path

import click

from loa_memory.cli.common import State, emit, format_option, pass_state, setup_merge_driver


@click.group()
def hooks() -> None:
    """Plain git hooks, for repositories that do not use the pre-commit framework."""


@hooks.command()
@click.argument("names", nargs=-1)
@format_option()
@pass_state
def install(state: State, /, names: tuple[str, ...], fmt: str | None) -> None:
    """Install NAMES (default: every hook); existing hooks are chained, not overwritten."""
    from loa_memory.repo.hooks import install_hooks

    root = state.find_root()
    done = install_hooks(root, names)
    setup_merge_driver(root)
    emit(state, fmt, {"installed": done}, lambda d: "\n".join(f"installed {h}" for h in d["installed"]))


@hooks.command()
@click.argument("names", nargs=-1)
@format_option()
@pass_state
def uninstall(state: State, /, names: tuple[str, ...], fmt: str | None) -> None:
    """Remove loa-memory's hooks and restore the hooks they chained."""
    from loa_memory.repo.hooks import uninstall_hooks

    done = uninstall_hooks(state.find_root(), names)
    emit(state, fmt, {"removed": done}, lambda d: "\n".join(f"removed {h}" for h in d["removed"]) or "nothing to do")


@click.command("merge-driver")
@click.argument("base", type=click.Path(path_type=Path))
@click.argument("ours", type=click.Path(path_type=Path))
@click.argument("theirs", type=click.Path(path_type=Path))
@click.argument("marker_size", type=int, default=7, required=False)
@click.argument("path", default="", required=False)
@click.pass_context
def merge_driver(ctx: click.Context, base: Path, ours: Path, theirs: Path, marker_size: int, path: str) -> None:
    """Git merge driver for memory files (%O %A %B %L %P): merges entries by id; `init` registers it."""
    from loa_memory.repo.merge import run_merge_driver

    code = run_merge_driver(base, ours, theirs, marker_size, path)
    if code:
        click.echo(f"loa-memory: conflicting edits to the same field left in {path or ours}; "
                   "resolve them and run `loa-memory lint`", err=True)
    ctx.exit(code)
