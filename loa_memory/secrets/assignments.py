"""Read the value assigned to a key: separators, prose, quoted and escaped values, name/value pairs.

Given where a secret-like name ends, ``assigned_values`` lists what may be assigned to it:
``DB_PASSWORD=...``, ``"api_key": "..."``, ``secret: ...``, ``--password ...``, ``password is ...``,
``password for the staging box: ...``, ``admin / s3cret!``, JSON held as a string
(``{\\"password\\": \\"...\\"}``), and the ``value`` of a name/value pair (``- name: DB_PASSWORD`` then
``value: ...`` in Kubernetes ``env``, ``{"key": "Authorization", "value": ...}`` in Postman). It judges
little (a value with no separator before it must look strong); the detectors decide.
"""

from __future__ import annotations

import re
from functools import cache

from loa_memory.secrets.detector import Texts
from loa_memory.secrets.values import char_classes, is_placeholder, looks_random

_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
# A noun right after a secret's name makes the phrase about something else: "password reset link sent
# to ...", "password policy: 12 characters", "host key fingerprint SHA256:...", "API key name: ...".
_OTHER_THING_NOUNS = frozenset({
    "reset", "policy", "policies", "manager", "managers", "field", "fields", "hash", "hashes", "hashed",
    "strength", "rotation", "rule", "rules", "requirement", "requirements", "complexity", "length", "expiry",
    "expiration", "prompt", "hint", "hints", "input", "form", "label", "placeholder", "validator",
    "validation", "fingerprint", "fingerprints", "digest", "checksum", "id", "ids", "name", "names", "type",
    "format", "file", "path", "url", "header", "param", "prefix", "version", "pattern", "regex", "limit",
    "size", "count", "change", "generator", "md5", "sha1", "sha256", "sha384", "sha512", "hashing", "encryption",
})


@cache
def _re_separator() -> re.Pattern[str]:
    return re.compile(
        r"(?:\\?[\"'`]|\])?[ \t]*(?::=|=>|==?|:|->)[ \t]*"
        r"|[ \t]+(?:is|was|are|to|=|of)[ \t]+(?:now[ \t]+|still[ \t]+|set[ \t]+to[ \t]+|just[ \t]+)?"
        r"|[ \t]+(?=[\"'`])|(?<=-)[ \t]+",
        re.IGNORECASE)


@cache
def _re_filler() -> re.Pattern[str]:
    # Words between a key and its separator in prose: "password for the staging box: ...". Not across a sentence's
    # end ("login sessions. Chosen: OAuth2"), nor past an option, to which a separator after it belongs
    # ("credentials with BuildKit secret mounts (RUN --mount=type=secret)").
    return re.compile(r"(?:[ \t]+(?![(]?-)[A-Za-z0-9_'()/#.-]*[A-Za-z0-9_'()/#-]){0,7}[ \t]*")


def key_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a keyword's match to the whole key around it: ``pass`` -> ``DB_PASSWORD``."""
    while start > 0 and text[start - 1] in _KEY_CHARS:
        start -= 1
    while end < len(text) and text[end] in _KEY_CHARS:
        end += 1
    while end > start and text[end - 1] in ".-":
        end -= 1
    return start, end


_ESCAPES = ("\\n", "\\r", "\\t", "\\\"", "\\'")


def value_at(text: str, pos: int, limit: int) -> tuple[str, int, int, bool] | None:
    """The value starting at ``pos``: (value, start, end, quoted)."""
    if pos >= limit:
        return None
    q = text[pos]
    if q == "\\" and text.startswith(("\\\"", "\\'"), pos):
        # An escaped quote: JSON held as a string inside JSON, {\"password\": \"...\"}.
        close = text.find(text[pos:pos + 2], pos + 2, min(limit, pos + 300))
        if close < 0:
            return None
        return text[pos + 2:close], pos + 2, close, True
    if q in "\"'`":
        close = text.find(q, pos + 1, min(limit, pos + 300))
        if close < 0:
            return None
        return text[pos + 1:close], pos + 1, close, True
    if q in "([" and pos + 1 < limit and not text[pos + 1].isspace():
        pos += 1  # an aside in prose opens: "the usage-description key (NSCameraUsageDescription, ...)"
    end = pos
    while end < limit and not text[end].isspace() and text[end] not in "\"'`,;)}]>":
        end += 1
    bs = text.find("\\", pos, end)
    while bs >= 0:  # "\n" in a JSON string ends the line the value is on
        if text.startswith(_ESCAPES, bs):
            end = bs
            break
        bs = text.find("\\", bs + 1, end)
    while end > pos and text[end - 1] in ".,:;!?" and (end == limit or text[end].isspace() or text[end] == "\\"):
        # "the password is hunter2x!" keeps the "!" only when nothing else could be punctuation.
        if text[end - 1] == "!" and len(text[pos:end]) > 1 and not text[end - 2].isalnum():
            break
        if text[end - 1] == "!":
            break
        end -= 1
    return (text[pos:end], pos, end, False) if end > pos else None


