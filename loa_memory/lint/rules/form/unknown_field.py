"""Fields the schema does not know are kept (Loa's own schema allows extra fields, so imported entries load
unchanged), but flagged: most are typos. Prefix a deliberate custom field with ``x-``.

Passing::

    supersedes: MEM-20260101-001
    x-team: payments

Failing (warning: did you mean ``supersedes``?)::

    supercedes: MEM-20260101-001
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity
from loa_memory.store.schema import load_schema

ID = "unknown-field"
SEVERITY: Severity = "warning"
SCOPE = "entry"  # findings depend on the entry alone: cached per item (lint/cache.py)


def check(ctx: LintContext) -> Iterator[Finding]:
    schema = load_schema("memory")
    known = set(schema["properties"])
    known_source = set(schema["properties"]["source"]["properties"])
    for entry in ctx.targets():
        for key in entry.data:
            if str(key) not in known and not str(key).startswith("x-"):
                yield ctx.finding(entry, ID, SEVERITY, _message(str(key), known, "field"), key=str(key))
        source = entry.data.get("source")
        if isinstance(source, dict):
            for key in source:
                if str(key) not in known_source and not str(key).startswith("x-"):
                    yield ctx.finding(entry, ID, SEVERITY, _message(str(key), known_source, "source field"),
                                      key=("source", str(key)))


def _message(key: str, known: set[str], what: str) -> str:
    close = difflib.get_close_matches(key, sorted(known), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else "; prefix custom fields with x-"
    return f"unknown {what} {key!r} (kept){hint}"
