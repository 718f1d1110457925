"""Run every detector over a text: triggers, checks, overlaps, allowlist, line numbers, redaction."""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache

from loa_memory.secrets import cloud, contextual, generic, http_auth, keys, pii, tokens
from loa_memory.secrets.detector import Detector, Found, Texts
from loa_memory.secrets.normalise import Mapped, fold, join_lines
from loa_memory.secrets.values import is_placeholder, looks_random

# Inline pragmas that allow a line: ours and detect-secrets' (so existing annotations keep working).
PRAGMAS = ("loa: allow-secret", "pragma: allowlist secret")
NEXTLINE_PRAGMA = "pragma: allowlist nextline secret"


@dataclass(frozen=True)
class SecretHit:
    """One secret or piece of personal data found in a text. Never holds the value itself."""

    kind: str          # stable kebab id, e.g. "aws-access-key-id", "private-key", "email"
    description: str   # human words, e.g. "AWS access key id"
    line: int          # 1-based, within the scanned text
    col: int           # 1-based
    redacted: str      # safe to print
    digest: str        # sha256 hex of the raw matched value (what the allowlist holds)
    pii: bool          # True for personal data rather than credentials


def all_detectors() -> tuple[Detector, ...]:
    """Every detector, in registry order."""
    return (keys.DETECTORS + tokens.DETECTORS + generic.DETECTORS + contextual.DETECTORS + http_auth.DETECTORS
            + cloud.DETECTORS + pii.DETECTORS)


def split_detectors() -> tuple[Detector, ...]:
    """The detectors also run on the text with line breaks inside tokens removed: those of values whose shape
    alone is a secret (vendor prefixes, key bodies, JWTs), which a wrapped line does not make less of one."""
    return keys.SPLIT_DETECTORS + tokens.DETECTORS


@cache
def description_by_kind() -> dict[str, str]:
    """The human description of every kind a scan can report."""
    out: dict[str, str] = {}
    for det in all_detectors():
        out.setdefault(det.kind, det.description)
    out.update({"aws-secret-access-key": "AWS secret access key", "twilio-auth-token": "Twilio auth token",
                "azure-secret": "Azure key or client secret",
                "generic-secret": "secret assigned to a secret-like name"})
    return out


@cache
def _pii_kinds() -> frozenset[str]:
    return frozenset(d.kind for d in all_detectors() if d.pii)


