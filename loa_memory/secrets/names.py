"""How secret a key's name is: 2 for a clearly secret name, 1 for a bare key, 0 for no secret's name.

``api_key``, ``client_secret``, ``storageAccountKey1`` and ``token`` are secret names; ``cache key``,
``public_key``, ``token_count`` and ``secretName`` are not.
"""

from __future__ import annotations

import re
from functools import cache

from loa_memory.secrets.detector import Texts

DENY_SEGMENTS = frozenset({
    "name", "names", "ref", "refs", "path", "file", "files", "dir", "url", "uri", "type", "length", "len",
    "count",
    "limit", "limits", "budget", "max", "min", "size", "expiry", "expires", "expiration", "ttl", "header",
    "param",
    "prefix", "field", "env", "var", "store", "manager", "arn", "version", "pattern", "regex", "rotation",
    "provider", "format", "location", "mount", "policy", "scope", "scopes", "endpoint", "usage", "estimate",
    "window", "cost", "hint", "prompt", "reset", "strength", "rule", "rules", "label", "less", "id", "ids",
    "hash", "hashed", "hashing", "encryption", "digest", "fingerprint", "public", "pub", "kid", "lifetime",
    "timeout", "validator",
    "required", "enabled", "input", "form", "placeholder", "source", "sources", "backend", "key_ref", "mode",
    "rotated", "rotate", "rotated_at", "created", "updated", "at", "by", "index", "class", "kind", "level",
    "keys", "sort", "primary", "foreign", "partition", "cache", "idempotency", "lookup", "map", "object",
    "dedupe", "unique", "ssh", "gpg", "pgp", "encoding", "bytes", "bits", "algorithm", "alg", "used",
})
_SECRET_BASES = ("secret", "token", "apikey", "credential", "credentials", "secrets", "tokens", "auth", "pat",
                 "creds")
_KEY_PREFIXES = ("api", "access", "secret", "private", "auth", "master", "signing", "encryption", "license",
                 "app", "client", "account", "service", "session", "consumer", "webhook", "deploy", "admin",
                 "root", "shared", "storage", "sas", "bearer", "refresh", "personal", "bot", "integration",
                 "subscription", "management", "write", "read", "ingest", "license", "x-api", "xapi")
_TOKEN_PREFIXES = ("access", "auth", "refresh", "bearer", "api", "bot", "session", "id", "oauth", "personal",
                   "deploy", "service", "app", "client", "csrf", "xsrf", "jwt", "slack", "github", "gitlab")
PASSWORD_WORDS = ("password", "passwd", "passphrase", "passcode", "pass", "pwd", "pw")
# A key named for something public is never a secret's name: public_key, deploy_pubkey, publishableKey.
_PUBLIC_SEGMENTS = frozenset({"public", "pub", "pubkey", "publickey", "publishable"})
# Words that make "X key" a data-structure key: cache key, sort key, partition key, idempotency key.
_DATA_KEY_MODIFIERS = frozenset({
    "cache", "sort", "partition", "foreign", "lookup", "map", "idempotency", "dedupe", "dedup", "unique",
    "index", "hash", "routing", "shard", "row", "range", "cursor", "composite", "object", "dict", "column",
    "table", "translation", "i18n", "group", "join", "cluster", "bucket", "kv", "redis", "s3",
})


def key_segments(key: str) -> list[str]:
    """``storageAccountKey1`` -> storage, account, key: a number after key1, secret2, token3 names a slot."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", key)
    return [_slot_word(s) for s in re.split(r"[_.\-]+", spaced.lower()) if s]


def _slot_word(segment: str) -> str:
    word = segment.rstrip("0123456789")
    return word if word in ("key", "secret", "token", "password", "apikey") else segment


@cache
def _re_secret_suffix() -> re.Pattern[str]:
    """apikey, clientsecret, refreshtoken ... at the end of a key's joined segments."""
    prefixes = "|".join(sorted({re.escape(p) for p in _KEY_PREFIXES + _TOKEN_PREFIXES}, key=len, reverse=True))
    return re.compile(f"(?:{prefixes})(?:key|token|secret)\\Z")


def key_strength(texts: Texts, ks: int, ke: int) -> int:
    """2 for a clearly secret name (api_key, client_secret, token), 1 for a bare key, 0 for no secret."""
    segs = key_segments(texts.text[ks:ke])
    if not segs or any(s in DENY_SEGMENTS for s in segs[-1:]) or (any(
            s in DENY_SEGMENTS for s in segs if s not in ("key", "id") and s != segs[-1]) and len(segs) > 3):
        return 0
    prev = _previous_word(texts, ks)
    joined = "".join(segs)
    last = segs[-1]
    if _PUBLIC_SEGMENTS.intersection(segs) or prev in _PUBLIC_SEGMENTS or (last == "key" and (
            segs[-2] if len(segs) > 1 else prev) in _DATA_KEY_MODIFIERS):
        return 0
    if last in _SECRET_BASES or _re_secret_suffix().search(joined):
        if last in ("auth", "pat") and len(segs) == 1 and prev not in _KEY_PREFIXES:
            return 1
        return 2
    if last == "key" or joined.endswith("key"):
        if len(segs) > 1 or prev in _KEY_PREFIXES:
            return 2 if (len(segs) > 1 and segs[-2] in _KEY_PREFIXES) or prev in _KEY_PREFIXES else 1
        return 1 if last == "key" else 0
    if "secret" in segs or "token" in segs:
        return 2
    if "secret" in joined:
        return 1
    return 0


def _previous_word(texts: Texts, pos: int) -> str:
    low = texts.lower
    j = pos
    while j > 0 and low[j - 1] in " \t":
        j -= 1
    i = j
    while i > 0 and (low[i - 1].isalnum() or low[i - 1] in "-_"):
        i -= 1
    return low[i:j]
