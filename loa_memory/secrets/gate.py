"""The secret gate on every write path: refuse, name the kind and place, show the value redacted."""

from __future__ import annotations

from loa_memory.errors import SecretRefused
from loa_memory.store.config import Config


def check_secrets(config: Config, text: str, rel: str, first_line: int) -> None:
    """Raise ``SecretRefused`` if ``text`` (to be written at ``rel:first_line``) holds a secret or PII."""
    settings = config.secrets
    if settings.enabled is False:
        return
    from loa_memory.secrets import scan_text

    hits = scan_text(text, allowlist=frozenset(settings.allowlist or ()),
                     include_pii=bool(settings.pii))
    if not hits:
        return
    first = hits[0]
    kinds = ", ".join(sorted({hit.description for hit in hits}))
    listed = "; ".join(f"{hit.description} {hit.redacted} at line {first_line + hit.line - 1}" for hit in hits[:5])
    raise SecretRefused(f"refused: the entry contains {kinds} ({listed}); nothing was written",
                        path=rel, line=first_line + first.line - 1, col=first.col,
                        hint="remove the value (refer to where it is kept instead), or if it is a false "
                             f"positive add its hash to memory_schema.secrets.allowlist: {first.digest}")
