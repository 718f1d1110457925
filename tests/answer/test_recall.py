"""recall: cues as imperatives, layers within the budget, token economics."""

from __future__ import annotations

import json

import pytest

from loa_memory.search.embed import minilm
from tests.fixtures import Cli

needs_model = pytest.mark.skipif(not minilm.is_available(), reason="MiniLM weights not installed")


@pytest.fixture
def seeded(loa: Cli) -> Cli:
    assert loa("add", "correction", "Dropping a column broke the nightly reporting job",
               "--trigger", "drop a column from a database table",
               "--lesson", "check the reporting views and run the report query against staging first").exit_code == 0
    assert loa("add", "correction", "A force push to main erased two merged pull requests",
               "--trigger", "force push to a shared branch",
               "--lesson", "push to a new branch and open a pull request instead").exit_code == 0
    assert loa("add", "decision", "Use PostgreSQL for the database layer because of JSONB support",
               "--summary", "PostgreSQL selected over SQLite").exit_code == 0
    assert loa("add", "preference", "Prefer small modules with one concept each",
               "--summary", "Small modules, one concept each").exit_code == 0
    return loa


@needs_model
def test_correction_fires_on_a_reworded_task(seeded: Cli) -> None:
    data = seeded.json("recall", "write a migration that drops the legacy_flag column")
    fired = [c["imperative"].split(":")[0] for c in data["corrections"]]
    assert fired == ["BEFORE drop a column from a database table"]
    markdown = seeded("recall", "write a migration that drops the legacy_flag column").stdout
    assert "## Before you start\n- BEFORE drop a column from a database table: check the reporting views" in markdown


@needs_model
def test_no_correction_for_an_unrelated_task(seeded: Cli) -> None:
    assert seeded.json("recall", "update the wording of the onboarding email")["corrections"] == []


@needs_model
def test_a_task_that_asks_for_prose_is_not_the_guarded_action(seeded: Cli) -> None:
    """Explaining or documenting the area of a lesson is not doing what it warns about; the same correction fires
    when the task does it."""
    doing = seeded.json("recall", "remove the legacy_flag column from the orders table")["corrections"]
    assert [c["imperative"].split(":")[0] for c in doing] == ["BEFORE drop a column from a database table"]
    for task in ("Explain why the orders table still has a legacy_flag column",
                 "Document in the README which columns of the orders table the reports read",
                 "Write a runbook on the legacy_flag column of the orders table and what reads it",
                 "The legacy_flag column of the orders table is unused now. Write a short runbook on it",
                 "Add a comment above the legacy_flag column in the orders model saying nothing reads it",
                 "Fix the typo in the help text of the legacy_flag column on the orders table",
                 "Write the CHANGELOG entry about the legacy_flag column of the orders table"):
        assert seeded.json("recall", task)["corrections"] == []


@needs_model
def test_a_task_that_only_looks_is_not_the_guarded_action_unless_it_reads_production_data(seeded: Cli) -> None:
    for task in ("Which tables still have a legacy_flag column? Just list them.",
                 "List the migrations that dropped a column from the orders table this year.",
                 "Where do we still read the legacy_flag column of the orders table?",
                 "When was the legacy_flag column dropped from the orders table, and what else did it change?",
                 "When did we drop the legacy_flag column from orders?",
                 "When did the migration that drops orders.legacy_flag run?"):
        assert seeded.json("recall", task)["corrections"] == [], task
    doing = seeded.json("recall", "Find the legacy_flag column in the orders table and drop it")["corrections"]
    assert [c["imperative"].split(":")[0] for c in doing] == ["BEFORE drop a column from a database table"]
    assert seeded("add", "correction", "KEYS on the production Redis blocked every client for 40 seconds",
                  "--trigger", "count or list keys on a production Redis",
                  "--lesson", "use SCAN with a COUNT, or keep a counter").exit_code == 0
    looked = seeded.json("recall", "How many session keys are in the prod Redis right now?")["corrections"]
    assert [c["imperative"].split(":")[0] for c in looked] == ["BEFORE count or list keys on a production Redis"]


