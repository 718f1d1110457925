"""What a tool call shares with a correction beyond meaning: the names it uses (``words.py``) and whether it already
does what the lesson prescribes (``comply.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loa_memory.answer.cues.comply import follows_lesson, mistaken, prescribed, repeats_mistake
from loa_memory.answer.cues.words import build_table, words
from loa_memory.model import Entry


def _correction(**fields: Any) -> Entry:
    data = {"id": "MEM-20261126-001", "category": "correction", "summary": "", "content": "", **fields}
    return Entry(data, "default", "grimoires/loa/memory/corrections.yaml", 1)


AIRFLOW = _correction(summary="A new DAG backfilled two years of runs", trigger="create a new Airflow DAG",
                      content="The sync DAG got a start_date in 2024 and Airflow scheduled every missed interval.",
                      lesson="Set catchup=False explicitly unless a backfill is intended; run backfills with "
                             "`airflow dags backfill`.")
PROTO = _correction(summary="Reused a protobuf field number", trigger="remove or replace a field in a protobuf message",
                    content="coupon_code = 7 was removed and discount_cents = 7 added in the same PR.",
                    lesson="Never reuse a field number: put the old number in a `reserved` statement and give the "
                           "new field a fresh number.")
MONEY = _correction(summary="BigDecimal equality refused refunds", trigger="compare BigDecimal money amounts",
                    content="10.0 and 10.00 were not equal, so full refunds were treated as partial.",
                    lesson="Compare with compareTo(...) == 0; never use equals for money.")
CLEAN = _correction(summary="git clean deleted a colleague's notes", trigger="clean the working tree",
                    content="An untracked docs folder was removed by a clean of the whole checkout.",
                    lesson="Run `git clean -n` first and show the list; never use -x without consent.")

DATES = _correction(trigger="format dates in shared Java code", summary="Corrupted CSV dates",
                    lesson="Use `java.time.format.DateTimeFormatter`, which is immutable and thread-safe.")
RESTART = _correction(trigger="restart pods to pick up a ConfigMap", summary="Deleted every pod at once",
                      lesson="Use `kubectl rollout restart deployment/<name>` instead of deleting the pods.")
DEFAULT = _correction(trigger="give a Django field a time default", summary="Every coupon expired at boot",
                      lesson="Pass a callable as the default (`default=timezone.now`), never its result.")
SCAN = _correction(trigger="find or delete Redis keys by pattern on a live instance", summary="KEYS blocked Redis",
                   lesson="Use SCAN (redis-cli --scan --pattern) with a modest COUNT and delete in batches.")
HMAC = _correction(trigger="check an HMAC signature", summary="Webhook signatures compared with ===",
                   lesson="Compare signatures with `crypto.timingSafeEqual` on equal-length buffers.")


@pytest.mark.parametrize(("entry", "change", "spans"), [
    (AIRFLOW, 'with DAG(dag_id="fx", start_date=datetime(2026, 11, 24), catchup=False):', ["catchup=False"]),
    (AIRFLOW, 'with DAG(dag_id="fx", start_date=datetime(2024, 1, 1)):', []),
    (PROTO, "  reserved 7;\n  int64 discount_cents = 10;", ["reserved"]),
    (PROTO, "  int64 discount_cents = 7;", []),
    (MONEY, "if (request.amount.compareTo(captured) == 0) {", ["compareTo(...)"]),
    (MONEY, "if (request.amount == captured) {", []),
    (CLEAN, "git status --short && git clean -nd", ["git clean -n"]),
    (CLEAN, "git clean -fdx", []),
    # a qualified name by its last name, a placeholder by anything
    (DATES, 'DateTimeFormatter.ofPattern("yyyy-MM-dd")', ["java.time.format.DateTimeFormatter"]),
    (DATES, 'new SimpleDateFormat("yyyy-MM-dd")', []),
    (RESTART, "kubectl rollout restart deployment/payments-api", ["kubectl rollout restart deployment/<name>"]),
    (RESTART, "kubectl delete pods -l app=payments-api", []),
    # a setting by its value, not a call of it
    (DEFAULT, "expires_at = models.DateTimeField(default=timezone.now)", ["default=timezone.now"]),
    (DEFAULT, "expires_at = models.DateTimeField(default=timezone.now())", []),
    # a module's function imported by name, when called
    (HMAC, "if (a.length !== b.length || !timingSafeEqual(a, b)) {", ["crypto.timingSafeEqual"]),
    (HMAC, "if (crypto.timingSafeEqual(a, b)) {", ["crypto.timingSafeEqual"]),
    (HMAC, "if (signature === expected) {", []),
    (HMAC, "const timingSafeEqual = false;", []),
    # an example in brackets asks as its clause does, up to a verb of its own ("with a modest COUNT")
    (SCAN, "redis-cli -h cache-2 --scan --pattern 'cart:*' | xargs -n 100 redis-cli -h cache-2 UNLINK",
     ["--pattern", "--scan"]),
    (SCAN, "redis-cli -h cache-2 KEYS 'cart:*' | xargs redis-cli -h cache-2 DEL", []),
])
def test_a_call_that_follows_the_lesson_is_told_apart(entry: Entry, change: str, spans: list[str]) -> None:
    assert follows_lesson(entry, change) == spans


def test_what_the_lesson_forbids_or_the_incident_names_is_not_prescribed() -> None:
    assert "-x" not in prescribed(CLEAN)  # "never use -x"
    entry = _correction(trigger="load account ids from a CSV", content="pd.read_csv inferred the ids as integers.",
                        lesson="Pass dtype=str to pd.read_csv for every id column.")
    assert prescribed(entry) == {"dtype=str"}  # pd.read_csv names what both the mistake and the fix call


def test_a_span_no_verb_asks_for_is_a_moment_or_the_mistake_not_the_fix() -> None:
    moment = _correction(trigger="generate a migration", lesson="Read every operation before `alembic upgrade`.")
    mistake = _correction(trigger="filter a query", lesson="Keep it an IQueryable; AsEnumerable() switches the rest "
                                                           "to client-side evaluation.")
    assert prescribed(moment) == set()
    assert prescribed(mistake) == {"IQueryable"}  # what "keep" asks for; AsEnumerable() is the mistake
    assert follows_lesson(moment, "alembic revision --autogenerate && alembic upgrade head") == []


@settings(derandomize=True, max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.text(alphabet="catchupFalsreomTgiln -=().:x`\n", max_size=200))
def test_a_change_without_the_prescribed_spans_never_follows(text: str) -> None:
    """Whatever else a change holds, it follows a lesson only by carrying one of the lesson's own spans."""
    for entry in (AIRFLOW, PROTO, MONEY, CLEAN):
        for span in follows_lesson(entry, text):
            assert span in prescribed(entry)
            assert span.split("(")[0].split("=")[0] in text  # a setting may be written `catchup: false`


