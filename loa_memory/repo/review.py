"""``review BASE..HEAD``: what a pull request does to memory, short enough to paste as a PR comment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loa_memory.errors import UsageError
from loa_memory.lint import LintOptions, run_lint
from loa_memory.model import Entry, headline
from loa_memory.render.lint import finding_record
from loa_memory.store import git
from loa_memory.store.config import Config
from loa_memory.store.history import entries_at


@dataclass
class Review:
    base: str
    head: str
    added: list[dict[str, Any]] = field(default_factory=list)
    superseded: list[dict[str, Any]] = field(default_factory=list)
    archived: list[dict[str, Any]] = field(default_factory=list)
    effectiveness: list[dict[str, Any]] = field(default_factory=list)
    confidence: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)


def _archived_path(config: Config, path: str) -> bool:
    return f"/{config.archive_dir}/" in f"/{path}"


def _headline(data: dict[str, Any]) -> str:
    return headline(Entry(data, "", "", 0))


def review(config: Config, revisions: str, worlds: Sequence[str] = ()) -> Review:
    """Compare the memory files of two revisions (``BASE..HEAD``; HEAD defaults to ``HEAD``), in ``worlds``."""
    base, sep, head = revisions.partition("..")
    if not base:
        raise UsageError(f"not a revision range: {revisions!r}", hint="e.g. loa-memory review origin/main..HEAD")
    head = head if sep and head else "HEAD"
    folders = [world.storage_dir for world in config.worlds if not worlds or world.name in worlds]
    for name in worlds:
        config.world(name)
    fork = git.merge_base(config.root, base, head)
    before = entries_at(config.root, fork, folders)
    after = entries_at(config.root, head, folders)
    result = Review(base, head)
    for memory_id, (path, data) in after.items():
        old = before.get(memory_id)
        if old is None:
            if not _archived_path(config, path):
                result.added.append({"id": memory_id, "category": data.get("category"), "path": path,
                                     "world": config.world_of(path), "summary": _headline(data)})
            continue
        old_path, old_data = old
        if _archived_path(config, path) and not _archived_path(config, old_path):
            result.archived.append({"id": memory_id, "reason": data.get("archive_reason"), "summary": _headline(data)})
        if data.get("superseded_by") and not old_data.get("superseded_by"):
            new = after.get(str(data["superseded_by"]), ("", {}))[1]
            result.superseded.append({"old": memory_id, "new": data["superseded_by"], "before": _headline(data),
                                      "after": _headline(new)})
        if data.get("effectiveness") != old_data.get("effectiveness"):
            result.effectiveness.append({"id": memory_id, "before": old_data.get("effectiveness"),
                                         "after": data.get("effectiveness")})
        if data.get("confidence") != old_data.get("confidence"):
            result.confidence.append({"id": memory_id, "before": old_data.get("confidence"),
                                      "after": data.get("confidence")})
    changed = [p for p in git.run(config.root, "diff", "--name-only", fork, head, "--", *folders).splitlines() if p]
    if changed and head == "HEAD":
        lint = run_lint(config, LintOptions(paths=[str(config.root / p) for p in changed]))
        result.findings = [finding_record(f) for f in lint.findings]
    return result


def review_record(result: Review) -> dict[str, Any]:
    return {"base": result.base, "head": result.head, "added": result.added, "superseded": result.superseded,
            "archived": result.archived, "effectiveness": result.effectiveness, "confidence": result.confidence,
            "findings": result.findings}
