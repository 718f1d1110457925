"""Values that are code: a call, an object or a list written in a Markdown code span.

Prose about authentication quotes code that names tokens, secrets and passwords without holding one:
"stored the refresh token with `UserDefaults.standard.set(token, forKey: "refreshToken")`". Read as a
whole, such a span has the length and the punctuation of a generated key; read as code, it is
identifiers, punctuation and string literals, and only a literal (or a bare token that looks generated)
can hold a secret. So a code span is judged by those values: ``"refreshToken"``, ``'RS256'`` and
``"verify_signature"`` are names, while ``jwt.encode(claims, "q8ZkT2mW9xLp4RvB7nYcD3fG")`` still holds a
key. A span that does not read as code (an unbalanced bracket, a character code does not use, no call and
no brackets: ``git rm --cached .env``) is judged as a whole, as before.
"""

from __future__ import annotations

import itertools
import re
from functools import cache

from loa_memory.secrets.values import char_classes, is_placeholder, is_word_like, looks_random

_OPEN = {"(": ")", "[": "]", "{": "}"}


@cache
def _re_token() -> re.Pattern[str]:
    # One alternative per token kind, each consuming what it starts with: linear in the span.
    return re.compile(
        r"(?P<space>\s+)"
        r"|(?P<string>[bfrBFR]?\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\"|[bfrBFR]?'[^'\\\n]*(?:\\.[^'\\\n]*)*')"
        r"|(?P<name>[A-Za-z_$][\w$]*|\d[\w.]*)"
        r"|(?P<punct>=>|->|::|\?\.|[()\[\]{},:.=<>!&|+*/?;%^~@-])"
    )


def code_values(value: str) -> list[tuple[int, int]] | None:
    """The spans of the values in ``value`` that could hold a secret when it reads as code, else None.

    Code here is a call (``f(...)``, ``a.b(...)``) or an object or list literal whose brackets balance, made of
    identifiers, numbers, punctuation and string literals. Its values are the contents of its string literals
    and its bare tokens that look generated (``decode(token, q8ZkT2mW9xLp4RvB7nYc)``). A span with no space, no
    member access and no string literal must also have only plain names (``check(pw)``): ``Tr0ub(4dor)!`` and
    ``P@ss(w0rd)`` are passwords with brackets in them, not calls.
    """
    stack: list[str] = []
    literals: list[tuple[int, int]] = []
    structured = False
    marked = False  # a space, a "." or a string literal: a password with brackets has none
    plain = True  # every name is letters with an optional counter (sha256, oauth2, v2)
    prev = ""
    pos = 0
    rx = _re_token()
    while pos < len(value):
        m = rx.match(value, pos)
        if m is None:
            return None
        kind = m.lastgroup or ""
        tok = m.group(0)
        if kind == "string":
            opening = tok.index(tok[-1])
            literals.append((m.start() + opening + 1, m.end() - 1))
        elif kind == "name" and looks_random(tok, min_len=12):
            literals.append((m.start(), m.end()))
        elif kind == "name":
            plain = plain and bool(_re_plain_name().fullmatch(tok))
        elif tok in _OPEN:
            structured = structured or tok != "(" or prev in ("name", ")", "]")
            stack.append(_OPEN[tok])
        elif tok in (")", "]", "}") and (not stack or stack.pop() != tok):
            return None
        marked = marked or kind in ("space", "string") or tok == "."
        if kind != "space":
            prev = tok if kind == "punct" else kind
        pos = m.end()
    return literals if structured and not stack and (marked or plain) else None


@cache
def _re_plain_name() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z_$]+\d*")