def test_identifiers_are_split_as_code_writes_them() -> None:
    assert {"readcsv", "read", "csv", "dtype"} <= words("df = readCsv(path, dtype=str)")
    assert {"pull_request_target", "pull", "request", "target"} <= words("on: pull_request_target")
    assert "the" not in words("the table") and "to" not in words("go to")


def test_a_rare_shared_name_weighs_more_than_a_common_one() -> None:
    def entry(n: int, text: str) -> tuple[str, Entry]:
        return f"k{n}", _correction(summary=text)

    table = build_table([entry(1, "targetSdk bump broke notifications"), entry(2, "release notes for the app"),
                         entry(3, "app release checklist"), entry(4, "app store screenshots")])
    scores = table.overlap(words("raise targetSdk for the app release"))
    assert scores["k1"] > scores["k2"]  # targetSdk is in one memory, app and release in several
    assert scores["k4"] < scores["k3"]


def test_sql_keywords_and_more_imperatives_count_as_the_fix() -> None:
    index = _correction(trigger="add an index to a big table", content="A plain index build locked events for 40 min.",
                        lesson="Use CREATE INDEX CONCURRENTLY outside a transaction.")
    body = _correction(trigger="make an HTTP call in Go", content="Response bodies leaked connections.",
                       lesson="Right after checking err, defer resp.Body.Close().")
    constraint = _correction(trigger="add a foreign key", content="The ALTER held a lock on orders.",
                             lesson="Add it NOT VALID, then VALIDATE CONSTRAINT in a second step.")
    assert follows_lesson(index, 'psql -c "create index  concurrently idx_a on events (a)"') == [
        "CREATE INDEX CONCURRENTLY"]
    assert follows_lesson(index, 'psql -c "CREATE INDEX idx_a ON events (a)"') == []
    assert follows_lesson(body, "\tdefer resp.Body.Close()\n") == ["resp.Body.Close()"]
    assert "NOT VALID" in prescribed(constraint)  # SQL in capitals is not a negation
    retry = _correction(trigger="retry a charge", lesson="Send a deterministic `idempotency_key` with every charge.")
    assert follows_lesson(retry, 'stripe.Payout.create(amount=a, idempotency_key=f"payout-{p.id}")') == [
        "idempotency_key"]


