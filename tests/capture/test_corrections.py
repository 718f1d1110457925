"""Corrections however they are worded: the wording rules, weighed by what the agent had just done."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loa_memory.capture.corrections import asks_leave, content_words, stem
from loa_memory.capture.cues import Cue, detect
from loa_memory.capture.transcript import ToolCall, Turn

REJECTION = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file "
    "edit, the new_string was NOT written to the file)."
)


def _after(
    call: tuple[str, dict[str, Any]] | None,
    said: str,
    agent: str = "Done.",
    *,
    rejected: bool = False,
    first: bool = False,
) -> list[Cue]:
    """The cues of the user's ``said``, after the agent's ``call`` (its result, or the user's rejection) and
    its words ``agent``; ``first``: the session's first prompt, nothing before it."""
    turns: list[Turn] = []
    calls: list[ToolCall] = []
    if not first:
        turns.append(Turn("user", "Please do the task.", 1, 1))
        if call is not None:
            calls.append(ToolCall(call[0], call[1], 2, "toolu_1"))
            turns.append(Turn("tool", REJECTION if rejected else "ok", 3, 3, is_error=rejected, call_id="toolu_1"))
        if agent:
            turns.append(Turn("assistant", agent, 4, 4))
    turns.append(Turn("user", said, 5, 5))
    return [cue for cue in detect(turns, calls) if cue.turn.line == 5]


def _kinds(cues: list[Cue]) -> list[str]:
    return [cue.kind for cue in cues]


BASH_FORCE = ("Bash", {"command": "git push --force origin main"})
EDIT_LOG = (
    "Edit",
    {
        "file_path": "/srv/pay/capture.py",
        "old_string": "resp = gw.capture(card)",
        "new_string": "logger.info('card %s', card.number)\nresp = gw.capture(card)",
    },
)
EDIT_NOW = (
    "Edit",
    {
        "file_path": "/srv/ledger/tokens.py",
        "old_string": "def ok(t):",
        "new_string": "def ok(t):\n    age = datetime.utcnow() - t.issued",
    },
)
EDIT_FLAG = ("Write", {"file_path": "/web/settings/dark_mode.py", "content": "ENABLED = os.getenv('DARK_MODE')"})


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (EDIT_LOG, "No, don't log the full card number. Log the last four digits at most."),
        (EDIT_LOG, "Please stop printing the PAN in the logs - it must be masked."),
        (EDIT_LOG, "Again: mask card numbers before they reach the logger instead."),
        (BASH_FORCE, "we never force-push to main, other people build on it"),
        (BASH_FORCE, "That's wrong - force pushing main is off limits here."),
        (EDIT_NOW, "pls dont use utcnow, its deprecated and naive"),
        (EDIT_NOW, "datetime.utcnow() is naive. Use datetime.now(UTC)."),
        (EDIT_NOW, "I told you last time: timestamps must be UTC-aware."),
        (EDIT_FLAG, "feature flags must come from the flags client"),
        (EDIT_FLAG, "Use flags.is_enabled('dark-mode', user) instead."),
        (EDIT_FLAG, "Could you read it through the flags client instead?"),
        (EDIT_FLAG, "You keep reading flags from the environment."),
        (EDIT_FLAG, "you're hardcoding toggles again. use the flags client"),
        (EDIT_FLAG, "Reading toggles from env again?"),
        (EDIT_FLAG, "Please use the flags client, not os.getenv."),
        (EDIT_FLAG, "Good, but flags live in the flags service."),
        (EDIT_FLAG, "Remember, toggles are owned by the flags service."),
        (BASH_FORCE, "whoa, never force-push to main."),
        (EDIT_FLAG, "Why is there a new env variable? I never asked for that."),
        (EDIT_FLAG, "again reading flags from the environment??"),
        (EDIT_FLAG, "whoa, no flags client again??"),
        (EDIT_FLAG, "Same as last time, flags never come from env vars."),
        (EDIT_LOG, "Logging it in full isn't a fix, please never do that."),
        (EDIT_FLAG, "pls `flags.is_enabled` not `os.getenv` for toggles"),
        (EDIT_FLAG, "Every toggle in this repo is read through the flags client and never from getenv."),
        (EDIT_FLAG, "works, but can you please read it through the flags client rather than os.getenv?"),
        (EDIT_LOG, "pls NO card numbers in logs, ever."),
        (EDIT_NOW, "check the clock source, never call utcnow in the ledger"),
        (EDIT_NOW, "Before you commit: the ledger timestamp has to be timezone-aware, regions compare it."),
    ],
)
def test_a_correction_in_other_words_is_heard(call: tuple[str, dict[str, Any]], said: str) -> None:
    cues = _after(call, said)
    assert _kinds(cues) == ["correction"], said
    assert cues[0].fields["lesson"] and cues[0].fields["trigger"]