def looks_generated(value: str) -> bool:
    """Whether a string literal inside code is a generated key rather than a name, a host or a path.

    Stricter than ``looks_random``: code holds many literals that are not secrets (``"localhost:5432"``,
    ``"prod/api/key"``, ``"User.Read"``), so a literal counts when it is long, has no space, and mixes
    cases (base62, base64), is long hex, or uses many kinds of punctuation (a Django key).
    """
    if len(value) < 16 or any(c.isspace() for c in value) or is_placeholder(value) or "://" in value:
        return False
    if not looks_random(value, min_len=16) or _is_name_path(value):
        return False
    if all(c in "0123456789abcdefABCDEF-" for c in value):
        return len(value) >= 32
    mixed = any(c.isupper() for c in value) and any(c.islower() for c in value)
    if mixed or len({c for c in value if not c.isalnum()}) >= 3:
        return True
    # One case (base36, "k3j5h2g8f9d7s6a4q1w2"): digits fall among the letters, not as a counter at the end.
    alnum = [c.isdigit() for c in value if c.isalnum()]
    return len(alnum) >= 20 and sum(a != b for a, b in itertools.pairwise(alnum)) >= len(alnum) // 5


@cache
def _re_name_path() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z_]\w*(?:(?:::|[.:/-])(?:[A-Za-z_]\w*|\d+))*")


def _is_name_path(value: str) -> bool:
    """A path of names, each words with an optional counter: ``auth.v1.accessToken``, ``X-Api-Key-V2``,
    ``tokio::sync::Mutex``."""
    return bool(_re_name_path().fullmatch(value)) and all(
        part.isdigit() or _is_words(part.rstrip("0123456789")) for part in re.split(r"::|[.:/-]", value)
    )


@cache
def _re_camel_word() -> re.Pattern[str]:
    return re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def _is_words(name: str) -> bool:
    """``refreshTokenKey``, ``verify_signature``: words of two letters or more, three on average; random letters
    (``qPzKfTRmWbLx``) change case every letter or two."""
    if is_word_like(name):
        return True
    words = [w for part in name.split("_") for w in _re_camel_word().findall(part)]
    return (
        sum(map(len, words)) == len(name.replace("_", ""))
        and min(map(len, words), default=0) >= 2
        and (sum(map(len, words)) >= 3 * len(words))
    )


@cache
def _re_name_like() -> re.Pattern[str]:
    # host:port, a region or a resource name with a counter: "db.internal:5432", "us-east-1", "replica_02".
    return re.compile(r"[\w.-]+:\d{1,5}|[a-z]+(?:[-_.][a-z]+)*[-_.]?\d{1,3}")


def looks_like_password(value: str) -> bool:
    """Whether a string literal in code quoted after a password's name is the password itself.

    A generated key, or 8 to 64 characters mixing at least three letters with digits and a third kind of
    character (``"Tr0ub4dor&3"``, ``"hunter2x!"``), that is not a host, a region, a path or a template.
    """
    if looks_generated(value):
        return True
    if not 8 <= len(value) <= 64 or any(c.isspace() or c in "/%{" for c in value) or is_placeholder(value):
        return False
    if _re_name_like().fullmatch(value) or _is_name_path(value) or sum(c.isalpha() for c in value) < 3:
        return False
    return any(c.isdigit() for c in value) and char_classes(value) >= 3


@cache
def _re_assignment() -> re.Pattern[str]:
    return re.compile(r"(?:export[ \t]+)?[A-Za-z_][\w.]*=(\S+)")


def assignment_value(value: str) -> tuple[int, int, bool] | None:
    """For a code span that is one assignment (``BCRYPT_ROUNDS=12``, ``export X="..."``): the span of the value
    assigned, unquoted, and whether it was quoted; None for anything else.

    "Set the password hashing cost with `BCRYPT_ROUNDS=12`": the 12 is what a secret's name would be
    given, not the whole span (the detectors judge the span's own name separately).
    """
    m = _re_assignment().fullmatch(value)
    if m is None:
        return None
    start, end = m.span(1)
    if end - start >= 2 and value[start] in "\"'" and value[end - 1] == value[start]:
        return start + 1, end - 1, True
    return start, end, False
