"""Personal data: email addresses, phone numbers, card numbers, IBANs, US SSNs, public IP addresses.

Each is validated beyond its shape: cards by Luhn and issuer prefix, IBANs by country length and
mod-97, SSNs by the issuing rules, IPs by being globally routable. Fails: ``jane.doe@gmail.com``,
``+44 20 7946 0958``, ``4539 1488 0343 6467``, ``203.0.114.7``. Passes: ``dev@example.com``,
``noreply@github.com``, ``2026-02-01``, ``v1.2.3.4``, ``192.168.1.10``, ``2001:db8::1``,
``4242 4242 4242 4242`` (a processor's published test card), ``+15005550006`` (a Twilio magic
number), ``MEM-20260201-001``.
"""

from __future__ import annotations

import re
from functools import cache

from loa_memory.secrets.detector import Detector, Found, Texts, is_word_char
from loa_memory.secrets.values import PUBLISHED_TEST_CARDS, PUBLISHED_TEST_PHONES

_ROLE_LOCAL_PARTS = frozenset({
    "noreply", "no-reply", "donotreply", "do-not-reply", "notifications", "notification", "git",
    "mailer-daemon",
    "postmaster", "hostmaster", "webmaster", "abuse", "security", "support", "info", "help", "contact",
    "sales",
    "privacy", "legal", "billing", "press", "hello", "admin", "root", "nobody", "bounce", "bounces", "ubuntu",
    "ec2-user", "centos", "debian",
})
_RESERVED_DOMAINS = ("example.com", "example.org", "example.net", "example.edu", "localhost", "domain.com",
                     "email.com", "yourdomain.com", "yourcompany.com", "company.com", "acme.example")
_RESERVED_TLDS = frozenset({"example", "test", "invalid", "localhost", "local", "internal", "lan", "home",
                            "corp"})
_FILE_EXTENSIONS = frozenset({
    "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "pdf", "js", "mjs", "cjs", "ts", "tsx", "jsx", "py",
    "rb",
    "go", "rs", "java", "kt", "css", "scss", "html", "htm", "json", "yaml", "yml", "toml", "md", "txt",
    "lock",
    "sh", "zip", "gz", "tar", "whl", "so", "dll", "exe", "bin", "log", "csv", "xml", "vue", "svelte", "php",
})