def test_identifiers_written_as_code_and_any_literal_count_as_the_fix() -> None:
    html = _correction(trigger="render user content as HTML", content="A review's body ran a script in the admin.",
                       lesson="Render it as text; if rich text is needed, sanitize it with DOMPurify first.")
    ddl = _correction(trigger="run a DDL migration on Postgres", content="An ALTER queued behind a long read.",
                      lesson="Start every migration with `SET lock_timeout = '5s'` so it fails fast.")
    hashing = _correction(trigger="store user passwords", content="Passwords were kept as salted sha256.",
                          lesson="Hash passwords with argon2id; never md5 or sha, salted or not.")
    assert follows_lesson(html, "<div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(body) }} />") == [
        "DOMPurify"]
    assert follows_lesson(ddl, "SET lock_timeout = '3s';\nALTER TABLE orders ADD COLUMN note text;") == [
        "SET lock_timeout = '5s'"]
    assert follows_lesson(ddl, "SET statement_timeout = '3s';\nALTER TABLE orders ADD COLUMN note text;") == []
    assert follows_lesson(hashing, "from argon2 import PasswordHasher  # argon2id") == ["argon2id"]
    assert follows_lesson(html, "el.innerHTML = review.body;") == []
    height = _correction(trigger="size a full-screen mobile layout", lesson="Use `100dvh` for full-height layouts.")
    assert follows_lesson(height, "height: 100dvh;") == ["100dvh"]
    assert follows_lesson(height, "height: 100vh;") == []  # a span that is only a literal stands for itself


def test_a_span_after_a_moment_word_names_when_not_what() -> None:
    html = _correction(trigger="render user text as HTML in React",
                       lesson="Render user content as text, or sanitize it with DOMPurify before any "
                              "dangerouslySetInnerHTML.")
    spark = _correction(trigger="overwrite partitions of a Spark table",
                        lesson="Set partitionOverwriteMode=dynamic before writing with mode('overwrite').")
    assert prescribed(html) == {"DOMPurify"}
    assert follows_lesson(html, "<p dangerouslySetInnerHTML={{ __html: linkify(review.body) }} />") == []
    assert follows_lesson(spark, 'df.write.mode("overwrite").parquet(path)') == []


def test_a_setting_is_followed_in_any_syntax_and_only_with_its_value() -> None:
    spark = _correction(trigger="overwrite partitions of a Spark table",
                        lesson="Set spark.sql.sources.partitionOverwriteMode=dynamic before writing.")
    debuggable = _correction(trigger="change the Android release build type",
                             lesson="Keep isDebuggable false in release builds; debug with a separate variant.")
    assert follows_lesson(spark, '.config("spark.sql.sources.partitionOverwriteMode", "dynamic")') != []
    assert follows_lesson(spark, "spark.sql.sources.partitionOverwriteMode: dynamic") != []
    assert follows_lesson(spark, '.config("spark.sql.sources.partitionOverwriteMode", "static")') == []
    assert follows_lesson(debuggable, "isDebuggable = false") == ["isDebuggable=false"]
    assert follows_lesson(debuggable, "isDebuggable = true") == []


def test_a_call_named_with_empty_parentheses_takes_any_arguments() -> None:
    jwt = _correction(trigger="read JWT claims to authorize a request",
                      lesson="Authenticate with jwt.verify() and the expected key; jwt.decode() is for debugging.")
    assert follows_lesson(jwt, "const claims = jwt.verify(token, publicKey, { algorithms })") == ["jwt.verify()"]
    assert follows_lesson(jwt, "const claims = jwt.decode(token)") == []