@pytest.mark.parametrize(
    ("call", "said", "agent"),
    [
        (None, "Don't worry about tests for now.", "Added the endpoint."),
        (None, "No, that's enough. Stop here, thanks.", "Added /health. Should I also add a readiness probe?"),
        (None, "No, leave it as it is for now.", "It throws on every path. Want me to change it?"),
        (None, "no problem, 5174 is fine. stop the dev server please", "It runs on port 5174."),
        (None, "never mind, I figured it out", "Looking into it."),
        (None, "Looks good, don't forget to update the README.", "Done."),
        (None, "Don't bother with a general fix today, just skip bad rows.", "Row 118 has a comma."),
        (None, "Instead of only CSV, could you also add a JSON export?", "The CSV export is in export.py."),
        (None, "That's right. Could you instead make the attempts configurable?", "Three attempts."),
        (None, "Why does the build fail on CI?", "It builds locally."),
        (
            ("Bash", {"command": "npm run build"}),
            'The CI log says: "Error: don\'t run npm install as root".',
            "Failed.",
        ),
        (EDIT_FLAG, "You don't need to migrate the old flags, they expire anyway.", "Done."),
        (EDIT_FLAG, "Thanks, looks great.", "Done."),
        (None, "I never would have found that, you must have read the whole module.", "Fixed the prefilter."),
        (None, "Can you run the tests again?", "Done."),
        (None, "Same as last time, please bump the version and tag it.", "Ready to release."),
        (None, "Is the deploy running again?", "I restarted it."),
        (EDIT_FLAG, "argh, sorry - I meant the dark mode flag, not the beta one.", "Done."),
        (EDIT_LOG, "My bad, the other logger. No need to touch this one.", "Done."),
        (EDIT_NOW, "Typo on my side: it's the ledger tokens, not the session tokens. Don't change those.", "Done."),
        (EDIT_NOW, "hmm, the ticket says per line item, not per order. my mistake, I summarised it wrong.", "Done."),
        (EDIT_FLAG, "don't delete it yet, finance still imports it.", "The old flag is unused. Should I delete it?"),
        (None, "a float tax rate, never in a million years would I have looked there. thank you!", "Fixed."),
        (EDIT_FLAG, "why a flag and not an env var? not complaining, I'm just curious", "Done."),
    ],
)
def test_a_near_miss_is_not_a_correction(call: tuple[str, dict[str, Any]] | None, said: str, agent: str) -> None:
    assert "correction" not in _kinds(_after(call, said, agent)), said


@pytest.mark.parametrize(
    "said",
    [
        "Use Postgres for the job queue, not Redis.",
        "Add a /health endpoint. It must return the version and don't touch the router.",
        "Could you use the new client instead of the old one in the importer?",
    ],
)
def test_a_request_in_the_first_prompt_is_not_a_correction(said: str) -> None:
    assert "correction" not in _kinds(_after(None, said, first=True))


