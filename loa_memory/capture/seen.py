"""What the grimoire (and the capture under way) already holds: the duplicate checks of ``capture``."""

from __future__ import annotations

import re
from pathlib import Path

from loa_memory.answer.blame import is_same_commit, recorded_commit
from loa_memory.capture.candidates import Candidate, evidence_text
from loa_memory.capture.commits import CommitInfo, patch_id, subject_of
from loa_memory.model import Entry
from loa_memory.store.load import Grimoire


class Seen:
    """What the grimoire (and this capture, so far) already holds, for duplicate checks."""

    def __init__(self, root: Path, grimoire: Grimoire) -> None:
        self.root = root
        self.grimoire = grimoire
        self.by_content: dict[tuple[str, str], list[Entry | str]] = {}
        self.by_evidence: dict[tuple[str, str], str] = {}
        for entry in grimoire.entries:
            self.by_content.setdefault((entry.category, _norm(entry.content)), []).append(entry)
            key = _evidence_key(entry)
            if key:
                self.by_evidence.setdefault(key, entry.id)

    def add(self, candidate: Candidate, new_id: str) -> None:
        fields = candidate.fields
        self.by_content.setdefault((fields["category"], _norm(str(fields["content"]))), []).append(new_id)
        if candidate.evidence_key:
            self.by_evidence[candidate.evidence_key] = new_id

    def duplicate(self, candidate: Candidate) -> str | None:
        if candidate.evidence_key:
            found = self.by_evidence.get(candidate.evidence_key)
            return f"already captured from this session as {found}" if found else None
        matches = self.by_content.get((candidate.fields["category"], _norm(str(candidate.fields["content"]))), [])
        commit = candidate.commit
        for match in matches:
            if isinstance(match, str):
                return f"the same {candidate.fields['category']} is captured above as {match}"
            recorded = recorded_commit(match)
            if commit and recorded and is_same_commit(recorded, commit.sha):
                return f"already captured from this commit as {match.id}"
            if commit and recorded and self._same_change(recorded, commit):
                return f"already captured as {match.id} from {recorded[:12]}, of which this commit is a copy"
        active = next((m for m in matches if isinstance(m, Entry) and self.grimoire.status(m) == "active"), None)
        return f"an active {active.category} says the same: {active.id}" if active else None

    def _same_change(self, recorded: str, commit: CommitInfo) -> bool:
        if subject_of(self.root, recorded) == commit.subject:
            return True
        mine = patch_id(self.root, commit.sha)
        return mine is not None and patch_id(self.root, recorded) == mine


def _evidence_key(entry: Entry) -> tuple[str, str] | None:
    if entry.category != "episode":
        return None
    source = entry.data.get("source")
    session = entry.data.get("session_id") or (source.get("session_id") if isinstance(source, dict) else None)
    evidence = entry.data.get("evidence")
    if not session or not evidence:
        return None
    quotes = evidence if isinstance(evidence, list) else [evidence]
    return str(session), evidence_text(quotes)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()
