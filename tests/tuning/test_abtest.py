"""Profile comparison statistics: Wilson and Newcombe intervals, verdicts, and when the data are not enough."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from loa_memory.tuning.abtest import Arm, compare, difference, needed_per_arm, wilson


def test_wilson_matches_published_values() -> None:
    # Newcombe (1998), table I: 81/263 → 0.2553..0.3662; 15/148 → 0.0624..0.1605
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(15, 148) == pytest.approx((0.0624, 0.1605), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_newcombe_difference_matches_published_values() -> None:
    # Newcombe (1998), table II, example (a) 56/70 − 48/80: 0.0524..0.3339 (method 10)
    d, lo, hi = difference(48, 80, 56, 70)
    assert d == pytest.approx(0.2)
    assert (lo, hi) == pytest.approx((0.0524, 0.3339), abs=1e-4)


def test_needed_sample_size() -> None:
    assert needed_per_arm(0.5, 0.7) == 91  # (1.96 + 0.84)² × (0.25 + 0.21) / 0.04
    assert needed_per_arm(0.5, 0.5) is None


def test_verdicts() -> None:
    few = compare(Arm("default", 12, 5, 5), Arm("errors-first", 4, 3, 1), min_outcomes=20)
    assert not few["enough_data"]
    assert few["verdict"] == "not enough data: default has 10, errors-first has 4 of the 20 outcomes needed"
    clear = compare(Arm("default", 200, 100, 100), Arm("errors-first", 200, 140, 60), min_outcomes=20)
    assert clear["enough_data"] and clear["verdict"].startswith("errors-first is better than default")
    worse = compare(Arm("default", 200, 140, 60), Arm("errors-first", 200, 100, 100), min_outcomes=20)
    assert worse["verdict"].startswith("default is better than errors-first")
    unclear = compare(Arm("default", 40, 20, 20), Arm("errors-first", 40, 22, 18), min_outcomes=20)
    assert unclear["verdict"].startswith("no clear difference yet")
    assert "outcomes per profile would show a difference this size" in unclear["verdict"]


@given(st.integers(0, 300), st.integers(0, 300), st.integers(0, 300), st.integers(0, 300))
def test_intervals_contain_their_estimates(s_a: int, f_a: int, s_b: int, f_b: int) -> None:
    for s, n in ((s_a, s_a + f_a), (s_b, s_b + f_b)):
        lo, hi = wilson(s, n)
        assert 0 <= lo <= hi <= 1
        if n:
            assert lo - 1e-12 <= s / n <= hi + 1e-12
    if s_a + f_a and s_b + f_b:
        d, lo, hi = difference(s_a, s_a + f_a, s_b, s_b + f_b)
        assert -1 <= lo <= d + 1e-12 and d - 1e-12 <= hi <= 1
