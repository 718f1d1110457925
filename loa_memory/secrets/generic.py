"""Secrets assigned to a secret-like name: passwords and generated-looking keys (the generic detector).

A value assigned to a secret-like name (``DB_PASSWORD=...``, ``"api_key": "..."``, ``secret: ...``,
``--password ...``) or stated in prose ("the password for the staging box is ...") is reported
when it looks like a real secret: a password needs a digit or a symbol (or quotes), other secrets
need the length and character mix of a generated key. Fails: ``password: hunter2x!``,
``api_key = "q8ZkT2mW9xLp4RvB7nYc"``, ``- name: DB_PASSWORD`` then ``value: s3cr3t!``.
Passes: ``password: ${DB_PASSWORD}``, ``export GITHUB_TOKEN``, ``GITHUB_TOKEN is required``,
``max_tokens: 4096``, ``secretName: db-credentials``, ``password=args.password``.

``assignments`` reads the values and ``names`` rates the name. A value in a Markdown code span that reads as
code (``token with `set(token, forKey: "refreshToken")` ``) is judged by the literals it holds (``code``).
Public keys, data-structure keys (``cache key: ...``) and YAML tags (``!secret db_password``) are not secrets.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache

from loa_memory.secrets.assignments import assigned_values, is_bare_value_next, is_pair_name, key_span, may_assign
from loa_memory.secrets.code import assignment_value, code_values, looks_generated, looks_like_password
from loa_memory.secrets.detector import Detector, Found, Texts
from loa_memory.secrets.names import DENY_SEGMENTS, PASSWORD_WORDS, key_segments, key_strength
from loa_memory.secrets.values import (
    char_classes,
    is_code_reference,
    is_placeholder,
    is_word_like,
    looks_random,
)

# Values that are public keys, whatever they are assigned to: "ssh-ed25519 AAAAC3Nza...", an age recipient.
_PUBLIC_KEY_PREFIXES = ("ssh-rsa", "ssh-ed25519", "ssh-dss", "ecdsa-sha2-", "sk-ssh-", "sk-ecdsa-", "AAAAB3NzaC1",
                        "AAAAC3NzaC1", "AAAAE2VjZHNh", "age1")


@cache
def _re_yaml_tag() -> re.Pattern[str]:
    # !secret db_password (Home Assistant), !vault |, !env_var DB_PASS, !Ref DbPassword, !Sub ...
    return re.compile(r"![A-Za-z_]+(?:[.:][A-Za-z_]+)?")


@cache
def _re_file_argument() -> re.Pattern[str]:
    # A file given to a tool: "vault kv put secret/db password=@pw.txt", "curl -d @body.json".
    return re.compile(r"@[\w.~-]*(?:/[\w.-]+)*\.[A-Za-z]\w{0,7}")


def _is_reference(v: str, quoted: bool) -> bool:
    """A value that points at the secret instead of holding it, or a public key."""
    if v.startswith(_PUBLIC_KEY_PREFIXES) or _re_file_argument().fullmatch(v):
        return True
    return not quoted and (v.startswith(("$", "%")) or bool(_re_yaml_tag().fullmatch(v)))


def is_password_value(value: str, quoted: bool, prose: bool) -> bool:
    """Whether an assigned value looks like a real password rather than a reference or a word."""
    v = value.strip()
    if prose:  # "... when credentials are allowed.'": a sentence's end and the quote around it are not the value
        v = v.rstrip(".,;:!?'\"")
    if (not 4 <= len(v) <= 128 or is_placeholder(v) or v[0] in "/~" or v.startswith(("./", "file:", "http"))
            or _re_dotfile().fullmatch(v)):
        return False
    if _is_reference(v, quoted) or (not quoted and is_code_reference(v)):
        return False
    if prose and _re_email_like().match(v):
        return False  # "password reset link sent to jane@...": the email detector reports it
    has_symbol = any(not c.isalnum() for c in v)
    has_digit = any(c.isdigit() for c in v)
    if v.isalpha():
        return quoted and len(v) >= 6 and not prose and not v.istitle()
    if v.isdigit() and len(v) < 6 and prose:
        return False
    if prose and not quoted and _re_described().match(v):
        return False  # "the password base64-encoded under data:": how it was kept, not what it is
    if is_word_like(v) and not has_digit:
        return False
    return has_digit or has_symbol or quoted


def _check_password(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    s, e = m.start(), m.end()
    if not may_assign(texts.lower, e, 3) and not text.startswith((" ", "\t"), e) and not is_pair_name(
            text, key_span(text, s, e)[0]):
        return None
    word = m.group(0)
    if word in ("pass", "pw", "pwd") and (
            (s > 0 and text[s - 1].isalpha()) or (e < len(text) and text[e].isalpha())):
        return None
    ks, ke = key_span(text, s, e)
    if text.startswith("${", ks - 2):
        return None  # `${POSTGRES_PASSWORD:?set it in .env}`: a shell expansion names the variable
    segs = key_segments(text[ks:ke])
    if any(seg in DENY_SEGMENTS or (seg in ("pass", "passes", "passed", "passing", "bypass", "passport")
           and word != "pass") for seg in segs):
        return None
    bare_pass = word == "pass" and (ks, ke) == (s, e)
    for value, vs, ve, quoted, prose in _values(texts, ks, ke):
        if word == "pass" and not quoted and _re_keyword_argument().match(value):
            continue  # "you must pass timeout=30 to requests.get": the verb, passing a keyword argument
        if bare_pass and all(_FLAG.fullmatch(w) for w in value.split()) and not re.search(r"[:=]", text[ke:vs]):
            continue  # "never pass `--force` to get around the prompt", "pass `dtype=`": the verb, passing options
        if bare_pass and text[vs - 1:vs] == "`" and _re_keyword_argument().match(value):
            continue  # "never pass `allow_other_host: true` with user input": the verb, passing a setting
        # "pass an allow-list such as `...`" is the verb: only a generated literal in the code it passes counts
        verb = bare_pass and _is_verb_gap(text[ke:vs])
        code = _code_span_value(text, value, vs, quoted, looks_generated if verb else looks_like_password)
        if code:
            return Found("password", code[0], code[1])
        if code is None and not verb and is_password_value(value, quoted, prose):
            if _other_code(text, ke, value, vs, quoted):
                continue  # "the database password and the whole `.git` directory": the next code, not the password
            return Found("password", vs, ve)
    return None


def _values(texts: Texts, ks: int, ke: int) -> Iterator[tuple[str, int, int, bool, bool]]:
    """``assigned_values``, with a code span that is one assignment (`BCRYPT_ROUNDS=12`) read as its value."""
    text = texts.text
    for value, vs, ve, quoted, prose in assigned_values(texts, ks, ke):
        inner = assignment_value(value) if quoted and vs > 0 and text[vs - 1] == "`" else None
        if inner is None:
            yield value, vs, ve, quoted, prose
        else:
            yield value[inner[0]:inner[1]], vs + inner[0], vs + inner[1], inner[2], prose


_COPULA = frozenset({"is", "was", "are", "were", "be", "to", "as", "becomes", "became", "reads", "equals", "of"})


def _is_said_value(between: str) -> bool:
    """Whether the words between a secret's name and a code span say the span is its value: none ("password
    `x`"), ending on a copula ("password for staging is `x`", "set to `x`") or on a colon or equals sign ("token
    for staging: `x`")."""
    words = re.findall(r"[A-Za-z]+", between)
    return not words or words[-1].lower() in _COPULA or between.rstrip().endswith((":", "="))


