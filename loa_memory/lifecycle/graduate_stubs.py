"""What a graduated cue becomes: the procedure's fields, or a lint rule stub for the project's own linter.

Stubs, by the extension of ``--to``: ``.yaml``/``.yml`` is a Semgrep rule file (``semgrep --config FILE``);
``.py`` a standalone check script (regular expressions over ``git ls-files``, exit 1 on a match) for a
pre-commit ``language: system`` hook or CI. Code named in backticks in the cue's trigger seeds the pattern.
"""

from __future__ import annotations

import re
from typing import Any

from loa_memory.errors import UsageError
from loa_memory.model import Entry
from loa_memory.store import yamlio
from loa_memory.write.add import summarise

STUB_KINDS = {".yaml": "semgrep", ".yml": "semgrep", ".py": "python"}
_BACKTICK = re.compile(r"`([^`\n]{2,160})`")
_LANGUAGES = {"py": "python", "js": "javascript", "jsx": "javascript", "ts": "typescript", "tsx": "typescript",
              "go": "go", "rb": "ruby", "java": "java", "kt": "kotlin", "rs": "rust", "c": "c", "h": "c",
              "cpp": "cpp", "cs": "csharp", "php": "php", "scala": "scala", "swift": "swift", "sh": "bash"}


def trigger_of(cue: Entry) -> str:
    return str(cue.trigger or cue.data.get("context") or cue.summary).rstrip(".")


def lesson_of(cue: Entry) -> str:
    return (cue.lesson or cue.summary or cue.content).rstrip(".")


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:50].strip("-") or "convention"


def procedure_fields(cue: Entry, evidence: str) -> dict[str, Any]:
    """The procedure a cue graduates into (before ``complete_entry``): the convention, why, and where from."""
    trigger, lesson = trigger_of(cue), lesson_of(cue)
    when = "When" if cue.category == "preference" else "Before you"
    body = [f"{when} {trigger}: {lesson}.", "", f"Why: {cue.content.strip()}", "",
            f"This convention graduated from {cue.category} {cue.id} {evidence}."]
    fields: dict[str, Any] = {
        "category": "procedure", "title": f"Convention: {summarise(lesson)}",
        "summary": summarise(f"Convention: {lesson}"), "content": "\n".join(body),
        "confidence": max(cue.confidence, 0.7), "steps": [f"{when} {trigger}: {lesson}"],
        "tags": [*cue.tags, "convention"] if "convention" not in cue.tags else list(cue.tags),
        "links": [{"to": cue.id, "relation": "derived_from"}],
        "source": {"agent": "graduate", "capture": "graduate"},
    }
    if isinstance(cue.data.get("artifacts"), list):
        fields["artifacts"] = list(cue.data["artifacts"])
    return fields


def stub_kind(rel: str) -> str:
    for suffix, kind in STUB_KINDS.items():
        if rel.endswith(suffix):
            return kind
    raise UsageError(f"cannot tell which linter {rel} is for",
                     hint="name a .yaml/.yml file (a Semgrep rule) or a .py file (a standalone check script)")


def _code(cue: Entry) -> list[str]:
    """Backticked code in the trigger and lesson, in order (the seed of the stub's pattern)."""
    text = f"{cue.data.get('trigger') or cue.data.get('context') or ''}"
    return [t.strip() for t in _BACKTICK.findall(text) if t.strip() and " " not in t.strip()]


def _language(cue: Entry) -> str:
    artifacts = cue.data.get("artifacts")
    for artifact in artifacts if isinstance(artifacts, list) else ():
        language = _LANGUAGES.get(str(artifact).rsplit(".", 1)[-1].split(":")[0].lower())
        if language:
            return language
    return "generic"


def lint_stub(cue: Entry, rel: str) -> str:
    """The text of a rule stub at ``rel`` for the project's linter (see the module docstring)."""
    kind = stub_kind(rel)
    rule_id = slug(lesson_of(cue))
    message = f"{lesson_of(cue)} (graduated from {cue.id}: before {trigger_of(cue)})"
    code = _code(cue)
    if kind == "semgrep":
        rule: dict[str, Any] = {"id": rule_id, "message": message, "severity": "WARNING",
                                "languages": [_language(cue)]}
        if len(code) > 1:
            rule["pattern-either"] = [{"pattern": c} for c in code]
        else:
            rule["pattern"] = code[0] if code else "TODO_the_code_this_rule_forbids"
        rule["metadata"] = {"loa-memory": cue.id, "trigger": trigger_of(cue)}
        head = (f"# Lint rule stub graduated from loa-memory {cue.category} {cue.id} (`loa-memory show {cue.id}`).\n"
                f"# Check the pattern, then run it: semgrep --config {rel}\n")
        return head + yamlio.dump_mapping({"rules": [rule]})
    patterns = "\n".join(f"    re.compile({re.escape(c)!r}),  # named in the cue's trigger" for c in code) or \
        "    # TODO: regular expressions for the code this rule forbids"
    return _PYTHON.format(cue_id=cue.id, category=cue.category, trigger=trigger_of(cue), lesson=lesson_of(cue),
                          rule_id=rule_id, message=message, patterns=patterns, rel=rel,
                          globs=_globs(_language(cue)))


def _globs(language: str) -> str:
    ext = {v: k for k, v in reversed(list(_LANGUAGES.items()))}.get(language)
    return f'["*.{ext}"]' if ext else '["*"]'


_PYTHON = '''"""Lint rule graduated from loa-memory {category} {cue_id}.

Before {trigger}: {lesson}.

A stub for this project's own checks: it prints `file:line: message (rule-id)` for every line of a tracked
file (or of the files given) that matches PATTERNS, and exits 1 when there is one. Run it in CI or as a
pre-commit hook (`language: system`, `entry: python {rel}`). Review PATTERNS and GLOBS first.
"""

from __future__ import annotations

import re
import subprocess
import sys

RULE_ID = {rule_id!r}
MESSAGE = {message!r}
GLOBS = {globs}
PATTERNS = [
{patterns}
]


def main(argv: list[str]) -> int:
    files = argv or subprocess.run(["git", "ls-files", "-z", "--", *GLOBS], capture_output=True, text=True,
                                   check=True).stdout.split("\\0")
    found = 0
    for name in filter(None, files):
        if name == {rel!r}:
            continue
        try:
            with open(name, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for number, line in enumerate(lines, 1):
            if any(pattern.search(line) for pattern in PATTERNS):
                print(f"{{name}}:{{number}}: {{MESSAGE}} ({{RULE_ID}})")
                found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
'''
