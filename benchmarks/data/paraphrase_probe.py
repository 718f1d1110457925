"""A paraphrase probe for embedders: software-project memories and questions that reuse none of
their content words (checked by ``shared_content_words``), plus distractor memories.

Each pair is (memory, query). Hand-written for this project; free to reuse.
"""

from __future__ import annotations

import re

PAIRS: list[tuple[str, str]] = [
    ("Run the database migrations before deploying the web service.",
     "Apply schema changes prior to shipping the app to production."),
    ("PostgreSQL was selected over SQLite because we need JSONB columns.",
     "Why did we pick Postgres rather than an embedded store for document fields?"),
    ("Never commit API keys; load credentials from environment variables.",
     "Where should secret tokens live instead of the repository?"),
    ("The integration suite is flaky when the network is slow; retry it once.",
     "End-to-end checks sometimes fail on a sluggish connection, what to do?"),
    ("Use ruff for linting and formatting instead of flake8 and black.",
     "Which style checker replaced our older code-quality tools?"),
    ("Pin dependency versions in the lockfile to keep builds reproducible.",
     "How do we make sure installs give identical packages every time?"),
    ("The cache key must include the hash of the lockfile.",
     "What invalidates stored build artifacts when requirements change?"),
    ("Timestamps are stored in UTC and converted to local time only for display.",
     "Which timezone do we save dates in?"),
    ("Logging uses structured JSON lines so that the aggregator can parse them.",
     "What format do our log messages follow for machine ingestion?"),
    ("Feature flags are removed two weeks after a full rollout.",
     "When do we delete toggles once everyone has the new behaviour?"),
    ("Authentication tokens expire after fifteen minutes and are refreshed silently.",
     "How long does a login session credential stay valid?"),
    ("Images are resized on upload and served from the CDN.",
     "Where do pictures get shrunk and how are they delivered to browsers?"),
    ("The payment webhook must be idempotent because Stripe retries deliveries.",
     "Our billing callback may fire twice, so handling must tolerate repeats."),
    ("Background jobs run on Celery with Redis as the broker.",
     "What queue system processes asynchronous tasks?"),
    ("Do not use floating point for money; store amounts as integer cents.",
     "How should currency values be represented to avoid rounding errors?"),
    ("The mobile app talks to the backend through a versioned REST API.",
     "How do phone clients communicate with our server?"),
    ("Pull requests need two approving reviews before merging to main.",
     "How many sign-offs does a change require to land?"),
    ("Memory leaks in the worker were caused by an unbounded in-process cache.",
     "Why did the background processes keep growing in RAM?"),
    ("Use pagination with cursors, not offsets, for large listings.",
     "How should endpoints return long result sets page by page efficiently?"),
    ("The staging environment mirrors production except for the payment provider.",
     "How close is our pre-release setup to the live one?"),
    ("Rotate the TLS certificates every ninety days with certbot.",
     "How often are HTTPS certs renewed, and by what tool?"),
    ("Docker images are built on a slim Debian base to reduce size.",
     "Which operating system layer do our containers start from?"),
    ("Prefer composition over inheritance in the plugin system.",
     "Should extensions subclass a base or be assembled from parts?"),
    ("Error messages shown to users must say what to do next.",
     "What guidance should a failure notice give people?"),
    ("Search queries time out after two seconds to protect the database.",
     "What limit stops slow lookups from overloading storage?"),
    ("The frontend is written in TypeScript with React.",
     "Which language and UI library power the browser client?"),
    ("Backups are taken nightly and kept for thirty days.",
     "How often do we snapshot data and how long are copies retained?"),
    ("Tests must not call external services; stub them with recorded responses.",
     "Can automated checks hit third-party APIs?"),
    ("The release branch is cut every Tuesday.",
     "On which weekday do we freeze code for shipping?"),
    ("Use UUIDs as primary keys so that records can be created offline.",
     "What identifier scheme lets clients make rows without a server round trip?"),
    ("Email sending goes through a queue so that request handlers stay fast.",
     "Why are outgoing messages not dispatched inline during HTTP calls?"),
    ("The configuration file is validated against a JSON Schema at startup.",
     "How do we catch a malformed settings document when the program boots?"),
    ("Rate limiting is applied per API key at one hundred requests per minute.",
     "How many calls can a client make before being throttled?"),
    ("Large file uploads are streamed to object storage instead of buffered in memory.",
     "How do we handle big attachments without exhausting RAM?"),
    ("Deleted accounts are anonymised after thirty days to comply with GDPR.",
     "What happens to personal data when someone closes their profile?"),
    ("The monorepo uses a single version number for all packages.",
     "Do the libraries in our repository share one release tag?"),
    ("Avoid N+1 queries by eager-loading related rows.",
     "How do we stop the ORM from issuing a lookup per item in a loop?"),
    ("Dark mode follows the operating system preference by default.",
     "Does the night theme track the device setting?"),
    ("Translations live in gettext catalogues and are updated before each release.",
     "Where are localized strings kept?"),
    ("A circuit breaker stops calling the inventory service after five failures.",
     "What prevents cascading outages when the stock backend is down?"),
    ("Websocket connections send a heartbeat every thirty seconds.",
     "How do persistent sockets keep alive?"),
    ("The build fails if test coverage drops below eighty percent.",
     "What threshold of exercised code blocks CI?"),
    ("Use the repository pattern to keep SQL out of the domain layer.",
     "How do we isolate persistence details from business logic?"),
    ("Passwords are hashed with Argon2.",
     "Which algorithm protects stored user secrets?"),
    ("Keep functions short and give them descriptive names.",
     "What is our guidance on routine length and how to label identifiers?"),
    ("Crash reports are sent to Sentry with personal data scrubbed.",
     "Where do unhandled exceptions go, and is PII removed?"),
    ("The CLI exits with code 2 on usage errors.",
     "What status does the command-line tool return when invoked wrongly?"),
    ("Hotfixes are branched from the latest tag, not from main.",
     "Where do urgent patches start from?"),
    ("The search index is rebuilt nightly from the primary database.",
     "How often is the full-text catalogue regenerated?"),
    ("Avoid global mutable state; pass configuration explicitly.",
     "Should settings be singletons or handed down as arguments?"),
    ("GraphQL was rejected because caching responses is harder than with REST.",
     "Why did we not adopt a query-language API?"),
    ("Dependencies are scanned weekly for known vulnerabilities.",
     "How do we find insecure third-party libraries?"),
    ("Kubernetes pods have memory limits to avoid noisy neighbours.",
     "Why do containers in the cluster get RAM caps?"),
    ("The on-call engineer acknowledges pages within fifteen minutes.",
     "How quickly must whoever is on duty respond to an alert?"),
    ("Database connections are pooled with a maximum of twenty per instance.",
     "How many simultaneous SQL sessions can each server open?"),
    ("Git commit messages follow the Conventional Commits format.",
     "Which style do we use when describing changes in version control?"),
    ("The legacy XML export will be removed in version three.",
     "When does the old markup download go away?"),
    ("A slow test was caused by sleeping in a polling loop; use events instead.",
     "Why was that check taking so long, and what fixed it?"),
    ("Always run the formatter before pushing to avoid CI failures.",
     "What should happen locally so the pipeline does not reject style issues?"),
    ("Product analytics events are batched and flushed every ten seconds.",
     "How frequently is usage tracking data sent?"),
]

