"""Content must not be empty, and stays within the category's limit (2,000 characters for Loa's core
categories, ``lint.max_content_length`` and the schema's 20,000 for the others; Markdown documents —
procedures, notes, telos — only the schema's 20,000).

Passing::

    content: Use PostgreSQL for JSONB support.

Failing::

    content: ''
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.lint.rules.form._loader import loader_findings
from loa_memory.model import LOA_CORE_CATEGORIES, Finding, Severity

ID = "content-length"
SEVERITY: Severity = "error"
SCOPE = "entry"  # findings depend on the entry alone: cached per item (lint/cache.py)


def check(ctx: LintContext) -> Iterator[Finding]:
    yield from loader_findings(ctx, (ID,), SEVERITY)
    limit = int(ctx.config.lint.max_content_length)
    for entry in ctx.targets():
        if entry.category in LOA_CORE_CATEGORIES or entry.category in ("procedure", "note", "telos"):
            continue
        if len(entry.content) > limit:
            yield ctx.finding(entry, ID, "warning",
                              f"content is {len(entry.content)} characters (over lint.max_content_length "
                              f"{limit}): split it or move the detail into an artifact", key="content")
