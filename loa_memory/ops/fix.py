"""``lint --fix``: safe, mechanical repairs, each reported; content is never touched."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..lint import LintOptions, LintResult, run_lint
from ..model import Entry, Finding
from ..store.config import Config
from ..store.load import load_grimoire
from ..store.lock import locked
from ..store.save import Changeset
from .archive import stage_archive
from .runs import record_run
from .write import normalise_tags, recover


@dataclass(frozen=True)
class Fix:
    """One repair: what, where, and to which entry."""

    rule: str
    path: str
    line: int
    entry_id: str | None
    action: str


def fix_grimoire(config: Config, options: LintOptions, moment: datetime | None = None) -> tuple[list[Fix], LintResult]:
    """Apply every fixable finding, then lint again; returns the fixes and what remains."""
    fixes: list[Fix] = []
    with locked(config.local_dir):
        recover(config)
        grimoire = load_grimoire(config, options.worlds or None)
        result = run_lint(config, options, grimoire)
        changes = Changeset(config, grimoire)
        by_id = {e.id: e for e in [*grimoire.invalid, *grimoire.entries]}
        expired: list[Entry] = []
        for finding in result.findings:
            if not finding.fixable or not finding.entry_id or finding.entry_id not in by_id:
                continue
            entry = by_id[finding.entry_id]
            if finding.rule == "expired":
                expired.append(entry)
                fixes.append(_fix(finding, entry, "moved to the archive (archive_reason: expired)"))
                continue
            update = _update_for(finding, entry)
            if update is None:
                continue
            changes.patch(config.root / entry.path, entry.line, update)
            fixes.append(_fix(finding, entry, "set " + ", ".join(f"{k}: {v}" for k, v in update.items())))
        stage_archive(changes, expired, "expired", moment)
        changes.commit()
    remaining = run_lint(config, options)
    record_run(config, "lint-fix", {"fixes": len(fixes), "remaining": len(remaining.findings)}, moment)
    return fixes, remaining


def _update_for(finding: Finding, entry: Entry) -> dict[str, object] | None:
    if finding.rule == "supersedes" and "superseded_by" in finding.extra:
        return {"superseded_by": finding.extra["superseded_by"]}
    if finding.rule == "missing-expiry" and "expires_at" in finding.extra:
        return {"expires_at": finding.extra["expires_at"]}
    if finding.rule == "tag-format":
        return {"tags": normalise_tags(entry.tags)}
    return None


def _fix(finding: Finding, entry: Entry, action: str) -> Fix:
    return Fix(finding.rule, entry.path, entry.line, entry.id, action)
