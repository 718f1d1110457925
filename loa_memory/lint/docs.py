"""Generate docs/lint-rules.md from the rule modules' docstrings: ``python -m loa_memory.lint.docs``."""

from __future__ import annotations

import sys
from pathlib import Path

from .rules import RULES_BY_ID, is_fixable


def rules_markdown() -> str:
    """The rule reference, one section per rule, from each module's docstring."""
    lines = ["# Lint rules", "", "Generated from the rule modules' docstrings by `python -m loa_memory.lint.docs`; "
             "do not edit by hand.", "", "| rule | default severity | fixable |", "|---|---|---|"]
    for rule_id, module in sorted(RULES_BY_ID.items()):
        lines.append(f"| [`{rule_id}`](#{rule_id}) | {module.SEVERITY} | {'yes' if is_fixable(rule_id) else ''} |")
    for rule_id, module in sorted(RULES_BY_ID.items()):
        lines += ["", f"## {rule_id}", "", (module.__doc__ or "").strip()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/lint-rules.md")
    target.write_text(rules_markdown(), encoding="utf-8")
