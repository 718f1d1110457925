"""A memory file must parse as safe YAML (Markdown memories: front matter between ``---`` lines).

Passing::

    - id: MEM-20260101-001
      content: Use PostgreSQL

Failing (unclosed flow list; also any ``!!python/...`` tag, duplicate keys, tabs)::

    - id: MEM-20260101-001
      content: [Use PostgreSQL

A file that does not parse is reported here and never rewritten by any command.
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.lint.rules.form._loader import loader_findings
from loa_memory.model import Finding, Severity

ID = "yaml-syntax"
SEVERITY: Severity = "error"


def check(ctx: LintContext) -> Iterator[Finding]:
    yield from loader_findings(ctx, (ID, "unreadable", "front-matter"), SEVERITY)
