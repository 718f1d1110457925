"""Calls that cannot perform a guarded action by themselves: prose documentation written or edited, and shell
commands that only look, build or test (``git status``, ``pytest``, ``kubectl get``, ``terraform plan``, ``argocd
app get``; with ``sudo``, or on another host through ``ssh``) or run dry (``git clean -n``, ``--dry-run``). A query
that only reads is no such command: scanning a whole partitioned table is the mistake of a cost lesson.

An edit that only adds or changes comments documents the code as a runbook would.
Such a call works in the correction's area (a runbook about Redis, the tests of the payments module) without doing
anything a lesson warns about, so meaning and names alone never fire on it; a shared action class or an
``applies_to`` path still does (``match.py``). A call that writes only tests, fixtures or stories exercises the code
a lesson is about without being it: only a correction about tests fires on it by meaning, as a task asking for tests
fires only such a correction at ``recall``. An edit that changes only values (a version, a limit, a message, a hostname:
``node-version: 18`` to ``20``, ``SESSION_COOKIE_AGE = 60 * 60 * 24 * 14`` to ``7``) tunes what the code does, not how:
it fires a correction only with evidence, a shared class (renaming a Terraform resource changes only a quoted label),
an ``applies_to`` path or the mistake's own code, or when the changed lines name what the correction is about
(``targetSdk = 34`` and "raising the Android target SDK level").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from loa_memory.answer.cues.action import Action

# test files, fixtures and component stories, as the common test runners and Storybook name them
_TESTS = re.compile(r"(?:^|/)(?:tests?|__tests__|specs?|testdata|fixtures)/|(?:^|/)(?:test_[^/]*\.py|conftest\.py)$|"
                    r"_test\.(?:go|py|exs?|dart|rb)$|\.(?:test|spec|stories)\.[cm]?[jt]sx?$|"
                    r"(?:Test|Tests|Spec)\.(?:java|kt|swift|cs|scala|php)$|_spec\.rb$")
_ABOUT_TESTS = re.compile(r"(?i)\b(?:tests?|specs?|mock\w*|fixtures?)\b")
_DOCS = re.compile(r"(?i)(?:^|/)docs?/|\.(?:md|markdown|mdx|rst|adoc)$|(?:^|/)(?:README|CHANGELOG|CONTRIBUTING)[^/]*$")
_FLAGS = r"(?:\s++--?[\w-]++(?:[= ](?!-)[^\s;&|]++)?+)*+"  # options before a subcommand: kubectl -n x --context y get
# redis-cli's options: those that take a value (-h host, -n db, --user name) and those that take none (--tls)
_REDIS_FLAGS = (r"(?:\s++(?:-[hpasnu]\s++[^\s;&|]++|--(?:user|pass|cacert|cert|key|sni|uri)[= ][^\s;&|]++"
                r"|--(?!scan\b)[\w-]++))*+")
_LOOKS = [
    r"git(?:\s+-C\s+\S+)?\s+(?:status|log|diff|show|blame|ls-files|rev-parse|branch|fetch|describe|remote(?:\s+-v)?)\b",
    r"(?:python3?\s+-m\s+)?pytest\b", r"go\s+(?:test|vet|build|list)\b",
    r"cargo\s+(?:test|clippy|check|fmt|build|tree)\b",
    r"(?:npm|pnpm|yarn)\s+(?:test|lint|outdated|ls|list|view|why)\b",
    r"(?:npm|pnpm|yarn)\s+run\s+(?:test|lint|typecheck|check|build)\b",
    r"npx\s+(?:tsc|vitest|jest|eslint|prettier\s+--check)\b",
    r"(?:eslint|ruff|mypy|flake8|tsc|jest|vitest|rspec|phpunit|shellcheck|hadolint)\b",
    r"(?:python3?\s+)?manage\.py\s+(?:test|check|showmigrations|sqlmigrate)\b",
    r"(?:bundle\s+exec\s+)?(?:rspec|rake\s+test|rails\s+test)\b",
    r"\./gradlew\s+\S*(?:test|dependencies|lint|check)\S*",
    r"mvn\s+(?:test|verify|dependency:tree)\b", r"dotnet\s+(?:test|build)\b",
    r"kubectl" + _FLAGS + r"\s+(?:get|describe|logs|top|explain|diff|version"
    r"|config\s+(?:current-context|get-contexts))\b",
    r"helm" + _FLAGS + r"\s+(?:list|ls|status|history|get|template|lint|diff)\b",
    r"docker\s+(?:ps|logs|images|inspect|compose(?:\s+-f\s+\S+)?\s+(?:ps|logs|config))\b",
    r"terraform(?:\s+-chdir=\S+)?\s+(?:plan|init|fmt|validate|show|output|workspace\s+(?:show|list)|state\s+(?:list|show)"
    r"|providers|version)\b",
    r"redis-cli" + _REDIS_FLAGS + r"\s++(?i:info|get|mget|ttl|pttl|type|exists|strlen|hget|hgetall|hlen|llen|lrange|"
    r"scard|smembers|zcard|zrange|dbsize|ping|memory\s+(?:usage|stats)|slowlog\s+get|client\s+list|config\s+get|"
    r"scan)\b",  # Redis commands in any case: INFO keyspace
    r"crontab(?:\s+-u\s+\S+)?\s+-l\b",
    # Kafka's tools describe or list unless told to change something
    r"kafka-(?:consumer-groups|topics|configs)(?:\.sh)?(?=[^;&|\n]*\s--(?:describe|list)\b)"
    r"(?![^;&|\n]*\s--(?:alter|delete|reset-offsets|create|execute|add-config|delete-config)\b)",
    r"redis-cli" + _REDIS_FLAGS + r"\s++--scan\b",  # listing keys; a DEL after a pipe is a step of its own
    r"(?:cd|ls|cat|head|tail|grep|rg|wc|sort|uniq|du|df|pwd|which|echo|jq|stat|file|tree|less|find)\b",
    r"ansible-(?:inventory|doc|lint)\b",
    r"argocd" + _FLAGS + r"\s+app\s+(?:get|list|diff|history|manifests|logs|resources)\b", r"flux\s+get\b",
    # a broker's and the clouds' listings and descriptions (not a secret's value read out)
    r"rabbitmqctl" + _FLAGS + r"\s+(?:list_\w+|status|cluster_status|environment)\b",
    r"aws" + _FLAGS + r"\s+(?:[\w-]+\s+(?:describe-[\w-]+|list-[\w-]+|get-(?!secret-value\b)[\w-]+)|s3\s+ls)\b",
    r"gcloud(?:\s+[\w-]+){1,4}\s+(?:list|describe)\b", r"az(?:\s+[\w-]+){1,4}\s+(?:list|show)\b",
    # a host's and the network's state
    r"(?:dig|nslookup|host|whois|journalctl|ps|free|uptime|lsof|ss|netstat)\b", r"openssl\s+(?:x509|s_client)\b",
    r"systemctl\s+(?:status|is-active|is-enabled|list-units|list-timers|cat|show)\b",
]
_LOOKING = re.compile(r"\A(?:\w++=\S*+\s++)*+(?:sudo(?:\s++-[\w-]++)*+\s++)?(?:" + "|".join(_LOOKS) + r")")  # linear
# a command run on another host: ``ssh ops@worker-3 'df -h; du -sh /var/log/*'`` looks if what it runs there does
# (an option may take a value or none: `ssh -t ops@host '...'`, `ssh -i key.pem -p 2222 ops@host '...'`)
_SSH = re.compile(r"\Assh(?:\s++-[A-Za-z]++(?:\s++[^\s'\"-][^\s'\"]*+)?)*\s++[^\s'\"-][^\s'\"]*+\s++'([^']*+)'\s*+\Z")
# a dry run only says what it would do: `git clean -nd`, `kubectl apply --dry-run=server`, `aws s3 sync --dryrun`,
# `ansible-playbook site.yml --check`; a read-only run takes what is there (`fastlane match --readonly`)
_DRY_RUN = re.compile(r"(?<!\S)(?:--dry-?run(?:=(?:client|server|true))?|--check|--read-?only)(?!\S)|"
                      r"\Agit\s++clean\b[^\n]*?\s-[a-zA-Z]*n")
_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\\\]|\\\\.)*\"")
_STAGES = re.compile(r"&&|\|\||;|\||\n")
_WRITES = re.compile(r"(?<![0-9&])>(?!\s*/dev/null|&)|\s-(?:delete|exec|execdir|ok)\b")  # into a file; find acting


def inert(action: Action, paths: tuple[str, ...]) -> bool:
    """Whether ``action`` only writes documentation (a documentation file, or comments added to code), or is a
    command whose every step only looks, builds or tests."""
    if action.kind != "command":
        return (bool(paths) and all(_DOCS.search(PurePosixPath(p).as_posix()) for p in paths)) or only_comments(action)
    remote = _SSH.match(action.text.strip())
    if remote:
        return inert(Action("command", (), remote.group(1)), ())
    command = _QUOTED.sub("''", action.text)  # a | or ; inside quotes separates no steps
    if "$(" in command or "`" in command or _WRITES.search(command):
        return False
    stages = [stage.strip() for stage in _STAGES.split(command)]
    return any(stages) and all(_LOOKING.match(stage) or _DRY_RUN.search(stage) for stage in stages if stage)


# a literal: a quoted string or a number; 0 and 1, true, false and the like switch something, and are no mere value
_VALUE = re.compile(r"\"(?:[^\"\\\n]|\\.)*+\"|'(?:[^'\\\n]|\\.)*+'|\b\d[\w.]*+")
_SWITCH = re.compile(r"[01]|([\"'])(?i:true|false|yes|no|on|off|none|null|)\1")
_SKELETON = re.compile(_VALUE.pattern + r"|\w++|[^\w\s]")


# a line that is only a comment, in the common languages' spellings: # // -- /* * */ ; <!-- --> (not a C
# preprocessor line or a shebang, not a command's option continued on its own line: `  --recursive \`)
_COMMENT_LINE = re.compile(r"\A\s*+(?:#(?!!|\s*+(?:include|define|undef|if|ifdef|ifndef|else|elif|endif|pragma|"
                           r"import)\b)|//|--(?=\s|\Z)|/\*|\*(?=[\s/]|\Z)|;|<!--)")


def _changes(action: Action) -> bool:
    """Whether ``action`` is an edit that replaces some text with other text."""
    return action.kind == "edit" and bool(action.removed) and action.removed != action.text


def only_comments(action: Action) -> bool:
    """Whether ``action`` is an edit whose code, less its comment lines, is what it was: it writes documentation."""
    if not _changes(action):
        return False

    def code(text: str) -> list[str]:
        return [line.strip() for line in text.splitlines() if line.strip() and not _COMMENT_LINE.match(line)]

    return code(action.removed) == code(action.text)


def only_values(action: Action) -> bool:
    """Whether ``action`` is an edit that changes only values: its old and new text are the same code with other
    literals (strings, numbers; not 0 or 1, true or false)."""
    if not _changes(action):
        return False
    return _skeleton(action.removed) == _skeleton(action.text)


def _skeleton(code: str) -> list[str]:
    return ["" if _VALUE.fullmatch(token) and not _SWITCH.fullmatch(token) else token
            for token in _SKELETON.findall(code)]


def only_tests(action: Action, paths: tuple[str, ...]) -> bool:
    """Whether ``action`` writes or edits only tests, fixtures or stories."""
    return action.kind != "command" and bool(paths) and all(_TESTS.search(p) for p in paths)


def about_tests(texts: Iterable[str]) -> bool:
    """Whether ``texts`` (a correction's triggers and summary) speak of tests, specs, mocks or fixtures."""
    return _ABOUT_TESTS.search(" ".join(texts)) is not None
