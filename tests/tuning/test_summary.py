"""The committed summary: its text round-trips, bad files are named by line, merges add counters; profiles."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loa_memory.errors import GrimoireError
from loa_memory.search.strategy import CATEGORY_WEIGHTS
from loa_memory.store.config import load_config
from loa_memory.tuning.bandit import Counts
from loa_memory.tuning.profiles import adaptive_settings, load_profiles
from loa_memory.tuning.summary import (
    Summary,
    dump_summary,
    merge_summaries,
    merge_summary_texts,
    parse_summary,
    totals,
)

counts = st.builds(Counts, st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6))
days = st.dates().map(lambda d: d.isoformat())
tasks = st.one_of(st.from_regex(r"[a-z0-9][a-z0-9_.-]{0,8}", fullmatch=True),
                  st.sampled_from(["true", "null", "1", "0x1f", "1e3", "no"]))
profiles = st.one_of(tasks, st.sampled_from([".5", "it's", "A B"]))
summaries = st.dictionaries(days, st.dictionaries(tasks, st.dictionaries(profiles, counts, min_size=1, max_size=3),
                                                  min_size=1, max_size=3), max_size=4)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(summaries)
def test_the_text_round_trips(summary: Summary) -> None:
    assert parse_summary(dump_summary(summary)) == summary


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None, max_examples=50)
@given(summaries, summaries, summaries)
def test_a_merge_keeps_both_sides_increments(base: Summary, more_ours: Summary, more_theirs: Summary) -> None:
    ours = merge_summaries({}, base, more_ours)
    theirs = merge_summaries({}, base, more_theirs)
    merged = merge_summaries(base, ours, theirs)
    expected = totals(merge_summaries({}, merge_summaries({}, base, more_ours), more_theirs))
    assert totals(merged) == {key: value for key, value in expected.items() if any(value)}


@pytest.mark.parametrize(("text", "where", "message"), [
    ("kind: something-else\n", (1, 1), "not a retrieval-weights summary"),
    ("kind: loa-memory/retrieval-weights\ndays:\n  '2026-13':\n    debugging: {}\n", (3, 3), "quoted date"),
    ("kind: loa-memory/retrieval-weights\ndays:\n  '2026-05-01':\n    debugging:\n"
     "      default: {served: 2, wins: 1}\n", (5, 7), "expected {served, successes, failures}"),
    ("kind: loa-memory/retrieval-weights\ndays: [\n", (3, 1), "expected"),
])
def test_bad_files_are_named_by_line(text: str, where: tuple[int, int], message: str) -> None:
    with pytest.raises(GrimoireError) as caught:
        parse_summary(text, "grimoires/loa/retrieval-weights.yaml")
    assert (caught.value.line, caught.value.col) == where
    assert message in caught.value.message and caught.value.path == "grimoires/loa/retrieval-weights.yaml"
    assert merge_summary_texts("", text, dump_summary({})) is None


def test_profiles_change_the_default_and_adaptive_may_be_a_flag(tmp_path: Path) -> None:
    (tmp_path / "grimoires/loa/memory").mkdir(parents=True)
    (tmp_path / ".loa.config.yaml").write_text(
        "memory_schema:\n  retrieval:\n    adaptive: true\n    profiles:\n      errors-first:\n        semantic: 0.5\n"
        "        categories:\n          all: {error: 2.0, fact: 0.5}\n          debugging: {error: 3.0}\n")
    config = load_config(tmp_path)
    profiles = load_profiles(config)
    assert list(profiles) == ["default", "errors-first"]
    errors_first = profiles["errors-first"]
    assert errors_first.semantic == 0.5 and errors_first.lexical == 1.0
    assert errors_first.categories["debugging"] == {**CATEGORY_WEIGHTS["debugging"], "error": 3.0, "fact": 0.5}
    assert errors_first.categories["review"] == {**CATEGORY_WEIGHTS["review"], "error": 2.0, "fact": 0.5}
    assert profiles["default"].categories["review"] == CATEGORY_WEIGHTS["review"]
    settings = adaptive_settings(config)
    assert settings.enabled and settings.arms == ("default", "errors-first") and settings.control == "default"
