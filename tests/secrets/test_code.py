"""Code quoted in prose: code that names a token, a secret or a password is not one; a key inside it still is."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loa_memory.secrets import scan_text
from loa_memory.secrets.code import code_values, looks_generated, looks_like_password

KEY = "q8ZkT2mW9xLp4RvB7nYcD3fG"  # synthetic, generated-looking
PASSWORD = "Tr0ub4dor&3x"


# Each was refused as a secret before code spans were read as code (the first three are corrections found on
# blind evaluation data; the others were written to probe the same shapes).
CODE_IN_PROSE = [
    "lesson: Always pass an explicit allow-list such as `{ algorithms: ['RS256'] }` to the verify call, and reject"
    " any token whose header alg is not in it.",
    "content: The iOS app saved the OAuth refresh token with"
    ' `UserDefaults.standard.set(token, forKey: "refreshToken")`. A penetration tester pulled it out of an'
    " unencrypted Finder backup.",
    'content: A service-to-service auth middleware used `jwt.decode(token, options={"verify_signature": False})` to'
    " read the `sub` claim, intending to verify later.",
    "content: Passwords must be compared with `hmac.compare_digest(stored_hash, computed_hash)` to avoid timing leaks.",
    'content: The auth token was logged because `logger.info(f"request headers: {request.headers}")` dumped'
    " everything.",
    'content: Set the bearer token through `session.headers.update({"Authorization": f"Bearer {token}"})` once.',
    "content: We pass the secret as `hmac.new(secret.encode(), msg=body, digestmod=hashlib.sha256)` when checking"
    " webhook signatures.",
    "content: The refresh token flow calls `oauth.refresh_token(token_url, refresh_token=refresh_token,"
    " client_id=CLIENT_ID)` and stores the result.",
    'content: Kubernetes secrets are mounted and read with `Path("/var/run/secrets/db-password").read_text().strip()`'
    " at startup.",
    'content: Rotate the signing key by calling `kms.create_key(KeyUsage="SIGN_VERIFY", KeySpec="RSA_2048")` and'
    " updating the JWKS.",
    'content: Our secret loader is `json.loads(base64.b64decode(secret["data"]["config.json"]))`, which fails on'
    " padding errors.",
    'content: The access token came from `await msal.acquireTokenSilent({ scopes: ["User.Read"], account })` and was'
    " cached in memory only.",
    'content: The client secret is read via `config.get("oauth", {}).get("client_secret")` so a missing section'
    " returns None.",
    'content: Password hashing uses `bcrypt.hashpw(password.encode("utf-8"), bcrypt.gensalt(rounds=12))` and the cost'
    " factor is tuned per host.",
    'content: The API key check was `if request.headers.get("X-Api-Key") != settings.API_KEY: abort(401)`, which'
    " leaked timing.",
    'content: Terraform wrote the secret to state because `resource "aws_secretsmanager_secret_version" "db" {'
    " secret_string = var.db_password }` stores plaintext.",
    "content: The access token is refreshed by `await auth.currentUser.getIdToken(/* forceRefresh */ true)` before"
    " each call.",
    'content: The token is saved with `Keychain.save(key: "accessToken", data: token.data(using: .utf8)!)` on login.',
    "content: The auth token was compared via `crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b))` which throws"
    " on length mismatch.",
    'content: The token endpoint rejected `requests.post(TOKEN_URL, data={"grant_type": "client_credentials"},'
    " auth=(CLIENT_ID, CLIENT_SECRET))` with 401 until the scope was added.",
    'content: The Rust client loads the key with `std::env::var("API_KEY").expect("API_KEY must be set")` at startup.',
    'content: The secret was read from `open("/run/secrets/db_password").read().rstrip("\\n")` in the entrypoint.',
    'content: The db password comes from `connect("db.internal:5432", "us-east-1", "replica_02")` in the worker.',
    "content: The access token is in `localStorage['auth.v1.accessToken']`, which any XSS can read.",
    "content: Rotate the token with `gh auth refresh -h github.com -s repo,workflow` after the scope change.",
    "content: The Rails app reads the key via `Rails.application.credentials.dig(:aws, :secret_access_key)` in the"
    " initializer.",
    'content: The token refresh used `lambda token: token.strip().removeprefix("Bearer ")` before verifying.',
    "content: The password check `if not bcrypt.checkpw(pw.encode(), user.password_hash): raise AuthError()` is"
    " constant-time.",
    "content: The API key is validated by `hashlib.sha256(api_key.encode()).hexdigest() in KEY_HASHES` so keys are"
    " never stored.",
    'content: The secret is injected by `kubectl create secret generic api --from-literal=token="$API_TOKEN"` in CI.',
    'content: The session secret comes from `app.config["SECRET_KEY"] = os.urandom(24)` which breaks sessions.',
    "content: The password hasher is `argon2.PasswordHasher(time_cost=3, memory_cost=65536, parallelism=4)` per OWASP.",
    "content: The GitHub token scope check is `gh api user -i | grep X-OAuth-Scopes` in the runbook.",
    "content: The webhook secret is compared using"
    ' `hmac.compare_digest(sig, hmac.new(WEBHOOK_SECRET, body, "sha256").hexdigest())`.',
    # A code span that is one assignment is read as the value it assigns; a file given to a tool is a reference
    "content: Set the password hashing cost with `BCRYPT_ROUNDS=12` in the env file.",
    "content: The secret key is read from `SECRET_KEY_FILE=/run/secrets/django_key` by the entrypoint.",
    "content: The secret rotation job runs `vault kv put secret/app/db password=@pw.txt` nightly.",
    "content: The auth service image is `ghcr.io/acme/auth-service:v2.14.3-alpine3.19`, pinned by digest.",
]


@pytest.mark.parametrize("text", CODE_IN_PROSE)
def test_code_that_names_a_secret_is_not_one(text: str) -> None:
    assert scan_text(text) == []


# The same shapes holding a real-looking secret: still refused, and the hit is the literal, not the whole span.
TWINS = [
    (
        "lesson: Always pass an explicit allow-list such as `{ algorithms: ['RS256'], key: '%s' }` to the verify call.",
        KEY,
    ),
    (
        'content: The iOS app saved the OAuth refresh token with `UserDefaults.standard.set("%s", forKey:'
        ' "refreshToken")`.',
        KEY,
    ),
    (
        'content: A service-to-service auth middleware used `jwt.decode(token, "%s", algorithms=["HS256"])` to read'
        " the `sub` claim.",
        KEY,
    ),
    (
        'content: Passwords must be compared with `hmac.compare_digest(stored_hash, "%s")` to avoid timing leaks.',
        PASSWORD,
    ),
    ('content: We pass the secret as `hmac.new("%s".encode(), body, sha256)` when checking signatures.', KEY),
    ('content: The access token came from `msal.acquireTokenSilent({ scopes: ["User.Read"], account: "%s" })`.', KEY),
    ('content: The client secret is read via `config.get("oauth", {}).get("client_secret", "%s")`.', KEY),
    ('content: The API key check was `if request.headers.get("X-Api-Key") != "%s": abort(401)`.', KEY),
    ('content: The token is saved with `Keychain.save(key: "accessToken", data: "%s")` on login.', KEY),
    ('content: The token endpoint rejected `requests.post(TOKEN_URL, auth=(CLIENT_ID, "%s"))` with 401.', KEY),
    ('content: The Rust client loads the key with `std::env::var("API_KEY").unwrap_or("%s".into())` at startup.', KEY),
    ('content: The secret was read from `open("/run/secrets/db_password").read() or "%s"` in the entrypoint.', KEY),
    ('content: The db password was read from `open("/run/secrets/db_password").read() or "%s"`.', PASSWORD),
    ('content: The secret is injected by `kubectl create secret generic api --from-literal=token="%s"` in CI.', KEY),
    ('content: The session secret comes from `app.config["SECRET_KEY"] = "%s"`, the same on every worker.', KEY),
    ("content: The deploy token is set with `export DEPLOY=%s` in the runner.", KEY),
    ('content: The db password is set with `export PGPASSWORD="%s"` in the runner.', PASSWORD),
    ("content: The secret rotation job runs `vault kv put secret/app/db password=%s` nightly.", "Summer2024!x"),
    ("content: The staging password is `%s` for now.", "Tr0ub(4dor)!x"),
    ('content: The redis password is set by `redis.Redis(host, 6379, 0, "%s")` in the worker.', "hunter2x!"),
]


@pytest.mark.parametrize(("template", "secret"), TWINS)
def test_a_secret_inside_quoted_code_is_still_one(template: str, secret: str) -> None:
    text = template % secret
    [hit] = scan_text(text)
    assert hit.col == text.index(secret) + 1
    assert hit.redacted.endswith(f"({len(secret)} chars)")


@settings(max_examples=100, derandomize=True)
@given(st.integers(0, 2**32), st.sampled_from([template for template, secret in TWINS if secret == KEY]))
def test_any_generated_key_inside_quoted_code_is_found(seed: int, template: str) -> None:
    rnd = random.Random(seed)
    alphabet = rnd.choice(
        ["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "abcdefghijklmnopqrstuvwxyz0123456789"]
    )
    key = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(20, 40)))
    text = template % key
    assert [h.col for h in scan_text(text)] == [text.index(key) + 1]


def test_pass_the_verb_is_not_a_password_name() -> None:
    assert scan_text("Always pass the raw body such as `hmac.new(b, msg=body)` to the check, not the parsed one.") == []
    assert scan_text("pass an explicit list such as 'RS256,ES256' to the verify call") == []
    for text in (
        f"pass: {PASSWORD}",
        f"user admin, pass {PASSWORD}",
        f"the pass is {PASSWORD}",
        f"the pass for the wifi: {PASSWORD}",
        f"pass on the bastion is {PASSWORD}",
    ):
        assert [h.kind for h in scan_text(text)] == ["password"], text


@pytest.mark.parametrize(
    ("value", "literals"),
    [
        ('set(token, forKey: "refreshToken")', ["refreshToken"]),
        ("{ algorithms: ['RS256'] }", ["RS256"]),
        ('jwt.decode(token, options={"verify_signature": False})', ["verify_signature"]),
        ('f(b"raw", r\'\\d+\', "a\\"b")', ["raw", "\\d+", 'a\\"b']),
        ("a.b()(c)[0]", []),
        (f"set(token, {KEY})", [KEY]),
        ("set(9f3a7c1e5b2d8f469f3a7c1e5b2d8f46)", ["9f3a7c1e5b2d8f469f3a7c1e5b2d8f46"]),
    ],
)
def test_code_values_of_code(value: str, literals: list[str]) -> None:
    spans = code_values(value)
    assert spans is not None
    assert [value[s:e] for s, e in spans] == literals


@pytest.mark.parametrize(
    "value",
    [
        "hunter2x!",
        "Tr0ub4dor&3x",
        "correct horse battery staple",
        "settings.API_TOKEN",
        "(a, b)",  # no call/brackets
        "f(a",
        "f(a]",
        "f(a))",
        "{ x: 1 ]",  # unbalanced
        "f(a) # comment",  # a character code spans here do not use
        "Tr0ub(4dor)!",  # a password with brackets: no space, no ".", no literal, and names that are not plain
        "P@ss(w0rd)",
    ],
)
def test_code_values_of_anything_else(value: str) -> None:
    assert code_values(value) is None


@pytest.mark.parametrize(
    ("value", "generated", "password"),
    [
        (KEY, True, True),
        ("9f3a7c1e5b2d8f469f3a7c1e5b2d8f46", True, True),
        (PASSWORD, False, True),
        ("hunter2x!", False, True),
        ("refreshToken", False, False),
        ("RS256", False, False),
        ("localhost:5432", False, False),
        ("db.internal:5432", False, False),
        ("us-east-1", False, False),
        ("replica_02", False, False),
        ("/run/secrets/db_password", False, False),
        ("User.Read", False, False),
        ("2026-01-01T00:00:00Z", False, False),
        ("prod/api/key", False, False),
        ("9f3a7c1e5b2d8f46", False, False),
        ("k3j5h2g8f9d7s6a4q1w2", True, True),
        ("replica-eu-west-2024-prod", False, False),
        ("Bearer {token}", False, False),
        ("YOUR_API_KEY_HERE_1234", False, False),
        ("auth.v1.accessToken", False, False),
        ("com.acme.ios.refreshTokenKey", False, False),
    ],
)
def test_which_literals_are_secrets(value: str, generated: bool, password: bool) -> None:
    assert (looks_generated(value), looks_like_password(value)) == (generated, password)


def test_a_quoted_sentence_end_is_not_a_password() -> None:
    """`add` writes a lesson with ``: `` in it as a single-quoted YAML scalar: the sentence's end and the closing
    quote ("... when credentials are allowed.'") were read as an 8-character password (a blind correction refused)."""
    from loa_memory.secrets import scan_text

    line = "  lesson: 'Set `Vary: Origin`; never reflect origins when credentials are allowed.'"
    assert scan_text(line) == []
    assert [h.kind for h in scan_text("  note: 'the password is hunter2.'")] == ["password"]
