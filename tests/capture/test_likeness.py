"""A correction heard by likeness: a reply to the agent that reads like the corrections users give, in words no
rule knows, is heard when an embedder is at hand; thanks, answers and first prompts are not."""

from __future__ import annotations

import json

import pytest

from loa_memory.capture.cues import detect
from loa_memory.capture.likeness import EXEMPLARS, Likeness
from loa_memory.capture.transcript import ToolCall, Turn
from loa_memory.search.embed import minilm, select_embedder

needs_model = pytest.mark.skipif(not minilm.is_available(), reason="MiniLM weights not installed")

EDIT = ("Edit", {"file_path": "/app/src/ui/SettingsFragment.kt", "old_string": "fun logout() {",
                 "new_string": "fun logout() {\n    GlobalScope.launch { repo.clearSession() }"})


@pytest.fixture(scope="module")
def likeness() -> Likeness:
    return Likeness(select_embedder("minilm", "auto").embedder)


def _cues(said: str, likeness: Likeness | None, *, agent: str = "Done, logout clears the session now.",
          first: bool = False) -> list[str]:
    turns: list[Turn] = []
    calls: list[ToolCall] = []
    if not first:
        turns.append(Turn("user", "Add a logout button to the settings screen.", 1, 1))
        calls.append(ToolCall(EDIT[0], EDIT[1], 2, "toolu_1"))
        turns.append(Turn("tool", "ok", 3, 3, call_id="toolu_1"))
        turns.append(Turn("assistant", agent, 4, 4))
    turns.append(Turn("user", said, 5, 5))
    return [cue.kind for cue in detect(turns, calls, (lambda: likeness) if likeness else None) if cue.turn.line == 5]


@needs_model
@pytest.mark.parametrize("said", [
    "why GlobalScope? coroutines here are started from viewModelScope, put it in SettingsViewModel.",
    "that launches on GlobalScope, so it outlives the screen. viewModelScope.launch in the view model.",
])
def test_a_correction_no_rule_knows_is_heard_by_likeness(said: str, likeness: Likeness) -> None:
    assert _cues(said, None) == []  # no wording rule hears it
    assert _cues(said, likeness) == ["correction"]


@needs_model
@pytest.mark.parametrize(("said", "agent", "first"), [
    ("Thanks, works on my phone.", "Done, logout clears the session now.", False),
    ("No.", "Should I also clear the image cache on logout?", False),
    ("Add a logout button that clears the session and goes back to the login screen.", "", True),
    ("Great, now add the same button to the profile screen.", "Done, logout clears the session now.", False),
    ("ugh, sorry - I meant the settings screen, not the profile one. Move it there.", "Done, added it to the profile.",
     False),
])
def test_thanks_answers_and_requests_are_not(said: str, agent: str, first: bool, likeness: Likeness) -> None:
    assert "correction" not in _cues(said, likeness, agent=agent, first=first)


class _HearsEverything:
    """A judge that finds every reply like a correction: what reaches it is what the gate lets through."""

    def scores(self, texts: list[str]) -> list[float]:
        return [1.0] * len(texts)


@pytest.mark.parametrize("said", [
    "👍", "👍 ship it", ":+1:", "lgtm 🚀", "yep, that was it, the crash is gone again.",
    "yeah fix the first one, raise NoSessionError there.", "wait, one sec - my mess, I have local changes to stash.",
    # the user's own mistake, retraction or curiosity
    "Huh. ok so it was never the CDN, I was wrong about that. go with the ?v= param",
    "Argh, sorry, wrong queue, that one's on me. set notify back to 2.",
    "Oh nice, I never knew the decoder had limits built in. don't know why we wrote our own check then. go for it",
    "oh nice, never knew Str::mask existed.",
    "Stop, never mind. Jonas rotated the certs this morning, he's on it.",
    "oh wait - never mind, the flaky test was mine.",
    "ugh, sorry - I looked at the wrong dashboard, the p99 is fine. leave the timeout as it is.",
    "Sorry, I pasted a wrong token earlier; here is the staging one.",
    "hmm, drop the banner actually - legal wants to review the copy first. take it out of the header.",
    "ok, let's skip the CSV export after all, support never asked for it.",
    "oops - I said hourly but finance wants it daily. can you change the cron?",
    "sounds right. the migration is fine inline, the table is ~20k rows",
])
def test_approvals_and_asides_never_reach_likeness(said: str) -> None:
    judge = _HearsEverything()
    assert "correction" not in _cues(said, judge)  # type: ignore[arg-type]
    assert _cues("Thanks. One thing though: viewModelScope, not GlobalScope.", judge)  # type: ignore[arg-type]


@pytest.mark.parametrize("said", [
    "You read the wrong column, the totals come from net_amount. fix the report.",
    "scrap that, the retry helper in http/retry.py already does backoff - use it instead.",
    "No - never mind the cache key, the bug is that you never invalidate it on write.",
    "I said no new dependencies but you added axios anyway. take it out.",
    "looks right, but the queue needs tags = local.common_tags like everything else in infra/.",
])
def test_the_agents_mistake_in_the_same_words_still_reaches_likeness(said: str) -> None:
    assert "correction" in _cues(said, _HearsEverything())  # type: ignore[arg-type]


def test_the_exemplars_are_labelled_user_speech() -> None:
    data = json.loads(EXEMPLARS.read_text("utf-8"))
    assert len(data["corrections"]) >= 100 and len(data["replies"]) >= 150
    assert not set(data["corrections"]) & set(data["replies"])


@pytest.mark.parametrize("model", ["all-mpnet-base-v2/onnx-int8-v1-g2-q1/t256", "all-MiniLM-L6-v2"])
def test_the_packaged_vectors_belong_to_these_exemplars(model: str) -> None:
    """Editing the exemplars without `python benchmarks/capture_exemplars.py` would leave vectors of other texts."""
    from loa_memory.capture.likeness import _exemplars, _shipped_vectors

    corrections, replies = _exemplars()
    vectors = _shipped_vectors(model, [*corrections, *replies])
    assert vectors is not None and vectors.shape[0] == len(corrections) + len(replies)
    assert _shipped_vectors(model, [*corrections, *replies, "one more"]) is None


LEAVE = ("The worker can't reach the repository, so I can make `SessionRepo` a global singleton in `App.kt`. "
         "Shall I do that?")


@needs_model
@pytest.mark.parametrize(("agent", "said", "kinds"), [
    # the agent asked leave for its plan: the reply that turns it down with the fix corrects the plan
    (LEAVE, "a global singleton is exactly what Hilt is there to avoid. inject it into the worker with @HiltWorker "
            "and an @AssistedInject constructor.", ["correction"]),
    (LEAVE, "No, leave it as it is for now.", []),
    # an offer of more work, declined, and an answer to a choice teach nothing
    ("Logout clears the session now. Should I also add a confirmation dialog?",
     "no, the product team hasn't decided on that yet. just the button for now", []),
    ("Should the session be cleared in the fragment or in the view model?",
     "the view model, not the fragment. the fragment is gone after rotation", []),
])
def test_a_reply_to_the_agent_asking_leave_is_judged_by_likeness(likeness: Likeness, agent: str, said: str,
                                                                  kinds: list[str]) -> None:
    assert _cues(said, likeness, agent=agent) == kinds
