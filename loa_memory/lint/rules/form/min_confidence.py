"""An entry's ``confidence`` must be at least its category's minimum (decision 0.9, fact 0.8, ...).

Passing::

    - id: MEM-20260101-001
      category: decision
      confidence: 0.95

Failing::

    - id: MEM-20260101-001
      category: decision
      confidence: 0.6

Minimums come from the design's category table and ``memory_schema.categories.<name>.min_confidence``.
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.lint.rules.form._loader import loader_findings
from loa_memory.model import Finding, Severity

ID = "min-confidence"
SEVERITY: Severity = "error"


def check(ctx: LintContext) -> Iterator[Finding]:
    yield from loader_findings(ctx, (ID,), SEVERITY)