def test_code_in_backticks_neither_asks_nor_forbids() -> None:
    build = _correction(trigger="build a Docker image in CI", lesson="Keep `--no-cache` on every `docker build`.")
    manifest = _correction(trigger="declare an Android component",
                           lesson='Keep components `exported="false"` unless they must be public.')
    assert prescribed(build) == {"--no-cache", "docker build"}  # the "no" of --no-cache is no negation
    assert follows_lesson(manifest, 'android:exported="false"') == ['exported="false"']
    assert follows_lesson(manifest, 'android:exported="true"') == []  # a quoted switch is no literal like any other


def test_a_transaction_keyword_in_capitals_is_the_fix() -> None:
    fix = _correction(trigger="run a manual data fix against production",
                      lesson="Run manual fixes inside BEGIN, check the row count before COMMIT.")
    assert prescribed(fix) == {"BEGIN"}  # COMMIT names the moment
    script = "psql <<'SQL'\nbegin;\nUPDATE plans SET a = 1 WHERE id = 4;\nrollback;\nSQL"
    assert follows_lesson(fix, script) == ["BEGIN"]
    assert follows_lesson(fix, 'psql -c "UPDATE plans SET a = 1 WHERE id = 4"') == []


def test_a_call_that_carries_the_mistakes_own_code_repeats_it() -> None:
    jwt = _correction(trigger="read claims from a JWT", summary="Unverified tokens were trusted",
                      content="The middleware used jwt.decode, which checks no signature, so forged tokens passed.",
                      lesson="Always use jwt.verify with the issuer's key; never `jwt.decode` for auth.")
    push = _correction(trigger="force push a shared branch", content="`git push --force` dropped two commits.",
                       lesson="Use --force-with-lease, and only on your own branches.")
    assert "jwt.decode" in mistaken(jwt) and "jwt.verify" not in mistaken(jwt)
    assert repeats_mistake(jwt, "const claims = jwt.decode(token) as Claims;") == ["jwt.decode"]
    assert repeats_mistake(jwt, "const claims = jwt.verify(token, key) as Claims;") == []
    assert repeats_mistake(push, "git push --force origin develop") == ["git push --force"]
    assert repeats_mistake(push, "git push --force-with-lease origin feature/x") == []  # a flag is a whole word


def test_what_the_incident_names_as_not_done_stays_the_fix() -> None:
    """"ran `npm install` instead of `npm ci`": the incident names the fix only as not done; a call with `npm ci`
    follows the lesson and repeats nothing."""
    entry = _correction(trigger="install JavaScript dependencies in CI", summary="npm install in CI rewrote the lock",
                        content="The build ran `npm install` instead of `npm ci` and resolved a newer minor.",
                        lesson="Use `npm ci` in CI and image builds so the lockfile is installed exactly.")
    assert follows_lesson(entry, "npm ci && npx vitest run") == ["npm ci"]
    assert repeats_mistake(entry, "npm ci && npx vitest run") == []
    assert repeats_mistake(entry, "npm install --no-audit") == ["npm install"]
    named = _correction(trigger="parse fixed-format dates in Swift", summary="DateFormatter without en_US_POSIX failed",
                        content="The app parsed dates with a `DateFormatter` and no locale.",
                        lesson="Use `ISO8601DateFormatter`, or set the DateFormatter's locale to `en_US_POSIX`.")
    assert prescribed(named) == {"ISO8601DateFormatter", "en_US_POSIX"}  # the DateFormatter itself was used