@needs_model
def test_a_task_that_only_sets_a_value_fires_only_a_lesson_about_setting_one(seeded: Cli) -> None:
    """Blind set 74's null task "Scale invoice-service to 4 replicas in its manifest" fired the lesson about a
    scheduled job on a service of several replicas; a lesson about lowering a timeout still fires on lowering one."""
    assert seeded("add", "correction", "A bare @Scheduled invoice job ran on all three billing-service replicas",
                  "--trigger", "adding a scheduled job to a service that runs several replicas",
                  "--lesson", "take a ShedLock lock in the job, or run it as a single CronJob").exit_code == 0
    assert seeded("add", "correction", "A 2 second timeout on the ledger client failed every month-end export",
                  "--trigger", "lower a timeout value in service configuration",
                  "--lesson", "measure the p99 of the call first and keep the timeout above it").exit_code == 0
    for task in ("Scale invoice-service to 4 replicas in its manifest.", "Bump the billing-service replicas to 6"):
        assert seeded.json("recall", task)["corrections"] == [], task
    lowered = seeded.json("recall", "reduce the http client timeout in payments-svc from 30s to 5s")["corrections"]
    assert [c["imperative"].split(":")[0] for c in lowered] == ["BEFORE lower a timeout value in service configuration"]


@needs_model
def test_a_task_that_asks_for_tests_fires_only_lessons_about_tests(seeded: Cli) -> None:
    assert seeded("add", "correction", "A skipped test hid a broken refund path for a month",
                  "--trigger", "skip a failing test to get the build green",
                  "--lesson", "fix the code or quarantine the test with an issue link").exit_code == 0
    task = "Add integration tests for the nightly reporting job against the staging database"
    assert seeded.json("recall", task)["corrections"] == []  # the reporting job's area, not its lesson's action
    fired = seeded.json("recall", "Add tests for the refund path and skip the ones that fail for now")["corrections"]
    assert [c["imperative"].split(":")[0] for c in fired] == ["BEFORE skip a failing test to get the build green"]


def test_budget_bounds_what_is_returned_and_economics_are_logged(seeded: Cli) -> None:
    data = seeded.json("recall", "choose a database for the new service", "--budget", "60")
    assert data["economics"]["total_tokens"] <= 60
    assert data["economics"]["full_load_tokens"] > 0
    log = (seeded.root / ".loa" / "token_economics.jsonl").read_text().splitlines()
    assert json.loads(log[-1])["budget"] == 60


def test_task_type_can_be_forced(seeded: Cli) -> None:
    assert seeded.json("recall", "anything at all", "--task-type", "review")["task_type"] == "review"


@needs_model
def test_a_correction_with_several_triggers_fires_on_any_of_them(loa: Cli) -> None:
    entry = {"category": "correction", "summary": "Hand edits of the lockfile broke CI", "confidence": 0.9,
             "content": "yarn.lock was edited by hand and its integrity hashes no longer matched.",
             "triggers": ["edit yarn.lock by hand", "change a pinned transitive dependency version"],
             "lesson": "change package.json and let yarn regenerate the lockfile"}
    assert loa("add", "--from-json", "-", input=json.dumps(entry)).exit_code == 0
    data = loa.json("recall", "hand-edit the yarn.lock file to bump a version")
    assert [c["imperative"] for c in data["corrections"]] == [
        f"BEFORE edit yarn.lock by hand: change package.json and let yarn regenerate the lockfile "
        f"({data['corrections'][0]['id']})"]


@pytest.mark.parametrize(("task", "prose", "tests"), [
    ("fix the typo in the README install section", True, False),
    ("add a CHANGELOG entry for the ui-kit 3.1 release", True, False),
    ("draft release notes for v3.3.0 from the merged PRs", True, False),
    ("squash the six 'fix typo' commits on main and push", False, False),  # the typo is not the task
    ("I amended a commit on develop to fix a typo in its message. Push it", False, False),
    ("storybook story for the DatePicker with min/max dates", False, True),
    ("Add a Storybook story for UserBio with an empty bio", False, True),
    ("estimate the story points for the billing epic", False, False),
])
def test_chores_that_document_or_test_are_read_as_such(task: str, prose: bool, tests: bool) -> None:
    from loa_memory.answer.recall import _ASKS_FOR_PROSE, _WRITES_TESTS

    assert (_ASKS_FOR_PROSE.search(task) is not None, _WRITES_TESTS.match(task) is not None) == (prose, tests)
