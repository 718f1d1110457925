"""Calls that only write documentation or only look, build or test (``inert.py``): meaning alone never fires on
them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loa_memory.answer.cues.action import Action
from loa_memory.answer.cues.inert import inert, only_comments, only_tests, only_values

LOOKING = ["git status --short && git log --oneline -5", "pytest tests/webhooks -q -x 2>&1 | tail -20",
           "kubectl --context prod-eu -n media get deploy thumbnail-worker -o jsonpath='{.spec.replicas}'",
           "cd infra/prod && terraform init -input=false && terraform plan -var-file=prod.tfvars -out=tfplan",
           "docker compose ps && docker compose logs --tail=100 web", "go test ./internal/... -count=1",
           "npx tsc --noEmit -p tsconfig.json && npx vitest run src/cart", "rg -n 'TODO|FIXME' src/ | head -50",
           "python manage.py test accounts --parallel 4", "cd web && npm outdated --long",
           "redis-cli -h redis.prod -a \"$REDIS_PASSWORD\" --no-auth-warning info keyspace",
           "redis-cli -h cache.prod --scan --pattern 'cart:v1:*' --count 1000 | wc -l",
           "git clean -n -d", "git clean -nd", "kubectl apply -f k8s/api/ --dry-run=server",
           "aws s3 sync ./dist s3://web-prod --delete --dryrun",
           "ansible-playbook -i inventories/production site.yml --check --limit web-01",
           "ansible-inventory -i inventories/production/hosts.ini --graph web",
           # with sudo, on another host through ssh, and Argo CD's read-only commands
           "sudo du -sh /var/log/nginx/* | sort -h", "ssh -p 2222 ops@api-02 'df -h /; sudo du -sh /var/lib/docker'",
           "ssh -t -i ~/.ssh/ops.pem ops@api-02 'sudo tail -n 100 /var/log/app/app.log'",
           "argocd app get payments --refresh && argocd app diff payments",
           # Redis commands in capitals, a crontab listed, Kafka's tools describing
           "redis-cli -h cache.prod -p 6379 --no-auth-warning -a \"$REDIS_PASSWORD\" INFO memory | grep used_memory",
           "ssh etl-03 'sudo crontab -l -u warehouse'",
           "kafka-consumer-groups.sh --bootstrap-server kafka-1:9092 --describe --group order-projector",
           # a broker's and the clouds' listings, a read-only fetch
           "rabbitmqctl -n rabbit@mq-prod-02 list_queues -p fulfilment name messages consumers | sort -k3 -n",
           "aws rds describe-db-instances --region eu-west-1 --output table",
           "aws --profile prod s3 ls s3://reports/q4/ --summarize", "aws sts get-caller-identity",
           "gcloud compute instances list --project acme-prod", "az aks show -g rg-prod -n aks-prod",
           "cd apps/ios && bundle exec fastlane match development --readonly",
           # a host's and the network's state
           "dig +noall +answer auth.acme.io && aws route53 list-resource-record-sets --hosted-zone-id Z0482",
           "sudo systemctl status nginx --no-pager && journalctl -u nginx -n 50 --no-pager",
           "openssl s_client -connect api.acme.io:443 -servername api.acme.io </dev/null | openssl x509 -noout -dates"]
CHANGING = ["git push -f origin develop", "kubectl -n api delete pod api-7f9c", "terraform apply -auto-approve",
            "echo 'export TOKEN=x' > .env", "find . -name '*.pyc' -delete", "wc -l $(git ls-files)",
            "redis-cli -h cache.prod KEYS 'cart:*'", "pytest -q && git push origin main",
            "redis-cli -h cache.prod --scan --pattern 'cart:*' | xargs redis-cli -h cache.prod UNLINK",
            "redis-cli -h cache.prod -n 2 FLUSHDB",
            "psql \"$DATABASE_URL\" -c 'DROP TABLE events'", "cat <<'EOF' > deploy.sh\nrm -rf /srv/app\nEOF",
           "git clean -fdx", "psql \"$URL\" -f fix.sql", "sudo rm -f /var/log/app/app.log",
            "ssh ops@api-02 'sudo truncate -s 0 /var/log/app.log'", "ssh ops@api-02 'df -h' > disk.txt",
            "argocd app sync payments --prune", "crontab -r", "redis-cli -h cache.prod FLUSHALL",
            "rabbitmqctl -p fulfilment purge_queue shipments.retry",
            "aws secretsmanager get-secret-value --secret-id db", "aws s3 rm s3://reports/q4/ --recursive",
            "gcloud secrets delete db-password",
            "aws ec2 terminate-instances --instance-ids i-0abc", "sudo systemctl restart nginx",
            "kafka-consumer-groups.sh --bootstrap-server k:9092 --group g --reset-offsets --to-latest --execute "
            "--describe", "kafka-topics.sh --bootstrap-server k:9092 --alter --topic t --partitions 12",
           # a query that only reads can be the mistake: a whole partitioned table scanned, a report on the primary
           "bq query --use_legacy_sql=false 'SELECT country, COUNT(*) FROM `prod.analytics.page_views` GROUP BY 1'"]


@pytest.mark.parametrize("command", LOOKING)
def test_commands_that_only_look_build_or_test(command: str) -> None:
    assert inert(Action("command", (), command), ())


@pytest.mark.parametrize("command", CHANGING)
def test_commands_that_change_something(command: str) -> None:
    assert not inert(Action("command", (), command), ())


@pytest.mark.parametrize(("path", "docs"), [("README.md", True), ("docs/runbooks/redis.md", True),
                                            ("ml/churn/README.md", True), ("CHANGELOG.md", True),
                                            ("requirements.txt", False), ("src/app.ts", False),
                                            (".github/workflows/ci.yml", False), ("db/migrate/001.rb", False)])
def test_documentation_files(path: str, docs: bool) -> None:
    assert inert(Action("write", (path,), "text"), (path,)) is docs
    assert not inert(Action("edit", (path, "src/app.ts"), "text"), (path, "src/app.ts"))  # all files must be docs


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.sampled_from(LOOKING), st.sampled_from(CHANGING), st.sampled_from([" && ", "; ", " | ", "\n"]))
def test_one_changing_step_makes_the_command_count(looking: str, changing: str, joint: str) -> None:
    assert not inert(Action("command", (), looking + joint + changing), ())


@pytest.mark.parametrize(("path", "tests"), [
    ("tests/dags/test_refresh.py", True), ("app/test_models.py", True), ("internal/store/repo_test.go", True),
    ("src/cart/LineItems.test.tsx", True), ("src/cart/LineItems.stories.tsx", True), ("spec/models/user_spec.rb", True),
    ("src/test/java/com/acme/SkuFormatterTest.java", True), ("tests/fixtures/orders.json", True),
    ("conftest.py", True), ("lib/wallet/transaction_tile_test.dart", True), ("tests/Unit/InvoiceTest.php", True),
    ("src/cart/LineItems.tsx", False), ("app/models.py", False),
    ("internal/store/repo.go", False), ("app/contest.py", False), ("latest/config.yaml", False),
])
def test_files_that_only_test(path: str, tests: bool) -> None:
    assert only_tests(Action("write", (path,), "text"), (path,)) is tests
    assert not only_tests(Action("edit", (path, "src/app.ts"), "text"), (path, "src/app.ts"))  # all files must be
    assert not only_tests(Action("command", (), "pytest " + path), ())  # a command is read by what it runs


@pytest.mark.parametrize(("old", "new", "values"), [
    ("          node-version: 18", "          node-version: 20", True),
    ('versionCode = 412\nversionName = "4.12.0"', 'versionCode = 413\nversionName = "4.13.0"', True),
    ('LANGUAGE_CODE = "en-us"', 'LANGUAGE_CODE = "en-gb"', True),
    ("SESSION_COOKIE_AGE = 60 * 60 * 24 * 14", "SESSION_COOKIE_AGE = 60 * 60 * 24 * 7", True),
    ('  notice: "Saved."', '  notice: "Profile updated"', True),
    ("DEBUG = False", "DEBUG = True", False),  # a switch, not a value
    ("    timeout: 30", "    timeout: 0", False),
    ('  enabled: "false"', '  enabled: "true"', False),
    ("cache.set(key, value, ex=300)", "cache.set(key, value)", False),
    ("items.sort((a, b) => a - b)", "items.sort()", False),
])
def test_edits_that_change_only_values(old: str, new: str, values: bool) -> None:
    assert only_values(Action("edit", ("f",), new, old)) is values
    assert not only_values(Action("write", ("f",), new))  # a whole file written is more than a value


@pytest.mark.parametrize(("old", "new", "comments"), [
    ("namespace :shipments do", "# Maintenance tasks: bin/rails shipments:<task>\nnamespace :shipments do", True),
    ("SELECT id FROM orders;", "-- only the ids: the rows are large\nSELECT id FROM orders;", True),
    ("foo()\n", "// TODO: batch these\nfoo()\n", True),
    ("int a;", "#define DEBUG 1\nint a;", False),  # the preprocessor is code
    ("aws s3 rm s3://b/p \\", "aws s3 rm s3://b/p \\\n  --recursive", False),  # an option on its own line
    ("foo()", "foo()  # now twice\nfoo()", False),
])
def test_edits_that_change_only_comments_document_the_code(old: str, new: str, comments: bool) -> None:
    assert only_comments(Action("edit", ("f",), new, old)) is comments
    assert inert(Action("edit", ("src/f",), new, old), ("src/f",)) is comments
