"""``capture``: memories from commit-message trailers and from agent session transcripts.

A commit's memory trailers (see ``ops/trailers.py``) become entries of their category, each recording the
commit in ``source.commit``; a transcript's cues (see ``ops/cues.py``) become episodes. A candidate is
skipped, and the report says why, when it is already in the grimoire (same commit, or a rebased or
cherry-picked copy of it, or an active entry with the same content; for a transcript, the same session and
evidence), when it holds a secret, when its confidence is under ``auto_capture.min_confidence``, or when its
time to live has already run out. Everything one call captures is written in one transaction under the lock.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from ..errors import SecretRefused, ValidationError
from ..model import Entry
from ..retrieve.commits import is_same_commit, recorded_commit
from ..store import yamlio
from ..store.config import CONFIG_NAME, Config
from ..store.load import Grimoire, load_grimoire
from ..store.lock import locked
from ..store.save import Changeset
from ..store.times import format_time, now_utc, parse_time
from .commits import CommitInfo, changed_files, patch_id, read_commits, resolve, subject_of
from .cues import Cue, detect
from .gate import check_secrets
from .trailers import trailer_memories
from .transcript import Transcript, read_transcript
from .write import Written, complete_entry, recover, refuse_if_broken, stage_new, summarise, target_path

ARTIFACT_LIMIT = 20
COMMIT_AGENT = "git-capture"
TRANSCRIPT_AGENT = "transcript-capture"
Reason = Literal["duplicate", "secret", "low-confidence", "expired", "invalid", "unresolved", "not-captured"]
_LABEL = {"correction": "Correction", "preference": "Preference", "decision": "Decision", "error": "Resolved error"}
_OUTCOME = {"correction": "corrected", "preference": "stated", "decision": "decided", "error": "resolved"}


@dataclass(frozen=True)
class CaptureOptions:
    """What to capture from: commits (``revs``, and everything after ``since``) and transcript files."""

    revs: tuple[str, ...] = ()
    since: str | None = None
    transcripts: tuple[Path, ...] = ()
    session_id: str | None = None  # overrides a transcript's own session id (e.g. from an agent hook)
    dry_run: bool = False
    world: str | None = None


@dataclass(frozen=True)
class Skipped:
    origin: str
    reason: Reason
    detail: str
    summary: str = ""  # empty when showing it would repeat a secret


@dataclass
class CaptureReport:
    added: list[Written] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    dry_run: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"dry_run": self.dry_run,
                "added": [{"id": w.data["id"], "category": w.data["category"], "summary": w.data.get("summary"),
                           "path": w.path, "line": w.line, "world": w.world, "entry": w.data} for w in self.added],
                "skipped": [{"origin": s.origin, "reason": s.reason, "detail": s.detail, "summary": s.summary}
                            for s in self.skipped],
                "notes": self.notes}


@dataclass(frozen=True)
class Candidate:
    origin: str
    fields: dict[str, Any]
    commit: CommitInfo | None = None
    evidence_key: tuple[str, str] | None = None  # (session id, evidence) for transcript episodes
    unresolved: bool = False


def capture(config: Config, options: CaptureOptions, *, moment: datetime | None = None) -> CaptureReport:
    """Capture from the commits and transcripts ``options`` names; see the module docstring."""
    report = CaptureReport(dry_run=options.dry_run)
    settings = config.section("auto_capture")
    if settings.get("enabled") is False:
        report.notes.append("capture is off (memory_schema.auto_capture.enabled: false); nothing was read")
        return report
    candidates: list[Candidate] = []
    if options.revs or options.since:
        if settings.get("commits") is False:
            report.notes.append("commit capture is off (memory_schema.auto_capture.commits: false)")
        else:
            candidates.extend(commit_candidates(config, resolve(config.root, options.revs, options.since)))
    for path in options.transcripts:
        if settings.get("transcripts") is False:
            report.notes.append("transcript capture is off (memory_schema.auto_capture.transcripts: false)")
            break
        transcript = read_transcript(path)
        if transcript.unreadable_lines:
            report.notes.append(f"{path}: {transcript.unreadable_lines} line(s) were not JSON and were skipped")
        candidates.extend(transcript_candidates(config, transcript, options.session_id, moment))
    if candidates:
        _write(config, candidates, options, report, moment or now_utc())
    return report


def commit_candidates(config: Config, shas: Sequence[str]) -> Iterator[Candidate]:
    """One candidate per memory trailer of each commit."""
    session = os.environ.get("LOA_SESSION_ID") or os.environ.get("CLAUDE_SESSION_ID")
    memory_dirs = tuple(w.storage_dir.rstrip("/") + "/" for w in config.worlds)
    for info in read_commits(config.root, list(shas)):
        memories = trailer_memories(info.message)
        if not memories:
            continue
        files = [f for f in changed_files(config.root, info.sha) if not f.startswith(memory_dirs) and f != CONFIG_NAME]
        for memory in memories:
            cat = config.category(memory["category"])
            fields: dict[str, Any] = dict(memory)
            if cat.name == "error":
                fields["error"] = memory["content"]
            if cat.name == "correction":
                fields.setdefault("trigger", info.subject)
                fields.setdefault("lesson", memory["content"])
            fields["confidence"] = max(cat.min_confidence, 0.9)
            source = {"session_id": session or f"commit-{info.sha[:12]}", "agent": COMMIT_AGENT,
                      "timestamp": info.time, "commit": info.sha, "capture": "trailer"}
            if info.author:
                source["author"] = info.author
            fields["source"] = source
            if files:
                fields["artifacts"] = files[:ARTIFACT_LIMIT]
            yield Candidate(f"commit {info.sha[:12]} {cat.name.capitalize()}:", fields, commit=info)


def transcript_candidates(config: Config, transcript: Transcript, session_id: str | None = None,
                          moment: datetime | None = None) -> Iterator[Candidate]:
    """One episode candidate per cue in the transcript (timed by its turn, else ``moment``)."""
    session = session_id or transcript.session_id
    shown = _shown_path(config.root, transcript.path)
    for cue in detect(transcript.turns):
        quote = cue.evidence[0]
        content = quote if cue.kind != "error" else f"{cue.fields['error']}\nResolution: {cue.fields.get('resolution')}"
        gist = summarise(str(cue.fields.get("lesson") or quote))
        fields: dict[str, Any] = {
            "category": "episode",
            "summary": _clip(f"{_LABEL[cue.kind]}: {gist}"),
            "content": content,
            "confidence": cue.confidence,
            "source": {"session_id": session, "agent": TRANSCRIPT_AGENT, "timestamp": _when(cue, moment),
                       "transcript": shown, "line_range": f"{cue.turn.line}-{max(cue.end, cue.turn.line)}",
                       "capture": cue.kind},
            "tags": [cue.kind],
            "session_id": session,
            "outcome": _OUTCOME[cue.kind] if cue.resolved else "unresolved",
            "action_types": [cue.kind],
            "evidence": list(cue.evidence),
            **cue.fields,
        }
        yield Candidate(f"{shown}:{cue.turn.line}", fields, evidence_key=(session, _norm(" | ".join(cue.evidence))),
                        unresolved=not cue.resolved)


def _write(config: Config, candidates: list[Candidate], options: CaptureOptions, report: CaptureReport,
           moment: datetime) -> None:
    world = config.world(options.world).name
    settings = config.section("auto_capture")
    minimum = float(settings.get("min_confidence") or 0.0)
    wanted = set(settings.get("categories") or ())
    guard = contextlib.nullcontext() if options.dry_run else locked(config.local_dir)
    with guard:
        if not options.dry_run:
            recover(config)
        grimoire = load_grimoire(config)
        refuse_if_broken(grimoire)
        seen = _Seen(config.root, grimoire)
        used = grimoire.ids()
        changes = Changeset(config, grimoire)
        for candidate in candidates:
            fields = candidate.fields
            summary = str(fields.get("summary") or summarise(str(fields["content"])))
            reason = _reason(candidate, seen, minimum, wanted)
            if reason:
                report.skipped.append(Skipped(candidate.origin, reason[0], reason[1], summary))
                continue
            data = complete_entry(config, fields, used, moment)
            expires = parse_time(str(data.get("expires_at") or ""))
            if expires is not None and expires <= moment:
                report.skipped.append(Skipped(candidate.origin, "expired", f"its {data['ttl']} ran out on "
                                              f"{data['expires_at']}", summary))
                continue
            problem = _gate(config, data, world)
            if problem:
                report.skipped.append(Skipped(candidate.origin, problem[0], problem[1],
                                              "" if problem[0] == "secret" else summary))
                continue
            report.added.append(stage_new(changes, data, world))
            used.add(data["id"])
            seen.add(candidate, data["id"])
        if not options.dry_run:
            changes.commit()


def _reason(candidate: Candidate, seen: _Seen, minimum: float, wanted: set[str]) -> tuple[Reason, str] | None:
    fields = candidate.fields
    if candidate.unresolved:
        return "unresolved", "an error with no resolution later in the transcript"
    if wanted and fields["category"] not in wanted:
        return "not-captured", f"{fields['category']} is not in memory_schema.auto_capture.categories"
    duplicate = seen.duplicate(candidate)
    if duplicate:
        return "duplicate", duplicate
    if float(fields["confidence"]) < minimum:
        return "low-confidence", f"confidence {fields['confidence']} < auto_capture.min_confidence {minimum}"
    return None


def _gate(config: Config, data: dict[str, Any], world: str) -> tuple[Reason, str] | None:
    """Check the entry before it is staged, so that a refused candidate leaves the changeset untouched."""
    from .write import validate_new

    try:
        validate_new(config, data)
        rel = target_path(config, config.category(str(data["category"])), world, data).relative_to(config.root)
        check_secrets(config, yamlio.dump_item(data), rel.as_posix(), 1)
    except SecretRefused as exc:
        return "secret", exc.message.split(" (", 1)[0].removeprefix("refused: ")
    except ValidationError as exc:
        return "invalid", exc.message
    return None


class _Seen:
    """What the grimoire (and this capture, so far) already holds, for duplicate checks."""

    def __init__(self, root: Path, grimoire: Grimoire) -> None:
        self.root = root
        self.grimoire = grimoire
        self.by_content: dict[tuple[str, str], list[Entry | str]] = {}
        self.by_evidence: dict[tuple[str, str], str] = {}
        for entry in grimoire.entries:
            self.by_content.setdefault((entry.category, _norm(str(entry.data.get("content", "")))), []).append(entry)
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
    return str(session), _norm(" | ".join(map(str, quotes)))


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _clip(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."


def _when(cue: Cue, fallback: datetime | None) -> str:
    moment = parse_time(cue.turn.timestamp or "")
    return format_time(moment or fallback or now_utc())


def _shown_path(root: Path, path: Path) -> str:
    """The transcript's path as recorded: relative to the repository, else with the home folder as ``~``."""
    resolved = path.resolve()
    with contextlib.suppress(ValueError):
        return resolved.relative_to(root.resolve()).as_posix()
    with contextlib.suppress(ValueError, RuntimeError):
        return "~/" + resolved.relative_to(Path.home().resolve()).as_posix()
    return resolved.as_posix()