def _other_code(text: str, key_end: int, value: str, value_start: int, quoted: bool) -> bool:
    """Whether a value is a code span, or a quoted phrase of several words, that the words after the secret's name
    do not give as its value ("the password is kept in the vault under "Staging / admin""), and that does not look
    generated itself (a random token in backticks is a secret wherever it stands)."""
    opening = text[value_start - 1] if quoted and value_start > 0 else ""
    return ((opening == "`" or (opening in "\"'" and " " in value.strip()))
            and not _is_said_value(text[key_end:value_start - 1]) and not looks_generated(value))


def _is_verb_gap(between: str) -> bool:
    """Words between a bare "pass" and its value make it the verb: "pass an explicit allow-list such as `...`";
    but "pass for the wifi: ..." and "pass on the bastion is ..." say what the pass opens."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", between)]
    return bool(words) and words[0] not in ("for", "on", "of", "at") and any(
        w not in ("is", "was", "value") for w in words)


def _code_span_value(text: str, value: str, vs: int, quoted: bool,
                     judge: Callable[[str], bool] = looks_generated) -> tuple[int, int] | tuple[()] | None:
    """For a value in a Markdown code span that reads as code (``code.code_values``): the span of the first value
    in it that ``judge`` finds secret, or () when it holds none (code that names a secret without holding one);
    None for any other value, which is judged as a whole."""
    if not quoted or vs == 0 or text[vs - 1] != "`":
        return None
    spans = code_values(value)
    if spans is None:
        # `AsyncStorage.setItem`: code named in prose, when no part of the path looks generated
        named = is_code_reference(value) and not any(looks_random(part, min_len=8) for part in value.split("."))
        return () if named else None
    for ls, le in spans:
        if judge(value[ls:le]):
            return vs + ls, vs + le
    return ()


_FLAG = re.compile(r"--?[A-Za-z][\w-]*|[A-Za-z_][\w.]*=")  # an option, or a keyword argument named without a value


@cache
def _re_keyword_argument() -> re.Pattern[str]:
    """``name=literal`` (or ``name: literal``) where the literal is a number, a duration, a boolean or none: an
    argument or a setting, not a secret."""
    return re.compile(r"[A-Za-z_]\w*(?:=|: ?)(?:\d+(?:\.\d+)?(?:ms|s|m|h|d)?|true|false|none|null|nil)$", re.IGNORECASE)



@cache
def _re_described() -> re.Pattern[str]:
    """A participle phrase in one word: ``base64-encoded``, ``bcrypt-hashed``, ``kms-encrypted``, ``plain-text``."""
    return re.compile(r"[A-Za-z]+\d{0,3}-(?:[a-z]{2,}ed|[a-z]{2,}ing|text|only|based)$")


@cache
def _re_dotfile() -> re.Pattern[str]:
    """A dotfile's name: ``.gitignore``, ``.env.local``, ``.npmrc``."""
    return re.compile(r"\.[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*")


