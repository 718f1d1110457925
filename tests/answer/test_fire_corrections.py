"""The firing step of correction cues in recall: deviations alone without a task adapter, deviations plus the fit
with one (``answer/recall.py``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from loa_memory.answer.recall import (
    ADAPTED_MARGIN,
    ADAPTED_STANDOUT,
    CUE_MARGIN,
    CUE_STANDOUT,
    FIT_WEIGHT,
    Cue,
    fire_corrections,
)
from loa_memory.model import Entry


def _cue(key: str, standout: float, fit: float) -> Cue:
    entry = Entry({"id": key, "category": "correction"}, "default", "grimoires/loa/memory/corrections.yaml", 1)
    return Cue(entry, fit, frozenset(), standout, fit)


def _fired(cues: list[Cue], trust: float = 1.0, plain: bool = False) -> list[str]:
    return [c.entry.id for c in fire_corrections(cues, trust, plain)]


def test_with_the_adapter_a_close_fit_needs_to_stand_out_less() -> None:
    """The same deviations fire with a fit that is close in plain terms and not with a loose one."""
    standout = ADAPTED_STANDOUT[1] - FIT_WEIGHT * 0.6
    assert _fired([_cue("close", standout, 0.65)]) == ["close"]
    assert _fired([_cue("loose", standout, 0.45)]) == []


def test_without_the_adapter_the_deviations_alone_decide() -> None:
    assert _fired([_cue("a", CUE_STANDOUT[1], 0.0)], plain=True) == ["a"]
    assert _fired([_cue("a", CUE_STANDOUT[1] - 0.01, 0.9)], plain=True) == []


def test_the_bar_is_lower_while_shared_names_are_not_trusted() -> None:
    standout = ADAPTED_STANDOUT[0] - FIT_WEIGHT * 0.5 + 0.1
    assert _fired([_cue("a", standout, 0.5)], trust=0.0) == ["a"]
    assert _fired([_cue("a", standout, 0.5)], trust=1.0) == []


@settings(derandomize=True, max_examples=300)
@given(st.lists(st.tuples(st.floats(-5, 20), st.floats(-1, 1.5)), max_size=8), st.floats(0, 1), st.booleans())
def test_what_fires_is_over_the_bar_near_the_best_and_best_first(pairs: list[tuple[float, float]], trust: float,
                                                                   plain: bool) -> None:
    cues = [_cue(f"c{n}", s, f) for n, (s, f) in enumerate(pairs)]
    fired = fire_corrections(cues, trust, plain)
    low, high = CUE_STANDOUT if plain else ADAPTED_STANDOUT
    score = {c.entry.id: c.standout + (0.0 if plain else FIT_WEIGHT * c.fit) for c in cues}
    best = max(score.values(), default=0.0)
    margin = CUE_MARGIN if plain else ADAPTED_MARGIN
    expected = {k for k, s in score.items() if s >= low + (high - low) * trust and s >= best - margin}
    assert {c.entry.id for c in fired} == expected
    assert [score[c.entry.id] for c in fired] == sorted((score[c.entry.id] for c in fired), reverse=True)
