"""Credentials in HTTP: a URL's ``user:password@``, Authorization headers, bearer tokens and ``curl -u``.

Fails: ``postgres://app:Tr0ub4dor&3@db.internal/app``, ``Authorization: Bearer 8f2k...``,
``{"key": "Authorization", "value": "Basic ..."}`` (a header as a name/value pair),
``curl -u deploy:s3cr3t!``. Passes: ``https://user:${PASSWORD}@host``, ``Authorization: Bearer <token>``,
a Basic header whose password is a placeholder.
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import cache

from loa_memory.secrets.assignments import is_pair_name, paired_value
from loa_memory.secrets.detector import Detector, Found, Texts
from loa_memory.secrets.values import is_placeholder, looks_random


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
    if a is None and is_pair_name(text, m.start()):
        # {"key": "Authorization", "value": "Basic ..."}: a header as a name/value pair
        got = paired_value(text, m.start(), m.end())
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


DETECTORS: tuple[Detector, ...] = (
    Detector("url-credentials", "credentials in a URL", r"://", check=_check_url, priority=8),
    Detector("http-auth", "HTTP Authorization header", r"authorization", view="lower",
             check=_check_authorization, priority=9),
    Detector("http-auth", "bearer token", r"bearer", view="lower", check=_check_bearer, priority=9),
    Detector("http-auth", "credentials on a command line", r"-u|--user", check=_check_curl_user, priority=9),
)
