"""The languages and systems a tool call works in, and those a correction's trigger names: a lesson about React
Query hooks is not about a PHP repository's query, nor a lesson about freeing a Docker host's disk about deleting
Redis keys, though each shares the other's words.

A call's languages come from its files' extensions (``.tsx``, ``.rb``, ``.cs``) or its command's programs (``npm``,
``bundle exec rails``, ``cargo``); its systems only from its command's programs (``redis-cli``, ``psql``,
``kubectl``, ``git``): a Python file may well talk to Redis. A trigger's come from the names it uses ("React",
"Rails", "in JavaScript or TypeScript", "Redis", "a production Postgres table", "Kubernetes namespaces", "remote
branches"). SQL databases are one system: a lesson about batching deletes on Postgres holds on MySQL.

``other_stack`` is true when, for languages or for systems, both sides name some and share none. A call in no known
language (YAML, SQL, a Dockerfile) or a trigger that names none is never on another stack.
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from loa_memory.answer.cues.action import Action

_EXTENSIONS = {
    "js": r"\.(?:[cm]?[jt]sx?|vue|svelte)$",
    "ruby": r"\.(?:rb|erb|rake|gemspec)$|(?:^|/)(?:Gemfile|Rakefile)$",
    "python": r"\.(?:pyi?|ipynb)$",
    "jvm": r"\.(?:java|kt|kts|scala|groovy|gradle)$",
    "swift": r"\.swift$",
    "go": r"\.go$",
    "php": r"\.php$",
    "dotnet": r"\.(?:cs|cshtml|razor|fs|vb|csproj)$",
    "rust": r"\.rs$|(?:^|/)Cargo\.toml$",
    "elixir": r"\.exs?$",
    "dart": r"\.dart$",
}
# names in a trigger, case as written: "Swift" is the language, "SWIFT" a bank transfer
_LANGUAGE_NAMES = {
    "js": r"\b(?:React(?: Native| Query)?|JSX|TSX|Next\.js|Node\.js|NodeJS|JavaScript|TypeScript|Vue|Svelte|Angular|"
          r"SWR|NestJS|npm|Jest|Vitest|Redux|Zustand|Prisma|Sequelize|TypeORM|Deno)\b",
    "ruby": r"\b(?:Rails|Ruby|ActiveRecord|RSpec|Sidekiq|Rake|ERB|Gemfile|Bundler)\b",
    "python": r"\b(?:Python|Django|Flask|FastAPI|pandas|NumPy|Celery|SQLAlchemy|Alembic|pytest|PyTorch|sklearn|"
              r"scikit-learn|Pydantic|asyncio|Airflow|PySpark|Jupyter)\b",
    "jvm": r"\b(?:Java|Kotlin|Spring|JPA|Hibernate|BigDecimal|Gradle|Maven|JUnit|Scala|Android|Jetpack)\b",
    "swift": r"\b(?:Swift|SwiftUI|iOS|UIKit|StoreKit|Xcode|Codable|Core Data)\b",
    "go": r"\b(?:Go|Golang|goroutines?)\b",
    "php": r"\b(?:PHP|Laravel|Eloquent|Symfony|Doctrine|Composer|WordPress)\b",
    "dotnet": r"(?:\bC#|\.NET\b|\bEF Core\b|\bEntity Framework\b|\bLINQ\b|\bBlazor\b|\bNuGet\b)",
    "rust": r"\b(?:Rust|crates?|crates\.io|Cargo|Tokio|serde)\b",
    "elixir": r"\b(?:Elixir|Phoenix|Ecto)\b",
    "dart": r"\b(?:Dart|Flutter)\b",
}
_SYSTEM_NAMES = {
    "redis": r"\bRedis\b",
    "sql": r"\b(?:Postgres(?:QL)?|MySQL|MariaDB|SQLite|SQL Server)\b",
    "mongo": r"\bMongo(?:DB)?\b",
    "kafka": r"\bKafka\b",
    "docker": r"\b[Dd]ocker\b",
    "kubernetes": r"\b(?:Kubernetes|k8s|kubectl|Helm|PVCs?|pods?|namespaces?)\b",
    # not "commits": a transaction commits too
    "git": r"\b(?:git|Git|branch(?:es)?|rebas(?:e|ing)|force[- ]push(?:es|ing)?)\b",
    "terraform": r"\b(?:Terraform|OpenTofu|tfstate)\b",
}
_PROGRAM_LANGUAGES = {
    "js": r"npm|npx|yarn|pnpm|node|bun|deno|tsc",
    "ruby": r"bundle|rails|rake|rspec|gem|ruby|irb",
    "python": r"python[\d.]*|pip[\d.]*|poetry|uv|pipenv|django-admin|celery|alembic|pytest",
    "jvm": r"mvn|gradle|\./gradlew|gradlew|java|kotlin",
    "rust": r"cargo|rustc",
    "go": r"go",
    "php": r"php|composer|artisan",
    "dotnet": r"dotnet",
    "swift": r"swift|xcodebuild|pod",
}
_PROGRAM_SYSTEMS = {
    "redis": r"redis-cli",
    "sql": r"psql|pg_dump|pg_restore|pg_dumpall|mysql|mysqldump|gh-ost|pt-online-schema-change|sqlite3",
    "mongo": r"mongo(?:sh|dump|restore)?",
    "kafka": r"kafka-[\w-]+(?:\.sh)?|kcat|kafkacat",
    "docker": r"docker(?:-compose)?",
    "kubernetes": r"kubectl|helm|kustomize",
    "git": r"git|gh",
    "terraform": r"terraform|tofu|terragrunt",
}
# words before the program a stage runs: `sudo -u deploy`, `FOO=1`, `xargs -n 100`, `timeout 30`
_PREFIX = re.compile(r"(?<![\w=-])(?:sudo|env|time|nice|nohup|exec|xargs|watch|timeout|\w++=\S*+|-\S*+|\d++[smh]?)")
_STAGES = re.compile(r"&&|\|\||;|\||\n")
_SSH = re.compile(r"ssh\b[^'\"]*['\"](.*)['\"]\s*$", re.S)


@dataclass(frozen=True)
class Stacks:
    languages: frozenset[str] = frozenset()
    systems: frozenset[str] = frozenset()


def call_stacks(action: Action, paths: Iterable[str]) -> Stacks:
    """The languages and systems ``action`` works in: its files' languages, or its command's programs'."""
    if action.kind != "command":
        return Stacks(frozenset(name for path in paths for name, rule in _EXTENSIONS.items() if re.search(rule, path)))
    languages: set[str] = set()
    systems: set[str] = set()
    for program in _programs(action.text):
        languages |= {name for name, rule in _PROGRAM_LANGUAGES.items() if re.fullmatch(rule, program)}
        systems |= {name for name, rule in _PROGRAM_SYSTEMS.items() if re.fullmatch(rule, program)}
    return Stacks(frozenset(languages), frozenset(systems))


