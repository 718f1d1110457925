"""Findings that come from reading the files (parse and schema problems), by rule id."""

from __future__ import annotations

from collections.abc import Iterator

from loa_memory.lint.context import LintContext
from loa_memory.model import Finding, Severity


def loader_findings(ctx: LintContext, rules: tuple[str, ...], severity: Severity) -> Iterator[Finding]:
    for problem in ctx.problems():
        if problem.rule in rules:
            yield Finding(problem.path, problem.line, problem.col, severity, rules[0], problem.message,
                          entry_id=problem.entry_id)
