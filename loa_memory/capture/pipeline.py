"""``capture``: memories from commit-message trailers and from agent session transcripts.

A commit's memory trailers (see ``capture/trailers.py``) become entries of their category, each recording the
commit in ``source.commit``; a transcript's cues (see ``capture/cues.py``) become episodes. A candidate is
skipped, and the report says why, when it is already in the grimoire (same commit, or a rebased or
cherry-picked copy of it, or an active entry with the same content; for a transcript, the same session and
evidence), when it holds a secret, when its confidence is under ``auto_capture.min_confidence``, or when its
time to live has already run out. Everything one call captures is written in one transaction under the lock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from loa_memory.capture.candidates import Candidate, commit_candidates, trace_candidates, transcript_candidates
from loa_memory.capture.commits import resolve
from loa_memory.capture.seen import Seen
from loa_memory.capture.transcript import read_transcript
from loa_memory.errors import SecretRefused, ValidationError
from loa_memory.secrets.gate import check_secrets
from loa_memory.store import yamlio
from loa_memory.store.config import Config
from loa_memory.store.local.runs import record_run
from loa_memory.store.save import Changeset
from loa_memory.store.times import now_utc, parse_time
from loa_memory.write.add import (
    Written,
    complete_entry,
    loaded_for_writing,
    stage_new,
    summarise,
    target_path,
    validate_new,
)

Reason = Literal["duplicate", "secret", "low-confidence", "expired", "invalid", "unresolved", "not-captured"]


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


def capture(config: Config, options: CaptureOptions, *, moment: datetime | None = None) -> CaptureReport:
    """Capture from the commits and transcripts ``options`` names; see the module docstring."""
    report = CaptureReport(dry_run=options.dry_run)
    settings = config.auto_capture
    if settings.enabled is False:
        report.notes.append("capture is off (memory_schema.auto_capture.enabled: false); nothing was read")
        return report
    candidates: list[Candidate] = []
    if options.revs or options.since:
        if settings.commits is False:
            report.notes.append("commit capture is off (memory_schema.auto_capture.commits: false)")
        else:
            candidates.extend(commit_candidates(config, resolve(config.root, options.revs, options.since)))
    for path in options.transcripts:
        if settings.transcripts is False:
            report.notes.append("transcript capture is off (memory_schema.auto_capture.transcripts: false)")
            break
        transcript = read_transcript(path)
        if transcript.unreadable_lines:
            report.notes.append(f"{path}: {transcript.unreadable_lines} line(s) were not JSON and were skipped")
        candidates.extend(transcript_candidates(config, transcript, options.session_id, moment))
        candidates.extend(trace_candidates(config, transcript, options.session_id, moment))
    if candidates:
        _write(config, candidates, options, report, moment or now_utc())
    if not options.dry_run:
        record_run(config, "capture", {"added": len(report.added), "skipped": len(report.skipped)}, moment)
    return report


def _write(config: Config, candidates: list[Candidate], options: CaptureOptions, report: CaptureReport,
           moment: datetime) -> None:
    world = config.world(options.world).name
    settings = config.auto_capture
    minimum = float(settings.min_confidence or 0.0)
    wanted = set(settings.categories or ())
    with loaded_for_writing(config, write=not options.dry_run) as grimoire:
        seen = Seen(config.root, grimoire)
        used = grimoire.ids()
        changes = Changeset(config, grimoire)
        for candidate in candidates:
            fields = candidate.fields
            summary = str(fields.get("summary") or summarise(str(fields["content"])))
            reason = _reason(candidate, seen, minimum, wanted)
            if reason:
                report.skipped.append(Skipped(candidate.origin, reason[0], reason[1],
                                              "" if reason[0] == "secret" else summary))
                continue
            try:
                data = complete_entry(config, fields, used, moment)
            except SecretRefused as exc:  # a secret in a field as given (a tag, a field's name)
                report.skipped.append(Skipped(candidate.origin, "secret", _secret_reason(exc), ""))
                continue
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


def _reason(candidate: Candidate, seen: Seen, minimum: float, wanted: set[str]) -> tuple[Reason, str] | None:
    fields = candidate.fields
    if candidate.unresolved:
        return "unresolved", "an error with no resolution later in the transcript"
    if candidate.withheld:
        return "secret", f"the message holds {candidate.withheld} across a line break"
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
    try:
        validate_new(config, data)
        rel = target_path(config, config.category(str(data["category"])), world, data).relative_to(config.root)
        check_secrets(config, yamlio.dump_item(data), rel.as_posix(), 1)
    except SecretRefused as exc:
        return "secret", _secret_reason(exc)
    except ValidationError as exc:
        return "invalid", exc.message
    return None


def _secret_reason(exc: SecretRefused) -> str:
    return exc.message.split(" (", 1)[0].removeprefix("refused: ")
