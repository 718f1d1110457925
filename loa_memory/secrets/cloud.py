"""Cloud account secrets by what sits next to them: an AWS secret key beside its key id, Azure key fields.

Fails: ``AKIA... wJalr...`` (any 40 base64 characters on the line of an AWS access key id),
``AccountKey=...``, ``SharedAccessKey=...`` and a SAS ``sig=...``, each of 40 characters or more.
Passes: placeholders, short values, a 40-character value with fewer than three character classes.
"""

from __future__ import annotations

import re
from functools import cache

from loa_memory.secrets.detector import Detector, Found, Texts
from loa_memory.secrets.values import char_classes, is_placeholder, looks_random


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


def _check_azure_key(m: re.Match[str], texts: Texts) -> Found | None:
    v = texts.text[m.start(1):m.end(1)]  # the match is on the lower-case view
    if is_placeholder(v) or len(v) < 40:
        return None
    return Found("azure-secret", m.start(1), m.end(1))


DETECTORS: tuple[Detector, ...] = (
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
