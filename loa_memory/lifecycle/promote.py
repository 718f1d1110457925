"""``promote``: episodic → semantic when the same cue recurs across sessions.

Active episodes whose ``action_types`` include correction, preference, decision or error are embedded by
their cue text (a correction's trigger and lesson, else the content) and clustered greedily, per kind, by
cosine similarity to each cluster's centroid (``lifecycle.similarity_threshold``). A cluster whose episodes
come from at least ``lifecycle.promotion_min_sessions`` distinct sessions, and none of whose episodes a
non-episode entry already ``derived_from``-links to, becomes one entry of that category, built from the
most central episode and linking every source episode with ``relation: derived_from``. Everything one run
promotes is written in one transaction under the lock; ``dry_run`` writes nothing. Error/resolution pairs
that recur in task traces become corrections the same way (``lifecycle/antipatterns.py``). Each world is
promoted on its own: its episodes become entries of the same world.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from loa_memory.capture.corrections import content_words
from loa_memory.lifecycle import antipatterns
from loa_memory.lifecycle.clusters import Cluster, average_link, greedy, session_of, trimmed
from loa_memory.model import CAPTURED_KINDS, Entry
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire
from loa_memory.store.local.runs import record_run
from loa_memory.store.save import Changeset
from loa_memory.store.times import now_utc
from loa_memory.write.add import complete_entry, loaded_for_writing, stage_new, summarise

_COPIED = {"correction": ("trigger", "lesson"), "preference": (), "decision": ("rationale", "alternatives", "context"),
           "error": ("error", "resolution")}


@dataclass
class PromoteReport:
    dry_run: bool = False
    promoted: list[dict[str, Any]] = field(default_factory=list)
    already_promoted: list[dict[str, Any]] = field(default_factory=list)
    below_threshold: list[dict[str, Any]] = field(default_factory=list)
    considered: int = 0
    threshold: float = 0.0
    correction_threshold: float = 0.0
    min_sessions: int = 0
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"dry_run": self.dry_run, "considered": self.considered, "similarity_threshold": self.threshold,
                "correction_similarity": self.correction_threshold, "min_sessions": self.min_sessions,
                "promoted": self.promoted,
                "already_promoted": self.already_promoted, "below_threshold": self.below_threshold,
                "warnings": self.warnings}


def kind_of(entry: Entry) -> str | None:
    if entry.category != "episode":
        return None
    return next((t for t in entry.action_types if t in CAPTURED_KINDS), None)


def cue_text(entry: Entry, kind: str) -> str:
    """What an episode is compared by: a correction's lesson (what the user said to do; its trigger, what the
    agent happened to be doing, differs from one session to the next), else its content. Not the agent's answer
    (``resolution``): in one repository its words are mostly the project's, and it joined other lessons' wordings
    (blind transcript sets 13, 14, 17 and 18: 16 of 32 groups with it, 18 without)."""
    if kind == "correction" and (entry.trigger or entry.lesson):
        return (entry.lesson or entry.trigger).strip()
    return entry.content.strip()


_ACTION_TRIGGER = re.compile(r"^[A-Z][A-Za-z]+: \S")  # a tool call, as capture describes one
SHARED_WORD_BONUS = 0.08
SHARED_WORDS_COUNTED = 3
TRIM_FLOOR = 0.55  # a correction nearer than this on average to the rest of its cluster leaves it (``trimmed``);
# two cues each said in enough sessions merge only this near (``average_link``)


def correction_similarity(texts: list[str], matrix: Any, recurrence: int = 3) -> Any:
    """Pairwise similarity of correction lessons: the cosine of their vectors plus ``SHARED_WORD_BONUS`` for
    each content word (stemmed, common words left out) they share, up to ``SHARED_WORDS_COUNTED`` words. The same
    correction said in other words keeps its nouns ("card numbers", "the logger", "vault") more often than
    its wording, and the cosine of two paraphrased lessons is low (0.39-0.81 with MPNet on the tuning set).
    A word found in more lessons than one cue needs to recur (``recurrence``, the sessions promotion asks
    for) is shared by several cues ("test", "config"), and counts for ``recurrence / lessons holding it``."""
    words = [content_words(text) for text in texts]
    held = Counter(word for found in words for word in found)
    weight = {word: min(1.0, recurrence / count) for word, count in held.items()}
    shared = np.array([[sum(sorted((weight[w] for w in a & b), reverse=True)[:SHARED_WORDS_COUNTED]) for b in words]
                       for a in words], dtype=np.float64)
    vectors = np.asarray(matrix, dtype=np.float64)
    return vectors @ vectors.T + SHARED_WORD_BONUS * shared


def cluster_episodes(config: Config, grimoire: Grimoire, threshold: float,
                     warnings: list[str] | None = None, world: str | None = None,
                     progress: Callable[[int, int], None] | None = None) -> list[Cluster]:
    """Active cue episodes (of ``world``, default all), clustered greedily (oldest first) per kind by cosine
    to a cluster's centroid."""
    from loa_memory.search.retriever import Retriever

    episodes = sorted(((e, k) for e in grimoire.entries if (k := kind_of(e)) and grimoire.status(e) == "active"
                       and (world is None or e.world == world)),
                      key=lambda pair: (pair[0].timestamp, pair[0].id))
    if not episodes:
        return []
    retriever = Retriever(config, grimoire, progress, waits=True)
    matrix = retriever.vectors([cue_text(e, k) for e, k in episodes], cache=True)
    if warnings is not None:
        warnings.extend(retriever.warnings)
    others = [n for n, (_e, kind) in enumerate(episodes) if kind != "correction"]
    clusters = greedy([(episodes[n][0], episodes[n][1], 0) for n in others], matrix[others], threshold)
    said = [n for n, (_e, kind) in enumerate(episodes) if kind == "correction"]
    if said:
        min_sessions = int(config.lifecycle.promotion_min_sessions)
        linked = correction_similarity([cue_text(episodes[n][0], "correction") for n in said], matrix[said],
                                       min_sessions)

        def enough(members: list[int]) -> bool:
            return len({session_of(episodes[said[m]][0]) for m in members}) >= min_sessions

        for joined in average_link(linked, float(config.lifecycle.correction_similarity), enough, TRIM_FLOOR):
            kept = trimmed(linked, joined, TRIM_FLOOR, enough) if enough(joined) else joined
            for members in [kept, *([m] for m in joined if m not in kept)]:  # what left stands alone
                clusters.append(Cluster("correction", [episodes[said[m]][0] for m in members],
                                        [matrix[said[m]] for m in members], slots=[0] * len(members)))
    derived = {str(link.get("to")): e.id for e in grimoire.entries if e.category != "episode"
               for link in e.data.get("links") or []
               if isinstance(link, dict) and link.get("relation") == "derived_from"}
    for cluster in clusters:
        cluster.promoted_as = next((derived[e.id] for e in cluster.episodes if e.id in derived), None)
    return clusters


