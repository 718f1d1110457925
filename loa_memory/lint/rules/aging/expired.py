"""An entry past its ``expires_at`` belongs in the archive.

Passing: ``expires_at: '2099-01-01T00:00:00Z'``, or an expired entry already under ``archive/``.

Failing: an active entry with ``expires_at: '2020-01-01T00:00:00Z'``. ``lint --fix`` (and ``archive``)
moves it to ``archive/`` with ``archive_reason: expired``. Episodes that a semantic entry derives from
are kept.
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity

ID = "expired"
SEVERITY: Severity = "warning"
FIXABLE = True


def check(ctx: LintContext) -> Iterator[Finding]:
    derived_from = {target for e in ctx.having("links") for target in e.linked("derived_from")}
    for entry in ctx.targets(archived=False):
        if ctx.status(entry) != "expired":
            continue
        if entry.category == "episode" and entry.id in derived_from:
            continue
        yield ctx.finding(entry, ID, SEVERITY, f"expired on {entry.expires_at} and not archived",
                          key="expires_at", fixable=True)
