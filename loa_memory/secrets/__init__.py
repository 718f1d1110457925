"""Placeholder secret gate: replaced by the full detector set (see the secrets branch)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass


@dataclass(frozen=True)
class SecretHit:
    kind: str
    description: str
    line: int
    col: int
    redacted: str
    digest: str
    pii: bool


_PATTERNS = [("aws-access-key-id", "AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
             ("github-token", "GitHub token", re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36}\b"))]


def scan_text(text: str, *, allowlist: Collection[str] = (), include_pii: bool = True) -> list[SecretHit]:
    hits = []
    for number, line in enumerate(text.splitlines(), 1):
        for kind, desc, pattern in _PATTERNS:
            for match in pattern.finditer(line):
                value = match.group(0)
                digest = hashlib.sha256(value.encode()).hexdigest()
                if digest in allowlist:
                    continue
                hits.append(SecretHit(kind, desc, number, match.start() + 1, value[:4] + "…", digest, False))
    return hits