def _programs(command: str) -> list[str]:
    """The program each stage of ``command`` runs (through ``ssh host '...'``, ``sudo``, ``xargs``, ``bundle exec``,
    ``poetry run``)."""
    remote = _SSH.match(command.strip())
    if remote:  # what it runs on the other host, pipes and all
        return _programs(remote.group(1))
    programs = []
    for stage in _STAGES.split(command):
        try:
            words = shlex.split(stage, comments=True)
        except ValueError:
            words = stage.split()
        while words and _PREFIX.fullmatch(words[0]):
            words = words[1:]
        if words[:2] in (["bundle", "exec"], ["poetry", "run"], ["uv", "run"], ["pipenv", "run"]):
            words = words[2:]  # the tool it runs: `bundle exec fastlane` is no Ruby work
        if words:
            programs.append(words[0].rsplit("/", 1)[-1] if not words[0].startswith("./") else words[0])
    return programs


@functools.lru_cache(maxsize=4096)
def prose_stacks(text: str) -> Stacks:
    """The languages and systems ``text`` (a trigger) names."""
    return Stacks(frozenset(name for name, rule in _LANGUAGE_NAMES.items() if re.search(rule, text)),
                  frozenset(name for name, rule in _SYSTEM_NAMES.items() if re.search(rule, text)))


def other_stack(call: Stacks, named: Stacks) -> bool:
    """Whether a call works in other languages, or on other systems, than a trigger names."""
    return bool((call.languages and named.languages and not call.languages & named.languages)
                or (call.systems and named.systems and not call.systems & named.systems))
