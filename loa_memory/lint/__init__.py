"""Checks over memory files: one module per rule, a small engine, findings as values."""

from loa_memory.lint.engine import LintOptions, LintResult, rule_settings, run_lint
from loa_memory.lint.rules import RULES_BY_ID

__all__ = ["RULES_BY_ID", "LintOptions", "LintResult", "rule_settings", "run_lint"]