def test_code_the_incident_says_was_left_out_stays_the_fix() -> None:
    """"forgot `model.eval()` and `torch.no_grad()`": a verb of leaving out names code as not done, and so does each
    span listed after it; an evaluation written with both follows the lesson, one with neither does not."""
    entry = _correction(trigger="writing evaluation loops in PyTorch", summary="Validation ran in training mode",
                        content="Our eval loop forgot `model.eval()` and `torch.no_grad()`, so dropout stayed on.",
                        lesson="Call model.eval() and wrap evaluation in torch.no_grad().")
    assert prescribed(entry) == {"model.eval()", "torch.no_grad()"}
    assert follows_lesson(entry, "@torch.no_grad()\ndef evaluate(model, loader):\n    model.eval()")
    assert not follows_lesson(entry, "def evaluate(model, loader):\n    return [model(x) for x in loader]")
    assert repeats_mistake(entry, "model.eval()") == []
    listed = _correction(trigger="deploy with helm", summary="A failed release stayed half applied",
                         content="The upgrade ran without `--atomic`, `--wait` or `--timeout` and never rolled back.",
                         lesson="Run helm upgrade with `--atomic` and `--timeout 5m`.")
    assert prescribed(listed) == {"--atomic", "--timeout 5m"}
    kept = _correction(trigger="deploy with helm", summary="A failed release stayed half applied",
                       content="It ran without `--atomic`; `--wait` was set.", lesson="Use `--atomic` and `--wait`.")
    assert prescribed(kept) == {"--atomic"}  # a span after the list has ended names what was done
    prose = _correction(trigger="add an index in a Rails migration", content="A migration added an index.",
                        summary="add_index on a large table without algorithm: :concurrently blocked writes",
                        lesson="Build indexes on big tables with `algorithm: :concurrently`.")
    assert prescribed(prose) == {"algorithm: :concurrently"}  # the fix, written as prose where it was not done


def test_joined_clauses_go_on_asking_or_forbidding() -> None:
    """"put the number and name in a `reserved` statement": the clause after "and" has no verb of its own and goes
    on asking; "never check out or run code under `pull_request_target`": the negation goes on over "or"."""
    proto = _correction(trigger="remove a field from a protobuf message", lesson="Never reuse a field number: put "
                        "the old number and name in a `reserved` statement and give the new field a fresh number.")
    assert follows_lesson(proto, 'reserved 7;\nreserved "coupon_code";') == ["reserved"]
    workflow = _correction(trigger="write a workflow for fork pull requests", lesson="Never check out or run PR code "
                           "under `pull_request_target`; build in an unprivileged `pull_request` workflow.")
    assert prescribed(workflow) == {"pull_request"}
    assert "pull_request_target" in mistaken(workflow)


def test_a_command_in_capitals_is_followed_as_an_option_or_a_method() -> None:
    keys = _correction(trigger="find Redis keys by pattern in production",
                       lesson="Iterate with `SCAN` and delete in batches; KEYS is for local debugging only.")
    assert follows_lesson(keys, "redis-cli -h cache --scan --pattern 'cart:*' | xargs redis-cli -h cache UNLINK")
    assert follows_lesson(keys, "for key in r.scan_iter(match='cart:*'):")
    assert not follows_lesson(keys, "# scan every key\nredis-cli -h cache KEYS 'cart:*'")


def test_a_decision_record_tells_its_fix_in_the_incident_too() -> None:
    squash = _correction(trigger="squash commits on a shared branch", summary="Squash-and-merge disabled",
                         content="Decision: disable squash and merge. Squash locally with interactive rebase, and use "
                                 "--force-with-lease.",
                         lesson="Squash locally and regular-merge, and use --force-with-lease when force pushing.")
    assert follows_lesson(squash, "git rebase -i origin/main && git push --force-with-lease origin feat/x")


def test_zero_and_one_stand_only_for_themselves() -> None:
    """A literal stands for any literal, but 0 and 1 turn a setting off or on."""
    pdb = _correction(trigger="write a PodDisruptionBudget", lesson="Use `maxUnavailable: 1` so a pod can be evicted.")
    assert follows_lesson(pdb, "spec:\n  maxUnavailable: 1") == ["maxUnavailable: 1"]
    assert follows_lesson(pdb, "spec:\n  maxUnavailable: 0") == []
    lock = _correction(trigger="run DDL on a hot table", lesson="Set `SET lock_timeout = '5s'` before the DDL.")
    assert follows_lesson(lock, "SET lock_timeout = '3s';") == ["SET lock_timeout = '5s'"]
    assert follows_lesson(lock, "SET lock_timeout = 0;") == []


def test_a_backticked_span_keeps_its_dots() -> None:
    """`COPY . .` and `git add .` end in dots that are code, not the sentence's full stop."""
    docker = _correction(trigger="write a Dockerfile", content="The image did `COPY . .` with no .dockerignore.",
                         lesson="Add a .dockerignore and copy only the paths the image needs.")
    assert "COPY . ." in mistaken(docker)
    assert repeats_mistake(docker, "FROM python:3.12-slim\nCOPY . .\n") == ["COPY . ."]
    assert repeats_mistake(docker, "FROM python:3.12-slim\nCOPY requirements.txt .\n") == []


