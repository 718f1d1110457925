"""The secret gate: find credentials and personal data before they reach a memory file.

Used by ``scan-secrets``, by ``lint`` and by every write path, whose one gate is ``gate.check_secrets``. A hit
names the kind, where it is and a redacted stand-in; the value itself is never kept, only its sha256
(``digest``), which is what an allowlist holds. Detectors live in ``tokens`` (vendor tokens), ``keys`` (private keys,
JWTs), ``generic`` (values assigned to secret-like names, read by ``assignments``, rated by ``names``),
``contextual`` (Twilio auth tokens, command-line passwords), ``http_auth`` (URLs, Authorization headers),
``cloud`` (AWS secret keys beside their key id, Azure key fields) and ``pii``; ``scan`` runs them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace

from loa_memory.secrets.gate import ensure_no_secrets
from loa_memory.secrets.redact import name_hits
from loa_memory.secrets.scan import SecretHit, description_by_kind, digest, scan_text

__all__ = ["SecretHit", "description_by_kind", "digest", "ensure_no_secrets", "format_hit", "scan_fields",
           "scan_text", "scan_value"]


def scan_fields(value: object, *, allowlist: Collection[str] = (), include_pii: bool = True,
                _path: str = "") -> list[tuple[str, SecretHit]]:
    """Scan every string in a nested mapping/list (an entry); each hit comes with its field path.

    A string under a mapping key is scanned as ``key: value``, so ``{"password": "..."}`` has the
    context a detector needs; ``line``/``col`` are within that string (col excludes the key). Keys are values
    too (``{"x_ghp_…": 1}``): each is scanned alone, and from after each separator in it, and a hit in a key is
    reported under the field path ``<key>`` of its mapping, never under the key's own text.
    """
    out: list[tuple[str, SecretHit]] = []
    if isinstance(value, str):
        out.extend((_path, h) for h in scan_text(value, allowlist=allowlist, include_pii=include_pii))
    elif isinstance(value, Mapping):
        for n, k in enumerate(value):
            key_hits = name_hits(str(k), allowlist=allowlist, include_pii=include_pii)
            if key_hits:
                out.extend((f"{_path}.<key {n + 1}>" if _path else f"<key {n + 1}>", h) for h in key_hits)
                continue
            v = value[k]
            path = f"{_path}.{k}" if _path else str(k)
            if isinstance(v, str) and isinstance(k, str):
                prefix = f"{k}: "
                for h in scan_text(prefix + v, allowlist=allowlist, include_pii=include_pii):
                    col = h.col - len(prefix) if h.line == 1 else h.col
                    out.append((path, replace(h, col=max(col, 1))))
            else:
                out.extend(scan_fields(v, allowlist=allowlist, include_pii=include_pii, _path=path))
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            out.extend(scan_fields(v, allowlist=allowlist, include_pii=include_pii, _path=f"{_path}[{i}]"))
    return out


def scan_value(value: object, *, allowlist: Collection[str] = (),
                                                               include_pii: bool = True) -> list[SecretHit]:
    """Scan every string in a nested mapping/list; hits carry ``line=0, col=0`` (no file position)."""
    return [replace(h, line=0, col=0)
            for _, h in scan_fields(value, allowlist=allowlist, include_pii=include_pii)]


def format_hit(hit: SecretHit, path: str = "") -> str:
    """``path:line:col: kind: description (redacted)``, safe to print or log."""
    where = ":".join(str(p) for p in (path, hit.line, hit.col) if p not in ("", 0))
    text = f"{hit.kind}: {hit.description} ({hit.redacted})"
    return f"{where}: {text}" if where else text
