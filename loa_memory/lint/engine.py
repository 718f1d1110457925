"""The lint pipeline: load → run the enabled rules → drop ignored findings → apply severities → sort."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from loa_memory.errors import UsageError
from loa_memory.lint.cache import entry_findings, is_entry_local
from loa_memory.lint.context import LintContext
from loa_memory.lint.rules import RULES_BY_ID
from loa_memory.model import Finding, Severity
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire, gc_paused, iter_memory_files, load_grimoire

EXTRA_RULES: dict[str, Any] = {}  # rules registered by later layers (governance with --base)


@dataclass(frozen=True)
class LintOptions:
    """What to check: which files (default all), which rules, against which base ref."""

    paths: Sequence[str] = ()
    rules: Sequence[str] = ()
    worlds: Sequence[str] = ()
    base: str | None = None
    strict: bool = False
    now: datetime | None = None


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    files: int = 0
    entries: int = 0

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def exit_code(self, strict: bool = False) -> int:
        bad = self.count("error") + (self.count("warning") if strict else 0)
        return 1 if bad else 0


def rule_settings(config: Config) -> dict[str, tuple[bool, Severity]]:
    """Each rule's (enabled, severity) after ``memory_schema.lint.rules``."""
    settings = {rule_id: (True, module.SEVERITY) for rule_id, module in {**RULES_BY_ID, **EXTRA_RULES}.items()}
    for rule_id, value in (config.lint.rules or {}).items():
        if rule_id not in settings:
            known = ", ".join(sorted(settings))
            raise UsageError(f"unknown lint rule {rule_id!r} in memory_schema.lint.rules",
                             path=".loa.config.yaml", hint=f"known rules: {known}")
        enabled, severity = settings[rule_id]
        if isinstance(value, bool):
            enabled = value
        elif value == "off":
            enabled = False
        elif isinstance(value, str):
            severity = value
        elif isinstance(value, dict):
            enabled = bool(value.get("enabled", enabled))
            severity = value.get("severity", severity)
        settings[rule_id] = (enabled, severity)
    return settings


def _rel_paths(config: Config, paths: Sequence[str]) -> set[str]:
    rels = set()
    for raw in paths:
        path = Path(raw)
        path = path if path.is_absolute() else (Path.cwd() / path)
        try:
            rels.add(path.resolve().relative_to(config.root.resolve()).as_posix())
        except ValueError:
            continue
    return rels


def run_lint(config: Config, options: LintOptions, grimoire: Grimoire | None = None) -> LintResult:
    """Check the grimoire; findings are values, the exit code is the caller's business."""
    with gc_paused():
        return _run_lint(config, options, grimoire)


def _run_lint(config: Config, options: LintOptions, grimoire: Grimoire | None = None) -> LintResult:
    registry = {**RULES_BY_ID, **EXTRA_RULES}
    for rule_id in options.rules:
        if rule_id not in registry:
            raise UsageError(f"unknown rule {rule_id!r}", hint=f"known rules: {', '.join(sorted(registry))}")
    for world in options.worlds:
        config.world(world)
    grimoire = grimoire or load_grimoire(config)  # every world: ids, links and supersedes cross worlds
    only = _rel_paths(config, options.paths) if options.paths else None
    if options.worlds:
        in_worlds = {mf.rel for mf in grimoire.files if mf.world in options.worlds}
        only = in_worlds if only is None else only & in_worlds
    ctx = LintContext(config, grimoire, base_ref=options.base, focus=frozenset(only) if only is not None else None)
    if options.now is not None:
        ctx.now = options.now
    settings = rule_settings(config)
    chosen = {rule_id: module for rule_id, module in registry.items()
              if settings[rule_id][0] and not (getattr(module, "NEEDS_BASE", False) and not options.base)}
    # the entry-local rules answer from the cache, all of them so that the cache stays whole (--rule filters below)
    local = [module for module in chosen.values() if is_entry_local(module)]
    raw = [finding for finding in entry_findings(ctx, local) if not options.rules or finding.rule in options.rules]
    for rule_id, module in chosen.items():
        if not is_entry_local(module) and (not options.rules or rule_id in options.rules):
            raw += module.check(ctx)
    findings: dict[tuple[str, int, int, str, str], Finding] = {}
    entry_lines: dict[tuple[str, str], int] | None = None
    for finding in raw:
        if only is not None and finding.path not in only:
            continue
        if entry_lines is None:
            entry_lines = {(e.path, e.id): e.line for e in ctx.entries()}
        if ctx.ignored(finding, entry_lines.get((finding.path, finding.entry_id or ""))):
            continue
        default = registry[finding.rule].SEVERITY if finding.rule in registry else finding.severity
        severity = settings[finding.rule][1] if finding.rule in settings else finding.severity
        if finding.severity == default and severity != default:
            finding = Finding(finding.path, finding.line, finding.col, severity, finding.rule, finding.message,
                              finding.entry_id, finding.fixable, finding.extra)
        findings.setdefault((finding.path, finding.line, finding.col, finding.rule, finding.message), finding)
    ordered = sorted(_redacted_paths(findings.values()), key=lambda f: (f.path, f.line, f.col, f.rule, f.message))
    files = [mf for mf in grimoire.files if only is None or mf.rel in only]
    return LintResult(ordered, len(files), len(grimoire.entries) + len(grimoire.invalid))


def _redacted_paths(findings: Iterable[Finding]) -> list[Finding]:
    """Findings whose file name or message holds a secret (a token as a file or field name: the ``secret`` rule
    reports it) print it redacted: a report must not give away what the gate refuses."""
    from loa_memory.secrets.redact import may_hold_secret, redact_name

    shown: dict[str, str] = {}

    def clean(text: str) -> str:
        if text not in shown:
            shown[text] = redact_name(text) if may_hold_secret(text) else text
        return shown[text]

    out = []
    for finding in findings:
        path, message = clean(finding.path), clean(finding.message)
        same = path == finding.path and message == finding.message
        out.append(finding if same else dataclasses.replace(finding, path=path, message=message))
    return out


def scan_secret_paths(config: Config, paths: Sequence[Path]) -> tuple[list[Finding], list[str]]:
    """``scan-secrets`` inside a repository: memory files through the lint rule's cache, others directly."""
    from loa_memory.secrets.files import scan_files

    memory = {mf.path.resolve() for mf in iter_memory_files(config)}
    ours = [p for p in paths if p.resolve() in memory]
    others = [p for p in paths if p.resolve() not in memory]
    settings = config.secrets
    findings, skipped = scan_files(others, allowlist=list(settings.allowlist or []),
                                   include_pii=bool(settings.pii), root=config.root)
    if ours:
        findings += run_lint(config, LintOptions(paths=[str(p) for p in ours], rules=["secret"])).findings
    return findings, skipped
