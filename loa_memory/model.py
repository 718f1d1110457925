"""Plain records shared by every layer: categories, entries, findings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

Severity = Literal["error", "warning", "info"]
FileKind = Literal["list", "markdown", "dir-list"]
Layout = Literal["lists", "entries"]  # a grimoire's list categories: one YAML list each, or one file per entry
Status = Literal["active", "superseded", "expired", "archived"]
Tier = Literal["high", "medium", "low", "ineffective", "unscored"]

ARCHIVE_DIR = "archive"
ARCHIVE_REASONS = ("expired", "superseded", "manual", "ineffective")
LINK_RELATIONS = ("derived_from", "related_to", "contradicts", "elaborates", "example_of", "supersedes",
                  "led_to", "thread")
# What session capture records as an episode's ``action_types``, each named after the category it teaches.
CAPTURED_KINDS = ("correction", "preference", "decision", "error")
LOA_CORE_CATEGORIES = ("fact", "decision", "learning", "error", "preference")


@dataclass(frozen=True)
class Category:
    """A kind of memory and where it lives inside a grimoire.

    ``path`` is a file (``kind="list"``) or a folder of Markdown files (``"markdown"``) or of YAML
    list files named by date or agent (``"dir-list"``), relative to the grimoire's memory folder.
    """

    name: str
    path: str
    kind: FileKind
    ttl: str = "permanent"
    min_confidence: float = 0.0
    layer: str = "semantic"
    operator_only: bool = False
    append_only: bool = False
    file_key: Literal["date", "agent"] = "date"


DEFAULT_CATEGORIES: tuple[Category, ...] = (
    Category("fact", "facts.yaml", "list", "permanent", 0.8, "semantic"),
    Category("decision", "decisions.yaml", "list", "permanent", 0.9, "semantic"),
    Category("learning", "learnings.yaml", "list", "90d", 0.7, "semantic"),
    Category("error", "errors.yaml", "list", "30d", 0.6, "semantic"),
    Category("preference", "preferences.yaml", "list", "permanent", 0.5, "semantic"),
    Category("correction", "corrections.yaml", "list", "permanent", 0.7, "cue"),
    Category("procedure", "procedures", "markdown", "permanent", 0.7, "procedural"),
    Category("note", "notes", "markdown", "permanent", 0.5, "semantic"),
    Category("episode", "episodic", "dir-list", "30d", 0.0, "episodic", append_only=True),
    Category("telos", "telos", "markdown", "permanent", 0.0, "identity", operator_only=True),
    Category("ledger", "ledgers", "dir-list", "permanent", 0.0, "working", append_only=True, file_key="agent"),
    Category("handoff", "handoffs", "dir-list", "permanent", 0.0, "working", append_only=True),
)


def effectiveness_tier(score: int | None, applications: int) -> Tier:
    """The effectiveness tier: high ≥ 80, medium 50-79, low 20-49 (flag for review), ineffective < 20 (queue
    for archival); unscored before the first application. The only place the thresholds live."""
    if score is None or not applications:
        return "unscored"
    return "high" if score >= 80 else "medium" if score >= 50 else "low" if score >= 20 else "ineffective"


@dataclass(frozen=True)
class Effectiveness:
    """An entry's ``effectiveness`` block: how often it was applied, how often that helped, and the score."""

    applications: int = 0
    successes: int = 0
    score: int | None = None
    last_applied: str | None = None

    @classmethod
    def from_block(cls, block: object) -> Effectiveness:
        """The record of a block as a file has it (anything that is not a mapping reads as never applied)."""
        if not isinstance(block, Mapping):
            return cls()
        score = block.get("score")
        last = block.get("last_applied")
        return cls(int(block.get("applications") or 0), int(block.get("successes") or 0),
                   int(score) if isinstance(score, int) else None, str(last) if last else None)

    @property
    def tier(self) -> Tier:
        return effectiveness_tier(self.score, self.applications)

    def proven_ineffective(self, min_applications: int) -> bool:
        """Ineffective after enough applications to be sure (one unanswered application proves nothing)."""
        return self.tier == "ineffective" and self.applications >= min_applications


class Link(NamedTuple):
    """One item of an entry's ``links``: the entry it points to, how they relate, and an optional note."""

    to: str
    relation: str
    note: str = ""


