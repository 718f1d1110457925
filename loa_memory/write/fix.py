"""``lint --fix``: safe, mechanical repairs, each reported; content is never touched."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from loa_memory.lint import LintOptions, LintResult, run_lint
from loa_memory.model import Entry, Finding
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire, load_grimoire
from loa_memory.store.local.runs import record_run
from loa_memory.store.lock import locked
from loa_memory.store.save import Changeset
from loa_memory.write.add import normalise_tags, recover
from loa_memory.write.moves import stage_archive
from loa_memory.write.renumber import Renumbered, stage_renumbering


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
        grimoire = load_grimoire(config)  # every world: a renumbered id must be free in all of them
        result = run_lint(config, options, grimoire)
        changes = Changeset(config, grimoire)
        located = {(e.path, e.id): e for e in [*grimoire.invalid, *grimoire.entries]}
        expired: list[Entry] = []
        collisions: list[Entry] = []
        unsafe = _unrepairable(grimoire)
        for finding in result.findings:
            entry = located.get((finding.path, finding.entry_id or ""))
            if not finding.fixable or entry is None:
                continue
            if finding.path in unsafe:  # a file with errors no fix repairs is never rewritten, not even in part
                fixes.append(Fix(finding.rule, finding.path, finding.line, finding.entry_id,
                                 f"not fixed: {finding.path}:{unsafe[finding.path]} has an error --fix cannot "
                                 "repair (YAML that does not parse, or an item that is not an entry); fix it first"))
                continue
            if finding.rule in ("duplicate-id", "id-collision"):
                collisions.extend(e for e in [*grimoire.invalid, *grimoire.entries]
                                  if e.path == finding.path and e.id == entry.id and _at(e, finding))
                continue
            if finding.rule == "expired":
                expired.append(entry)
                fixes.append(_fix(finding, entry, "moved to the archive (archive_reason: expired)"))
                continue
            update = _update_for(finding, entry)
            if update is None:
                continue
            changes.patch(config.root / entry.path, entry.line, update)
            fixes.append(_fix(finding, entry, "set " + ", ".join(f"{k}: {v}" for k, v in update.items())))
        for done in _renumber(config, options, grimoire, changes, collisions):
            fixes.append(Fix("duplicate-id" if not options.base else "id-collision", done.path, done.line, done.old,
                             f"renumbered to {done.new} (old id kept in aliases; {done.references} "
                             "reference(s) rewritten)"))
        stage_archive(changes, expired, "expired", moment)
        changes.commit()
    remaining = run_lint(config, options)
    record_run(config, "lint-fix", {"fixes": len(fixes), "remaining": len(remaining.findings)}, moment)
    return fixes, remaining


def _unrepairable(grimoire: Grimoire) -> dict[str, int]:
    """The files (with the line of the first such error) that hold YAML that does not parse or an item that is
    not an entry: ``lint --fix`` leaves them byte for byte as they are."""
    found = {rel: next((p.line for p in grimoire.problems if p.path == rel), 1) for rel in sorted(grimoire.broken)}
    for rel, items in grimoire.items.items():
        bad = next((line for _hash, line, data, _problems in items if not isinstance(data, dict)), None)
        if bad is not None and rel not in found:
            found[rel] = bad + 1
    return found


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


def _at(entry: Entry, finding: Finding) -> bool:
    """Whether ``finding`` (placed at the entry's id line) belongs to ``entry`` among same-id entries."""
    return entry.line <= finding.line <= entry.line + 2 or entry.path.endswith(".md")


def _renumber(config: Config, options: LintOptions, grimoire: Grimoire, changes: Changeset,
              targets: list[Entry]) -> list[Renumbered]:
    if not targets:
        return []
    everything = [*grimoire.invalid, *grimoire.entries]
    used = grimoire.ids()
    if options.base:
        from loa_memory.lint.context import LintContext
        from loa_memory.lint.rules.relations.id_collision import branch_added

        ours, theirs = branch_added(LintContext(config, grimoire, base_ref=options.base))
        used |= theirs
        branch = [e for e in everything if e.id in ours]
        return stage_renumbering(changes, targets, used, lambda _target: branch)

    sides = _merge_sides(config)

    def referrers(target: Entry) -> list[Entry]:
        partners = [e for e in everything if e.id in target.replaces and e.superseded_by == target.id]
        if sides is None:
            return partners  # without merge history, only the unambiguous supersede partner follows
        side = next((texts for texts in sides if _holds(texts, target) and not all(_holds(t, target) for t in sides)),
                    None)
        if side is None:
            return partners
        return partners + [e for e in everything if e is not target and _holds(side, e)
                           and not all(_holds(t, e) for t in sides)]

    return stage_renumbering(changes, targets, used, referrers)


def _merge_sides(config: Config) -> list[str] | None:
    """The memory files' text on each side of the merge in progress (or of HEAD, if it is a merge)."""
    from loa_memory.errors import GitError
    from loa_memory.store import git

    try:
        merging = git.run(config.root, "rev-parse", "-q", "--verify", "MERGE_HEAD").strip()
        parents = ["HEAD", merging] if merging else []
    except GitError:
        parents = []
    if not parents:
        try:
            parents = git.run(config.root, "rev-list", "--parents", "-n", "1", "HEAD").split()[1:]
        except GitError:
            return None
    if len(parents) != 2:
        return None
    folders = [w.storage_dir for w in config.worlds]
    return ["\n".join(git.files_at(config.root, rev, folders).values()) for rev in parents]


def _holds(text: str, entry: Entry) -> bool:
    """Whether one side's memory files contain this entry (by its first content line)."""
    first = entry.content.strip().splitlines()[0] if entry.content.strip() else entry.id
    return first in text
