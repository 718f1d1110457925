"""Words that software teams use for the same thing, so a lexical query also finds an entry that says it
in other words ("ship to prod" ↔ "deploy to production").

Each group is a set of interchangeable words; a query word in a group also searches for the others, at a
lower boost and a lower share of coverage than the word itself (``index.build_query``). Projects add their
own groups under ``retrieval.synonyms`` in ``.loa.config.yaml``. The groups are general software and
operations vocabulary, not tuned to any benchmark's queries; single words only (Whoosh matches stems).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence

GROUPS: tuple[tuple[str, ...], ...] = (
    # shipping and environments
    ("deploy", "deployment", "ship", "release", "rollout", "launch", "publish"),
    ("production", "prod"),
    ("staging", "preprod", "sandbox"),
    ("environment", "env"),
    ("rollback", "revert", "undo"),
    ("upgrade", "update", "bump"),
        # data
    ("database", "db", "datastore", "rdbms", "postgres", "postgresql", "mysql", "sqlite", "rds"),
        ("column", "columns"),
        ("delete", "remove", "drop", "purge", "erase", "wipe"),
    ("migrate", "migration", "transfer"),
    ("backup", "snapshot"),
    ("restore", "recover", "recovery"),
    ("replica", "replication", "standby"),
    ("disk", "storage", "volume", "ebs"),
    ("bucket", "s3", "blob"),
    ("cache", "memoize", "memcached", "redis"),
    ("queue", "broker", "kafka", "rabbitmq", "sqs", "pubsub"),
    ("schema", "ddl"),
    # machines and platforms
    ("server", "host", "machine", "node", "instance", "vm"),
    ("container", "docker", "pod"),
    ("kubernetes", "k8s", "eks", "gke", "aks"),
    ("cluster", "fleet"),
    ("aws", "amazon", "ec2"),
    ("gcp", "google"),
    ("azure", "microsoft"),
    ("cpu", "processor", "chip", "arm", "graviton", "x86", "architecture"),
    ("memory", "ram", "heap", "oom"),
    ("region", "zone", "datacenter"),
    ("infrastructure", "infra", "terraform", "provisioning"),
    ("kernel", "os", "linux"),
    ("restart", "reboot", "bounce", "recycle"),
    ("evict", "evicted", "eviction", "kill", "killed", "preempt"),
    ("scale", "autoscale", "autoscaling", "scaling"),
    ("grow", "expand", "increase", "resize", "extend", "enlarge"),
    ("shrink", "reduce", "decrease", "trim"),
    ("capacity", "quota", "limit", "cap", "headroom"),
    ("full", "exhausted", "exceeded", "saturated"),
    # networking and the web
    ("network", "networking", "connectivity", "connection"),
    ("dns", "domain", "hostname", "subdomain", "nameserver"),
    ("website", "site", "webpage", "web"),
    ("proxy", "gateway", "ingress", "router", "nginx", "haproxy", "envoy", "traefik", "balancer", "cdn"),
    ("certificate", "cert", "tls", "ssl", "https"),
    ("expire", "expired", "expiry", "expiration", "lapse", "lapsed"),
    ("firewall", "allowlist", "whitelist", "acl"),
    ("traffic", "bandwidth", "throughput"),
        ("api", "endpoint"),
    ("frontend", "ui", "browser"),
            # reliability
    ("outage", "downtime", "incident", "unavailable", "disruption"),
    ("error", "failure", "fault", "exception"),
    ("crash", "panic", "abort", "segfault"),
    ("slow", "latency", "sluggish", "lag", "slowness", "performance"),
    ("fast", "quick", "speedy", "faster", "speed"),
    ("timeout", "hang", "hung", "stuck", "stall"),
    ("retry", "rerun", "retries"),
    ("flaky", "intermittent", "flake", "nondeterministic"),
    ("unhealthy", "degraded", "flapping"),
    ("alert", "alarm", "paging", "oncall", "pager"),
    ("monitor", "monitoring", "metric", "metrics", "observability", "dashboard", "prometheus", "grafana"),
    ("log", "logs", "logging"),
    ("trace", "tracing", "span"),
    ("postmortem", "retrospective", "retro", "rca"),
    ("cause", "reason", "culprit"),
    ("fix", "repair", "resolve", "mitigate", "remediate", "workaround"),
    ("bug", "defect", "issue", "problem", "regression"),
    # code and collaboration
    ("repository", "repo", "codebase", "monorepo"),
    ("commit", "changeset", "patch", "diff"),
    ("branch", "trunk", "mainline"),
    ("merge", "merging"),
    ("review", "approve", "approval", "reviewer"),
    ("test", "tests", "spec", "specs", "suite", "testing"),
    ("ci", "pipeline", "build", "jenkins", "concourse"),
    ("runner", "worker", "executor"),
    ("parallel", "parallelise", "parallelize", "concurrent", "concurrency", "shard", "sharding", "distribute"),
    ("dependency", "dependencies", "package", "library", "gem", "crate"),
        ("version", "versioning", "semver"),
    ("config", "configuration", "settings", "setting"),
    ("flag", "toggle"),
    ("disable", "deactivate"),
    ("enable", "activate"),
    ("lint", "linter", "linting", "formatter", "style"),
    ("script", "tool", "tooling", "cli", "command"),
    ("document", "docs", "documentation", "readme", "wiki", "guide", "handbook", "manual"),
    ("runbook", "playbook", "procedure", "checklist"),
    ("template", "boilerplate", "scaffold"),
    ("rename", "renaming"),
    ("refactor", "restructure", "rewrite", "cleanup"),
    ("deprecate", "deprecated", "legacy", "obsolete", "sunset"),
    # security and access
    ("secret", "credential", "credentials", "token", "password", "apikey"),
    ("permission", "permissions", "access", "privilege", "role", "rbac", "authorization", "authz"),
    ("authentication", "auth", "authn", "login", "signin", "sso", "oauth", "saml"),
    ("owner", "ownership", "maintainer"),
    ("user", "account", "customer"),
    ("team", "squad"),
    ("encrypt", "encryption", "encrypted", "kms"),
    ("vulnerability", "cve", "exploit", "security"),
    ("audit", "compliance"),
    # decisions and time
    ("decide", "decision", "choose", "chose", "choice", "pick", "picked", "select", "adopt", "adopted"),
    ("replace", "replaced", "swap", "substitute", "migrate"),
    ("alternative", "alternatives", "option", "options"),
    ("cost", "costs", "spend", "spending", "bill", "billing", "price", "pricing", "expense", "budget"),
    ("cheap", "cheaper", "inexpensive", "affordable"),
    ("expensive", "costly", "pricey"),
    ("often", "frequency", "frequently", "cadence", "regularly"),
    ("daily", "nightly", "everyday"),
    ("schedule", "scheduled", "cron", "periodic", "timer"),
    ("timestamp", "datetime"),
    ("timezone", "utc", "tz"),
    ("email", "mail", "smtp"),
    ("notification", "notify", "notifications"),
    ("share", "shared", "reuse", "reusable"),
    ("label", "tag", "labels", "tags"),
    ("project", "workspace", "tenant", "namespace"),
)


@functools.cache
def _stems(words: tuple[str, ...]) -> tuple[str, ...]:
    from whoosh.lang.porter import stem

    return tuple(dict.fromkeys(stem(word.lower()) for word in words))


def table(extra: Iterable[Sequence[str]] = ()) -> Mapping[str, tuple[str, ...]]:
    """Stem -> the stems it may also be written as (itself excluded), from GROUPS and ``extra`` groups."""
    return _table(tuple(tuple(group) for group in extra))


@functools.cache
def _table(extra: tuple[tuple[str, ...], ...]) -> Mapping[str, tuple[str, ...]]:
    related: dict[str, dict[str, None]] = {}
    for group in (*GROUPS, *extra):
        stems = _stems(group)
        for stem in stems:
            related.setdefault(stem, {}).update(dict.fromkeys(s for s in stems if s != stem))
    return {stem: tuple(others) for stem, others in related.items()}