def test_the_incident_telling_the_remedy_leaves_it_the_fix() -> None:
    """"It had to be rerun with `algorithm: :concurrently`": the incident's remedy is the lesson's fix, not the
    thing both use, so a migration that has it follows the lesson."""
    index = _correction(trigger="add an index in a Rails migration on a large table",
                        content="A plain `add_index` locked the shipments table for eleven minutes. It had to be rerun "
                                "with `algorithm: :concurrently` and `disable_ddl_transaction!`.",
                        lesson="Build indexes with `algorithm: :concurrently` in a migration that calls "
                               "`disable_ddl_transaction!`.")
    migration = "disable_ddl_transaction!\ndef change\n  add_index :refunds, :status, algorithm: :concurrently\nend"
    assert follows_lesson(index, migration) == ["algorithm: :concurrently", "disable_ddl_transaction!"]
    assert follows_lesson(index, "def change\n  add_index :refunds, :status\nend") == []


def test_an_ellipsis_in_the_lesson_stands_for_anything() -> None:
    moved = _correction(trigger="rename a Terraform resource", content="A rename planned a destroy and a create.",
                        lesson="Add a `moved { from = ..., to = ... }` block whenever you rename a resource.")
    block = 'moved {\n  from = aws_s3_bucket.logs\n  to   = aws_s3_bucket.access_logs'
    assert follows_lesson(moved, block) == ["moved { from = ..., to = ... }"]
    assert follows_lesson(moved, 'resource "aws_s3_bucket" "access_logs" {') == []


def test_a_name_inside_a_dotted_path_is_not_the_lesson_s_code() -> None:
    """"build under `pull_request`": github.event.pull_request.head.sha names the event's field, not a workflow on
    pull_request; `React.useMemo(` still carries `useMemo`."""
    entry = _correction(trigger="writing workflows triggered by pull_request_target", summary="A fork's code ran",
                        content="preview.yml checked out the PR head under pull_request_target.",
                        lesson="Build untrusted code under `pull_request` without secrets.")
    head = "on:\n  pull_request_target:\n  ref: ${{ github.event.pull_request.head.sha }}"
    assert follows_lesson(entry, head) == []
    assert follows_lesson(entry, "on:\n  pull_request:\n    branches: [main]") == ["pull_request"]
    memo = _correction(trigger="pass objects to a child", summary="Re-renders", lesson="Wrap it in `useMemo`.")
    assert follows_lesson(memo, "const rows = React.useMemo(() => build(items), [items]);") == ["useMemo"]


def test_the_exception_a_negation_makes_is_the_fix() -> None:
    """"Never put it into `dangerouslySetInnerHTML` without sanitising it with DOMPurify": never X without Y asks for
    Y; X stays forbidden, and a call that sanitises first follows the lesson."""
    for lesson in ("Never put user HTML into `dangerouslySetInnerHTML` without sanitising it with DOMPurify.",
                   "Do not put user content into `dangerouslySetInnerHTML` unless it has gone through DOMPurify."):
        entry = _correction(trigger="render user HTML in React", summary="Stored XSS", lesson=lesson)
        assert prescribed(entry) == {"DOMPurify"}
        assert mistaken(entry) == {"dangerouslySetInnerHTML"}
        assert follows_lesson(entry, "<div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(html) }} />")
    only = _correction(trigger="run subprocesses", summary="Injection", lesson="Pass a list without `shell=True`.")
    assert prescribed(only) == set() and mistaken(only) == {"shell=True"}  # a negation alone forbids


