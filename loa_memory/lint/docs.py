"""Generate docs/lint-rules.md from the rule modules' docstrings: ``python -m loa_memory.lint.docs``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from loa_memory.lint.engine import EXTRA_RULES, rule_settings
from loa_memory.lint.rules import RULES_BY_ID, is_fixable
from loa_memory.store.config import Config


def rules_markdown() -> str:
    """The rule reference, one section per rule, from each module's docstring."""
    lines = ["# Lint rules", "", "Generated from the rule modules' docstrings by `python -m loa_memory.lint.docs`; "
             "do not edit by hand.", "", "| rule | default severity | fixable |", "|---|---|---|"]
    for rule_id, module in sorted(RULES_BY_ID.items()):
        lines.append(f"| [`{rule_id}`](#{rule_id}) | {module.SEVERITY} | {'yes' if is_fixable(rule_id) else ''} |")
    for rule_id, module in sorted(RULES_BY_ID.items()):
        lines += ["", f"## {rule_id}", "", (module.__doc__ or "").strip()]
    return "\n".join(lines) + "\n"


def rule_list(config: Config) -> list[dict[str, Any]]:
    """Every rule as ``lint --list-rules`` shows it: severity and whether it is on (after the config), whether
    ``--fix`` repairs it, and the first paragraph of its documentation."""
    modules = {**RULES_BY_ID, **EXTRA_RULES}
    listed = []
    for rule_id, (enabled, severity) in sorted(rule_settings(config).items()):
        doc = (modules[rule_id].__doc__ or "").strip()
        listed.append({"id": rule_id, "severity": severity, "enabled": enabled,
                       "fixable": bool(getattr(modules[rule_id], "FIXABLE", False)),
                       "summary": " ".join(doc.split("\n\n", 1)[0].split())})
    return listed


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/lint-rules.md")
    target.write_text(rules_markdown(), encoding="utf-8")
