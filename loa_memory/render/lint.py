"""Lint reporters: text, json, github (workflow annotations), sarif (2.1.0). They format; they never decide."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from loa_memory import __version__
from loa_memory.model import Finding

_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _summary(findings: Sequence[Finding], files: int) -> str:
    errors = sum(1 for f in findings if f.severity == "error")
    warnings = sum(1 for f in findings if f.severity == "warning")
    fixable = sum(1 for f in findings if f.fixable)
    text = f"{errors} error(s), {warnings} warning(s) in {files} file(s)"
    return text + (f"; {fixable} fixable with `loa-memory lint --fix`" if fixable else "")


def text(findings: Sequence[Finding], files: int, rules: Mapping[str, str]) -> str:
    if not findings:
        return ""
    return "\n".join([str(f) for f in findings] + [_summary(findings, files)])


def finding_record(f: Finding) -> dict[str, Any]:
    """The stable JSON shape of a finding (``lint``, ``scan-secrets``, ``review``)."""
    return {"path": f.path, "line": f.line, "col": f.col, "severity": f.severity, "rule": f.rule,
            "message": f.message, "entry_id": f.entry_id, "fixable": f.fixable}


def lint_record(findings: Sequence[Finding], files: int, fixes: Sequence[Any] | None = None) -> dict[str, Any]:
    """Findings, their counts by severity and the files checked; with ``fixes``, the repairs ``--fix`` made."""
    record: dict[str, Any] = {
        "findings": [finding_record(f) for f in findings],
        "counts": {s: sum(1 for f in findings if f.severity == s) for s in ("error", "warning", "info")},
        "files": files,
    }
    if fixes is not None:
        record["fixes"] = [{"path": f.path, "line": f.line, "rule": f.rule, "entry_id": f.entry_id,
                            "action": f.action} for f in fixes]
    return record


def record_text(data: Mapping[str, Any]) -> str:
    """A ``lint_record`` as text: a line per finding, then the summary (also when there are no findings)."""
    findings = [Finding(f["path"], f["line"], f["col"], f["severity"], f["rule"], f["message"], f["entry_id"],
                        f["fixable"]) for f in data["findings"]]
    return "\n".join([*(str(f) for f in findings), _summary(findings, data["files"])])


def as_json(findings: Sequence[Finding], files: int, rules: Mapping[str, str]) -> str:
    return json.dumps(lint_record(findings, files), indent=2, ensure_ascii=False)


def _escape(value: str, *, prop: bool = False) -> str:
    value = value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return value.replace(":", "%3A").replace(",", "%2C") if prop else value


def github(findings: Sequence[Finding], files: int, rules: Mapping[str, str]) -> str:
    level = {"error": "error", "warning": "warning", "info": "notice"}
    return "\n".join(
        f"::{level[f.severity]} file={_escape(f.path, prop=True)},line={f.line},col={f.col},"
        f"title={_escape(f.rule, prop=True)}::{_escape(f.message)}" for f in findings)


def sarif(findings: Sequence[Finding], files: int, rules: Mapping[str, str]) -> str:
    """SARIF 2.1.0, one run; ``rules`` maps rule id → its documentation (the rule module's docstring)."""
    ids = sorted(rules)
    index = {rule_id: n for n, rule_id in enumerate(ids)}
    driver: dict[str, Any] = {
        "name": "loa-memory", "version": __version__, "semanticVersion": __version__,
        "informationUri": "https://github.com/loa-memory/loa-memory",
        "rules": [{"id": rule_id, "name": rule_id,
                   "shortDescription": {"text": rules[rule_id].strip().splitlines()[0] if rules[rule_id] else rule_id},
                   "fullDescription": {"text": rules[rule_id].strip() or rule_id},
                   "help": {"text": rules[rule_id].strip() or rule_id}} for rule_id in ids],
    }
    results = []
    for f in findings:
        result: dict[str, Any] = {
            "ruleId": f.rule, "level": _SARIF_LEVEL[f.severity], "message": {"text": f.message},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": f.path, "uriBaseId": "%SRCROOT%"},
                                                "region": {"startLine": max(f.line, 1),
                                                           "startColumn": max(f.col, 1)}}}],
        }
        if f.rule in index:
            result["ruleIndex"] = index[f.rule]
        results.append(result)
    log = {"version": "2.1.0", "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
           "runs": [{"tool": {"driver": driver}, "results": results, "columnKind": "unicodeCodePoints"}]}
    return json.dumps(log, indent=2, ensure_ascii=False)


REPORTER_BY_NAME: dict[str, Callable[[Sequence[Finding], int, Mapping[str, str]], str]] = {
    "text": text, "json": as_json, "github": github, "sarif": sarif,
}


def rules_text(data: dict[str, Any]) -> str:
    """``lint --list-rules``: one rule a line, its severity (``off`` when disabled) and what it checks."""
    return "\n".join(f"{r['id']:<20} {r['severity'] if r['enabled'] else 'off':<8} "
                     f"{textwrap.shorten(r['summary'], 90, placeholder=' ...')}" for r in data["rules"])


def fixes_text(fixes: Sequence[Any]) -> str:
    """One line per repair ``lint --fix`` made."""
    return "\n".join(f"{'skipped' if f.action.startswith('not fixed') else 'fixed'} {f.path}:{f.line}: [{f.rule}] "
                     f"{f.entry_id}: {f.action}" for f in fixes)
