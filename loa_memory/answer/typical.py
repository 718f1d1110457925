"""A memory's relevance as deviations from the typical memory's: how action and recall cues measure standing out,
so that no fixed cosine or score decides and a rule carries over between embedders and grimoires."""

from __future__ import annotations

from typing import Any

TYPICAL_PRIOR = (0.1, 0.1, 20)  # mean and deviation of a typical memory's relevance, worth this many memories


def typical(relevance: Any, prior: tuple[float, float, int] = TYPICAL_PRIOR) -> tuple[float, float]:
    """Mean and deviation of the task's relevance to the grimoire's memories (a numpy array), pulled towards
    ``prior`` (mean, deviation, worth this many memories) when there are few of them."""
    prior_mean, prior_deviation, weight = prior
    n = len(relevance)
    mean = (float(relevance.sum()) + weight * prior_mean) / (n + weight)
    spread = float(((relevance - relevance.mean()) ** 2).sum()) if n else 0.0
    return mean, max(((spread + weight * prior_deviation**2) / (n + weight)) ** 0.5, 1e-6)
