"""Clusters of similar episodes (or of items inside episodes), as ``promote`` builds them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from loa_memory.model import Entry


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


def greedy(items: Sequence[tuple[Entry, str, int]], matrix: Any, threshold: float) -> list[Cluster]:
    """Cluster ``(episode, kind, slot)`` items in order (see ``greedy_clusters``; kinds never mix)."""
    clusters: list[Cluster] = []
    for members in greedy_clusters(matrix, threshold, [kind for _, kind, _ in items]):
        cluster = Cluster(items[members[0]][1])
        for n in members:
            cluster.episodes.append(items[n][0])
            cluster.vectors.append(matrix[n])
            cluster.slots.append(items[n][2])
        clusters.append(cluster)
    return clusters


def average_link(similarity: Any, threshold: float, whole: Callable[[list[int]], bool] | None = None,
                 strict: float = 1.0) -> list[list[int]]:
    """Indexes of a square ``similarity`` matrix clustered by average link: the two clusters whose members are
    closest on average merge while that average reaches ``threshold``. Unlike ``greedy_clusters`` the result
    does not depend on the order, so a third wording close to the first two together is not left out because
    it came second. Two clusters that are each ``whole`` already (a cue said in enough sessions) merge only at
    ``strict``: in one repository two lessons about the same files are each a tight cluster of their wordings,
    and near enough on average to join. Clusters come in the order of their first member."""
    matrix = np.asarray(similarity, dtype=np.float64)
    clusters: list[list[int]] = [[n] for n in range(len(matrix))]
    sums = matrix.copy()  # sums[a, b]: total similarity between the members of clusters a and b
    alive = np.ones(len(matrix), dtype=bool)
    complete = np.array([bool(whole and whole(c)) for c in clusters], dtype=bool)
    while alive.sum() > 1:
        sizes = np.array([len(c) for c in clusters], dtype=np.float64)
        average = sums / np.outer(sizes, sizes)
        average[np.outer(complete, complete) & (average < strict)] = -np.inf
        average[~alive, :] = -np.inf
        average[:, ~alive] = -np.inf
        np.fill_diagonal(average, -np.inf)
        a, b = sorted(np.unravel_index(int(np.argmax(average)), average.shape))
        if average[a, b] < threshold:
            break
        clusters[a].extend(clusters[b])
        sums[a, :] += sums[b, :]
        sums[:, a] += sums[:, b]
        alive[b] = False
        complete[a] = bool(whole and whole(clusters[a]))
    return sorted((sorted(clusters[n]) for n in np.flatnonzero(alive)), key=lambda members: members[0])


def trimmed(similarity: Any, members: list[int], floor: float, enough: Callable[[list[int]], bool]) -> list[int]:
    """``members`` of an average-link cluster without the ones that joined it weakly: while the member least
    similar on average to the others stands under ``floor`` and the rest is still ``enough``, it leaves. Average
    link lets a large cluster take one more member that is near only some of its members: in one repository,
    another lesson said about the same files ("`UNLINK` in batches" of the Redis lesson and of the dry-run one)."""
    matrix = np.asarray(similarity, dtype=np.float64)
    kept = list(members)
    while len(kept) > 1:
        block = matrix[np.ix_(kept, kept)]
        means = (block.sum(axis=1) - np.diag(block)) / (len(kept) - 1)
        weakest = int(np.argmin(means))
        rest = kept[:weakest] + kept[weakest + 1:]
        if means[weakest] >= floor or not enough(rest):
            return kept
        kept = rest
    return kept
