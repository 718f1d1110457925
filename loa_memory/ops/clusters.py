"""Clusters of similar episodes (or of items inside episodes), as ``promote`` builds them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..model import Entry


def session_of(entry: Entry) -> str:
    source = entry.data.get("source")
    from_source = source.get("session_id") if isinstance(source, dict) else None
    return str(entry.data.get("session_id") or from_source or entry.id)


@dataclass
class Cluster:
    """Similar cues: the episodes they come from (with ``slots``, the index of the item inside each
    episode that the cue is, e.g. ``errors[1]``), their unit vectors, and an entry already made of them."""

    kind: str
    episodes: list[Entry] = field(default_factory=list)
    vectors: list[Any] = field(default_factory=list)
    promoted_as: str | None = None  # the id of an existing entry derived from one of its episodes
    slots: list[int] = field(default_factory=list)

    @property
    def sessions(self) -> list[str]:
        return sorted({session_of(e) for e in self.episodes})

    def centroid(self) -> Any:
        mean = np.mean(np.asarray(self.vectors, dtype=np.float32), axis=0)
        norm = float(np.linalg.norm(mean))
        return mean / norm if norm else mean

    def central_index(self) -> int:
        """The position of the member closest to all the others (the first, on a tie)."""
        matrix = np.asarray(self.vectors, dtype=np.float32)
        totals = (matrix @ matrix.T).sum(axis=1)
        return int(np.argmax(totals))

    def central(self) -> Entry:
        """The episode closest to all the others (the first, on a tie)."""
        return self.episodes[self.central_index()]


def greedy(items: Sequence[tuple[Entry, str, int]], matrix: Any, threshold: float) -> list[Cluster]:
    """Cluster ``(episode, kind, slot)`` items in order: each joins the cluster of its kind whose centroid
    is most similar (cosine ≥ ``threshold``), else starts a new one."""
    clusters: list[Cluster] = []
    for (entry, kind, slot), vector in zip(items, matrix, strict=True):
        best, best_score = None, threshold
        for cluster in clusters:
            if cluster.kind != kind:
                continue
            score = float(np.dot(cluster.centroid(), vector))
            if score >= best_score:
                best, best_score = cluster, score
        if best is None:
            best = Cluster(kind)
            clusters.append(best)
        best.episodes.append(entry)
        best.vectors.append(vector)
        best.slots.append(slot)
    return clusters
