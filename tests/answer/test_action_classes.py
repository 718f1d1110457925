"""The action classifier: what a command or a diff does, and what a correction's words guard, in one vocabulary."""

from __future__ import annotations

from pathlib import Path

import pytest

from loa_memory.answer.cues.action import Action, command_paths, relative_paths
from loa_memory.answer.cues.classes import action_classes, prose_classes
from loa_memory.answer.cues.paths import artifact_match, glob_match


def _classes(action: Action) -> set[str]:
    return set(action_classes(action, relative_paths(action, Path("/repo"))))


@pytest.mark.parametrize(("command", "expected"), [
    ("git push -f origin feature/x", {"force-push"}),
    ("git push --force-with-lease", {"force-push"}),
    ("git push origin feature/x", set()),
    ("git push upstream HEAD:main", {"push-main"}),
    ("git rebase -i HEAD~3", {"history-rewrite"}),
    ("git commit --amend --no-edit", {"history-rewrite"}),
    ("git commit --no-verify -m wip", {"skip-hooks"}),
    ("git commit -n -m wip", {"skip-hooks"}),  # -n is --no-verify for commit
    ("git commit -am wip", set()),
    ("docker build -t reg/app:latest . && docker push reg/app:latest", {"unpinned-image"}),
    ("kubectl --context prod -n web set image deploy/web web=reg/web:latest",
     {"unpinned-image", "cluster-hand-change"}),
    ("kubectl -n web set image deploy/web web=reg/web:1.4.2", {"cluster-hand-change"}),
    ("kubectl --context prod -n print get deploy label-printer -o yaml", set()),  # a name is no subcommand
    ("ssh ci 'curl -fsSL https://example.com/setup.sh | sudo -E bash -'", {"curl-pipe-shell"}),
    ("redis-cli -h cache KEYS 'cart:*' | xargs -r redis-cli -h cache DEL", {"data-delete", "redis-keys"}),
    ("kubectl -n data delete pod kafka-broker-2 --grace-period=0 --force", {"infra-destroy", "cluster-hand-change"}),
    ("kubectl -n web set image deploy/web web=reg/web:stable", {"unpinned-image", "cluster-hand-change"}),
    ("git add . && git commit -m 'Fix rounding'", {"git-add-all"}),
    ("git add src/billing/rounding.py && git commit -m 'Fix rounding'", set()),
    ("bin/rails runner 'Product.all.each { |p| p.touch }'", {"unbatched-iteration"}),
    ("bin/rails runner 'Product.find_each { |p| p.touch }'", set()),
    ("mysqldump --single-transaction analytics | zstd -q -o /backups/a.sql.zst", {"no-pipefail"}),
    ("set -o pipefail; pg_dump billing | gzip > /backups/billing.sql.gz", set()),
    ("git add .env config/ && git commit -m 'config'", {"env-file-commit"}),
    ("git add .env.example", set()),
    ("bq query --use_legacy_sql=false 'SELECT * FROM `shop.web.pageviews` WHERE id = 1'", {"select-star"}),
    ("kubectl create configmap mailer --from-literal=SMTP_PASSWORD=\"$SMTP_PASSWORD\"",
     {"configmap-secret", "cluster-hand-change"}),
    ("redis-cli -h cache SET session:1 x", {"redis-no-ttl"}),
    ("redis-cli -h cache SET session:1 x EX 3600", set()),
    ('psql -c "ALTER TABLE users DROP COLUMN nickname"', {"schema-drop"}),
    ('psql -c "CREATE INDEX idx_a ON a (b)"', {"index-create"}),
    ('psql -c "DELETE FROM sessions WHERE id < 10"', {"data-delete"}),
    ('psql -c "SELECT count(*) FROM sessions"', set()),
    ('psql "$PROD_URL" -c "UPDATE projects SET region = \'eu\' WHERE owner_id = 5"', {"data-update"}),
    ("docker compose down -v", {"compose-down-volumes", "data-delete"}),
    ("git clean -fdx", {"recursive-delete"}),
    ("git clean -nd", set()),  # a dry run deletes nothing
    ("npm install left-pad", {"dependency-add"}),
    ("npm install", set()),
    ("pip install -r requirements.txt", set()),
    ("poetry add httpx", {"dependency-add"}),
    ("rm -rf build/", {"recursive-delete"}),
    ("rm notes.txt", set()),
    ("find . -name '*.pyc' -delete", {"recursive-delete"}),
    ("curl -k https://internal/api", {"tls-disable"}),
    ("curl -fsSL https://example.com/install.sh | bash", {"curl-pipe-shell"}),
    ("terraform -chdir=infra apply -auto-approve", {"infra-destroy"}),
    ("terraform plan -out=tfplan", set()),
    ("kubectl delete namespace staging", {"infra-destroy", "cluster-hand-change"}),
    ("npm publish --access public", {"publish-package"}),
    ("git tag v1.2.0", {"push-tags"}),
    ("git tag -a v3.8.1 -m 'widget 3.8.1' && git push origin main --tags", {"push-main", "push-tags"}),
    ("git push origin v3.8.1", {"push-tags"}), ("git push --follow-tags origin feature/x", {"push-tags"}),
    ("docker compose -f compose.yml down --volumes --remove-orphans && docker compose up -d",
     {"compose-down-volumes", "data-delete"}),
    ("docker-compose down -v", {"compose-down-volumes", "data-delete"}),
    ("docker compose down --remove-orphans", set()),
    ("kafka-topics.sh --bootstrap-server k:9092 --alter --topic orders --partitions 36", {"kafka-repartition"}),
    ("kafka-topics.sh --bootstrap-server k:9092 --create --topic orders.v2 --partitions 36", set()),
    ("chmod -R 777 /srv/media", {"permissions-open"}),
    ("chmod 644 README.md", set()),
    ("ls -la", set()),
    ("pytest -q", set()),
    ("aws s3 rm s3://acme-ml/models/churn --recursive", {"data-delete", "recursive-delete"}),
    ("aws s3 rm s3://acme-ml/models/churn/ --recursive --dryrun", set()),  # a preview deletes nothing
    ("gsutil -m rm -r gs://acme-exports/2024", {"data-delete", "recursive-delete"}),
    ("aws rds delete-db-instance --db-instance-identifier qa --skip-final-snapshot", {"deletion-protection-off",
                                                                                        "infra-destroy"}),
    ("aws s3 cp report.pdf s3://acme-public/ --acl public-read", {"public-bucket"}),
    # options before `down`
    ("docker compose -f docker-compose.yml -f staging.yml down -v", {"compose-down-volumes", "data-delete"}),
    ("docker compose -f docker-compose.yml down && docker volume ls", set()),
    ("echo '*/15 * * * * /opt/bin/refresh.sh' | crontab -", {"crontab-replace"}),
    ("(crontab -l; echo '*/15 * * * * /opt/bin/refresh.sh') | crontab -", set()),  # keeps the lines there are
    ("ssh deploy@batch-01 'crontab /tmp/jobs.txt'", {"crontab-replace"}),  # a file installed whole
    ("ssh etl-02 \"echo '30 3 * * * /opt/bin/refresh.sh >> /var/log/r.log 2>&1' | crontab -\"", {"crontab-replace"}),
    ("echo '*/10 * * * * cd /srv/shop && bin/rake sitemap:refresh' | crontab -", {"crontab-replace"}),
    ("echo 'edit the crontab file'", set()),
    ("git add -f config/master.key && git commit -m 'keys for the deploy job'", {"git-add-force"}),
    ("git add --force .env.staging", {"env-file-commit", "git-add-force"}), ("git add -Af config/", {"git-add-force"}),
    ("git add src/app.py && git commit -m 'drop the -f flag'", set()),
    ("git add -A && git commit -m fix && git push origin HEAD:production", {"git-add-all", "push-main"}),
    ("git push origin feature/production-fix", set()),
    ("kubectl --context prod -n search delete pvc data-opensearch-2", {"volume-claim-delete", "infra-destroy",
                                                                       "cluster-hand-change"}),
    ("kubectl -n mq get pvc -l app=rabbitmq", set()),
    ("helm --kube-context prod -n certs uninstall cert-manager", {"helm-uninstall"}),
    ("helm upgrade --install cert-manager jetstack/cert-manager", set()),
    ("aws secretsmanager delete-secret --secret-id prod/x --force-delete-without-recovery", {"secret-purge",
                                                                                             "infra-destroy"}),
    ("aws secretsmanager delete-secret --secret-id prod/x --recovery-window-in-days 30", {"infra-destroy"}),
    ("aws s3 sync docs/dist s3://acme-docs --delete --cache-control max-age=300", {"data-delete"}),
    ("aws s3 sync docs/dist s3://acme-docs --delete --dryrun", set()),  # a preview deletes nothing
    ("ssh ops@tools-01 'docker run -d --name mongo -p 27017:27017 mongo:7.0'", {"public-port"}),
    ("docker run -d -p 127.0.0.1:27017:27017 mongo:7.0", set()),
])
def test_command_classes(command: str, expected: set[str]) -> None:
    assert _classes(Action("command", text=command)) == expected


