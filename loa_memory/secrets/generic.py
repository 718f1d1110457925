"""Secrets recognised by their context: assignments, prose, URLs and HTTP headers.

A value assigned to a secret-like name (``DB_PASSWORD=...``, ``"api_key": "..."``, ``secret: ...``,
``--password ...``) or stated in prose ("the password for the staging box is ...") is reported
when it looks like a real secret: a password needs a digit or a symbol (or quotes), other secrets
need the length and character mix of a generated key. Fails: ``password: hunter2x!``,
``postgres://app:Tr0ub4dor&3@db.internal/app``, ``Authorization: Bearer 8f2k...``.
Passes: ``password: ${DB_PASSWORD}``, ``export GITHUB_TOKEN``, ``GITHUB_TOKEN is required``,
``max_tokens: 4096``, ``secretName: db-credentials``, ``password=args.password``.

A name/value pair (``- name: DB_PASSWORD`` then ``value: ...``, ``{"key": "Authorization", "value": ...}``)
counts as an assignment; so do a tool's password flag (``mysql -p...``, ``sshpass -p``, ``redis-cli -a``)
and 32 hex digits near "twilio". Public keys, data-structure keys (``cache key: ...``) and YAML tags
(``!secret db_password``) are not secrets.
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import cache

from loa_memory.secrets.detector import Detector, Found, Texts
from loa_memory.secrets.values import (
    char_classes,
    is_code_reference,
    is_placeholder,
    is_word_like,
    looks_random,
)

_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_DENY_SEGMENTS = frozenset({
    "name", "names", "ref", "refs", "path", "file", "files", "dir", "url", "uri", "type", "length", "len",
    "count",
    "limit", "limits", "budget", "max", "min", "size", "expiry", "expires", "expiration", "ttl", "header",
    "param",
    "prefix", "field", "env", "var", "store", "manager", "arn", "version", "pattern", "regex", "rotation",
    "provider", "format", "location", "mount", "policy", "scope", "scopes", "endpoint", "usage", "estimate",
    "window", "cost", "hint", "prompt", "reset", "strength", "rule", "rules", "label", "less", "id", "ids",
    "hash", "hashed", "digest", "fingerprint", "public", "pub", "kid", "lifetime", "timeout", "validator",
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
_PASSWORD_WORDS = ("password", "passwd", "passphrase", "passcode", "pass", "pwd", "pw")
# A key named for something public is never a secret's name: public_key, deploy_pubkey, publishableKey.
_PUBLIC_SEGMENTS = frozenset({"public", "pub", "pubkey", "publickey", "publishable"})
# Words that make "X key" a data-structure key: cache key, sort key, partition key, idempotency key.
_DATA_KEY_MODIFIERS = frozenset({
    "cache", "sort", "partition", "foreign", "lookup", "map", "idempotency", "dedupe", "dedup", "unique",
    "index", "hash", "routing", "shard", "row", "range", "cursor", "composite", "object", "dict", "column",
    "table", "translation", "i18n", "group", "join", "cluster", "bucket", "kv", "redis", "s3",
})
# A noun right after a secret's name makes the phrase about something else: "password reset link sent
# to ...", "password policy: 12 characters", "host key fingerprint SHA256:...", "API key name: ...".
_OTHER_THING_NOUNS = frozenset({
    "reset", "policy", "policies", "manager", "managers", "field", "fields", "hash", "hashes", "hashed",
    "strength", "rotation", "rule", "rules", "requirement", "requirements", "complexity", "length", "expiry",
    "expiration", "prompt", "hint", "hints", "input", "form", "label", "placeholder", "validator",
    "validation", "fingerprint", "fingerprints", "digest", "checksum", "id", "ids", "name", "names", "type",
    "format", "file", "path", "url", "header", "param", "prefix", "version", "pattern", "regex", "limit",
    "size", "count", "change", "generator", "md5", "sha1", "sha256", "sha384", "sha512",
})
# Values that are public keys, whatever they are assigned to: "ssh-ed25519 AAAAC3Nza...", an age recipient.
_PUBLIC_KEY_PREFIXES = ("ssh-rsa", "ssh-ed25519", "ssh-dss", "ecdsa-sha2-", "sk-ssh-", "sk-ecdsa-", "AAAAB3NzaC1",
                        "AAAAC3NzaC1", "AAAAE2VjZHNh", "age1")


@cache
def _re_separator() -> re.Pattern[str]:
    return re.compile(
        r"(?:\\?[\"'`]|\])?[ \t]*(?::=|=>|==?|:|->)[ \t]*"
        r"|[ \t]+(?:is|was|are|to|=|of)[ \t]+(?:now[ \t]+|still[ \t]+|set[ \t]+to[ \t]+|just[ \t]+)?"
        r"|[ \t]+(?=[\"'`])|(?<=-)[ \t]+",
        re.IGNORECASE)


@cache
def _re_filler() -> re.Pattern[str]:
    # Words between a key and its separator in prose: "password for the staging box: ...".
    return re.compile(r"(?:[ \t]+[A-Za-z0-9_'()/#.-]+){0,7}[ \t]*")


def _segments(key: str) -> list[str]:
    """``storageAccountKey1`` -> storage, account, key: a number after key1, secret2, token3 names a slot."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", key)
    return [_slot_word(s) for s in re.split(r"[_.\-]+", spaced.lower()) if s]


