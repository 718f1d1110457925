"""The ``loa-memory`` entry point: read commands go to the user's warm server when one runs.

A fresh process pays about 0.3 s at 10,000 entries before it can answer a search: Python, click, numpy
and Whoosh imports, the grimoire's parse cache, the index and the vectors. The warm server
(``loa-memory server``, ``server/warm.py``) keeps all of that in memory, checks on every request that no
file changed since (``store/cache/memo.py``), and answers in a few tens of milliseconds, so a served command
costs a Python start plus one round trip on a Unix socket. This module is what runs first: it imports
nothing heavy, hands ``search``, ``recall``, ``why``, ``show`` and ``list`` to the server if one is
listening (one per user, for all of its repositories), and otherwise runs the command here, then starts a
server for the next ones (never with ``LOA_MEMORY_SERVER=off``; under CI it exits after 2 idle minutes
instead of 15). Everything else always runs here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from loa_memory.server.protocol import (
    ANSWER_SECONDS,
    MAX_STDIN_CHARS,
    SERVED,
    ask,
    command_line,
    enabled,
    idle_seconds,
    spawn,
)
from loa_memory.threads import query_threads


def main() -> None:
    """Console-script entry point."""
    argv = sys.argv[1:]
    if nothing_to_do(argv):
        sys.exit(0)
    command, root = parse(argv)
    stdin: str | None = None
    if command in SERVED and enabled() and root is not None:
        if "--hook-input" in argv and sys.stdin is not None and not sys.stdin.isatty():
            stdin = sys.stdin.read(MAX_STDIN_CHARS + 1)  # more than that: run here, where the command says so
        answer = None
        if stdin is None or len(stdin) <= MAX_STDIN_CHARS:
            tty = {"stdout": _isatty(sys.stdout), "stderr": _isatty(sys.stderr)}
            answer = ask(
                {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ), "stdin": stdin, "tty": tty},
                timeout=ANSWER_SECONDS,
            )
        if answer is not None and "code" in answer:
            sys.stdout.write(answer["stdout"])
            sys.stderr.write(answer["stderr"])
            sys.stdout.flush()
            sys.exit(int(answer["code"]))
    if command in SERVED:
        query_threads()
    code = run_here(argv, stdin)
    if command in SERVED and root is not None and code in (0, 1) and enabled():
        spawn(root, idle_seconds())
    sys.exit(code)


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty()) if callable(isatty) else False


def run_here(argv: list[str], stdin: str | None = None) -> int:
    """Run the command in this process (``stdin``: what the client already read of standard input)."""
    import gc

    gc.set_threshold(100_000, 20, 20)  # one short command: collecting young objects thousands of times buys nothing
    if stdin is not None:
        import io

        sys.stdin = io.StringIO(stdin)
    from loa_memory.cli import run_command

    return run_command(argv)


def nothing_to_do(argv: list[str]) -> bool:
    """The git hooks' common case, decided before click and the store are imported: ``capture --post-commit``
    after a commit without memory trailers, ``scan-secrets --commit-message FILE`` on a message without a secret
    (on a hit, the full command reads the config's allowlist and reports)."""
    words = [w for w in argv if w not in ("-q", "--quiet")]
    root: Path | None = None
    if len(words) >= 2 and words[0] == "--root":
        root, words = Path(words[1]), words[2:]
    if words == ["capture", "--post-commit"]:
        from loa_memory.repo.quick import head_needs_capture

        return not head_needs_capture(root)
    if len(words) == 3 and words[:2] == ["scan-secrets", "--commit-message"]:
        from loa_memory.repo.message import message_hits, message_text

        try:
            text = Path(words[2]).read_text("utf-8", errors="replace")
        except OSError:
            return False  # the command says what is wrong
        return not message_hits(message_text(text))
    return False


def parse(argv: list[str]) -> tuple[str | None, Path | None]:
    """The command word and the repository root (None when there is none, or when the command line is not one a
    server runs: the command will say so)."""
    command, root_option, served = command_line(argv)
    if not served:
        return command, None
    from loa_memory.errors import LoaError
    from loa_memory.rootdir import find_root

    try:
        return command, find_root(Path(root_option) if root_option else Path.cwd())
    except (LoaError, OSError):
        return command, None