@pytest.mark.parametrize(("kind", "path", "removed", "text", "expected"), [
    ("write", "migrations/0042.py", "", 'op.drop_column("invoices", "memo")', {"schema-drop"}),
    ("write", "migrations/0043.py", "", 'op.add_column("invoices", sa.Column("memo", sa.Text()))', {"schema-add"}),
    ("edit", "alembic/versions/1a.py", "sa.Integer()", "sa.Numeric(12, 2)", {"migration-edit"}),
    ("write", "db/0044.sql", "", "ALTER TABLE a RENAME COLUMN b TO c;", {"schema-rename"}),
    ("edit", "package.json", '"react": "^18.2.0",', '"chart.js": "^4.4.1",\n"react": "^18.2.0",', {"dependency-add"}),
    ("edit", "package.json", '"react": "^18.2.0",', '"react": "^18.3.1",', set()),
    ("edit", "web/package-lock.json", '"version": "1.0.0"', '"version": "1.0.1"', {"lockfile-edit"}),
    ("write", "svc/Dockerfile", "", "FROM node\nRUN npm ci\n", {"unpinned-image", "docker-root"}),
    ("write", "svc/Dockerfile", "", "FROM node:latest\n", {"unpinned-image", "docker-root"}),
    ("write", "svc/Dockerfile", "", "FROM python:3.12-slim\nUSER app\n", set()),
    ("edit", "app/client.py", "get(url)", "get(url, verify=False)", {"tls-disable"}),
    ("edit", "app/client.py", "get(url)", 'get(url, verify="ca.pem")', set()),
    ("edit", ".github/workflows/ci.yml", "run: make", "run: make\n  env:\n    TOKEN: ${{ secrets.NPM }}",
     {"ci-secrets"}),
    ("edit", ".github/workflows/ci.yml", "run: make", "run: make test", set()),
    ("edit", "tests/test_a.py", "def test_a():", "@pytest.mark.skip\ndef test_a():", {"test-skip"}),
    ("edit", "reports/daily.py", "x = 1", "cutoff = datetime.now()", {"naive-datetime"}),
    ("edit", "reports/daily.py", "x = 1", "cutoff = datetime.now(tz=UTC)", set()),
    ("edit", "api/search.py", "x = 1", 'cur.execute(f"SELECT * FROM t WHERE a = {a}")', {"sql-string"}),
    ("write", "config/mail.py", "", 'MAIL_API_KEY = "xk_test_000000000000"', {"secret-literal"}),
    ("edit", "README.md", "Instal", "Install", set()),
    ("write", "app/report.py", "", 'sql = BASE + " WHERE cohort = \'%s\'" % cohort', {"sql-string"}),
    ("write", "app/report.py", "", 'sql = f"""\n  SELECT id FROM t\n  WHERE slug = \'{slug}\'\n"""', {"sql-string"}),
    ("write", "app/report.py", "", 'cur.execute("SELECT id FROM t WHERE slug = %s", (slug,))', set()),
    ("write", "app/fx.py", "", 'r = session.get(API, params={"s": ",".join(symbols)}, timeout=(3, 10))', set()),
    ("write", "app/fx.py", "", 'r = session.get(API, params={"s": ",".join(symbols)})', {"http-no-timeout"}),
    ("write", "app/fx.py", "", 'redis_client.set(\n    f"fx:{day}",\n    json.dumps(rates),\n    ex=3600,\n)', set()),
    ("write", "app/fx.py", "", 'redis_client.set(f"fx:{day}", json.dumps(rates))\nlog.info("next in %s", ex)',
     {"redis-no-ttl"}),
    ("write", "app/report.py", "", 'sql = f"SELECT total FROM payments WHERE region = \'{region}\'"', {"sql-string"}),
    ("write", "app/report.py", "", "sql = f'SELECT total FROM payments WHERE region = \"{region}\"'", {"sql-string"}),
    ("write", "app/parts.py", "", 'sql = (\n    "SELECT id FROM parts "\n    f"WHERE part_no = \'{q}\' "\n)',
     {"sql-string"}),
    ("write", "app/parts.py", "", 'sql = (\n    "SELECT id FROM parts WHERE a = %s "\n    f"ORDER BY {col} DESC"\n)',
     set()),  # a column sorted by is put in from an allowlist
    ("write", "app/greet.py", "", 'message = "Tom and " + name', set()),
    ("write", "src/pdf.ts", "", "await execAsync(`wkhtmltopdf --title \"${opts.title}\" ${input} ${out}`);",
     {"command-injection"}),
    ("write", "src/pdf.ts", "", "await execFileAsync('wkhtmltopdf', ['--title', opts.title, input, out]);", set()),
    ("write", "accounts/views.py", "", 'return redirect(request.GET.get("next") or "home")', {"open-redirect"}),
    ("write", "accounts/views.py", "", 'return redirect("home")', set()),
    ("write", "src/hooks.ts", "", "if (signature !== expected) return res.status(401).end();", {"timing-compare"}),
    ("write", "src/hooks.ts", "", "if (!crypto.timingSafeEqual(a, b)) return res.status(401).end();", set()),
    ("write", "app/fill.py", "", "for p in Product.objects.filter(sku=''):\n    p.save()", {"unbatched-iteration"}),
    ("write", "app/fill.py", "", "for p in Product.objects.filter(sku='').iterator(chunk_size=2000):\n    p.save()",
     set()),
    ("write", "workers/refunds.py", "", "ch.basic_consume(queue='refunds', on_message_callback=handle, auto_ack=True)",
     {"auto-ack"}),
    ("edit", ".github/workflows/ci.yml", "- run: pytest", "- run: pytest\n  continue-on-error: true",
     {"ci-continue-on-error"}),
    ("write", "scripts/release.sh", "", "#!/usr/bin/env bash\nset -euxo pipefail\nhelm package api", {"shell-trace"}),
    ("write", "scripts/release.sh", "", "#!/usr/bin/env bash\nset -euo pipefail\nhelm package api", set()),
    ("write", "k8s/indexer.yaml", "", "      image: reg/search-indexer:stable", {"unpinned-image"}),
    ("write", "app/quotes.py", "", "redis_client.set(key, json.dumps(quote))", {"redis-no-ttl"}),
    ("write", "app/quotes.py", "", "redis_client.set(key, json.dumps(quote), ex=QUOTE_TTL)", set()),
    ("write", "app/quotes.py", "", 'redis_client.set(key, json.dumps(q, separators=(",", ":")), ex=TTL)', set()),
    ("write", "app/quotes.py", "", 'redis_client.set(key, json.dumps(q, separators=(",", ":")))', {"redis-no-ttl"}),
    ("write", "app/fx.py", "", 'requests.post(URL, data=json.dumps(dict(a=x)), timeout=5)', set()),
    ("write", "app/fx.py", "", "resp = requests.get(\n    f'{BASE}/latest',\n    params={'base': base},\n)",
     {"http-no-timeout"}),
    ("write", "app/fx.py", "", "resp = requests.get(RATES_URL, params=params, timeout=(3.05, 10))", set()),
    ("write", "app/export.py", "", "def build_rows(account, rows=[], seen={}):", {"mutable-default"}),
    ("write", "app/export.py", "", "def build_rows(account, rows=None):", set()),
    ("write", "svc/Dockerfile", "", "FROM node:20-slim\nUSER node\nCMD node dist/index.js", {"cmd-shell-form"}),
    ("write", "svc/Dockerfile", "", 'FROM node:20-slim\nUSER node\nCMD ["node", "dist/index.js"]', set()),
    ("write", "app/lookup.py", "", "async def lookup(code):\n    return requests.get(API, timeout=5).json()",
     {"blocking-in-async"}),
    ("write", "src/sync.ts", "", "items.forEach(async (item) => { await save(item); });", {"async-foreach"}),
    ("write", "src/Bio.tsx", "", "<div dangerouslySetInnerHTML={{ __html: user.bio }} />", {"raw-html"}),
    ("write", "ops/backup.sh", "", "#!/usr/bin/env bash\nset -e\ntar c /srv | zstd > a.zst", {"no-pipefail"}),
    ("write", "svc/Dockerfile", "", "FROM python:3.12-slim\nWORKDIR /app\nCOPY . .", {"copy-all", "docker-root"}),
    ("write", ".env.production", "", "NEXT_PUBLIC_SENDGRID_API_KEY=SG.x", {"public-env-secret"}),
    ("write", "lib/search.ts", "", "const key = process.env.NEXT_PUBLIC_ALGOLIA_ADMIN_KEY!;", {"public-env-secret"}),
    ("write", "lib/db.ts", "", "createClient(url, process.env.NEXT_PUBLIC_SUPABASE_SERVICE_ROLE_KEY)",
     {"public-env-secret"}),
    ("write", "lib/db.ts", "", "createClient(url, process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY)", set()),
    ("write", "internal/metrics.go", "", 'promauto.NewCounterVec(opts, []string{"queue", "user_id"})',
     {"metric-label-id"}),
    ("write", "k8s/mailer.yaml", "", "kind: ConfigMap\ndata:\n  SMTP_PASSWORD: hunter2", {"configmap-secret"}),
    ("write", "App/Api.swift", "", "let order = try! decoder.decode(Order.self, from: data)", {"force-unwrap"}),
    ("write", "lib/report.ex", "", 'group = String.to_atom(params["group_by"])', {"atom-from-input"}),
    ("write", "app/Services/Mail.php", "", "$this->key = env('MAIL_KEY');", {"laravel-env"}),
    ("write", "config/mail.php", "", "'key' => env('MAIL_KEY'),", set()),
    ("write", "shop/jobs.py", "", "Listing.objects.filter(stale=True).update(price=None)", {"data-update"}),
    ("write", "shop/jobs.py", "", "settings.update(price=None)", set()),
    ("write", "src/cart/Items.tsx", "", "{items.map((item, i) => <Row key={i} item={item} />)}", {"index-key"}),
    ("write", "src/cart/Items.tsx", "", "{items.map((item, i) => <Row key={`row-${i}`} />)}", {"index-key"}),
    ("write", "src/cart/Items.tsx", "", "{items.map((item, index) => <Row key={item.id} first={index === 0} />)}",
     set()),
    ("write", "src/cart/Items.vue", "", '<li v-for="(item, index) in items" :key="index">', {"index-key"}),
    ("write", ".github/workflows/preview.yml", "", "on:\n  pull_request_target:\njobs:\n  b:\n    steps:\n"
     "      - uses: actions/checkout@v4", {"pr-target", "ci-secrets"}),
    ("edit", ".github/workflows/preview.yml", "- uses: actions/checkout@v4", "- uses: actions/checkout@v4\n  with:\n"
     "    ref: ${{ github.event.pull_request.head.sha }}", {"pr-target"}),
    ("write", ".github/workflows/ci.yml", "", "on:\n  pull_request:\njobs:\n  t:\n    steps:\n"
     "      - uses: actions/checkout@v4\n      - run: npm ci", set()),
    ("edit", "infra/aurora/main.tf", "  deletion_protection = true\n  skip_final_snapshot = false",
     "  deletion_protection = false\n  skip_final_snapshot = true", {"deletion-protection-off"}),
    ("edit", "infra/aurora/main.tf", "  deletion_protection = false", "  deletion_protection = true", set()),
    ("write", "infra/media/main.tf", "", 'resource "aws_s3_bucket_public_access_block" "m" {\n'
     "  block_public_acls = false\n  block_public_policy = false\n}", {"public-bucket"}),
    ("write", "infra/media/main.tf", "", 'resource "aws_s3_bucket_public_access_block" "m" {\n'
     "  block_public_acls = true\n  block_public_policy = true\n}", set()),
    ("edit", "src/TagPicker.tsx", "", "if (tags.includes(tag)) return;\n    tags.push(tag);\n    setTags(tags);",
     {"state-mutation"}),
    ("edit", "src/TagFilter.tsx", "", "if (i >= 0) { selected.splice(i, 1); } else { selected.push(tag); }\n"
     "setSelected(selected);", {"state-mutation"}),
    ("edit", "src/Profile.tsx", "", "form.email = value;\nsetForm(form);", {"state-mutation"}),
    ("edit", "src/TagPicker.tsx", "", "setTags((prev) => [...prev, tag]);", set()),
    ("edit", "src/Profile.tsx", "", "form.email = value;\nsetForm({ ...form });", set()),
    ("edit", "app/metrics.py", "", 'LATENCY = Histogram("checkout_seconds", "Checkout", ["step", "customer_email"])',
     {"metric-label-id"}),
    ("edit", "app/metrics.py", "", 'LATENCY = Histogram("checkout_seconds", "Checkout", ["step", "status"])', set()),
    ("write", "k8s/api.yaml", "", "      livenessProbe:\n        exec:\n          command: [sh, -c, pg_isready -h db]\n"
     "      readinessProbe:\n", {"liveness-dependency"}),
    ("write", "k8s/api.yaml", "", "      livenessProbe:\n        httpGet:\n          path: /livez\n"
     "      readinessProbe:\n        httpGet:\n          path: /health?include=postgres\n", set()),
    # an edit of the probe's check: its key is an unchanged line above
    ("edit", "k8s/api.yaml", "          path: /livez\n", "      livenessProbe:\n        httpGet:\n"
     "          path: /health/db\n", {"liveness-dependency"}),
    ("write", ".github/workflows/deploy.yml", "", "steps:\n  - uses: actions/checkout@v4\n"
     "  - uses: appleboy/scp-action@master\n", {"action-unpinned"}),
    ("write", ".github/workflows/scan.yml", "", "steps:\n  - uses: actions/checkout@v4\n"
     "  - uses: aquasecurity/trivy-action@18f2510ee396bbf400402947b394f2dd8c87dbb0 # 0.29.0\n", set()),
    ("write", "internal/cache/tenants.go", "", "func (c *TenantCache) Put(id string, t *Tenant) {\n"
     "\tc.items[id] = cachedTenant{tenant: t}\n}\n", {"go-map-shared"}),
    ("write", "internal/geo/cache.go", "", "var lookups = map[string]Location{}\n\n"
     "func remember(a string, l Location) {\n\tlookups[a] = l\n}\n", {"go-map-shared"}),
    ("write", "internal/cache/tenants.go", "", "func (c *TenantCache) Put(id string, t *Tenant) {\n\tc.mu.Lock()\n"
     "\tdefer c.mu.Unlock()\n\tc.items[id] = cachedTenant{tenant: t}\n}\n", set()),
    ("edit", "analytics/attribution.py", "", 'sessions[sessions["channel"].isna()]["channel"] = "direct"',
     {"pandas-chained"}),
    ("edit", "analytics/attribution.py", "", 'sessions.loc[sessions["channel"].isna(), "channel"] = "direct"', set()),
    ("edit", "app/settings.py", "", 'config[section]["debug"] = True', set()),  # nested dicts are not a frame
    ("write", "deploy/compose.yml", "", 'services:\n  db:\n    ports:\n      - "5432:5432"\n', {"public-port"}),
    ("write", "deploy/compose.yml", "", 'services:\n  db:\n    ports:\n      - "127.0.0.1:5432:5432"\n', set()),
    ("write", "monitoring/alerts/api.yml", "", "groups:\n  - name: api\n    rules:\n      - alert: ApiDown\n"
     "        expr: up == 0\n        labels:\n          severity: page\n", {"alert-no-for"}),
    ("write", "monitoring/alerts/api.yml", "", "groups:\n  - name: api\n    rules:\n      - alert: ApiDown\n"
     "        expr: up == 0\n        for: 5m\n", set()),
    # an event's text in the run script itself, an env: block beside it or not; through env: it is a variable
    ("write", ".github/workflows/triage.yml", "", "steps:\n  - name: Pick\n    env:\n      GH_TOKEN: x\n"
     "    run: |\n      title=\"${{ github.event.issue.title }}\"\n", {"event-injection", "ci-secrets"}),
    ("write", ".github/workflows/triage.yml", "", "steps:\n  - name: Pick\n    env:\n"
     "      TITLE: ${{ github.event.issue.title }}\n    run: |\n      echo \"$TITLE\"\n", set()),
])
def test_change_classes(kind: str, path: str, removed: str, text: str, expected: set[str]) -> None:
    assert _classes(Action(kind, (f"/repo/{path}",), text, removed)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("trigger", "expected"), [
    ("drop a column from a database table", {"schema-drop"}),
    ("rename a column in a production table", {"schema-rename"}),
    ("force push to a shared branch", {"force-push"}),
    ("add a new npm package to the web app", {"dependency-add"}),
    ("edit yarn.lock by hand", {"lockfile-edit"}),
    ("turn off SSL certificate checks for an HTTP client", {"tls-disable"}),
    ("modify a migration that has already been applied", {"migration-edit"}),
    ("mark a flaky test as skipped", {"test-skip"}),
    ("update the onboarding email copy", set()),
    # what the words name, not what they brush against
    ("change or remove a field in a public API response", set()),
    ("remove or replace a field in a protobuf message", set()),
    ("remove a field from a Django model", {"schema-drop"}),
    ("installing Node dependencies in CI with npm install", set()),
    ("adding data files to a Python package", set()),
    ("CI cache key that does not include the lockfile hash", set()),
    ("declaring Gradle dependencies with dynamic or latest versions", set()),
    ("deploying a container image by the latest tag", {"unpinned-image"}),
    ("publishing messages to a RabbitMQ queue", set()),
    ("publishing a new version of the SDK", {"publish-package"}),
    ("schedule a cron job in a local time zone", set()),
    ("store timestamps in local time", {"naive-datetime"}),
    ("running a shell command built from user input in Node", {"command-injection"}),
    ("redirecting to a URL taken from the request", {"open-redirect"}),
    ("comparing webhook signatures or API tokens", {"timing-compare"}),
    ("staging changes with git add -A", {"git-add-all"}),
    ("iterating over a whole table in Rails", {"unbatched-iteration"}),
    ("acknowledging messages in a queue consumer", {"auto-ack"}),
    ("making a flaky test step non-blocking in CI", {"ci-continue-on-error"}),
    ("enabling set -x in scripts that handle secrets", {"shell-trace"}),
    ("writing cache entries to Redis", {"redis-no-ttl"}),
    ("building SQL strings from request or user values", {"sql-string"}),
    ("building SQL queries from request input", {"sql-string"}),
    ("calling an external HTTP API with requests or httpx", {"http-no-timeout"}),
    ("adding an outbound HTTP call in Python service code", {"http-no-timeout"}),
    ("writing workflows triggered by pull_request_target", {"pr-target"}),
    ("using the array index as key for a list that can change", {"index-key"}),
    ("keying React list items by index", {"index-key"}),
    ("storing or verifying user passwords", {"password-hash"}),
    ("running a manual UPDATE or DELETE against a production database", {"data-delete", "data-update"}),
    ("bulk-updating Django rows that downstream jobs select by updated_at", {"data-update"}),
    ("writing a Python function with a list or dict default", {"mutable-default"}),
    ("writing the CMD of a Dockerfile", {"cmd-shell-form"}),
    ("synchronous HTTP calls inside async handlers", {"blocking-in-async"}),
    ("using Array.forEach with an async callback", {"async-foreach"}),
    ("rendering user-provided content as raw HTML", {"raw-html"}),
    ("piping a database dump into gzip", {"no-pipefail"}),
    ("building an image without a .dockerignore", {"copy-all"}),
    ("adding .env files to git", {"env-file-commit"}),
    ("putting API keys in a Kubernetes ConfigMap", {"configmap-secret"}),
    ("committing Kafka offsets before processing", {"auto-ack"}),
    ("creating cloud firewall or security group rules with 0.0.0.0/0", {"open-network"}),
    ("passing secrets to docker build with --build-arg or ARG", {"build-arg-secret"}),
    ("setting spec.replicas on a Deployment that has an HPA", {"autoscaled-replicas"}),
    ("renaming or moving Terraform resources between addresses or modules", {"terraform-move"}),
    ("filtering with NOT IN over a subquery", {"not-in-subquery"}),
    ("loading a DataFrame into an existing table with to_sql", {"replace-table"}),
    ("writing a deploy workflow without a concurrency group", {"deploy-workflow"}),
    ("running mutating kubectl commands without an explicit --context", {"cluster-hand-change"}),
    ("changing resources in a GitOps-managed cluster", {"cluster-hand-change"}),
    ("deploying Kubernetes workloads without resource requests and limits", {"k8s-no-resources"}),
    ("writing a Dockerfile that runs the app as root", {"docker-root"}),
    ("running KEYS pattern lookups against a production Redis", {"redis-keys", "redis-no-ttl"}),
    ("fetching a user-supplied URL from the server", {"ssrf"}),
    ("write the card number to the log", {"log-sensitive"}),
    ("printing PANs in the logs", {"log-sensitive"}),
    ("logging full request bodies or headers", {"log-sensitive"}),
    ("personal data in the application logs", {"log-sensitive"}),
    ("adding log lines to the payment service", set()),
    ("rendering user-supplied text as HTML in React", {"raw-html"}),
    ("Configuring deletion settings on a Terraform-managed database", {"deletion-protection-off"}),
    ("turning off deletion protection on RDS", {"deletion-protection-off"}),
    ("Recursively deleting an S3 prefix", {"recursive-delete"}),
    ("making an S3 bucket or its objects publicly readable", {"public-bucket"}),
    ("defining S3 buckets in Terraform", set()),
    ("updating arrays or objects held in React state", {"state-mutation"}),
    ("mutating a React state array or object in place before setState", {"state-mutation"}),
    ("Adding a cron entry to a server's user crontab", {"crontab-replace"}),
    ("pushing local commits directly onto a branch that deploys", {"push-main"}),
    ("removing a persistent volume claim in a Kubernetes cluster", {"volume-claim-delete"}),
    ("uninstalling a Helm release whose chart ships CRDs", {"helm-uninstall"}),
    ("deleting cloud secrets or keys during a cleanup", {"secret-purge", "data-delete"}),
    ("writing liveness probes for a Kubernetes workload", {"liveness-dependency"}),
    ("rotating a secret", set()),
    ("adding a third-party action to a workflow", {"action-unpinned"}),
    ("sharing a map between goroutines in Go", {"go-map-shared"}),
    ("assigning to a filtered subset of a pandas DataFrame", {"pandas-chained"}),
    ("publishing container ports on a host with a public interface", {"public-port"}),
    ("writing Prometheus alerting rules that page", {"alert-no-for"}),
    ("using event text like issue titles or branch names in run steps", {"event-injection"}),
    ("rendering lists in React that can be reordered, inserted or deleted", {"index-key"}),
    ("rendering a long list without virtualization", set()),
    ("clearing cache keys on a Redis instance", {"redis-keys", "redis-no-ttl"}),
    ("bulk-removing entries that match a pattern on a live Redis", {"redis-keys", "redis-no-ttl"}),
    ("committing a file that .gitignore excludes", {"git-add-force"}),
    ("pushing a release tag to the remote", {"push-main", "push-tags"}),
    ("pushing a container image under an existing release tag", set()),
    ("publishing an npm package from a local checkout", {"publish-package"}),
    ("restarting a Docker Compose stack on a shared host", {"compose-down-volumes"}),
    ("changing the partition count of an existing Kafka topic", {"kafka-repartition"}),
    ("scaling consumers of a topic partitioned by key", {"kafka-repartition"}),
    ("configuring a Kafka producer for events that must not be lost", {"kafka-acks"}),
    ("creating an SQS queue in Terraform", {"queue-no-redrive"}),
    ("tuning SQS retry speed or visibility timeout", set()),
    ("a Docker build needs credentials for a private package registry", {"build-arg-secret"}),
    ("creating a record only if it doesn't already exist", {"find-or-create"}),
    ("cleaning untracked or ignored files from a working tree", set()),
])
def test_prose_classes(trigger: str, expected: set[str]) -> None:
    assert set(prose_classes(trigger)) == expected


