"""The adaptive policy over weight profiles: pure functions of the committed log summary, no I/O.

Per task type, the policy holds a probability for each profile (arm) and picks one per recall with a draw
seeded by the recall id, so a pick is reproducible. The probabilities are replayed day by day from the
summary's counters (recalls served, successes, failures per day and profile):

- **target**: Thompson sampling's probabilities, computed exactly (numerically, not by sampling) from
  Beta(1 + successes, 1 + failures) of each arm's outcomes since the last reset, then mixed with a uniform
  **exploration floor** so every arm keeps at least ``exploration``;
- **bounded daily shift**: after each day with data the probabilities move toward the target, no arm by
  more than ``max_daily_shift``; before ``min_outcomes`` outcomes they hold;
- **rollback**: when the success rate of the last ``rolling_days`` days falls more than ``rollback_drop``
  below the baseline (the rate since the last reset, before that window; both with ``min_outcomes``) and the
  drop is clear at 95% (Newcombe's interval of the difference lies below 0, so one lucky day is no baseline),
  the probabilities return at once to the start state (the configured profile, the others at the floor: the
  last known-good state) and the evidence restarts from the next day.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Literal, NamedTuple

from loa_memory.tuning.abtest import difference

GRID = 4096  # cells for the numerical Thompson probabilities


class Counts(NamedTuple):
    """Recalls served under a profile, and the outcomes they got."""

    served: int = 0
    successes: int = 0
    failures: int = 0

    def plus(self, other: Counts) -> Counts:
        return Counts(self.served + other.served, self.successes + other.successes, self.failures + other.failures)

    @property
    def outcomes(self) -> int:
        return self.successes + self.failures


@dataclass(frozen=True)
class AdaptiveSettings:
    enabled: bool = False
    arms: tuple[str, ...] = ("default",)
    control: str = "default"  # the configured profile: the start (and rollback) state favours it
    exploration: float = 0.05
    max_daily_shift: float = 0.1
    rollback_drop: float = 0.15
    rolling_days: int = 3
    min_outcomes: int = 20


Event = Literal["start", "hold", "update", "rollback"]


@dataclass(frozen=True)
class PolicyState:
    """The probabilities that serve from day ``serves`` on, and what made them."""

    serves: str
    probabilities: dict[str, float]
    event: Event = "start"
    reset: str = ""  # outcomes of days before this one are no longer evidence
    evidence: dict[str, Counts] = field(default_factory=dict)
    daily: tuple[tuple[str, int, int], ...] = ()  # (day, successes, failures) since the reset, every profile
    target: dict[str, float] = field(default_factory=dict)
    rolling: tuple[int, int] = (0, 0)  # (successes, outcomes) in the rolling window
    baseline: tuple[int, int] = (0, 0)


def start_probabilities(settings: AdaptiveSettings) -> dict[str, float]:
    """The configured profile gets all but the exploration floor of the others (uniform without it)."""
    arms = settings.arms
    if settings.control not in arms:
        return {arm: 1 / len(arms) for arm in arms}
    floor = settings.exploration
    return {arm: 1 - floor * (len(arms) - 1) if arm == settings.control else floor for arm in arms}


def best_probabilities(tallies: Sequence[Counts]) -> list[float]:
    """P(arm i has the highest success rate) under independent Beta(1 + s, 1 + f) posteriors."""
    import numpy as np

    if len(tallies) == 1:
        return [1.0]
    a = np.array([1.0 + t.successes for t in tallies])
    b = np.array([1.0 + t.failures for t in tallies])
    mean = a / (a + b)
    sd = np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1)))
    lo, hi = max(0.0, float(np.min(mean - 10 * sd))), min(1.0, float(np.max(mean + 10 * sd)))
    x = lo + (hi - lo) * (np.arange(GRID) + 0.5) / GRID
    log_pdf = (a - 1)[:, None] * np.log(x)[None, :] + (b - 1)[:, None] * np.log1p(-x)[None, :]
    weight = np.exp(log_pdf - log_pdf.max(axis=1, keepdims=True))
    pmf = weight / weight.sum(axis=1, keepdims=True)
    below = np.cumsum(pmf, axis=1) - pmf + pmf / 2  # P(X_j < x), a tie within a cell counted half
    result = []
    for i in range(len(tallies)):
        others = np.prod(np.delete(below, i, axis=0), axis=0)
        result.append(float(np.sum(pmf[i] * others)))
    total = sum(result)
    return [p / total for p in result]


def floored(probabilities: Mapping[str, float], exploration: float) -> dict[str, float]:
    """Mix with the uniform floor: every arm gets at least ``exploration``, the sum stays 1."""
    spare = 1 - exploration * len(probabilities)
    return {arm: exploration + spare * p for arm, p in probabilities.items()}


def shift(old: Mapping[str, float], target: Mapping[str, float], max_shift: float) -> dict[str, float]:
    """Move from ``old`` toward ``target`` with no arm changing by more than ``max_shift``.

    The step is a convex combination of two distributions, so floors that both respect still hold.
    """
    gap = max(abs(target[arm] - old[arm]) for arm in old)
    step = 1.0 if gap <= max_shift else max_shift / gap
    return {arm: old[arm] + step * (target[arm] - old[arm]) for arm in old}


def _rate(counts: tuple[int, int]) -> float:
    return counts[0] / counts[1] if counts[1] else 0.0


def _dropped(rolling: tuple[int, int], baseline: tuple[int, int], settings: AdaptiveSettings) -> bool:
    """The rolling rate is ``rollback_drop`` below the baseline, and the drop is clear at 95% (not noise)."""
    if rolling[1] < settings.min_outcomes or baseline[1] < settings.min_outcomes:
        return False
    if _rate(rolling) >= _rate(baseline) - settings.rollback_drop:
        return False
    _, _, upper = difference(baseline[0], baseline[1], rolling[0], rolling[1])
    return upper < 0


def advance(state: PolicyState, day: str, counts: Mapping[str, Counts], settings: AdaptiveSettings) -> PolicyState:
    """The state after the outcomes of ``day`` (every profile's counts for that day and task type)."""
    serves = (date.fromisoformat(day) + timedelta(days=1)).isoformat()
    evidence = dict(state.evidence)
    for arm, got in counts.items():
        if arm in settings.arms:
            evidence[arm] = evidence.get(arm, Counts()).plus(got)
    wins = sum(c.successes for c in counts.values())
    losses = sum(c.failures for c in counts.values())
    daily = (*state.daily, (day, wins, losses))
    edge = (date.fromisoformat(day) - timedelta(days=settings.rolling_days)).isoformat()
    rolling = (sum(s for d, s, _ in daily if d > edge), sum(s + f for d, s, f in daily if d > edge))
    baseline = (sum(s for d, s, _ in daily if d <= edge), sum(s + f for d, s, f in daily if d <= edge))
    if _dropped(rolling, baseline, settings):
        return PolicyState(serves, start_probabilities(settings), "rollback", serves,
                           rolling=rolling, baseline=baseline)
    tallies = [evidence.get(arm, Counts()) for arm in settings.arms]
    if sum(t.outcomes for t in tallies) < settings.min_outcomes:
        return PolicyState(serves, dict(state.probabilities), "hold", state.reset, evidence, daily,
                           dict(state.target), rolling, baseline)
    target = floored(dict(zip(settings.arms, best_probabilities(tallies), strict=True)), settings.exploration)
    moved = shift(state.probabilities, target, settings.max_daily_shift)
    return PolicyState(serves, moved, "update", state.reset, evidence, daily, target, rolling, baseline)


def replay(days: Sequence[tuple[str, Mapping[str, Counts]]], settings: AdaptiveSettings) -> list[PolicyState]:
    """Every state from the start through the last day of ``days`` (taken in date order)."""
    state = PolicyState("", start_probabilities(settings))
    states = [state]
    for day, counts in sorted(days, key=lambda item: item[0]):
        state = advance(state, day, counts, settings)
        states.append(state)
    return states


def state_for(days: Sequence[tuple[str, Mapping[str, Counts]]], settings: AdaptiveSettings,
              today: str) -> PolicyState:
    """The state serving ``today``: replayed from the days before it (today's own outcomes count tomorrow)."""
    return replay([(d, c) for d, c in days if d < today], settings)[-1]


def choose(probabilities: Mapping[str, float], recall_id: str) -> str:
    """The arm for one recall: a uniform draw from the recall id's hash, against the cumulative probabilities."""
    digest = hashlib.sha256(recall_id.encode("utf-8")).digest()
    draw = int.from_bytes(digest[:8], "big") / 2**64
    total = 0.0
    arms = list(probabilities)
    for arm in arms:
        total += probabilities[arm]
        if draw < total:
            return arm
    return arms[-1]
