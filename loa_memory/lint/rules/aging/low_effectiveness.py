"""Entries whose effectiveness is low get flagged for review; ineffective ones are queued for archival.

Tiers (``score`` = 100 × successes / applications): high ≥ 80, medium 50-79, low 20-49 (warning: review
it), ineffective < 20 (warning: ``archive`` retires it once ``lifecycle.ineffective_min_applications``
applications are recorded).

Passing: ``effectiveness: {applications: 10, successes: 9, score: 90}``.
Failing (warning): ``effectiveness: {applications: 10, successes: 3, score: 30}``.
"""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity

ID = "low-effectiveness"
SEVERITY: Severity = "warning"


def check(ctx: LintContext) -> Iterator[Finding]:
    minimum = int(ctx.config.lifecycle.ineffective_min_applications)
    for entry in ctx.targets(archived=False):
        eff = entry.effectiveness
        if eff.applications < minimum or ctx.status(entry) != "active":
            continue
        if eff.tier == "ineffective":
            yield ctx.finding(entry, ID, SEVERITY, f"ineffective (score {eff.score} after {eff.applications} "
                              "applications): `loa-memory archive` will retire it", key="effectiveness")
        elif eff.tier == "low":
            yield ctx.finding(entry, ID, SEVERITY, f"low effectiveness (score {eff.score} after {eff.applications} "
                              "applications): review or supersede it", key="effectiveness")