def _check_email(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    at = m.start()
    start = at
    while start > 0 and at - start < 64 and (text[start - 1].isalnum() or text[start - 1] in "._%+-'"):
        start -= 1
    while start < at and text[start] in ".'-+":
        start += 1
    if start == at or text[max(0, start - 3):start].endswith("//") or (start > 0 and text[start - 1] == "$"):
        return None  # a URL's user part, or a variable's value: pip install git+https://$GITHUB_TOKEN@github.com/...
    if start > 1 and text[start - 1] == ":" and text.rfind("://", max(0, start - 40), start) >= 0:
        return None  # scheme://user:pass@host is a credential URL, reported elsewhere
    local = text[start:at].lower()
    domain = m.group(1).lower().rstrip(".")
    tld = domain.rsplit(".", 1)[-1]
    if tld in _FILE_EXTENSIONS or tld in _RESERVED_TLDS or local.endswith("[bot]"):
        return None
    if any(domain == d or domain.endswith("." + d) for d in _RESERVED_DOMAINS):
        return None
    if "noreply" in domain or "no-reply" in domain or local in _ROLE_LOCAL_PARTS:
        return None
    if local.replace(".", "").isdigit() and "noreply" not in domain and len(local) < 3:
        return None
    return Found("email", start, m.end(1))




def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _card_brand_ok(d: str) -> bool:
    n = len(d)
    p2, p4, p6 = int(d[:2]), int(d[:4]), int(d[:6])
    if d[0] == "4":
        return n in (13, 16, 19)
    if 51 <= p2 <= 55 or 2221 <= p4 <= 2720:
        return n == 16
    if p2 in (34, 37):
        return n == 15
    if p4 == 6011 or p2 == 65 or 644 <= int(d[:3]) <= 649 or 622126 <= p6 <= 622925:
        return 16 <= n <= 19
    if 3528 <= p4 <= 3589:
        return 16 <= n <= 19
    if p2 in (36, 38, 39) or 300 <= int(d[:3]) <= 305 or p4 == 3095:
        return 14 <= n <= 19
    if p2 == 62 or p2 == 81:
        return 16 <= n <= 19
    if p2 == 50 or 56 <= p2 <= 69:
        return 12 <= n <= 19
    return False


def _stands_alone(text: str, s: int, e: int) -> bool:
    """A number not glued to a word, a path, a version or a longer number on either side."""
    if s > 0 and (is_word_char(text[s - 1]) or text[s - 1] in "-.+/:"):
        return False
    return not (e < len(text) and (is_word_char(text[e]) or (text[e] in "-." and text[e + 1:e + 2].isdigit())))


def _check_card(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    s, e = m.start(), m.end()
    if not _stands_alone(text, s, e):
        return None
    raw = text[s:e]
    seps = {c for c in raw if not c.isdigit()}
    if len(seps) > 1:
        return None
    digits = raw.replace(" ", "").replace("-", "")
    if not 13 <= len(digits) <= 19 or digits in PUBLISHED_TEST_CARDS or len(set(digits)) < 4:
        return None
    if seps and not _grouping_ok(raw, next(iter(seps))):
        return None
    if seps == {" "} and _re_iban_head().search(text, max(0, s - 5), s):
        return None  # "CH65 2610 3749 ...": the groups of an account number with a failed check
    if not seps and len(digits) not in (15, 16) and not _has_context(
            texts, s, ("card", "cc", "pan", "visa", "mastercard", "amex", "credit", "debit", "payment")):
        return None  # a bare 13- or 19-digit run is as likely a barcode or an id
    if not (_luhn_ok(digits) and _card_brand_ok(digits)):
        return None
    return Found("credit-card", s, e)


@cache
def _re_iban_head() -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2} \Z")


def _grouping_ok(raw: str, sep: str) -> bool:
    sizes = [len(g) for g in raw.split(sep)]
    return sizes[:-1] == [4] * (len(sizes) - 1) or sizes in ([4, 6, 5], [4, 6, 4])


_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29,
    "BY": 28,
    "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24,
    "FI": 18,
    "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28,
    "IE": 22,
    "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21,
    "LT": 20,
    "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
    "NO": 15,
    "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24,
    "SI": 19,
    "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24,
    "XK": 20,
}
_EXAMPLE_IBANS = frozenset({"DE89370400440532013000", "GB82WEST12345698765432", "GB29NWBK60161331926819",
                            "FR1420041010050500013M02606", "NL91ABNA0417164300", "GB33BUKB20201555555555"})


