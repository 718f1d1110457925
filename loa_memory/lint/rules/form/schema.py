"""Every entry must satisfy ``schemas/memory.schema.json``: required fields, types, known fields, enums.

Passing::

    - id: MEM-20260101-001
      category: fact
      content: The gateway times out after 30 s.
      source: {session_id: s1, timestamp: '2026-01-01T10:00:00Z'}

Failing (``confidence`` is not a number; ``colour`` is not a field)::

    - id: MEM-20260101-001
      category: fact
      content: The gateway times out after 30 s.
      confidence: high
      colour: red
      source: {session_id: s1, timestamp: '2026-01-01T10:00:00Z'}

The finding points at the offending field's own line and column.
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.lint.rules.form._loader import loader_findings
from loa_memory.model import Finding, Severity

ID = "schema"
SEVERITY: Severity = "error"


def check(ctx: LintContext) -> Iterator[Finding]:
    yield from loader_findings(ctx, (ID,), SEVERITY)