DISTRACTORS: list[str] = [
    "The README explains how to install the command-line tool with pipx.",
    "Sprint planning happens on Monday mornings.",
    "Use type hints on every public function.",
    "The team agreed to write architecture decision records for major choices.",
    "Charts in the dashboard are rendered with D3.",
    "The admin panel is only reachable through the VPN.",
    "Use snake_case for Python module names.",
    "Every service exposes a health endpoint at /healthz.",
    "Invoices are generated as PDF documents at the end of each month.",
    "The design system lives in a separate Storybook project.",
    "Search results highlight matched terms in bold.",
    "The old cron server was decommissioned in March.",
    "Prefer pathlib over os.path in new code.",
    "Bug reports must include steps to reproduce.",
    "Customer support uses Zendesk for tickets.",
    "Metrics are exported in Prometheus format.",
    "The onboarding guide lists the laptop setup steps.",
    "Keyboard shortcuts are documented in the help overlay.",
    "The recommendation model is retrained weekly.",
    "Markdown is rendered with a CommonMark compliant library.",
    "The public API documentation is generated from OpenAPI specs.",
    "Accessibility audits are done before major redesigns.",
    "Vendor code is kept in a third_party directory.",
    "The billing team owns the subscription plans.",
    "CSV imports reject rows with missing identifiers.",
    "The map view uses OpenStreetMap tiles.",
    "Code owners are defined per directory.",
    "Performance budgets limit the JavaScript bundle to 200 KB.",
    "The chat feature uses end-to-end encryption.",
    "Interns pair with a mentor for their first month.",
    "Notifications can be muted per project.",
    "The shell scripts must pass shellcheck.",
    "The data warehouse is refreshed every six hours.",
    "Error budgets are reviewed in the monthly reliability meeting.",
    "The favicon is generated from the SVG logo.",
    "Use semantic versioning for the SDK.",
    "Profiles show the user's avatar and display name.",
    "The printing service supports A4 and Letter paper.",
    "Archived projects become read-only.",
    "The game loop runs at sixty frames per second.",
]

_STOP_WORDS = """a an the and or but if of to in on at by for with from as is are was were be been being
do does did done not no so that this these those it its we our us you your they them their he she his her
what which who whom whose when where why how can could should would will shall may might must than then
there here into onto over under about after before every each any all some one two per only also just
get gets got make makes made instead rather use used using way ones once whoever someone everyone"""
_STOP = frozenset(_STOP_WORDS.split())


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    """Lowercased, crudely stemmed words of ``text`` without stop words."""
    return {_stem(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP}


def shared_content_words(memory: str, query: str) -> set[str]:
    """Content words the two texts share (the probe wants none)."""
    return content_words(memory) & content_words(query)
