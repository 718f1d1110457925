"""Meta-cues: when several active corrections share a domain, one cue that names the pattern.

A *domain* is a set of at least ``lifecycle.meta_cue_min_corrections`` (default 3) active corrections that
guard the same action type of the task taxonomy (``datetime``, ``schema-change``... read from the trigger),
share a tag, or whose triggers are close in meaning (greedy clustering as ``promote`` does, cosine at
least ``lifecycle.meta_cue_similarity``). Larger domains win; a domain inside a larger one is dropped.

The proposal is a correction: "datetime handling has caused bugs here three times: <lesson>; ...", tagged
``meta-cue``, linking every member ``derived_from``. Meta-cues are never members themselves. A domain an
active meta-cue already covers is reported as covered; one that has grown since gets a new meta-cue that
supersedes the old. Nothing is written without ``apply``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from loa_memory.lifecycle.clusters import greedy_clusters
from loa_memory.lifecycle.graduate_stubs import lesson_of, trigger_of
from loa_memory.model import Entry
from loa_memory.search.strategy import actions
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire
from loa_memory.store.save import Changeset
from loa_memory.store.times import now_utc
from loa_memory.write.add import complete_entry, loaded_for_writing, stage_new

META_TAG = "meta-cue"
_NUMBERS = {2: "twice", 3: "three times", 4: "four times", 5: "five times", 6: "six times", 7: "seven times",
            8: "eight times", 9: "nine times", 10: "ten times"}
_ACTION_LABELS = {"datetime": "datetime handling", "schema-change": "schema changes", "data-deletion": "deleting data",
                  "dependency-change": "dependency changes", "credentials": "credentials",
                  "git-history": "rewriting git history", "config-change": "configuration changes",
                  "api-change": "API changes", "infrastructure": "infrastructure changes", "email": "email"}

_COMMON = frozenset("when with from into that this than then there their them they what which while before after "
                    "about every some other using used make makes change changes code file files the and for are "
                    "was not but all any can its our use new add get set put run one two".split())


@dataclass
class Domain:
    """Corrections that share a domain, how it was found, and what exists for it already."""

    name: str
    label: str
    basis: str  # action | tag | similar
    members: list[Entry]
    covered_by: str | None = None  # an active meta-cue that derives from every member
    replaces: str | None = None  # an active meta-cue of a subset of the members, superseded by the new one
    proposal: dict[str, Any] | None = None


@dataclass
class MetaReport:
    applied: bool
    min_corrections: int
    domains: list[Domain] = field(default_factory=list)
    written: list[dict[str, Any]] = field(default_factory=list)


def _is_meta(entry: Entry) -> bool:
    return META_TAG in entry.tags


def _sources(entry: Entry) -> set[str]:
    return set(entry.linked("derived_from"))


def find_domains(config: Config, grimoire: Grimoire, minimum: int, threshold: float,
                 progress: Callable[[int, int], None] | None = None,
                 say: Callable[[str], None] | None = None) -> list[Domain]:
    """Domains of at least ``minimum`` active corrections, largest first, none inside another (``progress`` hears
    the triggers being embedded, ``say`` the model being prepared: the seconds this takes are not silent)."""
    active = [e for e in grimoire.entries if e.category == "correction" and grimoire.status(e) == "active"]
    cues = [e for e in active if not _is_meta(e)]
    candidates: list[Domain] = []
    by_action: dict[str, list[Entry]] = defaultdict(list)
    by_tag: dict[str, list[Entry]] = defaultdict(list)
    for entry in cues:
        for action in actions(trigger_of(entry)):  # what the cue guards; lessons mention tests, caches... in passing
            by_action[action].append(entry)
        for tag in entry.tags:
            by_tag[tag].append(entry)
    candidates += [Domain(a, _ACTION_LABELS.get(a, a.replace("-", " ")), "action", m) for a, m in by_action.items()]
    candidates += [Domain(t, t.replace("-", " "), "tag", m) for t, m in by_tag.items()]
    if len(cues) >= minimum:
        from loa_memory.search.retriever import Retriever

        retriever = Retriever(config, grimoire, progress, waits=True, say=say)
        vectors = retriever.vectors([trigger_of(e) for e in cues], cache=True)
        for members in greedy_clusters(vectors, threshold):
            group = [cues[n] for n in members]
            candidates.append(Domain(f"similar-{group[0].id.lower()}", _shared_words(group), "similar", group))
    kept: list[Domain] = []
    order = {"action": 0, "tag": 1, "similar": 2}
    for domain in sorted(candidates, key=lambda d: (-len(d.members), order[d.basis], d.name)):
        ids = {e.id for e in domain.members}
        if len(ids) >= minimum and not any(ids <= {e.id for e in k.members} for k in kept):
            kept.append(domain)
    metas = [e for e in active if _is_meta(e)]
    for domain in kept:
        ids = {e.id for e in domain.members}
        domain.covered_by = next((m.id for m in metas if ids <= _sources(m)), None)
        domain.replaces = next((m.id for m in metas if _sources(m) < ids and domain.name in m.tags), None)
    return kept


def _shared_words(group: list[Entry]) -> str:
    """What a cluster's triggers have in common (uncommon words in every one), else the first trigger."""
    words = [re.findall(r"[a-z][a-z0-9_-]{2,}", trigger_of(e).lower()) for e in group]
    shared = [w for w in dict.fromkeys(words[0]) if w not in _COMMON and all(w in other for other in words[1:])]
    return " ".join(shared[:3]) if shared else f"\"{trigger_of(group[0])}\""


