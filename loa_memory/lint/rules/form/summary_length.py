"""A summary is one line of at most 200 characters; an entry without one gets a warning.

Passing::

    summary: PostgreSQL selected over SQLite

Failing (error: over 200 characters, or empty; warning: missing)::

    summary: ''
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.lint.rules.form._loader import loader_findings
from loa_memory.model import Finding, Severity

ID = "summary-length"
SEVERITY: Severity = "error"
SCOPE = "entry"  # findings depend on the entry alone: cached per item (lint/cache.py)


def check(ctx: LintContext) -> Iterator[Finding]:
    yield from loader_findings(ctx, (ID,), SEVERITY)
    for entry in ctx.targets():
        summary = entry.data.get("summary")
        if summary is None:
            yield ctx.finding(entry, ID, "warning", "no summary: add a one-line `summary:` for search and recall")
        elif isinstance(summary, str) and "\n" in summary.strip():
            yield ctx.finding(entry, ID, SEVERITY, "the summary must be a single line", key="summary")
