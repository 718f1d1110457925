"""What a candidate value looks like: a placeholder, a published example, or random enough to be a secret.

Every detector asks these questions of the value it matched, so a template (``YOUR_API_KEY``,
``<token>``, ``${VAR}``, ``sk-...``) or a vendor's documented example key is never reported.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from functools import cache

# Keys and values that vendors publish in their documentation; reporting them is noise.
PUBLISHED_EXAMPLES = frozenset({
    "AKIAIOSFODNN7EXAMPLE",
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
    "pk_test_TYooMQauvdEDq54NiTphI7jx",
    "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
    "sk_test_26PHem9AhJZvU623DfE1x4sd",
    "rk_test_26PHem9AhJZvU623DfE1x4sd",
    "ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
    "xoxb-not-a-real-token-this-will-not-work",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    # The Azure Storage emulator's (Azurite) devstoreaccount1 key and the Cosmos DB emulator key:
    # both fixed and published by Microsoft, so every local setup carries them.
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
    "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==",
})

# Card numbers that payment processors publish for testing (Stripe, Braintree, Adyen, PayPal): every
# integration guide and test fixture carries them, so they name no one's card.
PUBLISHED_TEST_CARDS = frozenset({
    # Stripe
    "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222", "5200828282828210",
    "5105105105105100", "378282246310005", "371449635398431", "6011111111111117", "6011000990139424",
    "6011981111111113", "3056930009020004", "36227206271667", "30569309025904", "38520000023237",
    "3566002020360505", "6200000000000005", "6200000000000047", "6205500000000000004", "6555900000604105",
    "4000002500003155", "4000000000003220", "4000000000000002", "4000000000009995", "4000000000000077",
    "4000000000000341", "4000000000000119", "4000000000000127", "4000000000000069", "4000000000000101",
    "4000008400001629", "4000000760000002", "4000001240000000", "4000004840008001",
    # Braintree and PayPal
    "4111111111111111", "4005519200000004", "4009348888881881", "4012000033330026", "4012000077777777",
    "4012888888881881", "4217651111111119", "4500600000000061", "4000111111111115", "4222222222222",
    "3530111333300000", "6304000000000000", "2223000048400011", "36259600000004", "6243030000000001",
    "378734493671000", "5019717010103742", "6331101999990016",
    # Adyen
    "4111111145551142", "4988438843884305", "4166676667666746", "4646464646464644", "4400000000000008",
    "5555341244441115", "5577000055770004", "5136333333333335", "5555444433331111", "2222400070000005",
    "370000000000002", "36006666333344", "6011601160116611", "3569990010095841",
})

# Phone numbers a vendor publishes as test values: Twilio's magic numbers +1 500 555 0000-0009.
PUBLISHED_TEST_PHONES = frozenset(f"1500555000{d}" for d in range(10))

# Whole values that stand for "put your secret here" or are well-known defaults rather than secrets.
_PLACEHOLDER_WORDS = frozenset({
    "changeme", "change_me", "change-me", "changethis", "password", "passwd", "pass", "secret", "secrets",
    "token", "apikey", "api_key", "api-key", "key", "example", "sample", "dummy", "fake", "test", "testing",
    "placeholder", "redacted", "removed", "hidden", "masked", "none", "null", "nil", "undefined", "true",
    "false", "yes", "no", "empty", "str", "string", "int", "bool", "bytes", "any", "optional", "secretstr",
    "required", "todo", "tbd", "fixme", "value", "default", "admin", "root", "user", "username", "guest",
    "postgres", "mysql", "letmein", "qwerty", "foobar", "foo", "bar", "baz", "abc123", "123456", "12345678",
    "password1", "password123", "mypassword", "yourpassword", "your_password", "yoursecret", "mysecret",
    "secretpassword", "supersecret", "notasecret", "not-a-secret", "s3cr3t", "p@ssw0rd", "xxx", "n/a",
})

_PLACEHOLDER_HINTS = (
    "example", "your_", "your-", "yourkey", "yourtoken", "yoursecret", "<", ">", "${", "{{", "}}",
    "xxxx", "••", "…", "...", "redacted", "placeholder", "insert", "replace", "dummy", "sample",
    "fake", "changeme", "change_me", "notreal", "not_real", "not-real", "todo", "secrets.", "env.", "vault:",
    "process.env", "os.environ", "getenv", "env(", "env[",
)

_SEQUENCES = ("0123456789", "1234567890", "abcdefghijklmnopqrstuvwxyz", "qwertyuiop")


@cache
def _re_var_ref() -> re.Pattern[str]:
    # $VAR, ${VAR}, %VAR%, $env:VAR, {VAR}, <VAR>, [VAR], :var (a bind parameter)
    return re.compile(r"^(?:\$\{?[A-Za-z_][\w.:-]*\}?|%[A-Za-z_]\w*%|\$env:\w+|\{[\w.]+\}|<[^<>]*>|\[[\w ]+\]"
                      r"|:[a-z_]\w*)$")


@cache
def _re_interpolation() -> re.Pattern[str]:
    # $(command), %(name)s. Whole, not the two characters: a generated key (Django's alphabet has
    # $ % and parentheses) holds "$(" or "%(" by chance one time in twenty-five.
    return re.compile(r"\$\([A-Za-z_][\w .:/'\"-]*\)|%\([A-Za-z_]\w*\)[a-z]")


@cache
def _re_code_ref() -> re.Pattern[str]:
    # password=self.password, secret=config.db.secret, token=get_token(), key=settings["x"]
    return re.compile(r"^[A-Za-z_][\w]*(?:(?:\.|->|::)[A-Za-z_]\w*)*(?:\(.*\)?|\[.*\]?)?$")


def is_placeholder(value: str) -> bool:
    """True when ``value`` is a template, a variable reference, a mask or a documented example."""
    v = value.strip().strip("\"'`")
    if not v:
        return True
    if v in PUBLISHED_EXAMPLES:
        return True
    low = v.lower()
    if low in _PLACEHOLDER_WORDS:
        return True
    if any(h in low for h in _PLACEHOLDER_HINTS):
        return True
    # A mask ("hf_***", "AKIA************ABCD", "j***@g***.com"), not a random value that happens to hold
    # "***" (a Django key's alphabet has "*": 1 in 50 characters).
    if "***" in v and v.count("*") * 5 >= len(v):
        return True
    if _re_var_ref().match(v) or (("$(" in v or "%(" in v) and _re_interpolation().search(v)):
        return True
    # Masks and fillers: "********", "xxxxxxxx", "0000000000", "ABABABAB". Capped, because a long
    # generated value (a 300-character JWT, 128 hex digits) uses only its alphabet's 16-64 characters.
    if len(set(low)) <= max(2, min(len(low) // 8, 4)) and len(low) >= 4:
        return True
    return any(s[:8] in low for s in _SEQUENCES) and len(set(low)) < 20


def is_code_reference(value: str) -> bool:
    """True for an identifier, attribute path or call (``args.password``, ``get_token()``)."""
    return bool(_re_code_ref().match(value)) and not any(c.isdigit() for c in value.split("(")[0])


def shannon_entropy(value: str) -> float:
    """Bits per character of ``value``."""
    if not value:
        return 0.0
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in Counter(value).values())


def char_classes(value: str) -> int:
    """How many of lower, upper, digit and other characters ``value`` uses."""
    return (any(c.islower() for c in value) + any(c.isupper() for c in value)
            + any(c.isdigit() for c in value) + any(not c.isalnum() for c in value))


@cache
def _re_words() -> re.Pattern[str]:
    return re.compile(r"^[A-Za-z]+(?:[-_./: ][A-Za-z]+)*$")


def is_word_like(value: str) -> bool:
    """True for names made of words: ``db-credentials``, ``prod/app/secret``, ``MySecretName``.

    Random letters (``NcvokHxbyBLXnssv``) are not: their case flips far more often than words'.
    """
    if not _re_words().match(value):
        return False
    return all(_case_flips(part) <= max(2, len(part) // 5) for part in re.split(r"[-_./: ]", value))


def looks_random(value: str, *, min_len: int = 16) -> bool:
    """True when ``value`` has the length and character mix of a generated key or token.

    Hex of any length counts (API keys are often hex); words, identifiers and paths do not.
    """
    if len(value) < min_len or is_placeholder(value) or is_word_like(value):
        return False
    if value.isdigit():
        return False
    hexish = all(c in "0123456789abcdefABCDEF-" for c in value)
    ent = shannon_entropy(value)
    if hexish:
        return ent >= 3.0
    classes = char_classes(value)
    if classes < 2:
        return False
    if len({c for c in value if not c.isalnum()}) >= 4 and ent >= 4.0:
        # Letters and many kinds of punctuation, no digit by chance (Django's get_random_secret_key()); paths
        # and identifiers use one or two kinds of separator.
        return True
    if not any(c.isdigit() for c in value) and classes < 3:
        # Letters only, mixed case: "MySecretNameForProd" is a name, "qPzKfTRmWbLx" is random.
        # Random case flips about every other letter; a third rejected 2% of random 34-letter bodies.
        return ent >= 3.7 and _case_flips(value) >= len(value) // 4
    return ent >= 3.0


def _case_flips(value: str) -> int:
    letters = [c.isupper() for c in value if c.isalpha()]
    return sum(a != b for a, b in itertools.pairwise(letters))
