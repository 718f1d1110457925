"""One correction said in three wordings in three sessions: capture hears all three, promote makes one entry."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loa_memory.lifecycle.clusters import average_link, trimmed
from loa_memory.search.embed import minilm, mpnet
from tests.fixtures import Cli

# (the agent's edit, the user's words): the case, in wordings that share no opener
SESSIONS = [
    (
        "logger.info('charging card %s', card.number)",
        "No, don't write the card number to the log. Last four digits at most.",
    ),
    ("print(f'refund {payment.pan}')", "Please stop printing PANs in the logs - they must be masked first."),
    ("log.debug('3ds %s', event.card)", "Again: mask the card number before it reaches the logger instead."),
]
UNRELATED = ("started = datetime.now()", "That's wrong, timestamps must be timezone-aware UTC, not naive.")


def _transcript(folder: Path, number: int, edit: str, said: str, agent: str = "Logged it.") -> Path:
    """A Claude Code session: a request, the agent's edit and its result, its ``agent`` words, then the user's."""
    session = f"0000000{number}-aaaa-4bbb-8ccc-00000000000{number}"
    start = datetime.now(UTC) - timedelta(days=5 - number)
    records: list[dict[str, Any]] = [
        {"type": "user", "message": {"role": "user", "content": "Add some logging to the payment flow."}},
        {
            "type": "assistant",
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": f"toolu_{number}",
                        "name": "Edit",
                        "input": {"file_path": f"/srv/shop/pay_{number}.py", "old_string": "pass", "new_string": edit},
                    }
                ],
            },
        },
        {
            "type": "user",
            "message": {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": f"toolu_{number}", "content": "The file has been updated."}
                ],
            },
        },
        {"type": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": agent}]}},
        {"type": "user", "message": {"role": "user", "content": said}},
    ]
    path = folder / f"{session}.jsonl"
    lines = [
        json.dumps(
            {
                **r,
                "sessionId": session,
                "cwd": "/srv/shop",
                "timestamp": f"{start + timedelta(seconds=30 * n):%Y-%m-%dT%H:%M:%S.000Z}",
            }
        )
        for n, r in enumerate(records)
    ]
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _pin(loa: Cli, embedder: str | None) -> None:
    if embedder:
        config = loa.root / ".loa.config.yaml"
        config.write_text(
            config.read_text("utf-8").replace("  retrieval:\n", f"  retrieval:\n    embedder: {embedder}\n"), "utf-8"
        )


def _capture(loa: Cli, tmp_path: Path, sessions: list[tuple[str, str]], agent: str = "Logged it.") -> list[str]:
    ids = []
    for number, (edit, said) in enumerate(sessions, 1):
        report = loa.json("capture", "--transcript", str(_transcript(tmp_path, number, edit, said, agent)))
        corrections = [a for a in report["added"] if a["entry"]["action_types"] == ["correction"]]
        assert [c["entry"]["evidence"][0] for c in corrections] == [
            said.split(". ")[0].rstrip(".") + "." if said.startswith("No,") else said
        ]
        ids.append(corrections[0]["id"])
    return ids


MODELS = [
    pytest.param(None, marks=pytest.mark.skipif(not mpnet.is_available(), reason="MPNet not installed")),
    pytest.param("minilm", marks=pytest.mark.skipif(not minilm.is_available(), reason="MiniLM not installed")),
]


@pytest.mark.parametrize("embedder", MODELS)
def test_three_wordings_in_three_sessions_become_one_correction(loa: Cli, tmp_path: Path, embedder: str | None) -> None:
    _pin(loa, embedder)
    ids = _capture(loa, tmp_path, [*SESSIONS, UNRELATED])
    report = loa.json("promote")
    assert len(report["promoted"]) == 1, report
    promoted = report["promoted"][0]
    assert sorted(promoted["episodes"]) == sorted(ids[:3])
    entry = promoted["entry"]
    assert entry["category"] == "correction"
    # what the lesson guards, from a "don't …"/"stop …" clause: not the tool call one session happened to make
    assert entry["trigger"] in ("write the card number to the log", "printing PANs in the logs")
    assert sorted((link["to"], link["relation"]) for link in entry["links"]) == sorted(
        (i, "derived_from") for i in ids[:3]
    )
    assert loa("lint").exit_code == 0


@pytest.mark.parametrize("embedder", MODELS)
def test_wordings_that_answer_the_agent_asking_leave_are_heard_and_promoted(
    loa: Cli, tmp_path: Path, embedder: str | None
) -> None:
    # agents end their turns asking leave; the "No, don't ..." that answers "Shall I commit it?" is a correction
    _pin(loa, embedder)
    ids = _capture(loa, tmp_path, SESSIONS, agent="Logged it with each payment. Shall I commit it?")
    report = loa.json("promote")
    assert [sorted(p["episodes"]) for p in report["promoted"]] == [sorted(ids)]


@pytest.mark.parametrize("embedder", MODELS)
def test_two_sessions_are_not_a_recurring_cue(loa: Cli, tmp_path: Path, embedder: str | None) -> None:
    _pin(loa, embedder)
    ids = _capture(loa, tmp_path, SESSIONS[:2])
    report = loa.json("promote")
    assert report["promoted"] == []
    assert "(similarity >= 0.7, corrections >= 0.35, min 3 sessions)" in loa("promote").stdout
    assert [sorted(c["episodes"]) for c in report["below_threshold"]] == [sorted(ids)]


def test_without_a_model_every_wording_is_still_captured_and_promote_runs(loa: Cli, tmp_path: Path) -> None:
    _pin(loa, "hashing")
    ids = _capture(loa, tmp_path, SESSIONS)
    result = loa("promote", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["considered"] == 3
    assert all(set(c["episodes"]) <= set(ids) for c in report["promoted"] + report["below_threshold"])


@settings(derandomize=True, max_examples=40, deadline=None)
@given(
    st.lists(st.lists(st.floats(-1, 1, allow_nan=False), min_size=3, max_size=3), min_size=1, max_size=7),
    st.randoms(use_true_random=False),
)
def test_average_link_does_not_depend_on_the_order(rows: list[list[float]], shuffle: Any) -> None:
    vectors = np.asarray(rows) + 1e-3
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    order = list(range(len(rows)))
    shuffle.shuffle(order)
    plain = {frozenset(c) for c in average_link(vectors @ vectors.T, 0.5)}
    moved = vectors[order]
    shuffled = {frozenset(order[m] for m in c) for c in average_link(moved @ moved.T, 0.5)}
    assert plain == shuffled
    assert sorted(n for c in plain for n in c) == list(range(len(rows)))


def test_a_member_that_joined_weakly_leaves_while_enough_sessions_stay() -> None:
    # three wordings of one lesson (0.9 apart) and another lesson said about the same files as one of them
    similarity = np.full((4, 4), 0.9)
    similarity[3, :] = similarity[:, 3] = 0.3
    similarity[0, 3] = similarity[3, 0] = 0.75
    np.fill_diagonal(similarity, 1.24)
    assert average_link(similarity, 0.4) == [[0, 1, 2, 3]]  # (0.75 + 0.3 + 0.3) / 3 = 0.45: on average it joins
    assert trimmed(similarity, [0, 1, 2, 3], 0.5, lambda rest: len(rest) >= 3) == [0, 1, 2]
    assert trimmed(similarity, [0, 1, 2, 3], 0.5, lambda rest: len(rest) >= 4) == [0, 1, 2, 3]
    assert trimmed(similarity, [0, 1, 2], 0.5, lambda rest: len(rest) >= 3) == [0, 1, 2]


def test_two_lessons_each_said_in_enough_sessions_stay_apart_unless_as_near_as_one_lesson() -> None:
    # two lessons about the same files, each said three times (0.8 within), 0.45 apart on average
    similarity = np.full((6, 6), 0.45)
    similarity[:3, :3] = similarity[3:, 3:] = 0.8
    np.fill_diagonal(similarity, 1.0)
    assert average_link(similarity, 0.35) == [[0, 1, 2, 3, 4, 5]]
    whole = lambda members: len(members) >= 3  # noqa: E731
    assert average_link(similarity, 0.35, whole, 0.55) == [[0, 1, 2], [3, 4, 5]]
    similarity[:3, 3:] = similarity[3:, :3] = 0.6  # as near as the wordings of one lesson: one cue said six times
    assert average_link(similarity, 0.35, whole, 0.55) == [[0, 1, 2, 3, 4, 5]]
    # a cluster not yet whole still joins at the plain threshold
    assert average_link(similarity[1:, 1:] * 0 + 0.4, 0.35, whole, 0.55) == [[0, 1, 2, 3, 4]]


@settings(derandomize=True, max_examples=60, deadline=None)
@given(st.lists(st.lists(st.floats(-1, 1, allow_nan=False), min_size=3, max_size=3), min_size=1, max_size=8),
       st.floats(0.0, 0.9), st.integers(1, 4))
def test_trimming_keeps_enough_members_and_drops_only_the_weakest(rows: list[list[float]], floor: float,
                                                                  least: int) -> None:
    vectors = np.asarray(rows) + 1e-3
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    similarity = vectors @ vectors.T
    members = list(range(len(rows)))
    kept = trimmed(similarity, members, floor, lambda rest: len(rest) >= least)
    assert set(kept) <= set(members) and kept == sorted(kept)
    assert len(kept) >= min(least, len(members))
    if len(kept) < len(members) and len(kept) > 1:  # what stays is at least as close together as before
        block = similarity[np.ix_(kept, kept)]
        before = similarity[np.ix_(members, members)]
        assert (block.sum() - np.trace(block)) / (len(kept) * (len(kept) - 1)) >= \
            (before.sum() - np.trace(before)) / (len(members) * (len(members) - 1)) - 1e-9


@pytest.mark.parametrize("embedder", MODELS)
def test_the_promoted_correction_fires_before_the_next_such_edit(
    loa: Cli, tmp_path: Path, embedder: str | None
) -> None:
    # the reason the tool exists: in a grimoire of just these sessions, the lesson is in front of the agent before
    # it logs a card number again (another file, other names), and a log line without one stays quiet
    _pin(loa, embedder)
    _capture(loa, tmp_path, [*SESSIONS, UNRELATED])
    promoted = loa.json("promote")["promoted"][0]["id"]

    def before(edit: str) -> str:
        hook = {"hook_event_name": "PreToolUse", "session_id": "s5", "cwd": str(loa.root), "tool_name": "Edit",
                "tool_input": {"file_path": str(loa.root / "payouts.py"), "old_string": "pass", "new_string": edit}}
        return loa("recall", "--hook-input", input=json.dumps(hook)).stdout

    assert promoted in before("logger.info('payout to %s', payout.card_number)")
    assert promoted in before("log.warning(f'declined card {card.pan} for order {order.id}')")
    assert before("logger.info('payout %s sent in %d ms', payout.id, took)") == ""
