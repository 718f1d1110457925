"""Secrets found by their context: Twilio auth tokens near "twilio", passwords given to a tool's flag.

A Twilio auth token is 32 hex digits on a line naming Twilio or up to three lines below it
(``twilio:`` then ``auth_token: ...``), unless a hash word (``sha``, ``md5``, ``etag`` ...) precedes
it. A command-line password is the value of ``mysql -pX``/``mariadb -pX`` (glued: ``mysql -p`` alone
prompts, so ``mysql -p appdb`` passes), ``sshpass -p X`` or ``redis-cli -a X``, judged like any password.
"""

from __future__ import annotations

import re
from functools import cache

from loa_memory.secrets.assignments import value_at
from loa_memory.secrets.detector import Detector, Found, Texts
from loa_memory.secrets.generic import is_password_value
from loa_memory.secrets.values import looks_random

_HASH_WORDS = ("sha", "md5", "etag", "hash", "checksum", "digest", "commit", "request", "trace", "uuid", "guid")


@cache
def _re_hex32() -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_-])[0-9a-f]{32}(?![A-Za-z0-9_-])")


def _check_twilio(m: re.Match[str], texts: Texts) -> Found | None:
    """A Twilio auth token has no prefix: 32 hex digits on a line naming Twilio or just below it."""
    text = texts.text
    end = m.end()
    for _ in range(4):  # the rest of the line and three more (twilio:\n  auth_token: ...)
        nl = text.find("\n", end)
        if nl < 0:
            end = len(text)
            break
        end = nl + 1
    for h in _re_hex32().finditer(text, text.rfind("\n", 0, m.start()) + 1, min(end, m.end() + 400)):
        before = texts.lower[max(0, h.start() - 12):h.start()]
        if looks_random(h.group(0)) and not any(w in before for w in _HASH_WORDS):
            return Found("twilio-auth-token", h.start(), h.end())
    return None


# Tools that take a password as a flag's value: mysql -pSECRET (glued), sshpass -p SECRET, redis-cli -a SECRET.
_CLI_PASSWORD_FLAGS = (("mysql", "-p", False), ("mariadb", "-p", False), ("sshpass", "-p", True),
                       ("redis-cli", "-a", True), ("mongo", "-p", True))  # mongosh, mongodump, mongorestore


def _check_cli_password(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    flag = m.group(0)[1:]
    pos = m.end()
    line = texts.lower[texts.lower.rfind("\n", 0, m.start()) + 1:m.start()]
    for tool, tool_flag, spaced in _CLI_PASSWORD_FLAGS:
        if tool_flag != flag or tool not in line:
            continue
        if text.startswith((" ", "\t"), pos):
            if not spaced:
                return None  # mysql -p alone prompts; what follows is the database
            while pos < len(text) and text[pos] in " \t":
                pos += 1
        line_end = text.find("\n", pos)
        got = value_at(text, pos, len(text) if line_end < 0 else line_end)
        if got is not None and is_password_value(got[0], got[3], False):
            return Found("password", got[1], got[2])
    return None


DETECTORS: tuple[Detector, ...] = (
    Detector("password", "password given on a command line", r" -[pa]",
             check=_check_cli_password, priority=12),
    Detector("twilio-auth-token", "Twilio auth token", r"twilio", view="lower", check=_check_twilio, priority=6),
)
