"""What a lint rule sees: the loaded grimoire, the config, file texts, and helpers to place findings."""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from loa_memory.model import Entry, Finding, Severity
from loa_memory.store import yamlio
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire

_FIELD_LINE = re.compile(r"^(?:-[ \t]+|[ \t]+)([A-Za-z_][\w-]*):")


@dataclass
class LintContext:
    """Shared, read-only state for one lint run (rules must not write)."""

    config: Config
    grimoire: Grimoire
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    base_ref: str | None = None
    focus: frozenset[str] | None = None  # the files being checked (None: all); cross-entry rules still see all
    items: frozenset[tuple[str, int]] | None = None  # ... and within them, the items (file, 0-based first line)
    _texts: dict[str, list[str]] = field(default_factory=dict)
    _status: dict[int, str] = field(default_factory=dict)
    _lists: dict[tuple[str, bool | None], list[Entry]] = field(default_factory=dict)
    _starts: dict[str, list[int]] = field(default_factory=dict)
    _having: dict[frozenset[str], list[Entry]] = field(default_factory=dict)

    def lines(self, rel: str) -> list[str]:
        """The lines of a memory file (cached for the run)."""
        if rel not in self._texts:
            try:
                self._texts[rel] = (self.config.root / rel).read_text("utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._texts[rel] = []
        return self._texts[rel]

    def entries(self, *, archived: bool | None = None) -> list[Entry]:
        """Every parsed entry, valid or not (schema problems are the schema rule's business)."""
        found = self._lists.get(("all", archived))
        if found is None:
            every = [*self.grimoire.entries, *self.grimoire.invalid]
            found = every if archived is None else [e for e in every if e.archived == archived]
            self._lists["all", archived] = found
        return found

    def status(self, entry: Entry) -> str:
        """The entry's status at ``now``, computed once per run (several rules ask for every entry)."""
        if not self._status:
            every = self.entries()
            self._status = dict(zip(map(id, every), self.grimoire.statuses(every, self.now), strict=True))
        found = self._status.get(id(entry))
        if found is None:  # not an entry of this grimoire
            found = self._status[id(entry)] = self.grimoire.status(entry, self.now)
        return found

    def having(self, *keys: str) -> list[Entry]:
        """The entries (valid or not, in order) that have at least one of these top-level fields: cross-entry
        rules look at links and supersedes, which few entries carry, so they need not walk them all."""
        wanted = frozenset(keys)
        found = self._having.get(wanted)
        if found is None:
            found = self._having[wanted] = [e for e in self.entries() if not e.data.keys().isdisjoint(wanted)]
        return found

    def targets(self, *, archived: bool | None = None) -> list[Entry]:
        """The entries whose own findings are wanted: those in the focused files (all without a focus), and
        of those the chosen items (all unless ``items`` says)."""
        found = self._lists.get(("targets", archived))
        if found is None:
            if archived is not None:
                found = [e for e in self.targets() if e.archived == archived]
            else:
                found = self.entries()
                if self.focus is not None:
                    found = [e for e in found if e.path in self.focus]
                if self.items is not None:
                    found = [e for e in found if (e.path, e.line - 1) in self.items]
            self._lists["targets", archived] = found
        return found

    def problems(self) -> list[Finding]:
        """The loader's findings (parse and schema problems), of the chosen items when ``items`` says."""
        if self.items is None:
            return self.grimoire.problems
        return [p for p in self.grimoire.problems if (p.path, self.item_line(p.path, p.line)) in self.items]

    def item_line(self, rel: str, line: int) -> int | None:
        """The 0-based first line of the item of ``rel`` that holds 1-based ``line`` (None: before the first)."""
        starts = self._starts.get(rel)
        if starts is None:
            starts = self._starts[rel] = sorted({item[1] for item in self.grimoire.items.get(rel, ())})
        index = bisect.bisect_right(starts, line - 1) - 1
        return starts[index] if index >= 0 else None

    @functools.cached_property
    def by_id(self) -> dict[str, Entry]:
        """Every parsed entry by id and alias (first wins), valid or not."""
        index: dict[str, Entry] = {}
        for entry in self.having("aliases"):
            for alias in entry.aliases:
                index.setdefault(alias, entry)
        index.update({entry.id: entry for entry in reversed(self.entries())})  # the first of duplicates wins
        return index

    def field_line(self, entry: Entry, key: str) -> tuple[int, int]:
        """1-based ``(line, col)`` of a top-level field of ``entry`` (the entry's line if absent)."""
        lines = self.lines(entry.path)
        start = entry.line - 1
        if entry.path.endswith(".md"):
            start = 1
        for number in range(start, len(lines)):
            line = lines[number]
            if number > start and line and not line[0].isspace() and entry.path.endswith(".yaml"):
                break
            if entry.path.endswith(".md") and line.strip() == "---":
                break
            match = _FIELD_LINE.match(line) if not entry.path.endswith(".md") else \
                re.match(r"^([A-Za-z_][\w-]*):", line)
            if match and match.group(1) == key:
                return number + 1, match.start(1) + 1
        return entry.line, 1

    def locate(self, entry: Entry, path: tuple[str | int, ...]) -> tuple[int, int]:
        """1-based ``(line, col)`` of a nested field, by parsing the entry's own text."""
        if len(path) == 1 and isinstance(path[0], str):
            return self.field_line(entry, path[0])
        text, offset, prefix = self._entry_text(entry)
        try:
            node = yamlio.compose_text(text)
        except Exception:
            return entry.line, 1
        spot = yamlio.locate(node, prefix + path)
        return (spot[0] + offset + 1, spot[1] + 1) if spot else (entry.line, 1)

    def _entry_text(self, entry: Entry) -> tuple[str, int, tuple[str | int, ...]]:
        lines = self.lines(entry.path)
        if entry.path.endswith(".md"):
            end = next((n for n in range(1, len(lines)) if lines[n].strip() == "---"), len(lines))
            return "\n".join(lines[1:end]) + "\n", 1, ()
        start = entry.line - 1
        end = start + 1
        while end < len(lines) and (not lines[end] or lines[end][0].isspace()):
            end += 1
        return "\n".join(lines[start:end]) + "\n", start, (0,)

    def ignored(self, finding: Finding, entry_line: int | None) -> bool:
        """True when ``# loa: ignore[rule]`` sits on the finding's line or the entry's first line."""
        lines = self.lines(finding.path)
        for number in {finding.line, entry_line or finding.line}:
            if 0 < number <= len(lines) and _ignores(lines[number - 1], finding.rule):
                return True
        return False

    def finding(self, entry: Entry, rule: str, severity: Severity, message: str, *,
                key: str | tuple[str | int, ...] | None = None, fixable: bool = False,
                extra: dict[str, Any] | None = None) -> Finding:
        """A finding placed at ``entry`` (or at one of its fields)."""
        if key is None:
            line, col = entry.line, 1
        elif isinstance(key, str):
            line, col = self.field_line(entry, key)
        else:
            line, col = self.locate(entry, key)
        return Finding(entry.path, line, col, severity, rule, message, entry_id=entry.id or None,
                       fixable=fixable, extra=extra or {})


@functools.cache
def _ignore_pattern() -> re.Pattern[str]:
    return re.compile(r"#\s*loa:\s*ignore(?:\[([^\]]*)\])?")


def _ignores(line: str, rule: str) -> bool:
    match = _ignore_pattern().search(line)
    if match is None:
        return False
    listed = match.group(1)
    return listed is None or rule in {part.strip() for part in listed.split(",")}