def digest(value: str) -> str:
    """The allowlist key of a secret: sha256 hex of its raw value."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()


def redact(kind: str, value: str, show: int = 0) -> str:
    """A printable stand-in for ``value``: a public vendor prefix at most, then the length."""
    n = len(value)
    if kind == "private-key":
        return value.split("-----",
                           2)[1].strip() + f" (…{n} chars)" if value.startswith("-----") else f"…({n} chars)"
    if kind == "email":
        return "****@" + value.rsplit("@", 1)[-1]
    if kind == "credit-card":
        return "****" + "".join(c for c in value if c.isdigit())[-4:]
    return f"{value[:min(show, n // 3)]}****({n} chars)"


def _default_found(det: Detector, m_start: int, m_end: int, texts: Texts) -> Found | None:
    text = texts.text
    # A vendor-prefixed token as part of a name (``x-ghp_…``, ``x_ghp_…`` as a header or field name) is still the
    # token; a weak prefix (``sk-``) after a hyphen or underscore is a word (``task-sk-…``).
    before = text[m_start - 1] if m_start > 0 else ""
    if before and (before.isalnum() or (before in "-_" and det.random)):
        return None
    value = text[m_start:m_end]
    body = value[det.show:]
    if is_placeholder(value) or is_placeholder(body):
        return None
    if det.random and not looks_random(body, min_len=min(16, max(8, len(body) - 2))):
        return None
    return Found(det.kind, m_start, m_end)


def iter_found(texts: Texts, *, include_pii: bool = True,
               detectors: tuple[Detector, ...] | None = None) -> Iterator[tuple[Detector, Found]]:
    """Every accepted candidate of every detector (or of ``detectors``), overlaps included."""
    for det in all_detectors() if detectors is None else detectors:
        if det.pii and not include_pii:
            continue
        view = texts.view(det.view)
        for m in det.regex.finditer(view):
            if det.check is not None:
                found = det.check(m, texts)
            else:
                found = _default_found(det, m.start(det.group), m.end(det.group), texts)
            if found is not None:
                yield det, found


def _resolve_overlaps(items: list[tuple[Detector, Found]]) -> list[tuple[Detector, Found]]:
    items.sort(key=lambda it: (it[0].priority, it[1].start))
    starts: list[int] = []
    ends: list[int] = []
    kept: list[tuple[Detector, Found]] = []
    for det, f in items:
        i = bisect.bisect_left(starts, f.start)
        if (i > 0 and ends[i - 1] > f.start) or (i < len(starts) and starts[i] < f.end):
            continue
        starts.insert(i, f.start)
        ends.insert(i, f.end)
        kept.append((det, f))
    kept.sort(key=lambda it: it[1].start)
    return kept


class _Lines:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        pos = text.find("\n")
        while pos >= 0:
            self.starts.append(pos + 1)
            pos = text.find("\n", pos + 1)

    def locate(self, pos: int) -> tuple[int, int]:
        i = bisect.bisect_right(self.starts, pos) - 1
        return i + 1, pos - self.starts[i] + 1

    def line(self, number: int) -> str:
        if not 1 <= number <= len(self.starts):
            return ""
        start = self.starts[number - 1]
        end = self.starts[number] - 1 if number < len(self.starts) else len(self.text)
        return self.text[start:end]


def _is_pragma_allowed(lines: _Lines, line: int) -> bool:
    here = lines.line(line).lower()
    if any(p in here for p in PRAGMAS):
        return True
    return NEXTLINE_PRAGMA in lines.line(line - 1).lower()


def scan_text(text: str, *, allowlist: Collection[str] = (), include_pii: bool = True) -> list[SecretHit]:
    """Every secret and (unless ``include_pii`` is false) piece of personal data in ``text``.

    The detectors read the text folded (NFKC, zero-width characters dropped) and, for values whose shape alone is
    a secret, also with line breaks inside tokens removed (``normalise``); positions are in ``text`` as given,
    and a hit's digest is that of the value as read (the token, not its disguise).

    ``allowlist`` holds sha256 digests of values to ignore (``SecretHit.digest``); a line carrying
    ``# loa: allow-secret`` or ``pragma: allowlist secret`` is ignored, as is the line after
    ``pragma: allowlist nextline secret``. Hits are in text order.
    """
    return [hit for _start, _end, hit in scan_spans(text, allowlist=allowlist, include_pii=include_pii)]


def scan_spans(text: str, *, allowlist: Collection[str] = (),
               include_pii: bool = True) -> list[tuple[int, int, SecretHit]]:
    """``scan_text``'s hits, each with the span of its value in ``text`` (start, end), for redaction."""
    if not text:
        return []
    folded = fold(text)
    texts = Texts(folded.text)
    found = list(iter_found(texts, include_pii=include_pii))
    joined = join_lines(folded.text)
    values: dict[tuple[int, int], str] = {}
    if joined is not None:
        for det, f in iter_found(Texts(joined.text), detectors=split_detectors()):
            start, end = joined.original(f.start), joined.original_end(f.end)
            if end - start == f.end - f.start:
                continue  # no break inside: the scan of the text itself decides
            values[start, end] = joined.text[f.start:f.end]
            found.append((det, Found(f.kind, start, end)))
    found = _resolve_overlaps(found)
    if not found:
        return []
    return _hits(text, folded, found, values, allowlist)


def _hits(text: str, folded: Mapped, found: list[tuple[Detector, Found]], values: dict[tuple[int, int], str],
          allowlist: Collection[str]) -> list[tuple[int, int, SecretHit]]:
    lines = _Lines(text)
    has_pragma = "allow" in text and ("allow-secret" in text or "allowlist" in text)
    allowed = frozenset(allowlist)
    descriptions = description_by_kind()
    hits = []
    for det, f in found:
        value = values.get((f.start, f.end)) or folded.text[f.start:f.end]
        d = digest(value)
        start, end = folded.original(f.start), folded.original_end(f.end)
        line, col = lines.locate(start)
        if d in allowed or (has_pragma and _is_pragma_allowed(lines, line)):
            continue
        description = det.description if f.kind == det.kind else descriptions.get(f.kind, f.kind)
        hits.append((start, end, SecretHit(kind=f.kind, description=description, line=line, col=col,
                                           redacted=redact(f.kind, value, det.show if f.kind == det.kind else 0),
                                           digest=d, pii=f.kind in _pii_kinds())))
    return hits
