"""Private keys (PEM, OpenSSH, PGP, PuTTY) and JSON Web Tokens.

A private key is reported when a ``-----BEGIN ... PRIVATE KEY-----`` header (RSA, EC, DSA,
OPENSSH, ENCRYPTED, PGP ... BLOCK, plain PKCS#8) is followed by key material, also inside a JSON
string with ``\\n`` escapes, whatever the header's case. A key body without its header lines is reported by how
DER private keys begin once base64-encoded (PKCS#1 and PKCS#8 RSA/DSA ``MII…IBAAK``/``MII…IBADAN``, EC
``MHcCAQEE``/``MIG…AgEAMBMGByqGSM49``, Ed25519 ``MC4CAQAwBQYDK2Vw``, OpenSSH ``b3BlbnNzaC1rZXktdjE``), also when
its 64-character lines are wrapped. Fails: ``-----BEGIN RSA PRIVATE KEY-----\\nMIIEpAIBAAKCAQEA...``.
Passes: ``-----BEGIN PUBLIC KEY-----``, ``-----BEGIN CERTIFICATE-----``, ``ssh-rsa AAAA...``, and a
header named in prose with no key after it.
"""

from __future__ import annotations

import re
from functools import cache

from loa_memory.secrets.detector import Detector, Found, Texts, is_word_char
from loa_memory.secrets.values import is_placeholder


@cache
def _re_pem_body() -> re.Pattern[str]:
    # After the header: whitespace or escaped newlines, optional RFC 1421 headers, then base64.
    return re.compile(r"(?:\s|\\[nr])*(?:(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset):[^\n\\]*"
                      r"(?:\s|\\[nr])*)*([A-Za-z0-9+/=]{8,})")


@cache
def _re_pem_end() -> re.Pattern[str]:
    return re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----", re.IGNORECASE)


# The first bytes of DER private keys, base64-encoded: PKCS#1/PKCS#8 RSA and DSA, SEC1 and PKCS#8 EC, PKCS#8
# Ed25519, OpenSSH. Certificates (``MII…CCA``) and public keys (``MII…ANBgkq`` after a SEQUENCE) differ.
_DER_KEY = (r"(?:MII[A-Za-z0-9+/]{3}IBA(?:AK|DAN)|MHcCAQEE|MIG[A-Za-z0-9+/]AgE(?:AMB[A-Za-z0-9+/]GByqGSM49|BBD)"
            r"|MC4CAQAwBQYDK2Vw|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/]{40,}={0,2}")


def _check_der(m: re.Match[str], texts: Texts) -> Found | None:
    if m.start() > 0 and (is_word_char(texts.text[m.start() - 1]) or texts.text[m.start() - 1] in "+/"):
        return None
    return Found("private-key", m.start(), m.end())


def _check_pem(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    body = _re_pem_body().match(text, m.end())
    if body is None or is_placeholder(body.group(1)):
        return None
    end_marker = _re_pem_end().search(text, body.end(), body.end() + 20000)
    return Found("private-key", m.start(), end_marker.end() if end_marker else body.end())


def _check_putty(m: re.Match[str], texts: Texts) -> Found | None:
    end = texts.text.find("\n", m.end())
    return Found("private-key", m.start(), end if end >= 0 else len(texts.text))


def _check_jwt(m: re.Match[str], texts: Texts) -> Found | None:
    if m.start() > 0 and is_word_char(texts.text[m.start() - 1]):
        return None
    value = m.group(0)
    if is_placeholder(value) or len(value) < 36:
        return None
    return Found("jwt", m.start(), m.end())


_HEADERLESS = Detector("private-key", "private key (base64 body without its header)", _DER_KEY, check=_check_der,
                       priority=1)
_JWT = Detector("jwt", "JSON Web Token",
                r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*(?![A-Za-z0-9_-])",
                check=_check_jwt, priority=6)

DETECTORS: tuple[Detector, ...] = (
    Detector("private-key", "private key",
             r"-----begin (?:[a-z0-9]+ ){0,3}private key(?: block)?-----", view="lower", check=_check_pem,
             priority=1),
    Detector("private-key", "PuTTY private key", r"PuTTY-User-Key-File-\d: *[\w-]+", check=_check_putty,
             priority=1),
    _HEADERLESS,
    _JWT,
)
SPLIT_DETECTORS: tuple[Detector, ...] = (_HEADERLESS, _JWT)
