"""Writes the capture-words tuning corpus: Claude Code session files and ``labels.json``.

Hand-written text held as Python literals (so code inside JSON strings is escaped correctly); nothing is
generated or templated beyond the JSON framing. Rerun to rebuild: ``python benchmarks/data/capture-words/build.py``.

Groups ``tNN``: one correction, given by the user in three sessions with three different wordings; the line
marked ``c`` is the labelled correction. Sessions ``mNN``: near-negatives, no correction at all.
Steps: ``u`` a user prompt, ``c`` the labelled correction, ``a`` assistant text, ``call`` a tool call and
its result (``is_error`` last), ``reject`` a tool call the user rejected.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
Step = tuple[Any, ...]

GROUPS: dict[str, tuple[str, list[list[Step]]]] = {
    "t01": ("Never log full card numbers (PAN); mask them before they reach the logger", [
        [("u", "Add logging to the payment capture flow so we can debug the declines from yesterday."),
         ("call", "Edit", {"file_path": "/srv/shop/payments/capture.py", "old_string": "    resp = gateway.capture(card)",
                           "new_string": "    logger.info(\"capturing card %s\", card.number)\n    resp = gateway.capture(card)"},
          "The file /srv/shop/payments/capture.py has been updated.", False),
         ("a", "I added an info log before the gateway call with the card details."),
         ("c", "No, don't log the full card number. Log the last four digits at most."),
         ("call", "Edit", {"file_path": "/srv/shop/payments/capture.py",
                           "old_string": "card.number)", "new_string": "card.number[-4:])"},
          "The file /srv/shop/payments/capture.py has been updated.", False),
         ("a", "Now only the last four digits are logged.")],
        [("u", "The refund worker is silent when it fails, add some debug output please"),
         ("call", "Edit", {"file_path": "/srv/shop/payments/refunds.py", "old_string": "def refund(payment):",
                           "new_string": "def refund(payment):\n    print(f\"refund for {payment.pan} amount {payment.amount}\")"},
          "The file /srv/shop/payments/refunds.py has been updated.", False),
         ("a", "Added a print of the PAN and amount at the start of refund()."),
         ("c", "Please stop printing the PAN in the logs - it must be masked, this is a PCI thing."),
         ("a", "Understood, I'll replace it with a masked value.")],
        [("u", "Wire the new 3DS callback handler into the webhook router."),
         ("call", "Write", {"file_path": "/srv/shop/payments/threeds.py",
                            "content": "def handle(event):\n    log.debug(\"3ds event %s\", event.card)\n    ..."},
          "File created successfully at: /srv/shop/payments/threeds.py", False),
         ("a", "The handler is in place and logs the incoming event's card for tracing."),
         ("c", "Again: mask card numbers before they reach the logger instead of dumping event.card."),
         ("a", "Sorry about that. I'll add a masking filter on the payments logger.")],
    ]),
    "t02": ("Never force-push to main or other shared branches", [
        [("u", "Rebase my branch onto main and push it"),
         ("call", "Bash", {"command": "git rebase origin/main"}, "Successfully rebased and updated refs/heads/main.",
          False),
         ("call", "Bash", {"command": "git push --force origin main"}, "+ 3f2a1c9...8be01d2 main -> main (forced update)",
          False),
         ("a", "Rebased and force-pushed to origin/main."),
         ("c", "we never force-push to main, other people build on it. revert that with a normal push of the old tip"),
         ("a", "Understood, restoring the previous tip.")],
        [("u", "Clean up the commit history on the release branch before we tag it."),
         ("reject", "Bash", {"command": "git push -f origin release/2.4"}),
         ("c", "Don't rewrite history on a shared branch with a force push. Make a new cleanup branch and open a PR."),
         ("a", "OK, I'll create release/2.4-cleanup and open a pull request instead.")],
        [("u", "the push got rejected, non-fast-forward. fix it"),
         ("call", "Bash", {"command": "git push origin main"},
          " ! [rejected]        main -> main (non-fast-forward)\nerror: failed to push some refs", True),
         ("a", "The remote has commits we don't have. I can force push with --force-with-lease to overwrite them."),
         ("c", "That's wrong - pull and merge the remote commits, force pushing main is off limits here."),
         ("call", "Bash", {"command": "git pull --no-rebase origin main && git push origin main"},
          "Merge made by the 'ort' strategy.\nTo github.com:acme/api.git\n   8be01d2..a11f00e  main -> main", False)],
    ]),
    "t03": ("Use timezone-aware UTC datetimes, never naive datetime.now()", [
        [("u", "Stamp each export row with the time it was generated."),
         ("call", "Edit", {"file_path": "/home/dev/ledger/export.py", "old_string": "row = {",
                           "new_string": "row = {\"generated_at\": datetime.now().isoformat(),"},
          "The file /home/dev/ledger/export.py has been updated.", False),
         ("c", "datetime.now() is naive. Use datetime.now(UTC) so the stamps are timezone-aware."),
         ("a", "Switched to datetime.now(UTC).")],
        [("u", "Add an expiry check to the session tokens, 30 minutes."),
         ("call", "Edit", {"file_path": "/home/dev/ledger/auth/tokens.py", "old_string": "def is_valid(token):",
                           "new_string": "def is_valid(token):\n    if datetime.utcnow() - token.issued > timedelta(minutes=30):"},
          "The file /home/dev/ledger/auth/tokens.py has been updated.", False),
         ("c", "pls dont use utcnow, its deprecated and naive. we want aware datetimes in UTC everywhere"),
         ("a", "Right, I'll use datetime.now(tz=UTC).")],
        [("u", "Write the nightly job that closes stale invoices."),
         ("call", "Write", {"file_path": "/home/dev/ledger/jobs/close_invoices.py",
                            "content": "from datetime import datetime\n\ndef run():\n    cutoff = datetime.now() - STALE\n"},
          "File created successfully at: /home/dev/ledger/jobs/close_invoices.py", False),
         ("a", "The job closes invoices older than the cutoff."),
         ("c", "I told you last time: timestamps must be UTC-aware, not local naive ones."),
         ("a", "Fixed, the cutoff is computed from datetime.now(UTC) now.")],
    ]),
    "t04": ("Never edit a migration that has been applied; add a new migration", [
        [("u", "The price column should be numeric(12,2), not integer."),
         ("call", "Edit", {"file_path": "/work/store/migrations/0007_prices.py",
                           "old_string": "sa.Integer()", "new_string": "sa.Numeric(12, 2)"},
          "The file /work/store/migrations/0007_prices.py has been updated.", False),
         ("c", "Don't edit 0007, it's already applied in production. Add a new migration that alters the column."),
         ("a", "Reverting my edit and creating 0012_alter_price_numeric.py.")],
        [("u", "Fix the typo in the index name, idx_ordrs_created."),
         ("call", "Edit", {"file_path": "/work/store/migrations/0004_orders_index.py",
                           "old_string": "idx_ordrs_created", "new_string": "idx_orders_created"},
          "The file /work/store/migrations/0004_orders_index.py has been updated.", False),
         ("a", "Renamed the index in the 0004 migration."),
         ("c", "Applied migrations are immutable - write a follow-up migration that renames the index instead of "
               "changing the old file."),
         ("a", "Got it.")],
        [("u", "add a NOT NULL default to customers.locale"),
         ("reject", "Edit", {"file_path": "/work/store/migrations/0002_customers.py",
                             "old_string": "sa.Column(\"locale\", sa.String(8))",
                             "new_string": "sa.Column(\"locale\", sa.String(8), nullable=False, server_default=\"en\")"}),
         ("c", "nope, never touch old migration files. new migration please"),
         ("a", "Creating a new migration for it.")],
    ]),
    "t05": ("Use httpx (the shared client), not requests", [
        [("u", "Call the geocoding API from the address form handler."),
         ("call", "Edit", {"file_path": "/src/crm/forms/address.py", "old_string": "def clean(self):",
                           "new_string": "def clean(self):\n    r = requests.get(GEOCODE_URL, params={\"q\": self.line1})"},
          "The file /src/crm/forms/address.py has been updated.", False),
         ("c", "Use httpx rather than requests here, we share one httpx client across the app."),
         ("a", "Switching to the shared httpx client.")],
        [("u", "We need to post the lead to the partner webhook after save."),
         ("call", "Bash", {"command": "pip install requests"}, "Successfully installed requests-2.32.3", False),
         ("a", "Installed requests and added the POST in the post-save signal."),
         ("c", "we don't use requests in this codebase. httpx only, through crm.http.client"),
         ("a", "Understood, removing requests.")],
        [("u", "fetch the exchange rates once a day"),
         ("call", "Write", {"file_path": "/src/crm/rates.py",
                            "content": "import requests\n\ndef fetch():\n    return requests.get(RATES).json()\n"},
          "File created successfully at: /src/crm/rates.py", False),
         ("c", "Could you use the httpx client instead of requests? Same as everywhere else."),
         ("a", "Done, rates.py now uses crm.http.client.")],
    ]),
    "t06": ("API keys and credentials come from the vault, never hardcoded", [
        [("u", "Hook up the Mailgun sender for the invoice emails."),
         ("call", "Edit", {"file_path": "/opt/billing/mail.py", "old_string": "API_KEY = None",
                           "new_string": "API_KEY = \"key-placeholder-from-dashboard\""},
          "The file /opt/billing/mail.py has been updated.", False),
         ("c", "The API key must come from the vault, not a constant in the code."),
         ("a", "I'll read it with vault.secret(\"mailgun/api_key\").")],
        [("u", "Connect to the analytics warehouse from the report script."),
         ("call", "Write", {"file_path": "/opt/billing/reports/warehouse.py",
                            "content": "conn = connect(user=\"report\", password=\"changeme\")"},
          "File created successfully at: /opt/billing/reports/warehouse.py", False),
         ("a", "Connected with the report user."),
         ("c", "Hardcoding credentials again? They live in vault, read them from there."),
         ("a", "Switched to the vault lookup.")],
        [("u", "add the stripe webhook secret to the settings"),
         ("reject", "Edit", {"file_path": "/opt/billing/settings.py", "old_string": "STRIPE = {}",
                             "new_string": "STRIPE = {\"webhook_secret\": \"whsec_placeholder\"}"}),
         ("c", "no secrets in settings.py. fetch it from vault at startup like the other keys"),
         ("a", "OK.")],
    ]),
    "t07": ("Keep raw SQL out of views; queries belong in the repository layer", [
        [("u", "Show the top customers by revenue on the dashboard view."),
         ("call", "Edit", {"file_path": "/code/app/views/dashboard.py", "old_string": "def top_customers(request):",
                           "new_string": "def top_customers(request):\n    rows = db.execute(\"SELECT c.id, SUM(o.total) ...\")"},
          "The file /code/app/views/dashboard.py has been updated.", False),
         ("c", "Don't put raw SQL in the view. Queries go in app/repositories/, the view calls the repository."),
         ("a", "Moving the query to CustomerRepository.top_by_revenue().")],
        [("u", "The orders page needs a filter by status."),
         ("call", "Edit", {"file_path": "/code/app/views/orders.py", "old_string": "qs = Order.objects.all()",
                           "new_string": "qs = db.execute(f\"SELECT * FROM orders WHERE status = '{status}'\")"},
          "The file /code/app/views/orders.py has been updated.", False),
         ("a", "Added the filter with a direct query."),
         ("c", "That's not how we do it: SQL belongs in the repository layer, never in a view function."),
         ("a", "Understood.")],
        [("u", "add a count of open tickets to the header"),
         ("call", "Edit", {"file_path": "/code/app/views/header.py", "old_string": "ctx = {}",
                           "new_string": "ctx = {\"open\": db.scalar(\"SELECT count(*) FROM tickets WHERE open\")}"},
          "The file /code/app/views/header.py has been updated.", False),
         ("c", "You keep writing queries inside views. Put it in TicketRepository and call that."),
         ("a", "Done.")],
    ]),
    "t08": ("Money is Decimal, never float", [
        [("u", "Compute the cart total with tax."),
         ("call", "Write", {"file_path": "/app/cart/total.py",
                            "content": "def total(items, rate):\n    return sum(float(i.price) for i in items) * (1 + rate)\n"},
          "File created successfully at: /app/cart/total.py", False),
         ("c", "No floats for money. Use Decimal and quantize to cents."),
         ("a", "Rewritten with Decimal.")],
        [("u", "Split the invoice amount across the three cost centers."),
         ("call", "Edit", {"file_path": "/app/billing/split.py", "old_string": "share = amount / 3",
                           "new_string": "share = round(float(amount) / 3, 2)"},
          "The file /app/billing/split.py has been updated.", False),
         ("a", "Each cost center gets a third, rounded to two decimals."),
         ("c", "Please use Decimal, not float - rounding floats loses cents on invoices."),
         ("a", "Switched to Decimal with ROUND_HALF_EVEN and the remainder on the last share.")],
        [("u", "add a discount field to the promo model"),
         ("call", "Edit", {"file_path": "/app/promo/models.py", "old_string": "code = CharField()",
                           "new_string": "code = CharField()\n    discount = FloatField()"},
          "The file /app/promo/models.py has been updated.", False),
         ("c", "Never store amounts as FloatField. DecimalField(max_digits=10, decimal_places=2)."),
         ("a", "Changed to DecimalField.")],
    ]),
    "t09": ("Changelog entries go in changelog.d/ fragments, never edit CHANGELOG.md directly", [
        [("u", "Document the new --since flag for the release notes."),
         ("call", "Edit", {"file_path": "/repo/cli/CHANGELOG.md", "old_string": "## Unreleased",
                           "new_string": "## Unreleased\n\n- New --since flag"},
          "The file /repo/cli/CHANGELOG.md has been updated.", False),
         ("c", "Don't edit CHANGELOG.md by hand, add a fragment in changelog.d/ instead - towncrier builds the file."),
         ("a", "Reverted, and added changelog.d/412.feature.md.")],
        [("u", "note the bug fix for the crash on empty config in the changelog"),
         ("reject", "Write", {"file_path": "/repo/cli/CHANGELOG.md", "content": "# Changelog\n\n- Fix crash..."}),
         ("c", "changelog entries must go in changelog.d as fragments, the CHANGELOG.md is generated"),
         ("a", "Writing changelog.d/415.bugfix.md.")],
        [("u", "Bump to 3.2.0 and mention the deprecation."),
         ("call", "Edit", {"file_path": "/repo/cli/CHANGELOG.md", "old_string": "## 3.1.0",
                           "new_string": "## 3.2.0\n\n- Deprecate --legacy\n\n## 3.1.0"},
          "The file /repo/cli/CHANGELOG.md has been updated.", False),
         ("a", "Version bumped and CHANGELOG.md updated with the deprecation."),
         ("c", "Good, the bump is fine. But the changelog is generated from fragments, so write a changelog.d "
               "entry rather than editing CHANGELOG.md."),
         ("a", "Done.")],
    ]),
    "t10": ("Feature flags are read through the flags client, not environment variables", [
        [("u", "Gate the new checkout behind a flag."),
         ("call", "Edit", {"file_path": "/web/checkout/views.py", "old_string": "def checkout(request):",
                           "new_string": "def checkout(request):\n    if os.environ.get(\"NEW_CHECKOUT\") == \"1\":"},
          "The file /web/checkout/views.py has been updated.", False),
         ("c", "Flags are not env vars here. Use flags.is_enabled(\"new-checkout\", user) instead."),
         ("a", "Switched to the flags client.")],
        [("u", "roll out the dark mode toggle to 10% of users"),
         ("call", "Write", {"file_path": "/web/settings/dark_mode.py",
                            "content": "ENABLED = os.getenv(\"DARK_MODE\", \"false\") == \"true\"\n"},
          "File created successfully at: /web/settings/dark_mode.py", False),
         ("a", "Added a DARK_MODE environment toggle."),
         ("c", "A percentage rollout can't be an env var - feature flags must come from the flags client."),
         ("a", "Right, I'll create the flag in the flags service and use flags.is_enabled.")],
        [("u", "Hide the beta export button unless the flag is on."),
         ("call", "Edit", {"file_path": "/web/export/template.py", "old_string": "show = True",
                           "new_string": "show = settings.BETA_EXPORT"},
          "The file /web/export/template.py has been updated.", False),
         ("c", "i said read flags thru the flags client, not settings or env"),
         ("a", "Fixed.")],
    ]),
    "t11": ("Run database commands through the docker compose service, never against the host Postgres", [
        [("u", "Create the reporting schema locally."),
         ("call", "Bash", {"command": "psql -h localhost -U postgres -f sql/reporting.sql"},
          "psql: error: connection to server at \"localhost\" (127.0.0.1), port 5432 failed: Connection refused",
          True),
         ("c", "We agreed to run everything through docker compose - `docker compose exec db psql`, not psql on "
               "the host."),
         ("a", "Right, using the compose service.")],
        [("u", "seed the dev db with the fixtures"),
         ("call", "Bash", {"command": "createdb shop_dev && psql shop_dev < fixtures/seed.sql"},
          "CREATE DATABASE", False),
         ("a", "Created shop_dev on the local Postgres and loaded the seed."),
         ("c", "why on the host postgres? the db lives in the compose stack, please redo it there"),
         ("a", "Dropping shop_dev from the host and seeding the compose database.")],
        [("u", "Check whether the orders table has the new index."),
         ("call", "Bash", {"command": "psql -d shop -c '\\d orders'"}, "Did not find any relation named \"orders\".",
          True),
         ("c", "Remember, the database only exists inside docker compose. Use docker compose exec db psql."),
         ("a", "OK.")],
    ]),
    "t12": ("User-facing strings go through the translation function t(), no hardcoded English", [
        [("u", "Add an empty state to the invoices list."),
         ("call", "Edit", {"file_path": "/web/src/Invoices.tsx", "old_string": "return <List items={items} />",
                           "new_string": "if (!items.length) return <p>No invoices yet</p>\n  return <List items={items} />"},
          "The file /web/src/Invoices.tsx has been updated.", False),
         ("c", "This text has to go through t() like every other string, we ship in 6 languages."),
         ("a", "Wrapped it in t('invoices.empty').")],
        [("u", "show a toast when saving fails"),
         ("call", "Edit", {"file_path": "/web/src/Settings.tsx", "old_string": "catch (e) {",
                           "new_string": "catch (e) {\n    toast.error('Could not save your settings')"},
          "The file /web/src/Settings.tsx has been updated.", False),
         ("c", "you're hardcoding english strings again. use the t() helper with a key"),
         ("a", "Fixed.")],
        [("u", "Label the new export button."),
         ("call", "Write", {"file_path": "/web/src/ExportButton.tsx",
                            "content": "export const ExportButton = () => <button>Export CSV</button>\n"},
          "File created successfully at: /web/src/ExportButton.tsx", False),
         ("a", "The button is labelled Export CSV."),
         ("c", "Thanks. One thing: make sure the label is translated, i.e. t('export.csv'), not a literal."),
         ("a", "Done.")],
    ]),
    "t13": ("Tests build model instances with the factory_boy factories, not by hand", [
        [("u", "Add a test for the refund status transition."),
         ("call", "Write", {"file_path": "/app/tests/test_refunds.py",
                            "content": "def test_refund():\n    order = Order(id=1, total=10, status='paid')\n"},
          "File created successfully at: /app/tests/test_refunds.py", False),
         ("c", "Use OrderFactory in tests instead of constructing Order by hand, the factories fill the required "
               "fields."),
         ("a", "Switched to OrderFactory(status='paid').")],
        [("u", "cover the coupon expiry edge case with a test"),
         ("call", "Edit", {"file_path": "/app/tests/test_coupons.py", "old_string": "def test_expired():",
                           "new_string": "def test_expired():\n    c = Coupon(code='X', expires=yesterday)"},
          "The file /app/tests/test_coupons.py has been updated.", False),
         ("c", "we don't hand-build Coupon objects in tests, CouponFactory exists for that"),
         ("a", "Using CouponFactory now.")],
        [("u", "The invoice PDF test is flaky, can you rewrite its setup?"),
         ("call", "Edit", {"file_path": "/app/tests/test_invoice_pdf.py", "old_string": "def setup():",
                           "new_string": "def setup():\n    inv = Invoice(number='A-1', lines=[Line(qty=1)])"},
          "The file /app/tests/test_invoice_pdf.py has been updated.", False),
         ("a", "The setup now builds the invoice explicitly."),
         ("c", "Again: factories, not manual model instances. InvoiceFactory with lines=2."),
         ("a", "Done.")],
    ]),
    "t14": ("Frontend unit tests use vitest, never jest", [
        [("u", "Add a unit test for formatPrice."),
         ("call", "Bash", {"command": "npx jest src/format.test.ts"}, "jest: command not found", True),
         ("c", "We use vitest here, not jest. `pnpm vitest run src/format.test.ts`."),
         ("a", "Running it with vitest.")],
        [("u", "set up a test for the date picker"),
         ("call", "Write", {"file_path": "/web/src/DatePicker.test.tsx",
                            "content": "import { jest } from '@jest/globals'\n"},
          "File created successfully at: /web/src/DatePicker.test.tsx", False),
         ("c", "no jest imports please, it's vitest: import { vi } from 'vitest'"),
         ("a", "Fixed the imports.")],
        [("u", "Mock the API call in the cart test."),
         ("call", "Edit", {"file_path": "/web/src/Cart.test.tsx", "old_string": "describe('cart'",
                           "new_string": "jest.mock('./api')\ndescribe('cart'"},
          "The file /web/src/Cart.test.tsx has been updated.", False),
         ("c", "You keep writing jest.mock. This repo runs vitest, use vi.mock."),
         ("a", "Replaced with vi.mock.")],
    ]),
}

NEGATIVES: dict[str, list[Step]] = {
    "m13": [("u", "Add retries to the webhook sender."),
            ("call", "Edit", {"file_path": "/svc/hooks/send.py", "old_string": "resp = client.post(url, json=body)",
                              "new_string": "resp = retry(lambda: client.post(url, json=body), attempts=3)"},
             "The file /svc/hooks/send.py has been updated.", False),
            ("a", "Three attempts with exponential backoff."),
            ("u", "That's right. Could you instead make the attempts configurable? Default 3 is fine."),
            ("a", "Added WEBHOOK_RETRIES with a default of 3.")],
    "m14": [("u", "Please don't stop the worker until the export finishes, it takes ~10 min."),
            ("call", "Bash", {"command": "tail -f logs/export.log"}, "export: 48% (96000/200000)", False),
            ("a", "The export is at 48%."),
            ("u", "I told the team we'd ship on Friday, so no rush. Use whatever approach you think is best for the "
                  "remaining part.")],
    "m15": [("u", "Never seen this error before: `SSL: CERTIFICATE_VERIFY_FAILED`. What does it mean?"),
            ("a", "The server's certificate chain could not be verified against the local CA bundle."),
            ("u", "no worries, it was the corporate proxy. don't know why it started today though")],
    "m16": [("u", "Rename the `tmp` variables in parser.py to something meaningful."),
            ("call", "Edit", {"file_path": "/lib/parser.py", "old_string": "tmp = ", "new_string": "token = "},
             "The file /lib/parser.py has been updated.", False),
            ("a", "Renamed tmp to token in three places."),
            ("u", "Perfect, no more changes needed there. Now add a docstring to parse_header, and keep it short.")],
    "m01": [("u", "Add a /health endpoint that returns the version. Don't worry about tests for now."),
            ("call", "Edit", {"file_path": "/srv/api/app.py", "old_string": "app = Flask(__name__)",
                              "new_string": "app = Flask(__name__)\n\n@app.get(\"/health\")\ndef health():\n    return {\"version\": VERSION}"},
             "The file /srv/api/app.py has been updated.", False),
            ("a", "Added /health. Should I also add a readiness probe?"),
            ("u", "No, that's enough. Stop here, thanks.")],
    "m02": [("u", "Why does the build fail on CI but not locally?"),
            ("call", "Bash", {"command": "npm run build"},
             "Error: Cannot find module 'sharp'\nnpm ERR! code 1", True),
            ("a", "sharp is missing on CI; it is an optional dependency that the CI image skips."),
            ("u", "The CI log says: \"Error: don't run npm install as root\". Is that related?"),
            ("a", "No, that is a warning from the base image.")],
    "m03": [("u", "Export the orders as CSV."),
            ("call", "Write", {"file_path": "/srv/shop/export.py", "content": "def export_csv(orders): ..."},
             "File created successfully at: /srv/shop/export.py", False),
            ("a", "The CSV export is in export.py."),
            ("u", "Nice. Instead of only CSV, could you also add a JSON export?"),
            ("a", "Added export_json next to it.")],
    "m04": [("u", "Looks good, don't forget to update the README with the new flag."),
            ("call", "Edit", {"file_path": "/repo/README.md", "old_string": "## Flags", "new_string": "## Flags\n\n--since"},
             "The file /repo/README.md has been updated.", False),
            ("a", "README updated."),
            ("u", "yes, commit it")],
    "m05": [("u", "Start the dev server so I can try the login page."),
            ("call", "Bash", {"command": "npm run dev"}, "VITE v5.2 ready in 412 ms\n  Local: http://localhost:5174/",
             False),
            ("a", "It runs on port 5174 because 5173 was taken. Do you want me to free 5173?"),
            ("u", "No problem, 5174 is fine."),
            ("u", "ok it works. stop the dev server please")],
    "m06": [("u", "never mind the flaky test, I figured it out, it was my local redis."),
            ("a", "Good to hear. Anything else?"),
            ("u", "No, that's all for now.")],
    "m07": [("u", "The importer keeps crashing on the March file. Can you look?"),
            ("call", "Bash", {"command": "python -m importer data/march.csv"},
             "Traceback (most recent call last):\n  File \"importer.py\", line 40\nValueError: invalid literal for int()",
             True),
            ("a", "Row 118 has '1,200' in the quantity column; the parser expects plain integers."),
            ("u", "Don't bother with a general fix today, just skip bad rows and log them."),
            ("a", "Done: bad rows are skipped and logged with their row number.")],
    "m08": [("u", "Refactor the mailer so the templates are loaded once. Keep the public API unchanged and don't "
                  "touch the SMTP settings."),
            ("call", "Edit", {"file_path": "/src/mailer/core.py", "old_string": "def send(",
                              "new_string": "_TEMPLATES = load_templates()\n\ndef send("},
             "The file /src/mailer/core.py has been updated.", False),
            ("a", "Templates are loaded once at import."),
            ("u", "great, thanks")],
    "m09": [("u", "What's the difference between `never` and `void` as a return type in TypeScript?"),
            ("a", "`void` means the function returns nothing useful; `never` means it never returns at all."),
            ("u", "Should I change handleError to return never?"),
            ("a", "It throws on every path, so `never` fits. Want me to change it?"),
            ("u", "No, leave it as it is for now.")],
    "m10": [("u", "Let's use Postgres for the job queue instead of Redis, since we already run it."),
            ("call", "Write", {"file_path": "/svc/queue/pg.py", "content": "class PgQueue: ..."},
             "File created successfully at: /svc/queue/pg.py", False),
            ("a", "PgQueue uses SELECT ... FOR UPDATE SKIP LOCKED."),
            ("u", "Perfect. You don't need to migrate the old jobs, they expire anyway.")],
    "m11": [("u", "Run the test suite."),
            ("call", "Bash", {"command": "pytest -q"}, "FAILED tests/test_tax.py::test_rounding - AssertionError\n"
                                                       "1 failed, 211 passed", True),
            ("a", "One failure in test_rounding."),
            ("u", "That one is known to be flaky on Fridays, ignore it. Please continue with the release notes."),
            ("a", "Continuing.")],
    "m12": [("u", "Please make sure the new endpoint never returns more than 100 items, and paginate the rest."),
            ("call", "Edit", {"file_path": "/srv/api/items.py", "old_string": "return items",
                              "new_string": "return items[:100]"},
             "The file /srv/api/items.py has been updated.", False),
            ("a", "Capped at 100 with a next cursor."),
            ("u", "yes, do it the same way for /orders")],
}


def _lines(session: str, steps: list[Step], start: datetime) -> tuple[list[dict[str, Any]], list[str]]:
    sid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"capture-words/{session}"))
    cwd = "/home/dev/project"
    out: list[dict[str, Any]] = []
    labelled: list[str] = []
    clock = [start]
    parent: list[str | None] = [None]

    def emit(kind: str, content: Any) -> None:
        clock[0] += timedelta(seconds=37)
        uid = str(uuid.uuid5(uuid.NAMESPACE_URL, f"capture-words/{session}/{len(out)}"))
        role = "user" if kind == "user" else "assistant"
        out.append({"parentUuid": parent[0], "isSidechain": False, "userType": "external", "cwd": cwd,
                    "sessionId": sid, "version": "2.0.14", "type": kind, "message": {"role": role, "content": content},
                    "uuid": uid, "timestamp": clock[0].strftime("%Y-%m-%dT%H:%M:%S.000Z")})
        parent[0] = uid

    for number, step in enumerate(steps):
        tool_id = f"toolu_{session}_{number:02d}"
        if step[0] in ("u", "c"):
            emit("user", step[1])
            if step[0] == "c":
                labelled.append(step[1])
        elif step[0] == "a":
            emit("assistant", [{"type": "text", "text": step[1]}])
        elif step[0] == "call":
            _, name, args, result, failed = step
            emit("assistant", [{"type": "tool_use", "id": tool_id, "name": name, "input": args}])
            emit("user", [{"type": "tool_result", "tool_use_id": tool_id, "content": result, "is_error": failed}])
        elif step[0] == "reject":
            _, name, args = step
            emit("assistant", [{"type": "tool_use", "id": tool_id, "name": name, "input": args}])
            emit("user", [{"type": "tool_result", "tool_use_id": tool_id, "is_error": True,
                           "content": "The user doesn't want to proceed with this tool use. The tool use was rejected "
                                      "(eg. if it was a file edit, the new_string was NOT written to the file). STOP "
                                      "what you are doing and wait for the user to tell you how to proceed."}])
            emit("user", [{"type": "text", "text": "[Request interrupted by user for tool use]"}])
    return out, labelled


def build(target: Path = HERE / "transcripts") -> None:
    target.mkdir(parents=True, exist_ok=True)
    labels: dict[str, Any] = {"groups": {}, "negatives": sorted(NEGATIVES)}
    start = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    for group, (correction, sessions) in GROUPS.items():
        names, lines = [], []
        for index, steps in enumerate(sessions, 1):
            name = f"{group}-s{index}"
            records, labelled = _lines(name, steps, start + timedelta(days=index, hours=int(group[1:])))
            assert len(labelled) == 1, name
            (target / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
            names.append(name)
            lines.append(labelled[0])
        labels["groups"][group] = {"sessions": names, "correction": correction, "user_lines": lines}
    for name, steps in NEGATIVES.items():
        records, labelled = _lines(name, steps, start + timedelta(days=5))
        assert not labelled, name
        (target / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    (target / "labels.json").write_text(json.dumps(labels, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    build()
