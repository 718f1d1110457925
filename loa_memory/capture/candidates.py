"""Candidates for capture: one per memory trailer of a commit, one episode per cue of a transcript."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from loa_memory.capture.commits import CommitInfo, changed_files, read_commits
from loa_memory.capture.cues import Cue, detect
from loa_memory.capture.likeness import likeness_for
from loa_memory.capture.trace import split_tasks, trace_fields
from loa_memory.capture.trailers import trailer_memories
from loa_memory.capture.transcript import Transcript
from loa_memory.store import git
from loa_memory.store.config import CONFIG_NAME, Config
from loa_memory.store.env import env_session_id
from loa_memory.store.times import format_time, now_utc, parse_time
from loa_memory.write.add import clip, summarise

ARTIFACT_LIMIT = 20
COMMIT_AGENT = "git-capture"
TRANSCRIPT_AGENT = "transcript-capture"
_LABEL = {"correction": "Correction", "preference": "Preference", "decision": "Decision", "error": "Resolved error"}
_OUTCOME = {"correction": "corrected", "preference": "stated", "decision": "decided", "error": "resolved"}


@dataclass(frozen=True)
class Candidate:
    """Fields of an entry to be, where they come from, and what duplicate checks need."""

    origin: str
    fields: dict[str, Any]
    commit: CommitInfo | None = None
    evidence_key: tuple[str, str] | None = None  # (session id, evidence) for transcript episodes
    unresolved: bool = False
    withheld: str = ""  # what the secret gate found in the source that the fields no longer show


def commit_candidates(config: Config, shas: Sequence[str]) -> Iterator[Candidate]:
    """One candidate per memory trailer of each commit."""
    session = env_session_id()
    memory_dirs = tuple(w.storage_dir.rstrip("/") + "/" for w in config.worlds)
    for info in read_commits(config.root, list(shas)):
        memories = trailer_memories(info.message)
        if not memories:
            continue
        files = [f for f in changed_files(config.root, info.sha) if not f.startswith(memory_dirs) and f != CONFIG_NAME]
        withheld = _split_secret(config, info.message, memories)
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
            about = [f for f in files if not _bookkeeping(config, f)]
            if about:
                fields["artifacts"] = about[:ARTIFACT_LIMIT]
            yield Candidate(f"commit {info.sha[:12]} {cat.name.capitalize()}:", fields, commit=info, withheld=withheld)


def _split_secret(config: Config, message: str, memories: Sequence[dict[str, Any]]) -> str:
    """The kinds of secret the message holds that its unfolded trailers hide (a token cut by a continuation
    line reads as two words once unfolded): every memory of such a commit is withheld, never written."""
    from loa_memory.secrets.gate import configured_hits

    trailers = re.split(r"\n[ \t]*\n", message.strip("\n"))[-1]  # git reads trailers in the last paragraph
    hits = configured_hits(config, trailers)
    if not hits:
        return ""
    seen = {hit.digest for memory in memories for hit in configured_hits(config, " ".join(map(str, memory.values())))}
    hidden = sorted({hit.description for hit in hits if hit.digest not in seen})
    return ", ".join(hidden)


def transcript_candidates(config: Config, transcript: Transcript, session_id: str | None = None,
                          moment: datetime | None = None) -> Iterator[Candidate]:
    """One episode candidate per cue in the transcript (timed by its turn, else ``moment``)."""
    session = session_id or transcript.session_id
    shown = _shown_path(config.root, transcript.path)
    for cue in detect(transcript.turns, transcript.calls, lambda: likeness_for(config)):
        quote = cue.evidence[0]
        content = quote if cue.kind != "error" else f"{cue.fields['error']}\nResolution: {cue.fields.get('resolution')}"
        gist = summarise(str(cue.fields.get("lesson") or quote))
        fields: dict[str, Any] = {
            "category": "episode",
            "summary": clip(f"{_LABEL[cue.kind]}: {gist}"),
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
        for key in ("trigger", "resolution"):  # the agent's command or answer may hold a token: withhold only that
            if cue.kind == "correction" and key in fields:
                fields[key] = _scrub(config, fields[key])
        yield Candidate(f"{shown}:{cue.turn.line}", fields, evidence_key=(session, evidence_text(cue.evidence)),
                        unresolved=not cue.resolved)


TRACE_ACTION = "task"


def trace_candidates(config: Config, transcript: Transcript, session_id: str | None = None,
                     moment: datetime | None = None) -> Iterator[Candidate]:
    """One episode per task of the transcript, carrying its trace (see ``capture/trace.py``).

    Values that hold a secret or personal data are withheld (replaced by a note naming the kind), so the
    rest of the trace is kept. ``commit`` is HEAD when HEAD was committed after the task began.
    """
    session = session_id or transcript.session_id
    shown = _shown_path(config.root, transcript.path)
    cwd = transcript.cwd or str(config.root)
    head = _head(config)
    for task in split_tasks(transcript):
        fields = _scrub(config, trace_fields(task, cwd))
        when = _when_text(task.timestamp, moment)
        fields.update({
            "category": "episode", "session_id": session, "action_types": [TRACE_ACTION], "tags": ["task-trace"],
            "confidence": 0.8,
            "evidence": [fields["goal"]],
            "source": {"session_id": session, "agent": TRANSCRIPT_AGENT, "timestamp": when, "transcript": shown,
                       "line_range": f"{task.line}-{max(task.end, task.line)}", "capture": "trace"},
        })
        if head is not None and (parse_time(head.time) or now_utc()) >= (parse_time(when) or now_utc()):
            fields["commit"] = head.sha
        yield Candidate(f"{shown}:{task.line}", fields, evidence_key=(session, evidence_text([fields["goal"]])))


def _head(config: Config) -> CommitInfo | None:
    sha = git.head_commit(config.root)
    return read_commits(config.root, [sha])[0] if sha else None


def _scrub(config: Config, value: Any) -> Any:
    """``value`` with every string that holds a secret or personal data replaced by a note of the kind."""
    if isinstance(value, dict):
        return {key: _scrub(config, item) for key, item in value.items()}
    if isinstance(value, list):
        return [_scrub(config, item) for item in value]
    if not isinstance(value, str):
        return value
    from loa_memory.secrets.gate import configured_hits

    hits = configured_hits(config, value)
    return f"[withheld: {', '.join(sorted({h.description for h in hits}))}]" if hits else value


def _when_text(stamp: str | None, fallback: datetime | None) -> str:
    return format_time(parse_time(stamp or "") or fallback or now_utc())


def evidence_text(quotes: Iterable[object]) -> str:
    """The key an episode's evidence is compared by: the quotes joined, whitespace and case folded."""
    return re.sub(r"\s+", " ", " | ".join(map(str, quotes))).strip().casefold()


def _when(cue: Cue, fallback: datetime | None) -> str:
    return _when_text(cue.turn.timestamp, fallback)


def _shown_path(root: Path, path: Path) -> str:
    """The transcript's path as recorded: relative to the repository, else with the home folder as ``~``."""
    resolved = path.resolve()
    with contextlib.suppress(ValueError):
        return resolved.relative_to(root.resolve()).as_posix()
    with contextlib.suppress(ValueError, RuntimeError):
        return "~/" + resolved.relative_to(Path.home().resolve()).as_posix()
    return resolved.as_posix()


def _bookkeeping(config: Config, path: str) -> bool:
    """Files a memory is never *about*: the memory files themselves, the config, .gitattributes."""
    if path in (".loa.config.yaml", ".gitattributes", ".gitignore"):
        return True
    return any(path.startswith(world.storage_dir.rstrip("/") + "/") for world in config.worlds)