def test_command_paths_and_relative_paths() -> None:
    assert command_paths("sed -i s/a/b/ yarn.lock && rm -rf build/out --force") == ["yarn.lock", "build/out"]
    action = Action("edit", ("/repo/src/a.py", "/elsewhere/b.py"))
    assert relative_paths(action, Path("/repo")) == ("src/a.py", "/elsewhere/b.py")


@pytest.mark.parametrize(("globs", "path", "expected"), [
    (["billing/ledger/**"], "billing/ledger/totals.py", True),
    (["billing/ledger/**"], "billing/invoices.py", False),
    (["*.sql"], "db/migrations/0001.sql", True),
    (["db/*.sql"], "db/migrations/0001.sql", False),
    (["db/**/*.sql"], "db/migrations/0001.sql", True),
    (["migrations/"], "migrations/0001.py", True),
])
def test_glob_match(globs: list[str], path: str, expected: bool) -> None:
    assert glob_match(globs, [path]) is expected


def test_artifact_match() -> None:
    assert artifact_match(["src/db/"], ["src/db/models.py"])
    assert artifact_match(["src/db/models.py:12"], ["src/db/models.py"])
    assert not artifact_match(["src/db"], ["src/dbx/a.py"])


@pytest.mark.parametrize(("kind", "path", "removed", "text", "expected"), [
    ("command", "", "", "aws ec2 authorize-security-group-ingress --group-id sg-1 --port 5432 --cidr 0.0.0.0/0",
     {"open-network"}),
    ("edit", "infra/sg.tf", "x", 'cidr_blocks = ["10.0.0.0/8"]', set()),
    ("edit", "infra/iam.tf", "x", 'actions   = ["s3:*"]\n  resources = ["*"]', {"iam-wildcard"}),
    ("command", "", "", "docker build --build-arg NPM_TOKEN=$NPM_TOKEN -t app .", {"build-arg-secret"}),
    ("write", "Dockerfile", "", "FROM node:20.11-slim\nARG GITHUB_TOKEN\nRUN npm ci\n",
     {"build-arg-secret", "docker-root"}),
    ("command", "", "", "docker build --secret id=npmrc,src=.npmrc -t app .", set()),
    ("edit", "k8s/api.yaml", "replicas: 2", "replicas: 3", {"autoscaled-replicas"}),
    ("edit", "infra/main.tf", 'resource "aws_s3_bucket" "logs" {', 'resource "aws_s3_bucket" "audit_logs" {',
     {"terraform-move"}),
    ("edit", "infra/main.tf", "}", '}\n\nresource "aws_s3_bucket" "exports" {', set()),  # a new block, no move
    ("edit", "web/notify.ts", "x", "await Promise.all(users.map((u) => send(u)))", {"unbounded-fanout"}),
    ("edit", "sql/report.sql", "x", "WHERE id NOT IN (SELECT user_id FROM bans)", {"not-in-subquery"}),
    ("command", "", "", "for f in $(find . -name '*.log'); do gzip $f; done", {"shell-word-split"}),
    ("edit", "etl/load.py", "x", 'df.to_sql("orders", engine, if_exists="replace")', {"replace-table"}),
    ("edit", ".github/workflows/release.yml", "x", "jobs:\n  deploy:\n    runs-on: ubuntu-latest", {"deploy-workflow"}),
    ("edit", "app/config.py", "x", "data = yaml.load(stream)", {"unsafe-deserialize"}),
    ("edit", "app/config.py", "x", "data = yaml.safe_load(stream)", set()),
    ("edit", "src/server.ts", "x", "app.use(cors({ origin: true, credentials: true }))", {"cors-origin"}),
    ("edit", "src/server.ts", "x", "res.setHeader('Access-Control-Allow-Origin', req.headers.origin);",
     {"cors-origin"}),
    ("edit", "config/settings.py", "x", "CORS_ALLOW_ALL_ORIGINS = True", {"cors-origin"}),
    ("edit", "src/server.ts", "x", "origin: (origin, cb) => cb(null, true),", {"cors-origin"}),
    ("edit", "src/server.ts", "x", "app.use(cors({ origin: ALLOWED_ORIGINS, credentials: true }))", set()),
    ("edit", "accounts/auth.py", "x", "digest = hashlib.sha256(salt + password).hexdigest()", {"password-hash"}),
    ("command", "", "", "kubectl set image deployment/api api=ghcr.io/acme/api:latest",
     {"unpinned-image", "cluster-hand-change"}),
    ("command", "", "", "kubectl -n payments patch deployment refunds-api --type=json -p='[]'",
     {"cluster-hand-change"}),
    ("command", "", "", "kubectl -n payments get pods && kubectl logs deploy/refunds-api", set()),
    ("write", "k8s/worker.yaml", "", "kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
     "        - name: worker\n          image: acme/worker:1.4.2\n", {"k8s-no-resources"}),
    ("write", "k8s/worker.yaml", "", "kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
     "        - name: worker\n          resources:\n            requests: {cpu: 250m}\n", set()),
    ("write", "svc/Dockerfile", "", "FROM node:20.11-slim\nCOPY dist/ /app/\nCMD [\"node\", \"/app/main.js\"]\n",
     {"docker-root"}),
    ("write", "svc/Dockerfile", "", "FROM node:20.11-slim\nCOPY dist/ /app/\nUSER node\n", set()),
    ("command", "", "", "redis-cli -h cache-prod KEYS 'session:*' | wc -l", {"redis-keys"}),
    ("edit", "app/cache.py", "x", "for key in redis_client.keys(f'cart:{user_id}:*'):", {"redis-keys"}),
    ("edit", "app/cache.py", "x", "for key in settings.keys():", set()),
    ("command", "", "", "git add -f config/secrets.staging.yml && git commit -m 'boot CI'",
     {"env-file-commit", "git-add-force"}),
    ("command", "", "", "git add src/secrets_manager.py", set()),
    ("edit", "chat/unfurl.py", "x", "resp = httpx.get(url, follow_redirects=True, timeout=5)", {"ssrf"}),
    # a log or print call whose arguments name a card, a password, a token or personal data; not an id or a count
    ("edit", "payouts/service.py", "pass", "logger.info('payout to %s', payout.card_number)", {"log-sensitive"}),
    ("edit", "refunds.py", "pass", "print(f'refund {payment.pan} ok')", {"log-sensitive"}),
    ("edit", "src/auth/login.ts", "x", "console.log('login', { email, password });", {"log-sensitive"}),
    ("edit", "api/middleware.go", "x", "log.Printf(\"request headers: %v\", r.Header)", {"log-sensitive"}),
    ("edit", "payouts/service.py", "pass", "logger.info('payout %s sent in %d ms', payout.id, took)", set()),
    ("edit", "jobs/cleanup.py", "pass", "log.info('discarded %d companies', len(companies))", set()),
    ("edit", "nlp/pipeline.ts", "pass", "console.log('tokenizer ready')", set()),
    ("edit", "auth/reset.py", "pass", "logger.info('sending password reset email to user %s', user.id)", set()),
    ("edit", "web/banner.js", "x", "banner.insertAdjacentHTML('beforeend', announcement.body)", {"raw-html"}),
    ("edit", "app/views/shops/show.html.erb", "x", "<%= raw @shop.announcement %>", {"raw-html"}),
    ("edit", "src/Banner.svelte", "x", "<div>{@html announcement}</div>", {"raw-html"}),
    ("edit", "src/Banner.svelte", "x", "<div>{announcement}</div>", set()),
    # a producer that may lose what it sends; a queue with nowhere for poison messages; a two-step find or create
    ("edit", "src/main/resources/application.yml", "acks: all", "    producer:\n      acks: 1\n", {"kafka-acks"}),
    ("edit", "producer.properties", "x", "enable.idempotence=false", {"kafka-acks"}),
    ("edit", "src/main/resources/application.yml", "linger.ms: 0", "      linger.ms: 20", set()),
    ("write", "infra/sqs.tf", "", 'resource "aws_sqs_queue" "sms_dispatch" {\n  name = "sms"\n}\n',
     {"queue-no-redrive"}),
    ("write", "infra/sqs.tf", "", 'resource "aws_sqs_queue" "sms_dlq" {\n  name = "sms-dlq"\n}\n', set()),
    ("write", "infra/sqs.tf", "", 'resource "aws_sqs_queue" "sms" {\n  redrive_policy = jsonencode({})\n}\n',
     set()),
    ("write", "infra/topics.tf", "", 'resource "kafka_topic" "orders" {\n  partitions = 36\n}\n',
     {"kafka-repartition"}),
    ("edit", "app/services/register.rb", "x", "DeviceToken.where(token: t).first_or_create!(user: u)",
     {"find-or-create"}),
    ("edit", "app/services/register.rb", "x", "DeviceToken.create_or_find_by!(token: t)", set()),
    ("edit", "members/views.py", "x", "member, _ = Member.objects.get_or_create(user=u)", {"find-or-create"}),
])
def test_common_dangerous_operations(kind: str, path: str, removed: str, text: str, expected: set[str]) -> None:
    paths = (f"/repo/{path}",) if path else ()
    assert _classes(Action(kind, paths, text, removed)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("kind", "text", "expected"), [
    ("edit", "redis_client.set(key, json.dumps(rates), ex=3600)", {"redis-no-ttl"}),
    ("edit", "redis_client.set(key, json.dumps(rates))", set()),  # the mistake itself: a class, not done right
    ("command", "redis-cli -h cache SET session:1 x EX 3600", {"redis-no-ttl", "redis-keys"}),  # no KEYS either
    ("edit", "resp = requests.get(API, params=q, timeout=(3.05, 10))", {"http-no-timeout"}),
    ("edit", "resp = requests.get(API, params=q)", set()),
    ("edit", 'resp = session.get(API, params={"s": ",".join(symbols)}, timeout=(3, 10))', {"http-no-timeout"}),
    ("edit", "<Row key={item.id} item={item} />", {"index-key"}),
    ("edit", "<Row key={index} item={item} />", set()),
    ("edit", 'pwd_context = CryptContext(schemes=["argon2", "bcrypt"], deprecated="auto")', {"password-hash"}),
    ("edit", "digest = hashlib.sha256(salt + password).hexdigest()  # bcrypt later", set()),
    ("edit", "app.use(cors({ origin: ['https://app.acme.io'], credentials: true }));", {"cors-origin"}),
    ("edit", "app.use(cors({ origin: true, credentials: true }));", set()),
    ("edit", "app.use(express.json({ limit: '1mb' }));", set()),
    ("edit", "x = compute(rates)", set()),  # neither the action nor its mistake
    ("command", "redis-cli -h cache --scan --pattern 'cart:*' --count 500", {"redis-keys"}),
    ("command", "(crontab -l; echo '15 3 * * * /opt/run') | crontab -", {"crontab-replace"}),
    ("edit", "livenessProbe:\n  httpGet:\n    path: /livez", {"liveness-dependency"}),
    ("command", "docker compose -f compose.yml down --remove-orphans && docker compose up -d",
     {"compose-down-volumes"}),
    ("command", "kafka-topics.sh --bootstrap-server k:9092 --create --topic t.v2 --partitions 36",
     {"kafka-repartition"}),
    ("edit", "DeviceToken.create_or_find_by!(token: t)", {"find-or-create"}),
])
def test_an_action_done_right_is_told_from_one_not_done(kind: str, text: str, expected: set[str]) -> None:
    from loa_memory.answer.cues.classes import done_right

    action = Action(kind, ("/repo/app/fx.py",) if kind == "edit" else (), text, "x")  # type: ignore[arg-type]
    assert done_right(text, frozenset(_classes(action))) == expected


