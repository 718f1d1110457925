"""The languages and systems of a tool call and of a correction's trigger (``answer/cues/stacks.py``)."""

from __future__ import annotations

import pytest

from loa_memory.answer.cues.action import Action
from loa_memory.answer.cues.stacks import Stacks, call_stacks, other_stack, prose_stacks


def _file(path: str) -> Stacks:
    return call_stacks(Action("write", (path,), "x = 1"), (path,))


def _command(text: str) -> Stacks:
    return call_stacks(Action("command", (), text), ())


@pytest.mark.parametrize(("path", "languages"), [
    ("app/Repositories/InvoiceRepository.php", {"php"}), ("src/features/search/useSearch.ts", {"js"}),
    ("src/components/Banner.tsx", {"js"}), ("app/views/orders/_row.html.erb", {"ruby"}),
    ("src/Orders.Worker/Handler.cs", {"dotnet"}), ("app/build.gradle.kts", {"jvm"}), ("src/limits.rs", {"rust"}),
    ("k8s/api/deployment.yaml", set()), ("db/migrations/V12__fk.sql", set()), ("Dockerfile", set()),
])
def test_a_files_language_is_its_extensions(path: str, languages: set[str]) -> None:
    assert _file(path) == Stacks(frozenset(languages))


@pytest.mark.parametrize(("command", "languages", "systems"), [
    ("redis-cli -h cache-02 --scan --pattern 'cart:*' | xargs -n 100 redis-cli -h cache-02 UNLINK", set(), {"redis"}),
    ("cd packages/charts && npm publish --tag next", {"js"}, set()),
    ("PGPASSWORD=$PW psql \"$URL\" -c 'DELETE FROM carts'", set(), {"sql"}),
    ("ssh ops@db-1 'sudo mysql -e \"SELECT 1\"'", set(), {"sql"}),
    ("ssh ops@build-1 'sudo docker ps | grep api && df -h'", set(), {"docker"}),
    ("cd apps/rider-ios && bundle exec fastlane match nuke development", set(), set()),  # no Ruby work
    ("bundle exec rails db:migrate", {"ruby"}, set()),
    ("kubectl -n edge delete pod -l app=web && git push origin main", set(), {"kubernetes", "git"}),
])
def test_a_commands_stacks_are_its_programs(command: str, languages: set[str], systems: set[str]) -> None:
    assert _command(command) == Stacks(frozenset(languages), frozenset(systems))


@pytest.mark.parametrize(("trigger", "languages", "systems"), [
    ("Writing React Query or SWR hooks that take parameters", {"js"}, set()),
    ("handling large numeric ids from an API in JavaScript or TypeScript", {"js"}, set()),
    ("Deleting millions of rows from a production Postgres table", set(), {"sql"}),
    ("freeing disk on a Docker host with docker prune", set(), {"docker"}),
    ("deleting remote branches in bulk from a generated list", set(), {"git"}),
    ("publishing a Rust crate to crates.io", {"rust"}, set()),
    ("adding a uniqueness constraint to an existing table", set(), set()),
    ("paying suppliers by SWIFT transfer", set(), set()),  # the bank network, not the language
])
def test_a_trigger_names_languages_and_systems(trigger: str, languages: set[str], systems: set[str]) -> None:
    assert prose_stacks(trigger) == Stacks(frozenset(languages), frozenset(systems))


@pytest.mark.parametrize(("call", "trigger", "other"), [
    (_file("app/Repositories/InvoiceRepository.php"), "Writing React Query or SWR hooks that take parameters", True),
    (_file("src/features/search/useSearchResults.ts"), "Writing React Query or SWR hooks that take parameters", False),
    (_command("redis-cli -h c --scan --pattern 'x:*'"), "freeing disk on a Docker host with docker prune", True),
    (_command("mysql -e 'DELETE FROM events LIMIT 5000'"), "Deleting millions of rows from a Postgres table", False),
    (_command("cd ios && bundle exec fastlane match nuke"), "Fixing broken iOS code signing with fastlane", False),
    (_file("db/migrations/V12__fk.sql"), "adding an index in a Rails migration on a large table", False),
    (_file("src/app.ts"), "adding a uniqueness constraint to an existing table", False),
    (_file("app/models/user.rb"), "Calling a Python service from a Rails or React app", False),
])
def test_a_call_on_another_stack(call: Stacks, trigger: str, other: bool) -> None:
    assert other_stack(call, prose_stacks(trigger)) is other
