"""The lint rules, one module each; ``RULES_BY_ID`` is the registry (no package walking).

A rule module has ``ID``, ``SEVERITY`` and ``check(ctx)``; optionally ``FIXABLE``, ``NEEDS_BASE`` (runs only
with ``--base``), and ``SCOPE = "entry"`` when what it finds in an entry depends on nothing but that entry,
its file and the config: its findings are then cached per item (``lint/cache.py``) and ``check`` sees only
the items that changed (``ctx.targets()`` and ``ctx.problems()``). Such a rule that also reads the clock
defines ``stable_until(entry, now)``: when its answer for the entry can next change.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import Protocol

from loa_memory.lint.context import LintContext
from loa_memory.lint.rules import (
    archive_fields,
    content_length,
    dangling_link,
    duplicate_id,
    expired,
    expiring_soon,
    governance,
    id_collision,
    id_format,
    low_effectiveness,
    min_confidence,
    missing_expiry,
    near_duplicate,
    schema,
    secret,
    stale_cue,
    summary_length,
    supersedes,
    tag_format,
    unfired_cue,
    unknown_field,
    unresolved_contradiction,
    wrong_category,
    yaml_syntax,
)
from loa_memory.model import Finding, Severity


class Rule(Protocol):
    ID: str
    SEVERITY: Severity

    def check(self, ctx: LintContext) -> Iterator[Finding]: ...


_MODULES: tuple[ModuleType, ...] = (
    yaml_syntax, schema, id_format, duplicate_id, id_collision, wrong_category, supersedes, dangling_link,
    min_confidence, expired, expiring_soon, missing_expiry, archive_fields, near_duplicate, tag_format, summary_length,
    content_length, secret, low_effectiveness, governance, unknown_field, stale_cue, unfired_cue,
    unresolved_contradiction,
)
RULES_BY_ID: dict[str, ModuleType] = {module.ID: module for module in _MODULES}


def is_fixable(rule_id: str) -> bool:
    return bool(getattr(RULES_BY_ID[rule_id], "FIXABLE", False))