@cache
def _re_email_like() -> re.Pattern[str]:
    return re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")


@cache
def _re_colon_hex() -> re.Pattern[str]:
    return re.compile(r"(?:[0-9A-Fa-f]{2}:){15,}[0-9A-Fa-f]{2}")


@cache
def _re_image_ref() -> re.Pattern[str]:
    # Registry and repository names are lower-case (Docker requires it), unlike a base64 key's "/" runs.
    return re.compile(r"[a-z0-9.-]+(?:/[a-z0-9._-]+)+(?::[\w.-]{1,128})?(?:@sha256:[0-9a-f]{64})?")


def _is_secret_value(value: str, strength: int, quoted: bool) -> bool:
    v = value.strip()
    if len(v) < 8 or len(v) > 512 or is_placeholder(v) or v[0] in "/~" or "://" in v or _is_reference(v, quoted):
        return False
    if v.lower().startswith(("sha256:", "sha1:", "sha512:", "md5:", "arn:", "projects/", "./")):
        return False  # a digest or an SSH key fingerprint (SHA256:..., MD5:aa:bb:...), both public
    if _re_colon_hex().fullmatch(v) or _re_image_ref().fullmatch(v):
        return False  # a fingerprint printed as colon-separated hex; a container image (ghcr.io/acme/auth:v2.1)
    if _re_email_like().match(v):
        return False
    if not quoted and is_code_reference(v):
        return False
    if any(c.isspace() for c in v):
        return False  # a generated key has no space: this is a phrase, a command or code
    hexish = all(c in "0123456789abcdefABCDEF-" for c in v)
    if hexish and strength < 2:
        return False
    if strength >= 2:
        return looks_random(v, min_len=12) or (len(v) >= 10 and char_classes(v) >= 3 and not is_word_like(v))
    return looks_random(v, min_len=20) and char_classes(v) >= 3