def test_only_decisive_classes_silence_a_correction() -> None:
    from loa_memory.answer.cues.classes import decisive

    assert decisive(frozenset({"force-push", "open-network"})) == {"force-push"}
    assert decisive(frozenset({"raw-html", "mutable-default", "http-no-timeout"})) == {"raw-html", "mutable-default"}


@pytest.mark.parametrize("unit", ["a", " ", "\n", "a.", "(", "`", "git push ", "kind: ConfigMap\n", "def f(",
                                  "password", "signature", "Product.where(", "async def f():\n", "- image: "])
def test_a_long_run_of_one_token_is_read_in_one_pass(unit: str) -> None:
    """A minified file or a pasted log in a tool call: every rule reads it without backtracking over it again and
    again (a rule that did would make this test take minutes, not milliseconds), and finds nothing in it."""
    text = (unit * (20000 // len(unit) + 1))[:20000]
    for kind, path in (("write", "svc/Dockerfile"), ("write", "k8s/app.yaml"), ("command", "")):
        paths = (f"/repo/{path}",) if path else ()
        assert _classes(Action(kind, paths, text)) == set()  # type: ignore[arg-type]


def test_a_terraform_rename_with_a_moved_block_is_the_rename_done_right() -> None:
    from loa_memory.answer.cues.classes import done_right

    old = 'resource "aws_redshift_cluster" "main" {\n  cluster_identifier = "dw"\n'
    renamed = 'resource "aws_redshift_cluster" "warehouse" {\n  cluster_identifier = "dw"\n'
    moved = "moved {\n  from = aws_redshift_cluster.main\n  to   = aws_redshift_cluster.warehouse\n}\n\n"
    elsewhere = "moved {\n  from = aws_s3_bucket.logs\n  to   = aws_s3_bucket.audit_logs\n}\n\n"
    for text, classes, right in [(renamed, {"terraform-move"}, set()), (moved + renamed, set(), {"terraform-move"}),
                                 (elsewhere + renamed, {"terraform-move"}, set())]:
        action = Action("edit", ("/repo/infra/redshift.tf",), text, old)
        found = _classes(action)
        assert (found, set(done_right(action.added, frozenset(found)))) == (classes, right)