def test_an_example_of_a_clause_asks_or_forbids_as_the_clause_does() -> None:
    """"e.g. ..." and a parenthesis without a verb of their own give an example of the clause before: what it asks
    for ("pass a comparator, e.g. `sort(...)`") or forbids ("never pass -x (`-fdx`)")."""
    sort = _correction(trigger="sort numbers in JavaScript", summary="Prices sorted as strings",
                       lesson="Always pass a comparator when sorting numbers, e.g. `sort((a, b) => a - b)`.")
    assert follows_lesson(sort, "const sorted = [...samples].sort((a, b) => a - b);") == ["sort((a, b) => a - b)"]
    assert follows_lesson(sort, "const sorted = [...samples].sort();") == []
    aware = _correction(trigger="compare stored timestamps in Python", summary="Holds expired an hour late",
                        lesson="Use timezone-aware UTC datetimes (`datetime.now(timezone.utc)`) everywhere.")
    assert follows_lesson(aware, "now = datetime.now(timezone.utc)") == ["datetime.now(timezone.utc)"]
    clean = _correction(trigger="clean a checkout", summary="Lost the local config",
                        lesson="Never pass -x to git clean (e.g. `-fdx`) in a deploy checkout.")
    assert prescribed(clean) == set() and "-fdx" in mistaken(clean)
    own = _correction(trigger="clean a checkout", summary="Lost the local config",
                      lesson="Delete the build folder (never `git clean -fdx`) instead.")
    assert prescribed(own) == set()  # the parenthesis forbids on its own


def test_a_call_the_mistake_made_too_is_not_followed_by_its_name() -> None:
    """The incident passed an f-string to `cursor.execute`: `cursor.execute(sql, params)` with any arguments would
    be the mistake's own call; a counterfactual ("... would have stopped only that query") still tells the fix."""
    sql = _correction(trigger="build SQL from user input", summary="Injectable search",
                      content="The search built its WHERE clause with an f-string and passed it to `cursor.execute`.",
                      lesson="Pass values as bound parameters (`cursor.execute(sql, params)` or the ORM).")
    assert "cursor.execute(sql, params)" not in prescribed(sql)
    assert follows_lesson(sql, "cursor.execute(f\"SELECT * FROM users WHERE email = '{email}'\")") == []
    kill = _correction(trigger="stop a long-running Postgres query", summary="kill -9 restarted the cluster",
                       content="A runaway query was stopped with `sudo kill -9` on its backend. "
                               "`pg_cancel_backend` would have stopped only that query.",
                       lesson="Use `pg_cancel_backend(pid)` first; never send SIGKILL to a Postgres process.")
    assert prescribed(kill) == {"pg_cancel_backend(pid)"}


def test_a_call_with_elided_arguments_is_followed_by_the_options_it_names() -> None:
    """`jwt.verify(token, key, { algorithms: [...] })`: the token and key are the user's own names; a call of
    jwt.verify that sets algorithms follows it, one that sets none does not."""
    jwt = _correction(trigger="read claims from a JWT", summary="Forged admin tokens accepted",
                      content="The middleware used `jwt.decode` and trusted the claims.",
                      lesson="Authenticate with `jwt.verify(token, key, { algorithms: [...] })`.")
    assert follows_lesson(jwt, 'const c = jwt.verify(raw, config.publicKey, {\n  algorithms: ["RS256"],\n});')
    assert follows_lesson(jwt, "const c = jwt.verify(raw, config.publicKey);") == []


def test_a_lesson_opening_with_any_verb_asks_for_what_it_puts_somewhere() -> None:
    main_queue = _correction(trigger="update UIKit views from network callbacks", summary="A crash in reloadData",
                             lesson="Hop to the main queue (`DispatchQueue.main.async` or `@MainActor`) before "
                                    "touching UIKit.")
    assert follows_lesson(main_queue, "DispatchQueue.main.async {\n    self.tableView.reloadData()\n}") == [
        "DispatchQueue.main.async"]
    scope = _correction(trigger="start coroutines from a ViewModel", summary="Work outlived the screen",
                        lesson="Launch coroutines in `viewModelScope`; never use `GlobalScope` for screen work.")
    assert prescribed(scope) == frozenset({"viewModelScope"})
    assert mistaken(scope) == frozenset({"GlobalScope"})
    # the verb's object is what the lesson is about, not the fix
    budget = _correction(trigger="write a PodDisruptionBudget", summary="A drain evicted nothing",
                         lesson="Size a `PodDisruptionBudget` so one pod can be evicted; never `maxUnavailable: 0`.")
    assert prescribed(budget) == frozenset()
    context = _correction(trigger="write a data migration", summary="Historical models",
                          lesson="Inside `RunPython`, get models with `apps.get_model('app', 'Model')`.")
    assert prescribed(context) == frozenset({"apps.get_model('app', 'Model')"})
