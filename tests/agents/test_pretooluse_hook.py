"""`recall --hook-input` on Claude Code's PreToolUse input: the corrections that bear on the tool call, as the hook
JSON, and nothing when none does."""

from __future__ import annotations

import json
from typing import Any

import pytest

from loa_memory.search.embed import minilm
from loa_memory.store.schema import load_schema, validate
from tests.fixtures import Cli

needs_model = pytest.mark.skipif(not minilm.is_available(), reason="MiniLM weights not installed")

DROP = {"category": "correction", "summary": "Dropping a column broke the nightly reporting job",
        "content": "orders.gift_note was dropped while the reporting views still read it.",
        "trigger": "drop a column from a database table",
        "lesson": "Check the reporting views and stop reading the column first", "confidence": 0.9}
SQL = {"category": "correction", "summary": "String-built SQL in the admin search was injectable",
       "content": "The admin search formatted the term into the query.", "confidence": 0.9,
       "trigger": "build a SQL query from user input with string formatting",
       "lesson": "Use bound parameters", "severity": "block"}
PUSH = {"category": "correction", "summary": "A force push erased two hotfix commits",
        "content": "release/2.3 was force-pushed after a local rebase.", "confidence": 0.9,
        "triggers": ["rewrite the history of a branch others pulled", "force push to a shared branch"],
        "lesson": "Push a new branch and open a pull request instead"}


@pytest.fixture
def guarded(loa: Cli) -> Cli:
    for entry in (DROP, SQL, PUSH):
        assert loa("add", "--from-json", "-", input=json.dumps(entry)).exit_code == 0
    assert loa("add", "decision", "Use PostgreSQL for the database layer because of JSONB support",
               "--summary", "PostgreSQL selected over SQLite").exit_code == 0
    return loa