def _slot_word(segment: str) -> str:
    word = segment.rstrip("0123456789")
    return word if word in ("key", "secret", "token", "password", "apikey") else segment


def _key_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start > 0 and text[start - 1] in _KEY_CHARS:
        start -= 1
    while end < len(text) and text[end] in _KEY_CHARS:
        end += 1
    while end > start and text[end - 1] in ".-":
        end -= 1
    return start, end


_ESCAPES = ("\\n", "\\r", "\\t", "\\\"", "\\'")


def _value_at(text: str, pos: int, limit: int) -> tuple[str, int, int, bool] | None:
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


def _assignments(texts: Texts, key_start: int, key_end: int) -> list[tuple[str, int, int, bool, bool]]:
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
        got = _value_at(text, sep.end(), limit)
        if got is not None:
            out.append((*got, prose))
            pair = _re_user_slash_pass().match(text, got[2], limit)
            if pair is not None:  # "admin / s3cret!" states a user, then its password
                got2 = _value_at(text, pair.end(), limit)
                if got2 is not None:
                    out.append((*got2, True))
    if not seps or seps[0].start() > key_end + 1:
        # "password Winter1289!" with no separator at all: only a strong value will do.
        gap = _re_gap().match(text, key_end, limit)
        got = _value_at(text, gap.end(), limit) if gap else None
        if got is not None and _is_strong(got[0]):
            out.append((*got, True))
    paired = _paired_value(text, key_start, key_end)
    if paired is not None:
        out.append((*paired, False))
    return out


@cache
def _re_pair_name() -> re.Pattern[str]:
    return re.compile(r"(?i)(?<![A-Za-z0-9_])(?:name|key)\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?\Z")


@cache
def _re_pair_value() -> re.Pattern[str]:
    return re.compile(r"(?i)(?<![A-Za-z0-9_])value\\?[\"']?[ \t]*[:=][ \t]*")


def _is_pair_name(text: str, key_start: int) -> bool:
    """The key is itself a value: ``- name: DB_PASSWORD``, ``{"key": "Authorization", ...}``."""
    if key_start == 0 or text[key_start - 1] not in " \t\"':=":
        return False
    before = text[max(0, key_start - 12):key_start].lower()
    return ("name" in before or "key" in before) and bool(_re_pair_name().search(before))


def _paired_value(text: str, key_start: int, key_end: int) -> tuple[str, int, int, bool] | None:
    """The value of a name/value pair (Kubernetes env, ECS, Postman headers) whose name is the key."""
    if not _is_pair_name(text, key_start):
        return None
    window_end = min(len(text), key_end + 160)
    v = _re_pair_value().search(text, key_end, window_end)
    if v is None:
        return None
    between = text[key_end:v.start()]
    if between.count("\n") > 2 or "name" in between.lower():
        return None  # the next pair's value, not this one's
    line_end = text.find("\n", v.end())
    return _value_at(text, v.end(), len(text) if line_end < 0 else line_end)


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
def _re_yaml_tag() -> re.Pattern[str]:
    # !secret db_password (Home Assistant), !vault |, !env_var DB_PASS, !Ref DbPassword, !Sub ...
    return re.compile(r"![A-Za-z_]+(?:[.:][A-Za-z_]+)?")


def _is_reference(v: str, quoted: bool) -> bool:
    """A value that points at the secret instead of holding it, or a public key."""
    if v.startswith(_PUBLIC_KEY_PREFIXES):
        return True
    return not quoted and (v.startswith(("$", "%")) or bool(_re_yaml_tag().fullmatch(v)))


