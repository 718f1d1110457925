"""A memory's relevance as deviations from the typical memory's: how action and recall cues measure standing out,
so that no fixed cosine or score decides and a rule carries over between embedders and grimoires.

A correction is not measured against the episodes it was promoted from (``derived_from``): they say the same lesson
in the words it was heard in. In a young grimoire of a few captured sessions those episodes are most of what is
there, and counting them as typical hid the very correction they made (``Baseline.without``). The correction itself
stays among the memories, as when the bars were calibrated."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from loa_memory.model import Entry
from loa_memory.store.load import Grimoire

TYPICAL_PRIOR = (0.1, 0.1, 20)  # mean and deviation of a typical memory's relevance, worth this many memories


def typical(relevance: Any, prior: tuple[float, float, int] = TYPICAL_PRIOR) -> tuple[float, float]:
    """Mean and deviation of the task's relevance to the grimoire's memories (a numpy array), pulled towards
    ``prior`` (mean, deviation, worth this many memories) when there are few of them."""
    prior_mean, prior_deviation, weight = prior
    n = len(relevance)
    mean = (float(relevance.sum()) + weight * prior_mean) / (n + weight)
    spread = float(((relevance - relevance.mean()) ** 2).sum()) if n else 0.0
    return mean, max(((spread + weight * prior_deviation**2) / (n + weight)) ** 0.5, 1e-6)


class Baseline:
    """The typical memory's relevance to one task or call (``relevance``: index key -> relevance), and the same
    without the episodes a correction was promoted from."""

    def __init__(self, relevance: Mapping[str, float], prior: tuple[float, float, int] = TYPICAL_PRIOR) -> None:
        import numpy as np

        self.keys = {key: n for n, key in enumerate(relevance)}
        self.values = np.fromiter(relevance.values(), dtype=float, count=len(relevance))
        self.prior = prior
        self.typical = typical(self.values, prior)

    def without(self, keys: Iterable[str]) -> tuple[float, float]:
        """Mean and deviation leaving out the memories of ``keys`` (those not among them change nothing)."""
        import numpy as np

        gone = [self.keys[key] for key in keys if key in self.keys]
        if not gone:
            return self.typical
        return typical(np.delete(self.values, gone), self.prior)


def sources(grimoire: Grimoire, entry: Entry) -> list[str]:
    """The index keys of the episodes ``entry`` was promoted from (``derived_from``)."""
    found = (grimoire.by_id.get(i) for i in entry.linked("derived_from"))
    return [key for e in found if e is not None and e.category == "episode" and (key := grimoire.key_of(e))]