def _hook(loa: Cli, tool: str, tool_input: dict[str, Any]) -> tuple[int, str]:
    payload = {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": str(loa.root),
               "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input}
    outcome = loa("recall", "--hook-input", input=json.dumps(payload))
    return outcome.exit_code, outcome.stdout



@needs_model
def test_fires_before_a_migration_that_drops_a_column(guarded: Cli) -> None:
    code, out = _hook(guarded, "Write", {"file_path": str(guarded.root / "migrations/0042_cleanup.py"),
                                          "content": 'def upgrade():\n    op.drop_column("invoices", "memo")\n'})
    assert code == 0
    answer = json.loads(out)["hookSpecificOutput"]
    assert answer["hookEventName"] == "PreToolUse"
    assert "permissionDecision" not in answer
    assert answer["additionalContext"].splitlines()[1].startswith(
        "BEFORE drop a column from a database table: Check the reporting views and stop reading the column first (MEM-")
    events = [json.loads(line) for line in (guarded.root / ".loa" / "usage.jsonl").read_text().splitlines()]
    assert [e["source"] for e in events if e["type"] == "fired"][-1:] == ["action"]
    assert events[-1]["session_id"] == "s1"


@needs_model
def test_silent_on_a_near_miss(guarded: Cli) -> None:
    content = 'def upgrade():\n    op.add_column("invoices", sa.Column("memo"))\n'
    assert _hook(guarded, "Write", {"file_path": str(guarded.root / "migrations/0043_memo.py"),
                                    "content": content}) == (0, "")


@needs_model
def test_silent_on_a_harmless_command(guarded: Cli) -> None:
    assert _hook(guarded, "Bash", {"command": "git status", "description": "Show status"}) == (0, "")


@needs_model
def test_silent_when_the_call_lacks_the_guarded_action(guarded: Cli) -> None:
    """A plain push is close in meaning to "force push to a shared branch", but the classifier sees no force push:
    the correction guards an action this call does not perform."""
    assert _hook(guarded, "Bash", {"command": "git push origin release/3.1",
                                   "description": "Push the release branch to origin"}) == (0, "")


@needs_model
def test_applies_to_fires_without_an_action_class(loa: Cli) -> None:
    entry = {**PUSH, "summary": "Editing the release workflow broke tagging", "applies_to": [".github/workflows/*.yml"],
             "triggers": ["force push to a shared branch"]}
    assert loa("add", "--from-json", "-", input=json.dumps(entry)).exit_code == 0
    code, out = _hook(loa, "Edit", {"file_path": str(loa.root / ".github/workflows/release.yml"),
                                    "old_string": "git push origin", "new_string": "git push --tags origin"})
    assert code == 0 and "Editing the release workflow" not in out  # the lesson is shown, by its trigger
    assert "BEFORE force push to a shared branch" in json.loads(out)["hookSpecificOutput"]["additionalContext"]


@pytest.mark.parametrize(("tool", "tool_input"), [
    ("Read", {"file_path": "/repo/migrations/0042_cleanup.py"}),
    ("Grep", {"pattern": "drop_column"}),
    ("Glob", {"pattern": "**/*.sql"}),
    ("WebFetch", {"url": "https://example.com", "prompt": "x"}),
    ("Bash", {"command": "  "}),
])
def test_silent_on_tools_that_change_nothing(loa: Cli, tool: str, tool_input: dict[str, Any]) -> None:
    assert loa("add", "--from-json", "-", input=json.dumps(DROP)).exit_code == 0
    assert _hook(loa, tool, tool_input) == (0, "")
    assert not (loa.root / ".loa" / "usage.jsonl").exists()  # nothing matched, nothing logged


@needs_model
def test_a_blocking_lesson_asks(guarded: Cli) -> None:
    change = 'cur.execute(f"SELECT * FROM products WHERE name = \'{term}\'")'
    code, out = _hook(guarded, "Edit", {"file_path": str(guarded.root / "api/search.py"), "old_string": "rows = []",
                                         "new_string": change})
    assert code == 0
    answer = json.loads(out)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "ask"
    assert answer["permissionDecisionReason"].startswith(
        "BEFORE build a SQL query from user input with string formatting: Use bound parameters (MEM-")
    assert "additionalContext" not in answer


@needs_model
def test_several_triggers_fire_with_the_one_that_matched(guarded: Cli) -> None:
    code, out = _hook(guarded, "Bash", {"command": "git push -f origin release/3.1",
                                         "description": "Push the rebased branch"})
    assert code == 0
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "BEFORE force push to a shared branch: Push a new branch and open a pull request instead (MEM-" in context


def test_schema_knows_the_new_fields() -> None:
    schema = load_schema("memory")
    base = {"id": "MEM-20260101-001", "source": {"session_id": "s1", "timestamp": "2026-01-01T00:00:00Z"}, **PUSH,
            "applies_to": ["billing/ledger/**"], "severity": "block"}
    assert validate(base, schema) == []
    assert validate({**base, "trigger": "force push"}, schema) == []
    assert validate({**base, "severity": "loud"}, schema)
    assert validate({**base, "triggers": []}, schema)
    assert validate({**base, "applies_to": "billing/**"}, schema)
    no_trigger = {k: v for k, v in base.items() if k != "triggers"}
    assert validate(no_trigger, schema)


BACKFILL = {"category": "correction", "summary": "A new DAG backfilled two years of runs", "confidence": 0.9,
            "content": "sync_crm got start_date 2024-01-01 and Airflow queued every missed day at once.",
            "trigger": "create a new Airflow DAG",
            "lesson": "Set catchup=False explicitly unless a backfill is intended"}
DAG = ('from airflow import DAG\n\nwith DAG(dag_id="refresh_fx_rates", start_date=datetime(2024, 1, 1),\n'
       '         schedule="0 17 * * 1-5"{}) as dag:\n    fetch = PythonOperator(task_id="fetch")\n')


def _dag_hooks(loa: Cli, entry: dict[str, Any]) -> tuple[tuple[int, str], tuple[int, str]]:
    """The hook's answers, with ``entry`` added, to writing a DAG without ``catchup`` and one with catchup=False."""
    assert loa("add", "--from-json", "-", input=json.dumps(entry)).exit_code == 0
    path = str(loa.root / "dags/refresh_fx_rates.py")
    return (_hook(loa, "Write", {"file_path": path, "content": DAG.format("")}),
            _hook(loa, "Write", {"file_path": path, "content": DAG.format(", catchup=False")}))


@needs_model
def test_silent_when_the_call_already_follows_the_lesson(loa: Cli) -> None:
    """A near miss in the correction's own files and words that does the right thing: the DAG sets catchup=False."""
    (code, out), near_miss = _dag_hooks(loa, {**BACKFILL, "applies_to": ["dags/**"]})
    assert code == 0 and "BEFORE create a new Airflow DAG: Set catchup=False" in out
    assert near_miss == (0, "")


PUBLIC = {"category": "correction", "summary": "A public-read ACL on the exports bucket exposed invoices",
          "content": "`infra/exports.tf` gave the bucket `acl = \"public-read\"` so emailed links would work.",
          "trigger": "making an S3 bucket or its objects publicly readable", "confidence": 0.9,
          "lesson": "Keep buckets private with `aws_s3_bucket_public_access_block` and share presigned URLs."}
BLOCK = ('resource "aws_s3_bucket_public_access_block" "media" {{\n  bucket = aws_s3_bucket.media.id\n'
         "  block_public_acls = {0}\n  block_public_policy = {0}\n  restrict_public_buckets = {0}\n}}\n")


@needs_model
def test_the_lessons_own_fix_turned_off_is_still_the_guarded_action(loa: Cli) -> None:
    """A call that carries the lesson's `aws_s3_bucket_public_access_block` with every block off performs the public
    bucket the trigger names: it fires; the same block turned on follows the lesson and stays silent."""
    assert loa("add", "--from-json", "-", input=json.dumps(PUBLIC)).exit_code == 0
    path = str(loa.root / "infra/media/main.tf")
    code, out = _hook(loa, "Write", {"file_path": path, "content": BLOCK.format("false")})
    assert code == 0 and "BEFORE making an S3 bucket or its objects publicly readable" in out
    assert _hook(loa, "Write", {"file_path": path, "content": BLOCK.format("true")}) == (0, "")


@needs_model
def test_a_grimoire_of_few_memories_fires_on_meaning(loa: Cli) -> None:
    """Among a few memories how rare a name is says little: the bar is meaning's, as it was before names counted."""
    quoted = "Set `catchup=False` unless a backfill is intended"
    (code, out), near_miss = _dag_hooks(loa, {**BACKFILL, "lesson": quoted})
    assert code == 0 and "BEFORE create a new Airflow DAG" in out
    assert near_miss == (0, "")


@needs_model
def test_silent_on_documentation_and_on_commands_that_only_look(loa: Cli) -> None:
    """A runbook about DAGs and the DAG's tests are the lesson's area, not its action; the DAG itself fires."""
    (code, out), _ = _dag_hooks(loa, BACKFILL)
    assert code == 0 and "BEFORE create a new Airflow DAG" in out
    runbook = ("# Creating a new Airflow DAG\n\nGive every new DAG a start_date and a schedule; backfills go through "
               "`airflow dags backfill`.\n")
    assert _hook(loa, "Write", {"file_path": str(loa.root / "docs/runbooks/airflow-dags.md"),
                                "content": runbook}) == (0, "")
    assert _hook(loa, "Bash", {"command": "pytest tests/dags/test_refresh_fx_rates.py -q",
                               "description": "Run the tests of the new Airflow DAG"}) == (0, "")



@needs_model
def test_a_test_file_fires_only_a_correction_about_tests(loa: Cli) -> None:
    """A test that builds a DAG to try a helper on exercises what the lesson is about without being it: silent,
    unless the correction speaks of tests."""
    (code, out), _ = _dag_hooks(loa, BACKFILL)
    assert code == 0 and "BEFORE create a new Airflow DAG" in out
    path = str(loa.root / "tests/dags/test_refresh_fx_rates.py")
    test = DAG.format("") + "\n\ndef test_fetch_is_first():\n    assert dag.tasks[0].task_id == 'fetch'\n"
    assert _hook(loa, "Write", {"file_path": path, "content": test}) == (0, "")
    about = {**BACKFILL, "trigger": "write tests for a new Airflow DAG",
             "lesson": "Load the DagBag in the test and assert it has no import errors"}
    assert loa("add", "--from-json", "-", input=json.dumps(about)).exit_code == 0
    code, out = _hook(loa, "Write", {"file_path": path, "content": test})
    assert code == 0 and "BEFORE write tests for a new Airflow DAG" in out


@needs_model
def test_only_the_trigger_names_the_action_that_silences(loa: Cli) -> None:
    """A summary tells the incident ("...and deleted the staging rows"), not always the guarded action: the DAG the
    trigger guards fires though it deletes nothing."""
    (code, out), _ = _dag_hooks(loa, {**BACKFILL, "summary": "A new DAG backfilled two years of runs and deleted "
                                                             "the staging rows of each day"})
    assert code == 0 and "BEFORE create a new Airflow DAG" in out


@needs_model
def test_a_redis_write_with_an_expiry_is_silent_and_one_without_gets_the_cue(loa: Cli) -> None:
    """"Write cache entries to Redis" names a Redis write: the one without an expiry gets the cue, the one with an
    expiry (the write done right, ``classes.done_right``) stays silent."""
    ttl = {"category": "correction", "summary": "Cache keys without a TTL filled the Redis instance",
           "content": "The rates cache wrote every response forever until maxmemory evicted the sessions.",
           "trigger": "write cache entries to Redis", "lesson": "Give every cache key an expiry", "confidence": 0.9}
    assert loa("add", "--from-json", "-", input=json.dumps(ttl)).exit_code == 0
    path = str(loa.root / "app/fx/rates.py")
    right = {"file_path": path, "old_string": "    return rates\n",
             "new_string": "    redis_client.set(f'fx:{day}', json.dumps(rates), ex=3600)\n    return rates\n"}
    wrong = {**right, "new_string": "    redis_client.set(f'fx:{day}', json.dumps(rates))\n    return rates\n"}
    assert _hook(loa, "Edit", right) == (0, "")
    code, out = _hook(loa, "Edit", wrong)
    assert code == 0 and "Give every cache key an expiry" in out


ERRORS = {"category": "preference", "summary": "API handlers return errors through HttpError, never a bare dict",
          "content": "Our API error responses all go through api/errors.HttpError so clients get one shape.",
          "context": "writing or changing an API handler", "applies_to": ["api/handlers/**"], "confidence": 0.9}
BROADER = {**ERRORS, "summary": "Log through the request logger", "context": "logging in the API",
           "content": "Use request.logger so every line carries the request id.", "applies_to": ["api/**"]}


@needs_model
def test_a_preference_applies_to_the_files_it_names(guarded: Cli) -> None:
    for entry in (ERRORS, BROADER):
        assert guarded("add", "--from-json", "-", input=json.dumps(entry)).exit_code == 0
    edit = {"file_path": str(guarded.root / "api/handlers/users.py"), "old_string": "pass",
            "new_string": "return {'error': 'not found'}, 404"}
    _code, out = _hook(guarded, "Edit", edit)
    lines = json.loads(out)["hookSpecificOutput"]["additionalContext"].splitlines()
    # one preference: of those whose globs hold the file, the most specific glob
    assert lines[1:] == [f"PREFER (when writing or changing an API handler): {ERRORS['summary']} ("
                         + lines[1].rsplit("(", 1)[1]]
    assert _hook(guarded, "Edit", {**edit, "file_path": str(guarded.root / "web/src/users.ts")}) == (0, "")
    # after the corrections that fire on the same call
    _code, out = _hook(guarded, "Write", {"file_path": str(guarded.root / "api/handlers/migrate_memo.py"),
                                           "content": 'def upgrade():\n    op.drop_column("invoices", "memo")\n'})
    lines = json.loads(out)["hookSpecificOutput"]["additionalContext"].splitlines()
    assert [line.split(" ", 1)[0] for line in lines[1:]] == ["BEFORE", "PREFER"]


MIGRATIONS = {"category": "procedure", "summary": "Writing a migration in this repository",
              "content": "How a schema change ships here.", "confidence": 0.9, "applies_to": ["migrations/**"],
              "steps": ["Generate it with alembic revision --autogenerate", "Read every operation",
                        "Run it against a copy of production", "Add the down migration"]}


@needs_model
def test_a_procedure_applies_to_the_files_it_names(guarded: Cli) -> None:
    added = guarded.json("add", "--from-json", "-", input=json.dumps(MIGRATIONS))["id"]
    _code, out = _hook(guarded, "Write", {"file_path": str(guarded.root / "migrations/0042_cleanup.py"),
                                           "content": 'def upgrade():\n    op.drop_column("invoices", "memo")\n'})
    lines = json.loads(out)["hookSpecificOutput"]["additionalContext"].splitlines()
    assert lines[1].startswith("BEFORE drop a column")
    assert lines[2:] == [f"FOLLOW Writing a migration in this repository ({added}; its steps: loa-memory show {added})"]
    assert _hook(guarded, "Bash", {"command": "cat migrations/0041_orders.py", "description": "Read it"}) == (0, "")


RELEASE = {"category": "correction", "summary": "A debuggable release build reached the Play Store",
           "content": "app/build.gradle.kts had isDebuggable = true in the release block for a tester's bug.",
           "trigger": "change the Android release build type in app/build.gradle.kts",
           "lesson": "Keep isDebuggable false in release builds; debug with a separate internal build variant",
           "confidence": 0.9}
TARGET_SDK = {"category": "correction", "summary": "Raising targetSdk broke notifications on Android 13",
              "content": "targetSdk went to 33 without asking for POST_NOTIFICATIONS.",
              "trigger": "raise the Android target SDK level",
              "lesson": "Read the platform's behaviour changes for the new targetSdk and test on a device at that "
                        "level",
              "confidence": 0.9}


@needs_model
def test_an_edit_of_values_only_fires_the_correction_about_what_it_changes(loa: Cli) -> None:
    """A version bump in the build file a release lesson is about tunes a value, not the release build type: silent;
    raising targetSdk is the SDK lesson's own setting, and a debuggable release is no mere value."""
    for entry in (RELEASE, TARGET_SDK):
        assert loa("add", "--from-json", "-", input=json.dumps(entry)).exit_code == 0
    path = str(loa.root / "app/build.gradle.kts")
    bump = {"file_path": path, "old_string": '        versionCode = 412\n        versionName = "4.12.0"',
            "new_string": '        versionCode = 413\n        versionName = "4.13.0"'}
    assert _hook(loa, "Edit", bump) == (0, "")
    code, out = _hook(loa, "Edit", {"file_path": path, "old_string": "        targetSdk = 33",
                                    "new_string": "        targetSdk = 34"})
    assert code == 0 and "BEFORE raise the Android target SDK level" in out
    code, out = _hook(loa, "Edit", {"file_path": path, "old_string": "            isDebuggable = false",
                                    "new_string": "            isDebuggable = true"})
    assert code == 0 and "BEFORE change the Android release build type" in out


LIVENESS = {"category": "correction", "summary": "A liveness probe that checked Postgres restarted every pod",
            "content": "The api's livenessProbe called /health/db; a slow primary failed it and the kubelet restarted "
                       "all replicas at once.",
            "trigger": "pointing a Kubernetes liveness probe at a check of the database",
            "lesson": "Keep liveness to the process itself; put dependency checks in the readiness probe",
            "confidence": 0.9}


@needs_model
def test_an_edit_is_read_under_the_keys_of_the_file_that_enclose_it(loa: Cli) -> None:
    """Claude Code's Edit of a probe's check carries only the changed line; the file on disk says whose check it
    is: the liveness probe's fires, the readiness probe's is silent."""
    from tests.answer.test_enclosing_lines import DEPLOYMENT

    assert loa("add", "--from-json", "-", input=json.dumps(LIVENESS)).exit_code == 0
    manifest = loa.root / "k8s" / "api.yaml"
    manifest.parent.mkdir()
    manifest.write_text(DEPLOYMENT)
    code, out = _hook(loa, "Edit", {"file_path": "k8s/api.yaml", "old_string": "path: /livez",
                                    "new_string": "path: /health/db"})
    assert code == 0 and "BEFORE pointing a Kubernetes liveness probe" in out
    assert _hook(loa, "Edit", {"file_path": str(manifest), "old_string": "path: /ready",
                               "new_string": "path: /health/db"}) == (0, "")


GO_MAP = {"category": "correction", "summary": "Concurrent map writes crashed the tenant service",
          "content": "The session cache's map was written from every HTTP handler with no lock: fatal error: "
                     "concurrent map writes, twice in one night.",
          "trigger": "sharing a map between goroutines in Go", "confidence": 0.9,
          "lesson": "Guard a map that handlers share with a sync.Mutex, or use sync.Map"}


@needs_model
def test_an_edit_is_read_in_the_file_it_leaves(loa: Cli) -> None:
    """A map write edited in a file that locks around it is not the mistake; in a file that never locks, it is."""
    from tests.answer.test_enclosing_lines import TENANTS

    assert loa("add", "--from-json", "-", input=json.dumps(GO_MAP)).exit_code == 0
    source = loa.root / "internal" / "cache" / "tenants.go"
    source.parent.mkdir(parents=True)
    edit = {"file_path": str(source), "old_string": "\tc.items[id] = t",
            "new_string": "\tc.items[strings.ToLower(id)] = t"}
    source.write_text(TENANTS)
    assert _hook(loa, "Edit", edit) == (0, "")
    source.write_text(TENANTS.replace("\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n", "").replace("\tmu    sync.Mutex\n", ""))
    code, out = _hook(loa, "Edit", edit)
    assert code == 0 and "BEFORE sharing a map between goroutines in Go" in out


@needs_model
def test_a_lesson_about_another_language_stays_silent(loa: Cli) -> None:
    """Publishing a Rust crate and publishing an npm package are one action class: the lesson whose trigger names
    Rust fires for ``cargo publish``, not for ``npm publish`` (``answer/cues/stacks.py``)."""
    crate = {"category": "correction", "summary": "A crate went out with the workspace's private path dependency",
             "content": "billing-core 0.4.0 was published with a path dependency on an unpublished crate.",
             "trigger": "publishing a Rust crate to crates.io", "confidence": 0.9,
             "lesson": "Run the publish dry run from a clean checkout and check every dependency has a version"}
    assert loa("add", "--from-json", "-", input=json.dumps(crate)).exit_code == 0
    code, out = _hook(loa, "Bash", {"command": "cd crates/ledger && cargo publish"})
    assert code == 0 and "publish dry run" in out
    assert _hook(loa, "Bash", {"command": "cd packages/charts && npm publish --access public"}) == (0, "")
