"""Tags are lower-case kebab words (``^[a-z0-9-]+$``), as Loa's schema requires.

Passing::

    tags: [database, multi-region]

Failing (fixable: ``lint --fix`` rewrites them as ``database-layer`` and ``postgres``)::

    tags: [Database Layer, PostgreS]
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity

ID = "tag-format"
SEVERITY: Severity = "error"
FIXABLE = True


def check(ctx: LintContext) -> Iterator[Finding]:
    for problem in ctx.problems():
        if problem.rule == ID:
            yield Finding(problem.path, problem.line, problem.col, SEVERITY, ID,
                          problem.message + "; tags are lower-case kebab words", entry_id=problem.entry_id,
                          fixable=True)