def meta_fields(domain: Domain) -> dict[str, Any]:
    """The meta-cue a domain becomes (before ``complete_entry``)."""
    count = len(domain.members)
    times = _NUMBERS.get(count, f"{count} times")
    lessons = "; ".join(f"{lesson_of(e)} ({e.id})" for e in domain.members)
    headline = f"{domain.label[0].upper()}{domain.label[1:]} has caused bugs here {times}"
    return {
        "category": "correction", "summary": headline,
        "content": "\n".join([f"{domain.label} has caused bugs here {times}:"]
                             + [f"- {e.id}: {e.summary or e.content}" for e in domain.members]),
        "trigger": f"work on {domain.label} ({'; '.join(trigger_of(e) for e in domain.members)})",
        "lesson": f"{domain.label} has caused bugs here {times}: {lessons}",
        "confidence": round(max(0.7, sum(e.confidence for e in domain.members) / count), 2),
        "tags": [domain.name, META_TAG] if domain.basis != "similar" else [META_TAG],
        "links": [{"to": e.id, "relation": "derived_from"} for e in domain.members],
        "source": {"agent": "graduate", "capture": "meta-cue"},
    }


def propose_meta(config: Config, *, apply: bool = False, world: str | None = None, moment: datetime | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 say: Callable[[str], None] | None = None) -> MetaReport:
    """Find the domains and propose (or with ``apply`` write) a meta-cue for each one not yet covered."""
    section = config.lifecycle
    minimum = int(section.meta_cue_min_corrections)
    report = MetaReport(apply, minimum)
    with loaded_for_writing(config, write=apply) as grimoire:
        report.domains = find_domains(config, grimoire, minimum, float(section.meta_cue_similarity), progress, say)
        used = grimoire.ids()
        changes = Changeset(config, grimoire)
        for domain in report.domains:
            if domain.covered_by:
                continue
            fields = meta_fields(domain)
            if domain.replaces:
                fields["supersedes"] = domain.replaces
            data = complete_entry(config, fields, used, moment or now_utc())
            used.add(data["id"])
            domain.proposal = data
            if domain.replaces:
                old = grimoire.by_id[domain.replaces]
                changes.patch(config.root / old.path, old.line, {"superseded_by": data["id"]})
            written = stage_new(changes, data, config.world(world).name)
            report.written.append({"id": data["id"], "path": written.path, "line": written.line})
        if apply and report.written:
            changes.commit()
    return report


def meta_record(report: MetaReport) -> dict[str, Any]:
    """The stable JSON shape of ``graduate --meta`` (schemas/output/graduate.schema.json, ``mode: meta``)."""
    return {
        "mode": "meta", "applied": report.applied, "min_corrections": report.min_corrections,
        "domains": [{"domain": d.name, "label": d.label, "basis": d.basis, "corrections": [e.id for e in d.members],
                     "summaries": [e.summary for e in d.members], "covered_by": d.covered_by,
                     "supersedes": d.replaces, "proposal": d.proposal} for d in report.domains],
        "written": report.written if report.applied else [],
    }
