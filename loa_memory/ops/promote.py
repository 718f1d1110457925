"""``promote``: episodic → semantic when the same cue recurs across sessions.

Active episodes whose ``action_types`` include correction, preference, decision or error are embedded by
their cue text (a correction's trigger and lesson, else the content) and clustered greedily, per kind, by
cosine similarity to each cluster's centroid (``lifecycle.similarity_threshold``). A cluster whose episodes
come from at least ``lifecycle.promotion_min_sessions`` distinct sessions, and none of whose episodes a
non-episode entry already ``derived_from``-links to, becomes one entry of that category, built from the
most central episode and linking every source episode with ``relation: derived_from``. Everything one run
promotes is written in one transaction under the lock; ``dry_run`` writes nothing.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

from ..model import Entry
from ..store.config import Config
from ..store.load import Grimoire, load_grimoire
from ..store.lock import locked
from ..store.save import Changeset
from ..store.times import now_utc
from .runs import record_run
from .write import complete_entry, recover, refuse_if_broken, stage_new, summarise

KINDS = ("correction", "preference", "decision", "error")
_COPIED = {"correction": ("trigger", "lesson"), "preference": (), "decision": ("rationale", "alternatives", "context"),
           "error": ("error", "resolution")}


@dataclass
class Cluster:
    kind: str
    episodes: list[Entry] = field(default_factory=list)
    vectors: list[Any] = field(default_factory=list)
    promoted_as: str | None = None  # the id of an existing entry derived from one of its episodes

    @property
    def sessions(self) -> list[str]:
        return sorted({session_of(e) for e in self.episodes})

    def centroid(self) -> Any:
        mean = np.mean(np.asarray(self.vectors, dtype=np.float32), axis=0)
        norm = float(np.linalg.norm(mean))
        return mean / norm if norm else mean

    def central(self) -> Entry:
        """The episode closest to all the others (the first, on a tie)."""
        matrix = np.asarray(self.vectors, dtype=np.float32)
        totals = (matrix @ matrix.T).sum(axis=1)
        return self.episodes[int(np.argmax(totals))]


@dataclass
class PromoteReport:
    dry_run: bool = False
    promoted: list[dict[str, Any]] = field(default_factory=list)
    already_promoted: list[dict[str, Any]] = field(default_factory=list)
    below_threshold: list[dict[str, Any]] = field(default_factory=list)
    considered: int = 0
    threshold: float = 0.0
    min_sessions: int = 0
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"dry_run": self.dry_run, "considered": self.considered, "similarity_threshold": self.threshold,
                "min_sessions": self.min_sessions, "promoted": self.promoted,
                "already_promoted": self.already_promoted, "below_threshold": self.below_threshold,
                "warnings": self.warnings}


def session_of(entry: Entry) -> str:
    source = entry.data.get("source")
    from_source = source.get("session_id") if isinstance(source, dict) else None
    return str(entry.data.get("session_id") or from_source or entry.id)


def kind_of(entry: Entry) -> str | None:
    types = entry.data.get("action_types")
    if entry.category != "episode" or not isinstance(types, list):
        return None
    return next((str(t) for t in types if t in KINDS), None)


def cue_text(entry: Entry, kind: str) -> str:
    if kind == "correction" and (entry.data.get("trigger") or entry.data.get("lesson")):
        return f"{entry.data.get('trigger') or ''}\n{entry.data.get('lesson') or ''}".strip()
    return entry.content.strip()


def cluster_episodes(config: Config, grimoire: Grimoire, threshold: float,
                     warnings: list[str] | None = None) -> list[Cluster]:
    """Active cue episodes, clustered greedily (oldest first) per kind by cosine to a cluster's centroid."""
    from ..retrieve.search import Retriever

    episodes = sorted(((e, k) for e in grimoire.entries if (k := kind_of(e)) and grimoire.status(e) == "active"),
                      key=lambda pair: (pair[0].timestamp, pair[0].id))
    if not episodes:
        return []
    retriever = Retriever(config, grimoire)
    matrix = retriever.vectors([cue_text(e, k) for e, k in episodes], cache=True)
    if warnings is not None:
        warnings.extend(retriever.warnings)
    clusters: list[Cluster] = []
    for members in greedy_clusters(matrix, threshold, [kind for _, kind in episodes]):
        cluster = Cluster(episodes[members[0]][1])
        cluster.episodes = [episodes[n][0] for n in members]
        cluster.vectors = [matrix[n] for n in members]
        clusters.append(cluster)
    derived = {str(link.get("to")): e.id for e in grimoire.entries if e.category != "episode"
               for link in e.data.get("links") or []
               if isinstance(link, dict) and link.get("relation") == "derived_from"}
    for cluster in clusters:
        cluster.promoted_as = next((derived[e.id] for e in cluster.episodes if e.id in derived), None)
    return clusters


