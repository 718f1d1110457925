"""``hooks install|uninstall``: plain git hooks that chain, never clobber, whatever was there before."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from loa_memory.errors import UsageError
from loa_memory.store import git

MARK = "# installed by loa-memory"
CHAINED = ".loa-chained"
_STDIN_HOOKS = ("pre-push", "post-rewrite")


def available_hooks() -> tuple[str, ...]:
    folder = resources.files("loa_memory").joinpath("repo", "githooks")
    return tuple(sorted(p.name for p in folder.iterdir() if not p.name.startswith((".", "_"))))


def _script(name: str) -> str:
    return resources.files("loa_memory").joinpath("repo", "githooks", name).read_text("utf-8")


_WRAPPER = """#!/bin/sh
{mark} (`loa-memory hooks uninstall` restores the previous hook)
{save}if [ -x "$0{chained}" ]; then {feed}"$0{chained}" "$@" || exit $?; fi
if [ -z "$LOA_MEMORY" ]; then
  if [ -x {python} ]; then LOA_MEMORY={command}; else LOA_MEMORY=loa-memory; fi
fi
export LOA_MEMORY
{feed}sh -s -- "$@" <<'LOA_HOOK'
{body}LOA_HOOK
"""


def _wrapper(name: str) -> str:
    """The installed hook: run the chained previous hook first, then ours, with this interpreter."""
    takes_stdin = name in _STDIN_HOOKS
    return _WRAPPER.format(
        mark=MARK, chained=CHAINED, python=shlex.quote(sys.executable),
        command=shlex.quote(f"{shlex.quote(sys.executable)} -m loa_memory"),
        save="input=$(cat)\n" if takes_stdin else "",
        feed='printf "%s\\n" "$input" | ' if takes_stdin else "",
        body=_script(name).split("\n", 1)[1])


def install_hooks(root: Path, names: Sequence[str] = ()) -> list[str]:
    """Install the named hooks (default: all); an existing foreign hook is kept and chained. The merge driver
    for memory files is configured too, where this clone lacks it (``.git/config`` is not versioned)."""
    wanted = list(names) or list(available_hooks())
    unknown = set(wanted) - set(available_hooks())
    if unknown:
        raise UsageError(f"unknown hook(s): {', '.join(sorted(unknown))}",
                         hint=f"available: {', '.join(available_hooks())}")
    directory = git.hooks_dir(root)
    directory.mkdir(parents=True, exist_ok=True)
    done = []
    for name in wanted:
        path = directory / name
        if path.exists() and MARK not in path.read_text("utf-8", errors="replace"):
            path.rename(path.with_name(name + CHAINED))
            done.append(f"{name} (chained after the existing hook)")
        else:
            done.append(name)
        path.write_text(_wrapper(name), "utf-8")
        path.chmod(0o755)
    if git.ensure_merge_driver(root).changed:  # a failure is the caller's to report (it has the fix)
        done.append("merge driver (git config merge.loa-memory.driver)")
    return done


def uninstall_hooks(root: Path, names: Sequence[str] = ()) -> list[str]:
    """Remove our hooks and put back the ones they chained."""
    directory = git.hooks_dir(root)
    removed = []
    for name in list(names) or list(available_hooks()):
        path = directory / name
        if path.exists() and MARK in path.read_text("utf-8", errors="replace"):
            path.unlink()
            chained = path.with_name(name + CHAINED)
            if chained.exists():
                chained.rename(path)
                removed.append(f"{name} (previous hook restored)")
            else:
                removed.append(name)
    return removed