def _is_about_other_thing(words: str) -> bool:
    """``reset link sent`` after "password": the phrase is about a reset; but "password reset to X" sets it."""
    first, *rest = words.lower().split(None, 1)
    return first in _OTHER_THING_NOUNS and (bool(rest) or first not in ("reset", "change"))


def assigned_values(texts: Texts, key_start: int, key_end: int) -> list[tuple[str, int, int, bool, bool]]:
    """Candidate values after a key: (value, start, end, quoted, prose)."""
    text = texts.text
    line_end = text.find("\n", key_end)
    limit = len(text) if line_end < 0 else line_end
    limit = min(limit, key_end + 400)
    out = []
    filler = _re_filler().match(text, key_end, limit)
    seps = list(_re_separator().finditer(text, key_end, min(limit, key_end + 90)))
    for sep in seps[:4]:
        between = text[key_end:sep.start()]
        words = between.strip(" \t\"'`\\]")
        if words and (filler is None or sep.start() > filler.end() or _is_about_other_thing(words)):
            break
        prose = bool(words) or sep.group(0).strip(" \t\"'`\\]:=") != ""
        got = value_at(text, sep.end(), limit)
        if got is not None:
            out.append((*got, prose))
            pair = _re_user_slash_pass().match(text, got[2], limit)
            if pair is not None:  # "admin / s3cret!" states a user, then its password
                got2 = value_at(text, pair.end(), limit)
                if got2 is not None:
                    out.append((*got2, True))
    if not seps or seps[0].start() > key_end + 1:
        # "password Winter1289!" with no separator at all: only a strong value will do.
        gap = _re_gap().match(text, key_end, limit)
        got = value_at(text, gap.end(), limit) if gap else None
        if got is not None and _is_strong(got[0]):
            out.append((*got, True))
    paired = paired_value(text, key_start, key_end)
    if paired is not None:
        out.append((*paired, False))
    return out


@cache
def _re_pair_name() -> re.Pattern[str]:
    return re.compile(r"(?i)(?<![A-Za-z0-9_])(?:name|key)\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?\Z")


@cache
def _re_pair_value() -> re.Pattern[str]:
    return re.compile(r"(?i)(?<![A-Za-z0-9_])value\\?[\"']?[ \t]*[:=][ \t]*")


def is_pair_name(text: str, key_start: int) -> bool:
    """The key is itself a value: ``- name: DB_PASSWORD``, ``{"key": "Authorization", ...}``."""
    if key_start == 0 or text[key_start - 1] not in " \t\"':=":
        return False
    before = text[max(0, key_start - 12):key_start].lower()
    return ("name" in before or "key" in before) and bool(_re_pair_name().search(before))


def paired_value(text: str, key_start: int, key_end: int) -> tuple[str, int, int, bool] | None:
    """The value of a name/value pair (Kubernetes env, ECS, Postman headers) whose name is the key."""
    if not is_pair_name(text, key_start):
        return None
    window_end = min(len(text), key_end + 160)
    v = _re_pair_value().search(text, key_end, window_end)
    if v is None:
        return None
    between = text[key_end:v.start()]
    if between.count("\n") > 2 or "name" in between.lower():
        return None  # the next pair's value, not this one's
    line_end = text.find("\n", v.end())
    return value_at(text, v.end(), len(text) if line_end < 0 else line_end)


@cache
def _re_user_slash_pass() -> re.Pattern[str]:
    return re.compile(r"[ \t]*/[ \t]*")


@cache
def _re_gap() -> re.Pattern[str]:
    return re.compile(r"[ \t]+")



def _is_strong(value: str) -> bool:
    if is_placeholder(value):
        return False
    return (len(value) >= 8 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
            and char_classes(value) >= 3) or looks_random(value, min_len=16)


@cache
def _re_quick_separator() -> re.Pattern[str]:
    # " `": code quoted in prose ("stored with `set(token, ...)`"), which the code-span reading then judges.
    return re.compile(r"[:=]|->| (?:(?:is|was|are|to|of) |`)")


def may_assign(low: str, pos: int, min_len: int) -> bool:
    """Cheap test that a separator follows the key on its line, then a token that could be a value."""
    seg = low[pos:pos + 120]
    nl = seg.find("\n")
    if nl >= 0:
        seg = seg[:nl]
    sep = _re_quick_separator().search(seg)
    if sep is None:
        return False
    for tok in seg[sep.end():].split():
        tok = tok.strip("\"'`,;")
        # Letters only count from 16 on: a generated key without a digit (one in forty of 21 base62 characters).
        if len(tok) >= min_len and (not tok.isalpha() or len(tok) >= 16):
            return True
    return False


@cache
def _re_bare_value() -> re.Pattern[str]:
    return re.compile(r"[ \t]+(\S{16,})")


def is_bare_value_next(text: str, key_end: int) -> bool:
    """Cheap test for ``key VALUE`` with no separator: a long token that is not a word."""
    b = _re_bare_value().match(text, key_end)
    return b is not None and not b.group(1).isalpha()
