"""Memory files a command had to skip, as JSON records and as lines: one shape for every read command.

``list``/``show`` report every problem of the grimoire; ``search``, ``recall``, ``why`` and ``stats`` report
the files they could not read at all (``Grimoire.unreadable``). Each says where, what is wrong and what to do.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from loa_memory.model import Finding

_WHAT_TO_DO = ("memories there may be missing from this answer; fix the YAML by hand (loa-memory never rewrites "
               "a file it cannot parse); `loa-memory lint` shows every problem")


def problem_record(problem: Finding) -> dict[str, Any]:
    """The JSON shape of one problem (``problems`` in every read command's output)."""
    return {"path": problem.path, "line": problem.line, "col": problem.col, "rule": problem.rule,
            "message": problem.message}


def problem_records(problems: Iterable[Finding]) -> list[dict[str, Any]]:
    return [problem_record(problem) for problem in problems]


def skipped_lines(records: Iterable[dict[str, Any]]) -> list[str]:
    """``path:line:col: what is wrong; what to do``, one line per problem (for stderr)."""
    return [f"{r['path']}:{r['line']}:{r['col']}: {r['message']}; {_WHAT_TO_DO}" for r in records]


def context_line(records: list[dict[str, Any]]) -> str:
    """One line for an agent's context: how many memory files could not be read, and where."""
    files = list(dict.fromkeys(r["path"] for r in records))
    where = "; ".join(f"{r['path']}:{r['line']}:{r['col']} ({r['message']})" for r in records[:5])
    more = f"; and {len(records) - 5} more" if len(records) > 5 else ""
    noun = "memory file" if len(files) == 1 else "memory files"
    return (f"{len(files)} {noun} could not be read: {where}{more}; memories there may be missing "
            "(fix the YAML by hand; `loa-memory lint` shows every problem)")
