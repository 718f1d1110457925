"""``graduate``: a cue that keeps firing and being followed becomes a project convention.

A correction or preference is *eligible* when it fired in at least ``lifecycle.graduate_min_sessions``
distinct sessions (``recall`` logs each firing in the local usage log; ``--track`` applications and
``feedback`` count too) and its committed ``effectiveness`` shows it was followed: at least
``lifecycle.graduate_min_successes`` successes and a score of at least ``lifecycle.graduate_min_score``.
``force`` graduates an ineligible cue anyway (the numbers are still reported).

``as_="procedure"`` writes ``procedures/<slug>.md`` (the convention, why, ``derived_from`` the cue);
``as_="lint-rule"`` writes a rule stub at ``to`` (see ``graduate_stubs``). Either way the cue gets one new
line, ``graduated_to: <the procedure's id or the stub's path>``, in the same transaction. Without
``apply`` nothing is written: the result is the proposal, with the exact texts that would be written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from loa_memory.errors import NotEligible, UsageError
from loa_memory.lifecycle.graduate_stubs import lint_stub, procedure_fields, stub_kind
from loa_memory.model import Entry
from loa_memory.secrets.gate import check_secrets
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire
from loa_memory.store.local.events import cue_history, read_events
from loa_memory.store.save import Changeset
from loa_memory.store.times import now_utc
from loa_memory.write.add import complete_entry, loaded_for_writing, markdown_text, stage_new

GraduateAs = Literal["procedure", "lint-rule"]
CUE_CATEGORIES = ("correction", "preference")


@dataclass
class Eligibility:
    """The numbers graduation is decided on, the thresholds, and what falls short."""

    fired_sessions: int
    applications: int
    successes: int
    score: int | None
    min_sessions: int
    min_successes: int
    min_score: int
    shortfalls: list[str] = field(default_factory=list)

    @property
    def eligible(self) -> bool:
        return not self.shortfalls

    def evidence(self) -> str:
        """How the procedure says it came to be."""
        score = "unscored" if self.score is None else f"score {self.score}"
        record = f"{self.successes} successes in {self.applications} applications, {score}"
        if self.eligible:
            return f"after it fired in {self.fired_sessions} sessions and was followed ({record})"
        return f"by decision (--force) before meeting the thresholds: it had fired in {self.fired_sessions} " \
               f"sessions ({record})"


@dataclass
class Graduation:
    """A proposal (``applied`` false) or what was written."""

    cue: Entry
    as_: GraduateAs
    eligibility: Eligibility
    pointer: str
    applied: bool = False
    forced: bool = False
    writes: list[dict[str, Any]] = field(default_factory=list)  # {path, kind, text}
    procedure: dict[str, Any] | None = None


def eligibility(config: Config, entry: Entry, events: list[dict[str, Any]] | None = None) -> Eligibility:
    """How ready ``entry`` is to graduate (``events``: the usage log, read if not given)."""
    section = config.lifecycle
    history = cue_history(read_events(config.local_dir) if events is None else events)
    eff = entry.effectiveness
    result = Eligibility(len(history.fired_sessions(entry.id, entry.aliases)), eff.applications, eff.successes,
                         eff.score, int(section.graduate_min_sessions),
                         int(section.graduate_min_successes), int(section.graduate_min_score))
    if result.fired_sessions < result.min_sessions:
        result.shortfalls.append(f"fired in {result.fired_sessions} of the {result.min_sessions} sessions needed "
                                 "(lifecycle.graduate_min_sessions; counted from this machine's .loa/usage.jsonl)")
    if result.successes < result.min_successes:
        result.shortfalls.append(f"{result.successes} recorded successes, {result.min_successes} needed "
                                 "(`loa-memory feedback ... --outcome success`, then `loa-memory score`)")
    if eff.score is None or eff.score < result.min_score:
        result.shortfalls.append(f"effectiveness score {'none' if eff.score is None else eff.score}, "
                                 f"{result.min_score} needed (lifecycle.graduate_min_score)")
    return result


def _check_cue(grimoire: Grimoire, entry: Entry) -> None:
    if entry.category not in CUE_CATEGORIES:
        raise UsageError(f"{entry.id} is a {entry.category}; only corrections and preferences graduate",
                         hint="`loa-memory list --category correction` shows the cues")
    if entry.graduated_to:
        raise UsageError(f"{entry.id} already graduated to {entry.data['graduated_to']}",
                         hint="nothing to do; `loa-memory show` it to see where its lesson lives")
    status = grimoire.status(entry)
    if status != "active":
        raise UsageError(f"{entry.id} is {status}; only active cues graduate",
                         hint="graduate its current successor instead" if status == "superseded" else None)


def _stub_path(config: Config, to: str | None) -> tuple[Path, str]:
    if not to:
        raise UsageError("--as lint-rule needs --to PATH: where to write the rule stub",
                         hint="e.g. --to tools/lint/no-naive-datetimes.yaml (Semgrep) or --to tools/lint/check_x.py")
    path = (config.root / to).resolve() if not Path(to).is_absolute() else Path(to).resolve()
    root = config.root.resolve()
    if root not in path.parents:
        raise UsageError(f"{to} is outside the repository {root}", hint="name a path inside the repository")
    rel = path.relative_to(root).as_posix()
    if any(rel.startswith(w.storage_dir.rstrip("/") + "/") for w in config.worlds) or rel.startswith(".loa/"):
        raise UsageError(f"{rel} is inside a memory folder or .loa/", hint="put the rule with your linter's files")
    stub_kind(rel)
    if path.exists():
        raise UsageError(f"{rel} already exists; loa-memory will not overwrite it", hint="choose another --to path")
    return path, rel


def graduate(config: Config, memory_id: str, *, as_: GraduateAs = "procedure", to: str | None = None,
             apply: bool = False, force: bool = False, moment: datetime | None = None) -> Graduation:
    """Propose (or with ``apply`` write) the graduation of one cue; see the module docstring."""
    with loaded_for_writing(config, write=apply) as grimoire:
        cue = grimoire.get(memory_id)
        _check_cue(grimoire, cue)
        ready = eligibility(config, cue)
        if not ready.eligible and not force:
            raise NotEligible(f"{cue.id} is not ready to graduate: {'; '.join(ready.shortfalls)}",
                              path=cue.path, line=cue.line,
                              hint="let it fire and be followed longer, or pass --force to graduate it anyway")
        changes = Changeset(config, grimoire)
        result = Graduation(cue, as_, ready, "", applied=apply, forced=not ready.eligible)
        if as_ == "procedure":
            data = complete_entry(config, procedure_fields(cue, ready.evidence()), grimoire.ids(), moment or now_utc())
            written = stage_new(changes, data, cue.world)
            result.pointer, result.procedure = data["id"], data
            result.writes.append({"path": written.path, "kind": "procedure", "text": markdown_text(data)})
        else:
            path, rel = _stub_path(config, to)
            text = lint_stub(cue, rel)
            check_secrets(config, text, rel, 1)
            changes.write(path, text)
            result.pointer = rel
            result.writes.append({"path": rel, "kind": "lint-rule", "text": text})
        changes.patch(config.root / cue.path, cue.line, {"graduated_to": result.pointer})
        result.writes.append({"path": cue.path, "kind": "patch", "line": cue.line,
                              "text": f"graduated_to: {result.pointer}"})
        if apply:
            changes.commit()
    return result


def graduation_record(result: Graduation) -> dict[str, Any]:
    """The stable JSON shape of ``graduate MEM-...`` (schemas/output/graduate.schema.json, ``mode: cue``)."""
    ready = result.eligibility
    return {
        "mode": "cue", "applied": result.applied, "id": result.cue.id, "category": result.cue.category,
        "summary": result.cue.summary, "as": result.as_, "pointer": result.pointer, "forced": result.forced,
        "eligibility": {"eligible": ready.eligible, "fired_sessions": ready.fired_sessions,
                        "applications": ready.applications, "successes": ready.successes, "score": ready.score,
                        "min_sessions": ready.min_sessions, "min_successes": ready.min_successes,
                        "min_score": ready.min_score, "shortfalls": ready.shortfalls},
        "writes": result.writes, "procedure": result.procedure,
    }