def greedy_clusters(vectors: Any, threshold: float, groups: list[str] | None = None) -> list[list[int]]:
    """Indexes of ``vectors`` (unit rows) clustered greedily in order: each joins the cluster (of its own
    group) whose centroid is closest, if the cosine reaches ``threshold``; else it starts one."""
    clusters: list[tuple[str, list[int]]] = []
    centroids: list[Any] = []
    for number, vector in enumerate(vectors):
        group = groups[number] if groups else ""
        best, best_score = -1, threshold
        for position, (kind, _members) in enumerate(clusters):
            score = float(np.dot(centroids[position], vector))
            if kind == group and score >= best_score:
                best, best_score = position, score
        if best < 0:
            clusters.append((group, []))
            centroids.append(vector)
            best = len(clusters) - 1
        members = clusters[best][1]
        members.append(number)
        mean = np.mean(np.asarray([vectors[n] for n in members], dtype=np.float32), axis=0)
        norm = float(np.linalg.norm(mean))
        centroids[best] = mean / norm if norm else mean
    return [members for _, members in clusters]


def promoted_fields(config: Config, cluster: Cluster) -> dict[str, Any]:
    """The fields of the semantic entry a cluster becomes (before ``complete_entry``)."""
    cat = config.category(cluster.kind)
    central = cluster.central()
    content = central.content or cue_text(central, cluster.kind)
    gist = summarise(str(central.data.get("lesson") or content))
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
    return fields


def _describe(cluster: Cluster) -> dict[str, Any]:
    central = cluster.central()
    return {"kind": cluster.kind, "summary": central.summary or summarise(central.content),
            "episodes": [e.id for e in cluster.episodes], "sessions": cluster.sessions}


def promote(config: Config, *, dry_run: bool = False, world: str | None = None,
            moment: datetime | None = None) -> PromoteReport:
    """Promote recurring episode clusters; see the module docstring."""
    section = config.section("lifecycle")
    threshold = float(section.get("similarity_threshold", 0.7))
    min_sessions = int(section.get("promotion_min_sessions", 3))
    report = PromoteReport(dry_run=dry_run, threshold=threshold, min_sessions=min_sessions)
    world_name = config.world(world).name
    guard = contextlib.nullcontext() if dry_run else locked(config.local_dir)
    with guard:
        if not dry_run:
            recover(config)
        grimoire = load_grimoire(config)
        refuse_if_broken(grimoire)
        clusters = cluster_episodes(config, grimoire, threshold, report.warnings)
        report.considered = sum(len(c.episodes) for c in clusters)
        used = grimoire.ids()
        changes = Changeset(config, grimoire)
        for cluster in clusters:
            described = _describe(cluster)
            if cluster.promoted_as:
                report.already_promoted.append({**described, "id": cluster.promoted_as})
            elif len(cluster.sessions) < min_sessions:
                if len(cluster.episodes) > 1 or min_sessions <= 1:
                    report.below_threshold.append(described)
            else:
                data = complete_entry(config, promoted_fields(config, cluster), used, moment or now_utc())
                written = stage_new(changes, data, world_name)
                used.add(data["id"])
                report.promoted.append({**described, "id": data["id"], "category": data["category"],
                                        "summary": data["summary"], "path": written.path, "line": written.line,
                                        "entry": data})
        if not dry_run and report.promoted:
            changes.commit()
    if not dry_run:
        record_run(config, "promote", {"promoted": len(report.promoted), "considered": report.considered,
                                       "below_threshold": len(report.below_threshold)})
    return report