def test_words_that_need_the_agents_action_need_it_to_be_named() -> None:
    said = "Never store amounts as FloatField."
    edit = ("Edit", {"file_path": "/app/promo/models.py", "new_string": "discount = FloatField()"})
    assert _kinds(_after(edit, said)) == ["correction"]
    other = ("Edit", {"file_path": "/app/promo/views.py", "new_string": "return render(request)"})
    assert _kinds(_after(other, said)) == ["preference"]  # a rule stated, not a correction of what was done


def test_after_a_rejected_call_the_users_next_words_correct_it() -> None:
    edit = ("Edit", {"file_path": "/repo/CHANGELOG.md", "new_string": "- Fix crash"})
    cues = _after(edit, "entries go in changelog.d as fragments, the file is generated", agent="", rejected=True)
    assert _kinds(cues) == ["correction"]
    assert cues[0].fields["trigger"] == "Edit: /repo/CHANGELOG.md"
    assert _kinds(_after(edit, "ok", agent="", rejected=True)) == []


def test_one_correction_a_turn_and_its_lesson_is_the_whole_turn() -> None:
    cues = _after(EDIT_LOG, "No, don't log the card number. Never log it. Log the last four digits at most.")
    assert _kinds(cues) == ["correction"]
    assert cues[0].evidence == ("No, don't log the card number.",)
    assert cues[0].fields["lesson"] == ("Don't log the card number. Never log it. Log the last four digits at most.")
    assert cues[0].fields["trigger"] == "log the card number"


@pytest.mark.parametrize(("said", "lesson"), [
    ("Once more, idempotencyKey on the update.", "idempotencyKey on the update."),
    ("Again: serializeOrder(order, { admin: true }) here.", "serializeOrder(order, { admin: true }) here."),
    ("Like I said, ds.get('run_date') and nothing else.", "ds.get('run_date') and nothing else."),
    ("For the last time: the token goes in the header.", "The token goes in the header."),
])
def test_a_repeat_loses_its_opener_and_code_keeps_its_case(said: str, lesson: str) -> None:
    cues = _after(EDIT_LOG, said)
    assert _kinds(cues) == ["correction"]
    assert cues[0].fields["lesson"] == lesson


def test_stems_fold_the_common_endings() -> None:
    assert {stem(w) for w in ("logs", "logger", "logging", "logged")} == {"log"}
    assert content_words("Don't edit 0007, it's applied") == {"0007", "appli"}


_IDENT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=5, max_size=10).filter(
    lambda w: w not in content_words(w) or len(content_words(w)) == 1
)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(tool=_IDENT, thing=_IDENT)
def test_any_named_action_contradicted_is_heard_and_reassurance_never_is(tool: str, thing: str) -> None:
    call = ("Bash", {"command": f"{tool} --write {thing}"})
    assert _kinds(_after(call, f"we never {tool} the {thing} here")) == ["correction"]
    assert _kinds(_after(call, f"don't {tool} the {thing}, it is shared")) == ["correction"]
    assert "correction" not in _kinds(_after(call, f"don't worry about the {thing}"))
    assert "correction" not in _kinds(_after(call, f"why does {tool} print {thing}?"))
    assert "correction" not in _kinds(_after(call, f"don't {tool} the {thing}", first=True))


@pytest.mark.parametrize(("agent", "leave"), [
    ("Added the index. Shall I do that for the other table?", True),
    ("I can set `task_serializer = \"pickle\"` in `celery_app.py`. Shall I do that?", True),
    ("Want me to commit it?", True),
    ("Lint is clean. OK to go ahead?", True),
    ("```sql\nDROP INDEX idx;\n```\n\nShall I write it as `db/migrations/0042_drop.sql`?", True),
    ("I can match on the message instead - want me to do that?", True),
    ("Should I also bump the version?", False),
    ("Want me to move that panel to the new datasource too?", False),
    ("Should the retry live in the client or in the runner?", False),
    ("Which do you prefer?", False),
    ("Did the script change recently?", False),
    ("Done.", False),
])
def test_the_agent_asking_leave_for_its_plan_is_told_from_choices_and_offers(agent: str, leave: bool) -> None:
    assert asks_leave(agent) is leave

