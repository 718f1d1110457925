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
from loa_memory.lint.rules.aging import expired, expiring_soon, low_effectiveness, stale_cue, unfired_cue
from loa_memory.lint.rules.form import (
    archive_fields,
    content_length,
    id_format,
    min_confidence,
    missing_expiry,
    schema,
    summary_length,
    tag_format,
    unknown_field,
    wrong_category,
    yaml_syntax,
)
from loa_memory.lint.rules.relations import (
    dangling_link,
    duplicate_id,
    id_collision,
    near_duplicate,
    supersedes,
    unresolved_contradiction,
)
from loa_memory.lint.rules.safety import governance, secret
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
