"""The typical memory a cue must stand out from, and the memories left out of it for a promoted correction."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from loa_memory.answer.cues.words import WORDS_PRIOR
from loa_memory.answer.typical import Baseline, sources, typical
from loa_memory.store import load_config
from loa_memory.store.load import load_grimoire
from tests.fixtures import Cli

RELEVANCE = st.dictionaries(st.text(min_size=1, max_size=4), st.floats(-1, 1), max_size=30)


@settings(derandomize=True, max_examples=300, deadline=None)
@given(RELEVANCE, st.data())
def test_leaving_memories_out_is_the_typical_of_the_others(relevance: dict[str, float], data: st.DataObject) -> None:
    gone = data.draw(st.lists(st.sampled_from(sorted(relevance)), max_size=5)) if relevance else []
    rest = np.array([v for k, v in relevance.items() if k not in gone], dtype=float)
    for prior in ((0.1, 0.1, 20), WORDS_PRIOR):
        baseline = Baseline(relevance, prior)
        assert np.allclose(baseline.without([*gone, "not a memory"]), typical(rest, prior))
        assert baseline.without(()) == baseline.typical == typical(np.array(list(relevance.values())), prior)


def test_a_few_high_memories_raise_the_typical_and_leaving_them_out_lowers_it() -> None:
    relevance = {f"m{n}": 0.1 for n in range(10)} | {"e1": 0.6, "e2": 0.55, "e3": 0.6}
    baseline = Baseline(relevance)
    mean, deviation = baseline.typical
    mean_without, deviation_without = baseline.without(["e1", "e2", "e3"])
    assert mean_without < mean and deviation_without < deviation
    assert (0.6 - mean_without) / deviation_without > (0.6 - mean) / deviation + 1  # a correction stands out more


def _add(loa: Cli, entry: dict[str, object]) -> str:
    result = loa.json("add", "--from-json", "-", input=json.dumps(entry))
    return str(result["id"])


def test_a_corrections_own_episodes_are_its_derived_from_episodes_only(loa: Cli) -> None:
    heard = [_add(loa, {"category": "episode", "summary": f"Correction: don't log the card number ({n})",
                        "content": "No, don't write the card number to the log.", "confidence": 0.8})
             for n in (1, 2)]
    decision = _add(loa, {"category": "decision", "summary": "Card numbers are masked by the payment SDK",
                          "content": "We mask PANs in the SDK's logger adapter.", "rationale": "One place to mask.",
                          "confidence": 0.95})
    correction = _add(loa, {"category": "correction", "summary": "Never log card numbers",
                            "content": "Card numbers reached the application logs.",
                            "trigger": "write the card number to the log", "lesson": "Log the last four digits.",
                            "confidence": 0.9,
                            "links": [*({"to": i, "relation": "derived_from"} for i in heard),
                                      {"to": decision, "relation": "derived_from"},
                                      {"to": "MEM-20200101-999", "relation": "related_to"}]})
    grimoire = load_grimoire(load_config(loa.root))
    entry = grimoire.by_id[correction]
    assert sorted(sources(grimoire, entry)) == sorted(grimoire.key_of(grimoire.by_id[i]) or "" for i in heard)
    assert sources(grimoire, grimoire.by_id[decision]) == []