def promoted_fields(config: Config, cluster: Cluster) -> dict[str, Any]:
    """The fields of the semantic entry a cluster becomes (before ``complete_entry``)."""
    cat = config.category(cluster.kind)
    central = cluster.central()
    content = central.content or cue_text(central, cluster.kind)
    gist = summarise(central.lesson or content)
    tags: list[str] = []
    for episode in cluster.episodes:
        tags.extend(t for t in episode.tags if t not in tags)
    confidence = max(cat.min_confidence, sum(e.confidence for e in cluster.episodes) / len(cluster.episodes))
    fields: dict[str, Any] = {
        "category": cat.name, "content": content, "summary": gist, "confidence": round(confidence, 2),
        "source": {"agent": "promote", "capture": "promote"},
        "links": [{"to": e.id, "relation": "derived_from"} for e in cluster.episodes],
    }
    if tags:
        fields["tags"] = tags
    for key in _COPIED[cluster.kind]:
        if central.data.get(key):
            fields[key] = central.data[key]
    if cluster.kind == "correction" and _ACTION_TRIGGER.match(str(fields.get("trigger") or "")):
        # "Write: /srv/shop/threeds.py" is what the agent was doing in one session; a "don't …" clause of
        # another episode says what the lesson guards
        said = [e.trigger for e in cluster.episodes if e.trigger and not _ACTION_TRIGGER.match(e.trigger)]
        if said:
            fields["trigger"] = said[0]
    return fields


def _describe(cluster: Cluster) -> dict[str, Any]:
    central = cluster.central()
    return {"kind": cluster.kind, "summary": central.summary or summarise(central.content),
            "episodes": [e.id for e in cluster.episodes], "sessions": cluster.sessions}


def promote(config: Config, *, dry_run: bool = False, world: str | None = None, moment: datetime | None = None,
            progress: Callable[[int, int], None] | None = None) -> PromoteReport:
    """Promote recurring episode clusters; see the module docstring (``progress`` hears the embedding)."""
    section = config.lifecycle
    threshold = float(section.similarity_threshold)
    min_sessions = int(section.promotion_min_sessions)
    report = PromoteReport(dry_run=dry_run, threshold=threshold, min_sessions=min_sessions,
                           correction_threshold=float(section.correction_similarity))
    worlds = [config.world(world).name] if world else [w.name for w in config.worlds]
    with loaded_for_writing(config, write=not dry_run) as grimoire:
        used = grimoire.ids()
        changes = Changeset(config, grimoire)
        clusters = [(name, cluster) for name in worlds
                    for cluster in [*cluster_episodes(config, grimoire, threshold, report.warnings, name, progress),
                                    *antipatterns.cluster_pairs(config, grimoire, threshold, report.warnings, name,
                                                                progress)]]
        report.considered = sum(len(c.episodes) for _world, c in clusters)
        for world_name, cluster in clusters:
            pairs = cluster.kind == antipatterns.KIND
            described = {**(antipatterns.describe(cluster) if pairs else _describe(cluster)), "world": world_name}
            if cluster.promoted_as:
                report.already_promoted.append({**described, "id": cluster.promoted_as})
            elif len(cluster.sessions) < min_sessions:
                if len(cluster.episodes) > 1 or min_sessions <= 1:
                    report.below_threshold.append(described)
            else:
                fields = antipatterns.correction_fields(config, cluster) if pairs else promoted_fields(config, cluster)
                data = complete_entry(config, fields, used, moment or now_utc())
                written = stage_new(changes, data, world_name)
                used.add(data["id"])
                report.promoted.append({**described, "id": data["id"], "category": data["category"],
                                        "summary": data["summary"], "path": written.path, "line": written.line,
                                        "entry": data})
        report.warnings = list(dict.fromkeys(report.warnings))
        if not dry_run and report.promoted:
            changes.commit()
    if not dry_run:
        record_run(config, "promote", {"promoted": len(report.promoted), "considered": report.considered,
                                       "below_threshold": len(report.below_threshold)})
    return report
