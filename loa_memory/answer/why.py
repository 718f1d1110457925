"""``why``: the decisions and lessons behind a file, a line, or a question.

Path mode (the target is an existing file or folder, optionally ``:LINE`` or ``:START-END``): memories
whose ``artifacts`` or ``source.file_path`` cover it, and memories linked to the commits behind it
(see ``commits``). Question mode (anything else): the hybrid search, with relevant hits only.
Either way decisions come first, then corrections, learnings and the rest; a superseded entry brings
its current successor along, and every result says why it is there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from loa_memory.answer.artifacts import PathTarget, path_matches, resolve_target
from loa_memory.answer.blame import Commit, commits_for, is_same_commit, recorded_commit
from loa_memory.answer.browse import chain
from loa_memory.answer.negative import is_negative_question, negative_match, subject_words
from loa_memory.answer.threads import Thread, threads_of
from loa_memory.errors import UsageError
from loa_memory.model import Entry, headline
from loa_memory.render.problems import problem_records
from loa_memory.search.search import SearchOptions, check_query, search
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire, load_grimoire

Mode = Literal["path", "question"]
CATEGORY_RANK = {"decision": 0, "correction": 1, "learning": 2}
# Question mode keeps a search hit only if it holds most of the question's words or is close in
# meaning, and scores at least this share of the best hit: search ranks every entry with a vector.
RELEVANT_COVERAGE = 0.5
RELEVANT_COSINE = 0.3
RELATIVE_FLOOR = 0.4
_PATHLIKE = re.compile(r"^(?:\S*/\S*|\S+\.[A-Za-z0-9]{1,8}(?::[0-9]+(?:-[0-9]+)?)?)$")


@dataclass(frozen=True)
class Reason:
    """Why one memory is in the answer: ``kind`` is artifact, file_path, commit, search, successor, thread,
    negative (a negative result about what a "why not" question names) or alternative (a decision rejected it)."""

    kind: str
    text: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class WhyItem:
    entry: Entry
    status: str
    reasons: list[Reason] = field(default_factory=list)
    specificity: int = 3  # 0 names the lines, 1 the file, 2 a commit of the file, 3 a folder or glob
    priority: int = 2  # a "why not X" question: 0 a negative result about X, 1 a decision that rejected X


@dataclass
class WhyResult:
    target: str
    mode: Mode
    path: PathTarget | None
    items: list[WhyItem]
    grimoire: Grimoire
    commits: list[Commit] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    not_embedded: int = 0  # entries found by words only: no vector yet (being embedded in the background)
    threads: list[Thread] = field(default_factory=list)


def why(config: Config, target: str, *, worlds: Sequence[str] = (), k: int | None = None,
        cwd: Path | None = None, grimoire: Grimoire | None = None) -> WhyResult:
    """The memories that explain ``target`` (a path, ``PATH:LINE``, or a question), best first.

    ``k`` caps the results (question mode default: ``retrieval.max_per_query``; path mode: all).
    """
    check_query(target, "the target")
    if not target.strip():
        raise UsageError("nothing to explain", hint='loa-memory why PATH[:LINE]  or  loa-memory why "a question"')
    grimoire = grimoire or load_grimoire(config, worlds or None)
    path = resolve_target(config.root, target, cwd)
    if path is not None:
        result = _path_mode(config, grimoire, target, path, worlds)
    else:
        k = k or int(config.retrieval.max_per_query)
        result = _question_mode(config, grimoire, target, worlds, k)
        if _PATHLIKE.match(target.strip()):
            result.warnings.insert(0, f"{target} is not a file or folder in {config.root}; "
                                      "it was answered as a question")
        if is_negative_question(target):
            _add_negative(result, [e for e in grimoire.entries if not worlds or e.world in worlds], target)
    _add_successors(result)
    _add_threads(result)
    _sort(result.items)
    if k is not None:
        result.items = result.items[:k]
    return result


def _add(items: dict[str, WhyItem], grimoire: Grimoire, entry: Entry, reason: Reason, specificity: int) -> None:
    item = items.setdefault(entry.id, WhyItem(entry, grimoire.status(entry)))
    if reason not in item.reasons:
        item.reasons.append(reason)
    item.specificity = min(item.specificity, specificity)


def _path_mode(config: Config, grimoire: Grimoire, target: str, path: PathTarget,
               worlds: Sequence[str]) -> WhyResult:
    items: dict[str, WhyItem] = {}
    hidden: set[str] = set()  # matched, but archived or expired

    def add(entry: Entry, reason: Reason, specificity: int) -> None:
        if grimoire.status(entry) in ("active", "superseded"):
            _add(items, grimoire, entry, reason, specificity)
        else:
            hidden.add(entry.id)

    entries = [e for e in grimoire.entries if not worlds or e.world in worlds]
    for entry in entries:
        for match in path_matches(entry, path):
            where = {"same": "names", "covers": "covers", "inside": "lies inside", "glob": "matches"}[match.relation]
            specificity = 0 if match.line_specific else 1 if match.relation == "same" else 3
            add(entry, Reason(match.kind, f"{match.kind} {match.value} {where} {path}",
                              {match.kind: match.value, "relation": match.relation}), specificity)
    commits = commits_for(config.root, path)
    result = WhyResult(target, "path", path, [], grimoire, commits)
    recorded = [(sha, e) for e in entries if (sha := recorded_commit(e))]
    for commit in commits:
        how = "blamed" if commit.found_by == "blame" else "touched by"
        base = {"commit": commit.sha, "found_by": commit.found_by, "subject": commit.subject}
        specificity = 0 if commit.found_by == "blame" else 2
        for memory_id in commit.memory_ids:
            named = grimoire.by_id.get(memory_id)
            if named is None:
                result.warnings.append(f"commit {commit.sha[:10]} names {memory_id}, which is not in the grimoire")
            else:
                text = f"{how} commit {commit.sha[:10]} ({commit.subject}), whose trailer names it"
                add(named, Reason("commit", text, {**base, "via": "trailer"}), specificity)
        for sha, entry in recorded:
            if is_same_commit(sha, commit.sha):
                text = f"{how} commit {commit.sha[:10]} ({commit.subject}) is its source.commit"
                add(entry, Reason("commit", text, {**base, "via": "source.commit"}), specificity)
    if hidden:
        result.warnings.append(f"{len(hidden)} more matching memor{'y is' if len(hidden) == 1 else 'ies are'} "
                               f"archived or expired: {', '.join(sorted(hidden))} (`loa-memory show ID`)")
    result.items = list(items.values())
    return result


def _question_mode(config: Config, grimoire: Grimoire, question: str, worlds: Sequence[str], k: int) -> WhyResult:
    found = search(config, SearchOptions(question, k=max(3 * k, 20), worlds=worlds), grimoire=grimoire)
    result = WhyResult(question, "question", None, [], grimoire, warnings=list(found.warnings),
                       not_embedded=found.unembedded)
    best = max((hit.score for hit in found.hits), default=0.0)
    for hit in found.hits:
        fused = hit.fused
        if hit.score < RELATIVE_FLOOR * best or not ((fused.coverage or 0.0) >= RELEVANT_COVERAGE
                                                     or (fused.semantic_score or 0.0) >= RELEVANT_COSINE):
            continue
        item = WhyItem(hit.entry, hit.status, [Reason("search", f"matches the question (score {hit.score:.3f})",
                                                      {"score": round(hit.score, 6)})], 1)
        if hit.via:
            item.reasons.append(Reason("successor", f"current entry for {', '.join(hit.via)} (superseded)",
                                       {"of": list(hit.via)}))
        result.items.append(item)
    return result


def _add_successors(result: WhyResult) -> None:
    """Bring in the current successor of every superseded entry found."""
    items = {item.entry.id: item for item in result.items}
    for item in list(result.items):
        if item.status != "superseded":
            continue
        newer = chain(result.grimoire, item.entry)[1]
        current = newer[-1] if newer else None
        if current is None or result.grimoire.status(current) != "active":
            continue
        reason = Reason("successor", f"replaces {item.entry.id}, which matched", {"of": [item.entry.id]})
        _add(items, result.grimoire, current, reason, item.specificity)
        if items[current.id] not in result.items:
            result.items.append(items[current.id])


def _add_negative(result: WhyResult, entries: list[Entry], question: str) -> None:
    """A "why not X" question: negative results about X first, then decisions that rejected X."""
    words = subject_words(question)
    items = {item.entry.id: item for item in result.items}
    for entry in entries:
        match = negative_match(entry, words)
        if match is None or result.grimoire.status(entry) not in ("active", "superseded"):
            continue
        _add(items, result.grimoire, entry, Reason(match.kind, match.text, match.detail), 1)
        item = items[entry.id]
        item.priority = min(item.priority, 0 if match.kind == "negative" else 1)
        if item not in result.items:
            result.items.append(item)


def _add_threads(result: WhyResult) -> None:
    """Every thread a found memory belongs to, whole; members not found yet join with a ``thread`` reason."""
    grimoire = result.grimoire
    result.threads = threads_of(grimoire, [item.entry for item in result.items])
    items = {item.entry.id: item for item in result.items}
    for thread in result.threads:
        found = sorted(thread.ids & set(items))
        for member in thread.members:
            if member.id in items or grimoire.status(member) not in ("active", "superseded"):
                continue
            specificity = min(items[i].specificity for i in found)
            reason = Reason("thread", f"same thread ({thread.name}) as {', '.join(found)}",
                            {"thread": thread.name, "of": found})
            _add(items, grimoire, member, reason, specificity)
            result.items.append(items[member.id])


def _sort(items: list[WhyItem]) -> None:
    """Answers to "why not X" first; then decisions, corrections, learnings, the rest; current before
    superseded; closest reasons first."""
    items.sort(key=lambda i: (i.priority, CATEGORY_RANK.get(i.entry.category, len(CATEGORY_RANK)),
                              i.status != "active", i.specificity))


def item_record(result: WhyResult, item: WhyItem) -> dict[str, Any]:
    """The stable JSON shape of one ``why`` result."""
    grimoire, entry, data = result.grimoire, item.entry, item.entry.data
    older, newer = chain(grimoire, entry)
    alternatives = [{"option": str(a.get("option", "")), "rejected_because": a.get("rejected_because")}
                    for a in data.get("alternatives") or [] if isinstance(a, dict)]
    negative = {key: data[key] for key in ("attempted", "failure_reason", "led_to") if data.get(key)}
    led_to = grimoire.by_id.get(str(data.get("led_to") or ""))
    if led_to is not None:
        negative["led_to_summary"] = headline(led_to)
    return {
        "id": entry.id, "category": entry.category, "world": entry.world, "status": item.status,
        "summary": headline(entry), "path": entry.path, "line": entry.line,
        "reasons": [{"kind": r.kind, "text": r.text, **r.detail} for r in item.reasons],
        "rationale": data.get("rationale"), "alternatives": alternatives, "negative": negative or None,
        "supersedes": [{"id": e.id, "status": grimoire.status(e), "summary": headline(e)} for e in older],
        "superseded_by": newer[-1].id if newer else None,
        "entry": dict(data),
    }


def why_record(result: WhyResult) -> dict[str, Any]:
    """The stable JSON shape of a ``why`` answer (documented in docs/why.md); a secret in the target, which is
    echoed back, is shown redacted."""
    from loa_memory.secrets.redact import redact_text

    return {
        "target": redact_text(result.target), "mode": result.mode, "path": str(result.path) if result.path else None,
        "commits": [{"sha": c.sha, "subject": c.subject, "found_by": c.found_by, "memory_ids": list(c.memory_ids)}
                    for c in result.commits],
        "results": [item_record(result, item) for item in result.items],
        "threads": [{"name": t.name, "members": [
            {"id": e.id, "category": e.category, "status": result.grimoire.status(e), "date": e.timestamp[:10],
             "summary": headline(e), "rationale": e.data.get("rationale")} for e in t.members]}
            for t in result.threads],
        "warnings": result.warnings,
        "multiple_worlds": len(result.grimoire.config.worlds) > 1,
        "problems": problem_records(result.grimoire.unreadable),
        "not_embedded": result.not_embedded,
    }
