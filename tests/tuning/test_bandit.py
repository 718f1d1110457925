"""The adaptive policy (pure): exploration floor, bounded daily shift, rollback, reproducible picks."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.adaptive_weights import SETTINGS, guardrails, simulate
from loa_memory.tuning.bandit import (
    AdaptiveSettings,
    Counts,
    best_probabilities,
    choose,
    floored,
    replay,
    shift,
    start_probabilities,
    state_for,
)

ARMS = AdaptiveSettings(enabled=True, arms=("a", "b", "c"), control="a", exploration=0.05, max_daily_shift=0.1,
                        rollback_drop=0.15, rolling_days=3, min_outcomes=20)


def days_of(*per_day: dict[str, Counts], first: date = date(2026, 3, 1)) -> list[tuple[str, dict[str, Counts]]]:
    return [((first + timedelta(days=n)).isoformat(), counts) for n, counts in enumerate(per_day)]


def test_start_favours_the_configured_profile_and_keeps_the_floor() -> None:
    assert start_probabilities(ARMS) == pytest.approx({"a": 0.9, "b": 0.05, "c": 0.05})
    outside = AdaptiveSettings(arms=("x", "y"), control="default")
    assert start_probabilities(outside) == {"x": 0.5, "y": 0.5}


def test_thompson_probabilities() -> None:
    assert best_probabilities([Counts(0, 0, 0), Counts(0, 0, 0)]) == pytest.approx([0.5, 0.5], abs=1e-3)
    assert best_probabilities([Counts(0, 5, 5), Counts(0, 5, 5), Counts(0, 5, 5)]) == pytest.approx([1 / 3] * 3,
                                                                                                     abs=1e-3)
    weak, strong = best_probabilities([Counts(0, 50, 50), Counts(0, 70, 30)])
    assert strong > 0.99 and weak < 0.01
    # one success against one failure: P(Beta(2,1) > Beta(1,2)) = 5/6 exactly
    assert best_probabilities([Counts(0, 1, 0), Counts(0, 0, 1)])[0] == pytest.approx(5 / 6, abs=1e-3)
    # thousands of outcomes: the peaked posteriors still resolve
    assert best_probabilities([Counts(0, 5000, 5000), Counts(0, 5100, 4900)])[1] > 0.9


def test_shift_is_bounded_and_reaches_a_near_target() -> None:
    old = {"a": 0.9, "b": 0.05, "c": 0.05}
    moved = shift(old, {"a": 0.05, "b": 0.9, "c": 0.05}, 0.1)
    assert max(abs(moved[k] - old[k]) for k in old) == pytest.approx(0.1)
    assert shift(old, {"a": 0.85, "b": 0.1, "c": 0.05}, 0.1) == pytest.approx({"a": 0.85, "b": 0.1, "c": 0.05})


def test_no_move_before_enough_outcomes() -> None:
    states = replay(days_of({"b": Counts(5, 5, 0)}, {"b": Counts(5, 5, 0)}), ARMS)
    assert [s.event for s in states] == ["start", "hold", "hold"]
    assert states[-1].probabilities == start_probabilities(ARMS)


def test_rollback_returns_to_the_start_and_restarts_the_evidence() -> None:
    good = {"a": Counts(10, 5, 5), "b": Counts(30, 24, 6)}
    bad = {"a": Counts(2, 1, 1), "b": Counts(38, 4, 34)}
    states = replay(days_of(*[good] * 8, *[bad] * 3), ARMS)
    before = states[8]
    assert before.event == "update" and before.probabilities["b"] > 0.6
    rollback = next(s for s in states if s.event == "rollback")
    assert rollback.probabilities == start_probabilities(ARMS)
    assert rollback.evidence == {} and rollback.reset == rollback.serves
    assert rollback.rolling[0] / rollback.rolling[1] < rollback.baseline[0] / rollback.baseline[1] - 0.15


def test_one_lucky_day_is_no_baseline() -> None:
    """A drop against a baseline of a single good day is noise, not a reason to roll back."""
    lucky = {"a": Counts(25, 17, 8)}  # 68% against 48% after: a 0.20 drop, within noise on 25 outcomes
    ordinary = {"a": Counts(25, 12, 13)}
    assert all(s.event != "rollback" for s in replay(days_of(lucky, ordinary, ordinary, ordinary), ARMS))


def test_todays_outcomes_count_from_tomorrow() -> None:
    history = days_of({"a": Counts(30, 10, 20), "b": Counts(30, 25, 5)})
    day = history[0][0]
    assert state_for(history, ARMS, day).event == "start"
    tomorrow = (date.fromisoformat(day) + timedelta(days=1)).isoformat()
    assert state_for(history, ARMS, tomorrow).event == "update"


def test_choose_is_a_pure_function_of_the_recall_id() -> None:
    probabilities = {"a": 0.2, "b": 0.5, "c": 0.3}
    assert choose(probabilities, "3f2a9c") == choose(dict(probabilities), "3f2a9c")
    picks = Counter(choose(probabilities, f"recall-{n}") for n in range(6000))
    for arm, p in probabilities.items():
        assert picks[arm] / 6000 == pytest.approx(p, abs=0.03)
    assert choose({"a": 0.0, "b": 1.0}, "anything") == "b"


counts = st.builds(Counts, st.integers(0, 40), st.integers(0, 30), st.integers(0, 30))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fixed_dictionaries({"a": counts, "b": counts, "c": counts}), min_size=1, max_size=25),
       st.floats(0.0, 0.3), st.floats(0.01, 0.5))
def test_guardrails_hold_for_any_history(history: list[dict[str, Counts]], exploration: float,
                                         max_shift: float) -> None:
    policy = AdaptiveSettings(True, ("a", "b", "c"), "a", exploration, max_shift, 0.15, 3, 10)
    states = replay(days_of(*history), policy)
    for before, after in itertools.pairwise(states):
        assert sum(after.probabilities.values()) == pytest.approx(1.0)
        assert min(after.probabilities.values()) >= exploration - 1e-9
        if after.event != "rollback":
            assert max(abs(after.probabilities[k] - before.probabilities[k]) for k in "abc") <= max_shift + 1e-9
    assert replay(days_of(*history), policy)[-1] == states[-1]  # reproducible


@given(st.dictionaries(st.sampled_from("abcd"), st.floats(0, 1), min_size=1), st.floats(0, 0.25))
def test_floored_keeps_a_distribution(raw: dict[str, float], exploration: float) -> None:
    total = sum(raw.values()) or 1.0
    result = floored({k: v / total if sum(raw.values()) else 1 / len(raw) for k, v in raw.items()}, exploration)
    assert sum(result.values()) == pytest.approx(1.0)
    assert min(result.values()) >= exploration - 1e-12


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_500_simulated_recalls_move_toward_the_better_profile_and_roll_back(seed: int) -> None:
    """b succeeds 70% (a 50%) until recall 300, then 20%: the policy moves toward b within its bounds, and
    when b's outcomes turn, the rollback fires and b's share returns."""
    run = simulate(seed)
    probabilities_b = [d.probabilities["b"] for d in run.days]
    bounds = guardrails(run)
    assert bounds["max_shift"] <= SETTINGS.max_daily_shift + 1e-9
    assert bounds["min_probability"] >= SETTINGS.exploration - 1e-9
    switch = run.switch_day
    assert probabilities_b[0] == pytest.approx(SETTINGS.exploration)
    assert probabilities_b[switch] > 0.6  # it moved toward the better profile ...
    assert all(b >= a - 1e-9 for a, b in itertools.pairwise(probabilities_b[:7]))
    served_b = [d.served.get("b", 0) for d in run.days]
    assert sum(served_b[8:switch]) > sum(served_b[:4])
    assert run.rollbacks and all(n > switch for n in run.rollbacks)  # ... and rolled back only after the turn
    after = run.rollbacks[0]
    assert probabilities_b[after] == pytest.approx(SETTINGS.exploration)
    assert max(probabilities_b[after:]) < probabilities_b[after - 1]
    assert sum(served_b[after:]) < sum(served_b[switch - len(served_b[after:]):switch])


def test_no_rollback_when_nothing_turns() -> None:
    run = simulate(3, after={"a": 0.5, "b": 0.7})
    assert run.rollbacks == []
    assert run.days[-1].probabilities["b"] > 0.8