def _refine_kind(texts: Texts, ks: int, value: str) -> str:
    low = texts.lower
    line_start = low.rfind("\n", 0, ks) + 1
    line = low[line_start:ks + 80]
    # The vendor may be named a few lines up: provider "aws" {, twilio:, a [profile] section.
    above = line_start
    for _ in range(3):
        if above > 0:
            above = low.rfind("\n", 0, above - 1) + 1
    near = low[above:ks + 80]
    # An AWS credentials file names no vendor: [default] or [profile ci] above the key says it.
    is_aws = ("aws" in near or "akia" in near or "[default]" in near or "[profile " in near
              or "secretaccesskey" in re.sub(r"[\s_-]", "", line))
    if is_aws and len(value) == 40 and re.fullmatch(r"[A-Za-z0-9/+]{40}", value):
        return "aws-secret-access-key"
    if "twilio" in near and re.fullmatch(r"[0-9a-f]{32}", value):
        return "twilio-auth-token"
    if "azure" in line or "accountkey" in line or ("client_secret" in line and "tenant" in line):
        return "azure-secret"
    if re.fullmatch(r"[A-Za-z0-9+/]{86}==", value) and any(w in near for w in ("azure", "storage", "account",
                                                                                 "az ")):
        return "azure-secret"  # a storage account key: 64 bytes of base64
    return "generic-secret"


def _check_keyword(m: re.Match[str], texts: Texts) -> Found | None:
    text = texts.text
    assigned = may_assign(texts.lower, m.end(), 8)
    ks, ke = key_span(text, m.start(), m.end())
    if not assigned:
        if ke == len(text) or text[ke] in "\"'\r\n":
            if not is_pair_name(text, ks):  # "- name: AWS_SECRET_ACCESS_KEY\n  value: ..."
                return None
        elif not (is_bare_value_next(text, ke) and key_strength(texts, ks, ke) == 2):
            return None  # "aws_secret_access_key AbC...": with no separator, only a clearly secret name
    if any(w in texts.lower[ks:ke] for w in PASSWORD_WORDS[:4]):
        return None  # the password detector owns these names
    segs = key_segments(text[ks:ke])
    if segs and segs[-1] in ("creds", "credentials", "login", "logins"):
        for value, vs, ve, quoted, _prose in _values(texts, ks, ke):
            code = _code_span_value(text, value, vs, quoted, looks_like_password)
            if code:
                return Found("password", code[0], code[1])
            if code is None and is_password_value(value, quoted, True) and not value.isalpha():
                if _other_code(text, ke, value, vs, quoted):
                    continue  # "investigating logins we ran `redis-cli -h ...`": the next code, not the login
                return Found("password", vs, ve)
    strength = key_strength(texts, ks, ke)
    if strength == 0:
        return None
    for value, vs, ve, quoted, _prose in _values(texts, ks, ke):
        code = _code_span_value(text, value, vs, quoted)
        if code is not None:
            if code:
                return Found(_refine_kind(texts, ks, text[code[0]:code[1]]), code[0], code[1])
        elif _is_secret_value(value, strength, quoted):
            if _other_code(text, ke, value, vs, quoted):
                continue  # "exclude credential files with `dataExtractionRules`": code the sentence names next
            return Found(_refine_kind(texts, ks, value), vs, ve)
    return None


DETECTORS: tuple[Detector, ...] = (
    Detector("password", "password", r"pass(?:word|wd|phrase|code)?|pwd?", view="lower",
                                            check=_check_password,
             priority=12),
    Detector("generic-secret", "secret assigned to a secret-like name", r"secret|token|key|cred|auth|login",
             view="lower", check=_check_keyword, priority=14),
)
