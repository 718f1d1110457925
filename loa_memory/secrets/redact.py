"""Text that may be printed or logged with the gate's findings redacted: error messages, file names, queries.

An error that quotes what the user gave (an unknown id, a bad ``--link``, a path) would print a secret the gate
refuses to store; ``redact_text`` replaces each value the gate finds by its redacted stand-in
(``ghp_****(40 chars)``), ``redact_name`` does it for names (a note's file or folder name, a field name), where
a token may follow a separator (``x_ghp_…``), and ``redact_error`` for every text of an error.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import re
from collections.abc import Collection
from functools import cache

from loa_memory.errors import GrimoireError, LoaError
from loa_memory.secrets.scan import SecretHit, scan_spans, scan_text

_NAME_SEPARATORS = "_.:-@+/"


def redact_text(text: str) -> str:
    """``text`` with every secret and piece of personal data the gate finds replaced by its redacted form."""
    if not text:
        return text
    spans = scan_spans(text)
    for start, end, hit in reversed(spans):
        text = text[:start] + hit.redacted + text[end:]
    return text


@cache
def _re_long_run() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z0-9]{16}|[@=]|(?:\d\D{0,3}){9}")


def may_hold_secret(text: str) -> bool:
    """False when ``text`` cannot hold anything the gate reports: no run of 16 letters and digits (every token,
    key and hash-like secret has one), no ``@`` (emails, URL credentials) or ``=`` (an assignment), fewer than nine
    digits close together (phones, cards, SSNs). A quick answer for the many short names a report prints;
    folded forms (fullwidth, zero-width) always get the full scan."""
    return not text.isascii() or _re_long_run().search(text) is not None


def name_hits(name: str, *, allowlist: Collection[str] = (), include_pii: bool = True) -> list[SecretHit]:
    """What the gate finds in a name (a file, folder or field name): the whole, then from after each separator
    (``x_ghp_…``: the token); columns are within ``name``."""
    if not may_hold_secret(name):
        return []
    hits = scan_text(name, allowlist=allowlist, include_pii=include_pii)
    cuts = [i + 1 for i, c in enumerate(name[:2000]) if c in _NAME_SEPARATORS][:20]
    for cut in cuts:
        if hits:
            break
        if may_hold_secret(name[cut:]):
            hits = [
                dataclasses.replace(h, col=h.col + cut)
                for h in scan_text(name[cut:], allowlist=allowlist, include_pii=include_pii)
            ]
    return hits


@cache
def _re_path_part() -> re.Pattern[str]:
    return re.compile(r"[^/\\\s'\"`]+")


def redact_name(path: str) -> str:
    """``path`` with each part (between slashes) that holds a secret replaced by ``[kind redacted]``."""
    if not path or not may_hold_secret(path):
        return path
    redacted = redact_text(path)

    def part(m: re.Match[str]) -> str:
        hits = name_hits(m.group(0))
        return f"[{hits[0].kind} {hits[0].redacted}]" if hits else m.group(0)

    return _re_path_part().sub(part, redacted)


def redact_error(error: LoaError) -> LoaError:
    """``error`` with its message, hint, path and problems redacted (the same object when nothing needed it)."""
    texts = [error.message, error.hint or "", error.path or ""]
    problems = error.problems if isinstance(error, GrimoireError) else []
    texts += [p.message for p in problems] + [p.path or "" for p in problems]
    if not any(_needs(t) for t in texts):
        return error
    clean = copy.copy(error)
    clean.message = redact_name(error.message)
    clean.args = (clean.message,)
    clean.hint = redact_name(error.hint) if error.hint else error.hint
    clean.path = redact_name(error.path) if error.path else error.path
    if isinstance(clean, GrimoireError):
        clean.problems = [redact_error(p) for p in problems]
    return clean


def _needs(text: str) -> bool:
    return bool(text) and redact_name(text) != text


def query_digest(text: str) -> str:
    """What a log keeps of a query or prompt: a short sha256, enough to tell repeats apart, never the text."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