@dataclass(frozen=True)
class Entry:
    """One memory as read from disk.

    ``data`` holds the fields exactly as the file has them (plain Python types, timestamps as
    strings). ``path`` is relative to the repository root and ``line`` is where the entry starts.
    """

    data: Mapping[str, Any]
    world: str
    path: str
    line: int
    archived: bool = False

    @property
    def id(self) -> str:
        return str(self.data.get("id", ""))

    @property
    def category(self) -> str:
        return str(self.data.get("category", ""))

    @property
    def summary(self) -> str:
        return str(self.data.get("summary") or "")

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def confidence(self) -> float:
        value = self.data.get("confidence")
        return float(value) if isinstance(value, (int, float)) else 0.0

    @property
    def tags(self) -> list[str]:
        tags = self.data.get("tags")
        return [str(t) for t in tags] if isinstance(tags, list) else []

    @property
    def effectiveness(self) -> Effectiveness:
        return Effectiveness.from_block(self.data.get("effectiveness"))

    @property
    def links(self) -> list[Link]:
        """The well-formed items of ``links`` (lint's ``dangling-link`` reports the rest)."""
        links = self.data.get("links")
        return [Link(str(item["to"]), str(item.get("relation") or ""), str(item.get("note") or ""))
                for item in (links if isinstance(links, list) else []) if isinstance(item, Mapping) and item.get("to")]

    def linked(self, relation: str) -> list[str]:
        """The ids this entry links to with ``relation`` (``derived_from``, ``contradicts``...)."""
        return [link.to for link in self.links if link.relation == relation]

    @property
    def trigger(self) -> str:
        """A correction's guarded action (empty for other categories)."""
        return str(self.data.get("trigger") or "")

    @property
    def triggers(self) -> list[str]:
        """Every phrasing of a correction's guarded action: ``trigger``, then the items of ``triggers``."""
        extra = self.data.get("triggers")
        found = [self.trigger, *(str(t) for t in (extra if isinstance(extra, list) else []))]
        return [t for t in dict.fromkeys(t.strip() for t in found) if t]

    @property
    def applies_to(self) -> list[str]:
        """Globs of the files a cue guards (``applies_to``), relative to the repository root."""
        globs = self.data.get("applies_to")
        return [str(g) for g in globs if g] if isinstance(globs, list) else []

    @property
    def severity(self) -> str:
        """``block`` (ask before a matching tool call runs) or ``warn`` (the default)."""
        return "block" if self.data.get("severity") == "block" else "warn"

    @property
    def lesson(self) -> str:
        return str(self.data.get("lesson") or "")

    @property
    def thread(self) -> str:
        value = self.data.get("thread")
        return value if isinstance(value, str) else ""

    @property
    def action_types(self) -> list[str]:
        """An episode's kinds of action (``correction``, ``decision``...), as capture records them."""
        types = self.data.get("action_types")
        return [str(t) for t in types] if isinstance(types, list) else []

    @property
    def graduated_to(self) -> str | None:
        """Where a graduated cue's lesson lives now (a procedure's id or a lint rule's path), else None."""
        value = self.data.get("graduated_to")
        return str(value) if value else None

    @property
    def replaces(self) -> list[str]:
        """The ids this entry supersedes: ``supersedes: MEM-a`` (Loa's form) or a consolidation,
        ``supersedes: [MEM-a, MEM-b]``."""
        return replaced_ids(self.data.get("supersedes"))

    @property
    def supersedes(self) -> str | None:
        """The first id of ``replaces`` (code that handles consolidations uses ``replaces``)."""
        replaced = self.replaces
        return replaced[0] if replaced else None

    @property
    def superseded_by(self) -> str | None:
        value = self.data.get("superseded_by")
        return str(value) if value else None

    @property
    def aliases(self) -> list[str]:
        aliases = self.data.get("aliases")
        return [str(a) for a in aliases] if isinstance(aliases, list) else []

    @property
    def timestamp(self) -> str:
        source = self.data.get("source")
        return str(source.get("timestamp") or "") if isinstance(source, Mapping) else ""

    @property
    def expires_at(self) -> str | None:
        value = self.data.get("expires_at")
        return str(value) if value else None


@dataclass(frozen=True)
class Finding:
    """A problem found in a file, at a place, by a rule."""

    path: str
    line: int
    col: int
    severity: Severity
    rule: str
    message: str
    entry_id: str | None = None
    fixable: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: [{self.severity}] {self.message} ({self.rule})"


def headline(entry: Entry) -> str:
    """The summary, or the content's first line when there is none."""
    if entry.summary:
        return entry.summary
    first = entry.content.strip().split("\n", 1)[0]
    return first if len(first) <= 100 else first[:97] + "..."


def replaced_ids(value: Any) -> list[str]:
    """A ``supersedes`` value as a list of ids: one id, a list of ids, or nothing."""
    if isinstance(value, list):
        return list(dict.fromkeys(str(v).strip() for v in value if v and str(v).strip()))
    return [str(value).strip()] if value and str(value).strip() else []