def _is_password_value(value: str, quoted: bool, prose: bool) -> bool:
    v = value.strip()
    if not 4 <= len(v) <= 128 or is_placeholder(v) or v[0] in "/~" or v.startswith(("./", "file:", "http")):
        return False
    if _is_reference(v, quoted) or (not quoted and is_code_reference(v)):
        return False
    if prose and _re_email_like().match(v):
        return False  # "password reset link sent to jane@...": the email detector reports it
    has_symbol = any(not c.isalnum() for c in v)
    has_digit = any(c.isdigit() for c in v)
    if v.isalpha():
        return quoted and len(v) >= 6 and not prose and not v.istitle()
    if v.isdigit() and len(v) < 6 and prose:
        return False
    if is_word_like(v) and not has_digit:
        return False
    return has_digit or has_symbol or quoted


def _check_password(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    s, e = m.start(), m.end()
    if not _may_assign(texts.lower, e, 3) and not text.startswith((" ", "\t"), e) and not _is_pair_name(
            text, _key_span(text, s, e)[0]):
        return None
    word = m.group(0)
    if word in ("pass", "pw", "pwd") and (
            (s > 0 and text[s - 1].isalpha()) or (e < len(text) and text[e].isalpha())):
        return None
    ks, ke = _key_span(text, s, e)
    segs = _segments(text[ks:ke])
    if any(seg in _DENY_SEGMENTS or (seg in ("pass", "passes", "passed", "passing", "bypass", "passport")
           and word != "pass") for seg in segs):
        return None
    for value, vs, ve, quoted, prose in _assignments(texts, ks, ke):
        if _is_password_value(value, quoted, prose):
            return Found("password", vs, ve)
    return None


@cache
def _re_secret_suffix() -> re.Pattern[str]:
    """apikey, clientsecret, refreshtoken ... at the end of a key's joined segments."""
    prefixes = "|".join(sorted({re.escape(p) for p in _KEY_PREFIXES + _TOKEN_PREFIXES}, key=len, reverse=True))
    return re.compile(f"(?:{prefixes})(?:key|token|secret)\\Z")


def _key_strength(texts: Texts, ks: int, ke: int) -> int:
    """2 for a clearly secret name (api_key, client_secret, token), 1 for a bare key, 0 for no secret."""
    segs = _segments(texts.text[ks:ke])
    if not segs or any(s in _DENY_SEGMENTS for s in segs[-1:]) or (any(
            s in _DENY_SEGMENTS for s in segs if s not in ("key", "id") and s != segs[-1]) and len(segs) > 3):
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


@cache
def _re_email_like() -> re.Pattern[str]:
    return re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")


@cache
def _re_colon_hex() -> re.Pattern[str]:
    return re.compile(r"(?:[0-9A-Fa-f]{2}:){15,}[0-9A-Fa-f]{2}")


def _is_secret_value(value: str, strength: int, quoted: bool) -> bool:
    v = value.strip()
    if len(v) < 8 or len(v) > 512 or is_placeholder(v) or v[0] in "/~" or "://" in v or _is_reference(v, quoted):
        return False
    if v.lower().startswith(("sha256:", "sha1:", "sha512:", "md5:", "arn:", "projects/", "./")):
        return False  # a digest or an SSH key fingerprint (SHA256:..., MD5:aa:bb:...), both public
    if _re_colon_hex().fullmatch(v):
        return False  # a fingerprint printed as colon-separated hex
    if _re_email_like().match(v):
        return False
    if not quoted and is_code_reference(v):
        return False
    hexish = all(c in "0123456789abcdefABCDEF-" for c in v)
    if hexish and strength < 2:
        return False
    if strength >= 2:
        return looks_random(v, min_len=12) or (len(v) >= 10 and char_classes(v) >= 3 and not is_word_like(v))
    return looks_random(v, min_len=20) and char_classes(v) >= 3


def _refine_kind(texts: Texts, ks: int, value: str) -> str:
    low = texts.lower
    line_start = low.rfind("\n", 0, ks) + 1
    line = low[line_start:ks + 80]
    # The vendor may be named a few lines up: provider "aws" {, twilio:, a [profile] section.
    above = line_start
    for _ in range(3):
        if above > 0:
            above = low.rfind("\n", 0, above - 1) + 1
    near = low[above:ks + 80]
    # An AWS credentials file names no vendor: [default] or [profile ci] above the key says it.
    is_aws = ("aws" in near or "akia" in near or "[default]" in near or "[profile " in near
              or "secretaccesskey" in re.sub(r"[\s_-]", "", line))
    if is_aws and len(value) == 40 and re.fullmatch(r"[A-Za-z0-9/+]{40}", value):
        return "aws-secret-access-key"
    if "twilio" in near and re.fullmatch(r"[0-9a-f]{32}", value):
        return "twilio-auth-token"
    if "azure" in line or "accountkey" in line or ("client_secret" in line and "tenant" in line):
        return "azure-secret"
    if re.fullmatch(r"[A-Za-z0-9+/]{86}==", value) and any(w in near for w in ("azure", "storage", "account",
                                                                                 "az ")):
        return "azure-secret"  # a storage account key: 64 bytes of base64
    return "generic-secret"


@cache
def _re_quick_separator() -> re.Pattern[str]:
    return re.compile(r"[:=]|->| (?:is|was|are|to|of) ")


def _may_assign(low: str, pos: int, min_len: int) -> bool:
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
        if len(tok) >= min_len and not tok.isalpha():
            return True
    return False


@cache
def _re_bare_value() -> re.Pattern[str]:
    return re.compile(r"[ \t]+(\S{16,})")


def _is_bare_value_next(text: str, key_end: int) -> bool:
    """Cheap test for ``key VALUE`` with no separator: a long token that is not a word."""
    b = _re_bare_value().match(text, key_end)
    return b is not None and not b.group(1).isalpha()


def _check_keyword(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    assigned = _may_assign(texts.lower, m.end(), 8)
    ks, ke = _key_span(text, m.start(), m.end())
    if not assigned:
        if ke == len(text) or text[ke] in "\"'\r\n":
            if not _is_pair_name(text, ks):  # "- name: AWS_SECRET_ACCESS_KEY\n  value: ..."
                return None
        elif not (_is_bare_value_next(text, ke) and _key_strength(texts, ks, ke) == 2):
            return None  # "aws_secret_access_key AbC...": with no separator, only a clearly secret name
    if any(w in texts.lower[ks:ke] for w in _PASSWORD_WORDS[:4]):
        return None  # the password detector owns these names
    segs = _segments(text[ks:ke])
    if segs and segs[-1] in ("creds", "credentials", "login", "logins"):
        for value, vs, ve, quoted, _prose in _assignments(texts, ks, ke):
            if _is_password_value(value, quoted, True) and not value.isalpha():
                return Found("password", vs, ve)
    strength = _key_strength(texts, ks, ke)
    if strength == 0:
        return None
    for value, vs, ve, quoted, _prose in _assignments(texts, ks, ke):
        if _is_secret_value(value, strength, quoted):
            return Found(_refine_kind(texts, ks, value), vs, ve)
    return None


@cache
def _re_url_userinfo() -> re.Pattern[str]:
    return re.compile(r"([^\s:/@\"'<>]{0,128}):([^\s\"'<>/]{1,256})@(?=[A-Za-z0-9\[])")


def _check_url(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    u = _re_url_userinfo().match(text, m.end())
    if u is None:
        return None
    user, password = u.group(1), u.group(2)
    if (len(password) < 3 or password == user or is_placeholder(password) or (password.startswith(("$", "%"))
            and not password.startswith("%2"))):
        return None
    return Found("url-credentials", u.start(2), u.end(2))


@cache
def _re_auth_value() -> re.Pattern[str]:
    # "Authorization: Basic ...", nginx's proxy_set_header Authorization "Basic ..." with no colon, a JS
    # template literal (`Basic ...`) and escaped quotes in JSON held as a string.
    return re.compile(r"(?i)\\?[\"'`]?(?:[ \t]*[:=])?[ \t]*\\?[\"'`]?" + _AUTH_SCHEME)


_AUTH_SCHEME = r"(?i:(basic|bearer|token|digest|apikey|api-key|sso-key))[ \t]+([A-Za-z0-9._~+/:=-]{8,})"


@cache
def _re_auth_scheme() -> re.Pattern[str]:
    return re.compile(_AUTH_SCHEME)


def _check_authorization(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    a = _re_auth_value().match(text, m.end())
    if a is None and _is_pair_name(text, m.start()):
        # {"key": "Authorization", "value": "Basic ..."}: a header as a name/value pair
        got = _paired_value(text, m.start(), m.end())
        if got is not None:
            a = _re_auth_scheme().match(text, got[1])
    if a is None:
        return None
    return _auth_found(a.group(1).lower(), a.group(2), a.start(2), a.end(2))


def _auth_found(scheme: str, value: str, start: int, end: int) -> Found | None:
    if is_placeholder(value):
        return None
    if scheme == "basic":
        try:
            decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return Found("http-auth", start, end) if looks_random(value, min_len=12) else None
        _user, _, password = decoded.partition(":")
        return Found("http-auth", start, end) if password and not is_placeholder(password) else None
    return Found("http-auth", start, end) if looks_random(value, min_len=16) else None


@cache
def _re_bearer_value() -> re.Pattern[str]:
    return re.compile(r"[ \t]+([A-Za-z0-9._~+/-]{16,}=*)(?![A-Za-z0-9._~+/=-])")


def _check_bearer(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    if m.start() > 0 and text[m.start() - 1].isalpha():
        return None
    b = _re_bearer_value().match(text, m.end())
    if b is None:
        return None
    return _auth_found("bearer", b.group(1), b.start(1), b.end(1))


@cache
def _re_curl_user() -> re.Pattern[str]:
    return re.compile(r"[ \t=]+[\"']?([^\s:\"'@/]+):([^\s\"']{3,128})")


def _check_curl_user(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    if m.start() > 0 and not text[m.start() - 1].isspace():
        return None
    c = _re_curl_user().match(text, m.end())
    if c is None or is_placeholder(c.group(2)) or c.group(2).startswith("$"):
        return None
    return Found("http-auth", c.start(2), c.end(2))


@cache
def _re_aws_secret() -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")


def _check_aws_pair(m: re.Match[str], texts: Texts) -> Found | None:
    """An AWS secret access key on the same line as an access key id, whatever it is called."""
    text = texts.text
    ls = text.rfind("\n", 0, m.start()) + 1
    le = text.find("\n", m.end())
    le = len(text) if le < 0 else le
    for s in _re_aws_secret().finditer(text, ls, le):
        v = s.group(0)
        if char_classes(v) >= 3 and not is_placeholder(v) and looks_random(v):
            return Found("aws-secret-access-key", s.start(), s.end())
    return None


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
                       ("redis-cli", "-a", True))


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
        got = _value_at(text, pos, len(text) if line_end < 0 else line_end)
        if got is not None and _is_password_value(got[0], got[3], False):
            return Found("password", got[1], got[2])
    return None


def _check_azure_key(m: re.Match[str], texts: Texts) -> Found | None:
    v = texts.text[m.start(1):m.end(1)]  # the match is on the lower-case view
    if is_placeholder(v) or len(v) < 40:
        return None
    return Found("azure-secret", m.start(1), m.end(1))


DETECTORS: tuple[Detector, ...] = (
    Detector("password", "password", r"pass(?:word|wd|phrase|code)?|pwd?", view="lower",
                                            check=_check_password,
             priority=12),
    Detector("generic-secret", "secret assigned to a secret-like name", r"secret|token|key|cred|auth|login",
             view="lower", check=_check_keyword, priority=14),
    Detector("password", "password given on a command line", r" -[pa]",
             check=_check_cli_password, priority=12),
    Detector("twilio-auth-token", "Twilio auth token", r"twilio", view="lower", check=_check_twilio, priority=6),
    Detector("url-credentials", "credentials in a URL", r"://", check=_check_url, priority=8),
    Detector("http-auth", "HTTP Authorization header", r"authorization", view="lower",
             check=_check_authorization, priority=9),
    Detector("http-auth", "bearer token", r"bearer", view="lower", check=_check_bearer, priority=9),
    Detector("http-auth", "credentials on a command line", r"-u|--user", check=_check_curl_user, priority=9),
    Detector("aws-secret-access-key", "AWS secret access key", r"A(?:KIA|SIA)[A-Z0-9]{16}",
             check=_check_aws_pair, priority=6),
    Detector("azure-secret", "Azure storage account key", r"accountkey=([a-z0-9+/]{40,}={0,2})", view="lower",
             check=_check_azure_key, priority=6),
    Detector("azure-secret", "Azure shared access key", r"sharedaccesskey=([a-z0-9+/]{40,}={0,2})",
                                                                                            view="lower",
             check=_check_azure_key, priority=6),
    Detector("azure-secret", "Azure SAS signature", r"sig=([a-z0-9%+/]{30,}(?:%3d|=)*)", view="lower",
             check=_check_azure_key, priority=6),
)