def _check_iban(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    s = m.start() - 2
    if s < 0 or not ("A" <= text[s] <= "Z" and "A" <= text[s + 1] <= "Z"):
        return None
    if s > 0 and is_word_char(text[s - 1]):
        return None
    iban = text[s:m.end()].replace(" ", "")
    want = _IBAN_LENGTHS.get(iban[:2])
    if want is None or len(iban) < want:
        return None
    iban = iban[:want]
    if iban in _EXAMPLE_IBANS or not iban[4:].isalnum():
        return None
    rearranged = iban[4:] + iban[:4]
    if int("".join(str(int(c, 36)) for c in rearranged)) % 97 != 1:
        return None
    # Map the normalised length back onto the text, which may hold spaces.
    end, kept = s, 0
    while kept < want:
        if text[end] != " ":
            kept += 1
        end += 1
    return Found("iban", s, end)


_EXAMPLE_SSNS = frozenset({"078051120", "123456789", "219099999", "457555462"})


def _ssn_ok(d: str) -> bool:
    area, group, serial = d[:3], d[3:5], d[5:]
    return (area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"
            and d not in _EXAMPLE_SSNS)


def _check_ssn(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    s, e = m.start(), m.end()
    if not _stands_alone(text, s, e):
        return None
    raw = text[s:e]
    if raw[3] == " " and not _has_context(texts, s, _SSN_WORDS):
        return None
    return Found("us-ssn", s, e) if _ssn_ok(raw.replace("-", "").replace(" ", "")) else None


_SSN_WORDS = ("ssn", "social security", "ss#", "tax id", "tax_id", "taxid", "tax-id", "taxpayer", "itin")


def _check_bare_ssn(m: re.Match[str], texts: Texts) -> Found | None:
    """Nine digits in a row are an SSN only when the line names one, before or just after them."""
    text = texts.text
    s, e = m.start(), m.end()
    if not _stands_alone(text, s, e) or not _ssn_ok(text[s:e]):
        return None
    if not (_has_context(texts, s, _SSN_WORDS) or _has_context_after(texts, e, _SSN_WORDS)):
        return None
    return Found("us-ssn", s, e)


def _has_context_after(texts: Texts, pos: int, words: tuple[str, ...], span: int = 32) -> bool:
    low = texts.lower
    line_end = low.find("\n", pos)
    window = low[pos:min(pos + span, line_end if line_end >= 0 else len(low))]
    return any(w in window for w in words)


def _has_context(texts: Texts, pos: int, words: tuple[str, ...], span: int = 48) -> bool:
    low = texts.lower
    line_start = low.rfind("\n", 0, pos) + 1
    window = low[max(line_start, pos - span):pos]
    return any(w in window for w in words)


# "number" alone is not one: build, part, order, serial and account numbers are not phones.
_PHONE_WORDS = ("phone", "tel", "call", "mobile", "cell", "sms", "whatsapp", "signal", "fax", "text me",
                "my number", "his number", "her number", "their number", "your number", "our number",
                "'s number", "home number", "work number", "office number", "direct number", "contact", "reach",
                "ring", "dial", "telefon", "handy", "portable")


def _check_phone(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    s, e = m.start(), m.end()
    if e - s < 8:
        return None
    while e > s and not text[e - 1].isdigit():
        e -= 1
    if s > 0 and (is_word_char(text[s - 1]) or text[s - 1] in "-.+/:=#$€£") and not (
            text[s - 1] in ":=" and _has_context(texts, s, _PHONE_WORDS)):
        return None  # but "TEL;TYPE=CELL:+1 312 ...", "phone=(415) ..." name what follows
    if e < len(text) and (is_word_char(text[e]) or (text[e] in "-./:" and text[e + 1:e + 2].isdigit())):
        return None
    raw = text[s:e]
    digits = "".join(c for c in raw if c.isdigit())
    if len(set(digits)) < 3 or digits in PUBLISHED_TEST_PHONES or "1" + digits in PUBLISHED_TEST_PHONES:
        return None
    if raw[0] == "+":
        ok = 8 <= len(digits) <= 15 and raw[1] != "0"
    elif raw[0] == "(":
        ok = len(digits) == 10 or (len(digits) == 11 and digits[0] == "0")
    elif all(c.isdigit() for c in raw):
        # A bare run of digits is a phone number only when the line says so.
        ok = len(digits) in (10, 11) and _has_context(texts, s, _PHONE_WORDS)
    else:
        ok = _national_ok(raw, digits) or (9 <= len(digits) <= 12 and _has_context(texts, s, _PHONE_WORDS))
    return Found("phone", s, e) if ok else None


def _national_ok(raw: str, digits: str) -> bool:
    seps = {c for c in raw if not c.isdigit() and c not in "()"}
    if len(seps) != 1:
        return False
    groups = [len(g) for g in re.split(r"[ .()/-]+", raw) if g]
    if groups == [3, 3, 4]:
        return raw[3] != " " or (digits[0] in "23456789" and digits[3] in "23456789")
    if groups == [1, 3, 3, 4] and digits[0] == "1":
        return True
    # Trunk-prefixed national numbers (UK 020 7946 0958, FR 06 12 34 56 78, DE 030 1234567).
    return digits[0] == "0" and digits[1] != "0" and 10 <= len(digits) <= 11 and len(groups) >= 2 and (
        max(groups) <= 8 and groups[0] <= 5)


def _check_ipv4(m: re.Match[str], texts: Texts) -> Found | None:
    import ipaddress

    text = texts.text
    s, e = m.start(), m.end()
    if s > 0 and (is_word_char(text[s - 1]) or text[s - 1] in ".-+/~^<>"
                  or (text[s - 1] in ":=" and not _is_ip_key(text, s - 1))):
        return None
    if e < len(text) and (is_word_char(text[e]) or (text[e] in ".-" and text[e + 1:e + 2].isalnum())):
        return None
    raw = text[s:e]
    parts = raw.split(".")
    if any(len(p) > 1 and p[0] == "0" for p in parts) or any(int(p) > 255 for p in parts):
        return None
    ip = ipaddress.IPv4Address(raw)
    if raw in _PUBLIC_RESOLVERS or not ip.is_global or ip.is_multicast or ip.is_reserved:
        return None
    line_start = text.rfind("\n", 0, s) + 1
    v = _re_version_context().search(text, max(line_start, s - 40), s)
    if v is not None and (v.group(0)[0].isalpha() or v.group(0)[0] in "=<>~!^" or _re_upgrade().search(
            texts.lower, line_start, s)):
        return None
    return Found("ip-address", s, e)


def _is_ip_key(text: str, colon: int) -> bool:
    """``client_ip=203.0.114.7``, ``addr: ...``: a key right before ':'/'=', not ``image:1.2.3.4``'s tag."""
    i = colon
    while i > 0 and (is_word_char(text[i - 1]) or text[i - 1] == "-"):
        i -= 1
    return colon - i >= 2 and text[colon - 1] != "=" and (i == 0 or text[i - 1] in " \t\"'{[(,;")


@cache
def _re_version_context() -> re.Pattern[str]:
    # "version" also ends a word: AssemblyVersion("3.2.1.0"), productVersion=, min_version:
    return re.compile(r"(?i)(?:version|\b(?:ver|v|release|rel|build|tag|firmware|python|node|chrome|oid|snmp"
                      r"|(?:bump(?:ed)?|upgrade[ds]?|downgrade[ds]?|pinned|pin)(?:\s+(?:from|to|at))?)|==|>=|<=|~=|!=|\^"
                      r"|\d+(?:\.\d+){3}\s*(?:to|->|→|=>))[\s:=\"'(]*$")


@cache
def _re_upgrade() -> re.Pattern[str]:
    return re.compile(r"upgrad|downgrad|bump|version|release|changelog")


_PUBLIC_RESOLVERS = frozenset({"8.8.8.8", "8.8.4.4", "1.1.1.1", "1.0.0.1", "9.9.9.9", "149.112.112.112",
                               "208.67.222.222", "208.67.220.220"})


def _check_ipv6(m: re.Match[str], texts: Texts) -> Found | None:
    import ipaddress

    text = texts.text
    s, e = m.start(), m.end()
    if s > 0 and (text[s - 1].isalnum() or text[s - 1] in ":_"):
        return None
    raw = text[s:e]
    if raw.endswith(":") and not raw.endswith("::"):
        raw = raw.rstrip(":")
    if text[s] not in "23" or ("::" not in raw and raw.count(":") != 7):
        return None
    try:
        ip = ipaddress.IPv6Address(raw)
    except ValueError:
        return None
    if not ip.is_global or ip in ipaddress.IPv6Network("2001:db8::/32"):
        return None
    return Found("ip-address", s, s + len(raw))


DETECTORS: tuple[Detector, ...] = (
    Detector("email", "personal email address",
             r"@((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?\.)+[A-Za-z]{2,24})(?![A-Za-z0-9-])",
             check=_check_email, pii=True, priority=20),
    Detector("credit-card", "payment card number",
             r"0000(?:[ -]?0000){2}[ -]?0{1,7}|0000[ -]?000000[ -]?0{4,5}", view="digits",
             check=_check_card, pii=True, priority=18),
    Detector("iban", "IBAN bank account number", r"00(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?",
             view="digits", check=_check_iban, pii=True, priority=18),
    Detector("us-ssn", "US social security number", r"000-00-0000|000 00 0000", view="digits",
             check=_check_ssn, pii=True, priority=19),
    Detector("us-ssn", "US social security number", r"000000000", view="digits",
             check=_check_bare_ssn, pii=True, priority=19),
    Detector("phone", "phone number", r"\+0{1,3}(?:[ .-]?\(0{1,4}\))?(?:[ .-]?0{1,6}){1,7}", view="digits",
             check=_check_phone, pii=True, priority=21),
    Detector("phone", "phone number", r"\(0{2,5}\) ?0{3,4}[ .-]?0{3,4}", view="digits", check=_check_phone,
             pii=True, priority=21),
    Detector("phone", "phone number",
             r"0(?=(?:[ ./-]?0){8})(?:0{0,4}([ ./-])0{2,8}(?:\1?0{2,8}){0,4}|0{9,10})(?![0-9A-Za-z])",
             view="digits",
             check=_check_phone, pii=True, priority=22),
    Detector("ip-address", "public IP address", r"0(?:0{0,2}\.0{1,3}){3}", view="digits",
             check=_check_ipv4, pii=True, priority=23),
    Detector("ip-address", "public IPv6 address", r"0[0-9a-fA-F]{3}:[0-9a-fA-F:]{2,40}", view="digits",
             check=_check_ipv6, pii=True, priority=23),
)
