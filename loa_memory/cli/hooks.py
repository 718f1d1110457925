"""``hooks install|uninstall``."""

from __future__ import annotations

import click

from .common import State, emit, format_option, pass_state


@click.group()
def hooks() -> None:
    """Plain git hooks, for repositories that do not use the pre-commit framework."""


@hooks.command()
@click.argument("names", nargs=-1)
@format_option()
@pass_state
def install(state: State, /, names: tuple[str, ...], fmt: str | None) -> None:
    """Install NAMES (default: every hook); existing hooks are chained, not overwritten."""
    from ..ops.hooks import install_hooks

    done = install_hooks(state.find_root(), names)
    emit(state, fmt, {"installed": done}, lambda d: "\n".join(f"installed {h}" for h in d["installed"]))


@hooks.command()
@click.argument("names", nargs=-1)
@format_option()
@pass_state
def uninstall(state: State, /, names: tuple[str, ...], fmt: str | None) -> None:
    """Remove loa-memory's hooks and restore the hooks they chained."""
    from ..ops.hooks import uninstall_hooks

    done = uninstall_hooks(state.find_root(), names)
    emit(state, fmt, {"removed": done}, lambda d: "\n".join(f"removed {h}" for h in d["removed"]) or "nothing to do")
