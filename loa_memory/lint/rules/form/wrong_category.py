"""An entry lives in its category's file: a decision in decisions.yaml, a procedure in procedures/.

Passing: ``category: fact`` in ``facts.yaml``.

Failing: ``category: decision`` in ``facts.yaml`` (search, recall and the merge driver rely on the file).
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity

ID = "wrong-category"
SEVERITY: Severity = "error"
SCOPE = "entry"  # findings depend on the entry alone: cached per item (lint/cache.py)


def check(ctx: LintContext) -> Iterator[Finding]:
    category_of = {mf.rel: mf.category for mf in ctx.grimoire.files}
    for entry in ctx.targets():
        cat = category_of.get(entry.path)
        if cat is not None and entry.category != cat.name:
            right = ctx.config.category(entry.category).path if entry.category in \
                {c.name for c in ctx.config.categories} else "?"
            yield ctx.finding(entry, ID, SEVERITY,
                              f"a {entry.category} in the {cat.name} file: move it to {right}", key="category")
