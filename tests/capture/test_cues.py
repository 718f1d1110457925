"""The transcript rules, table-driven: what each catches, and what it must leave alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from loa_memory.capture.cues import detect
from loa_memory.capture.transcript import Role, Turn, read_transcript


def _kinds(text: str, role: Role = "user") -> list[str]:
    """The cues of ``text`` said in answer to the agent (an assistant turn comes first)."""
    return [cue.kind for cue in detect([Turn("assistant", "Done.", 1, 1), Turn(role, text, 2, 2)])
            if cue.turn.line == 2]


@pytest.mark.parametrize(("said", "kind"), [
    ("No, actually the migrations live in db/migrations.", "correction"),
    ("Nope. Use the staging database.", "correction"),
    ("That's not what I asked for.", "correction"),
    ("Don't mock the store, use a real repository in tmp_path instead.", "correction"),
    ("Stop adding type: ignore comments.", "correction"),
    ("Use pnpm, not npm.", "correction"),
    ("I told you to keep the old endpoint.", "correction"),
    ("Always run ruff before committing.", "preference"),
    ("never squash merge feature branches", "preference"),
    ("I'd rather have small modules.", "preference"),
    ("From now on, write the test first.", "preference"),
    ("Let's go with SQLite because it needs no server.", "decision"),
    ("We decided to pin numpy below 2.", "decision"),
    ("The decision is to drop Python 3.10.", "decision"),
])
def test_a_user_sentence_gives_its_cue(said: str, kind: str) -> None:
    assert _kinds(said) == [kind]


@pytest.mark.parametrize("said", [
    "No problem, thanks!",
    "Does it always fail on CI?",
    "Never mind, it works.",
    "Add a CSV export endpoint for orders.",
    "```\n# don't use print, use logging instead\n```",
    "> That's wrong, said the reviewer",
])
def test_ordinary_speech_gives_nothing(said: str) -> None:
    assert _kinds(said) == []


def test_only_the_user_corrects_and_prefers_but_anyone_decides() -> None:
    assert _kinds("That's wrong. Always use the fixture.", "assistant") == []
    user, = detect([Turn("user", "Let's use Redis instead of Memcached because we run it already.", 1, 1)])
    agent, = detect([Turn("assistant", "Let's use Redis instead of Memcached because we run it already.", 1, 1)])
    assert agent.confidence < user.confidence
    assert user.fields == {"rationale": "we run it already", "alternatives": [{"option": "Memcached"}]}


def test_an_error_pairs_with_the_fix_that_follows_it() -> None:
    turns = [Turn("tool", "Traceback (most recent call last):\n  File \"x.py\"\nKeyError: 'user_id'", 1, 1),
             Turn("tool", "error: linker `cc` not found", 2, 2),
             Turn("assistant", "The problem was a missing C toolchain; installing build-essential fixed it.", 3, 3)]
    cues = list(detect(turns))
    assert [(c.kind, c.fields["error"], c.resolved) for c in cues] == [
        ("error", "error: linker `cc` not found", True), ("error", "KeyError: 'user_id'", False)]
    assert cues[0].end == 3


def test_plain_text_without_speakers_reads_paragraphs(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("First paragraph\nstill the first.\n\n\nSecond one.\n")
    transcript = read_transcript(path)
    assert [(t.role, t.text, t.line, t.end) for t in transcript.turns] == [
        ("unknown", "First paragraph\nstill the first.", 1, 2), ("unknown", "Second one.", 5, 5)]
    assert transcript.session_id == read_transcript(path).session_id


def test_a_correction_keeps_the_agents_next_words_as_its_resolution_not_what_the_user_says_next() -> None:
    said = "No, don't hand-roll the escaping. Use placeholders."
    answered = [Turn("assistant", "Done.", 1, 1), Turn("user", said, 2, 2), Turn("tool", "ok", 3, 3),
                Turn("assistant", "Switching to `$1` placeholders. Tests pass. Anything else?", 4, 4)]
    (cue,) = detect(answered)
    assert cue.fields["resolution"] == "Switching to `$1` placeholders. Tests pass."
    (cue,) = [c for c in detect([*answered[:2], Turn("user", "Also the other query.", 3, 3), *answered[3:]])
              if c.turn.line == 2]
    assert "resolution" not in cue.fields

