"""Generate the labelled secret corpus (positives.jsonl, traps.jsonl) from templates.

Every secret here is synthesized at random in its vendor's format; none is real. The output is
committed; rerun with ``python tests/secrets/corpus/make_corpus.py`` after editing the templates.
The generator is seeded, so the files only change when the templates do.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid
from collections.abc import Callable
from pathlib import Path

R = random.Random(20260201)
UP, LO, DG = string.ascii_uppercase, string.ascii_lowercase, string.digits
AN = UP + LO + DG
B64 = AN + "+/"
URL = AN + "-_"
HEX = "0123456789abcdef"


def rnd(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def pick(*xs: str) -> str:
    return R.choice(xs)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# ---- secret generators ------------------------------------------------------------------------
def aws_id() -> str:
    return pick("AKIA", "ASIA") + rnd(UP + "234567", 16)


def aws_secret() -> str:
    return rnd(B64, 40)


def github() -> str:
    if R.random() < 0.3:
        return "github_pat_" + rnd(AN, 22) + "_" + rnd(AN, 59)
    return pick("ghp_", "gho_", "ghu_", "ghs_", "ghr_") + rnd(AN, 36)


def gitlab() -> str:
    return "glpat-" + rnd(URL, 20)


def slack_token() -> str:
    k = pick("xoxb", "xoxp", "xoxa", "xoxr")
    return f"{k}-{rnd(DG, 12)}-{rnd(DG, 13)}-{rnd(AN, 24)}"


def slack_hook() -> str:
    return f"https://hooks.slack.com/services/T{rnd(UP + DG, 8)}/B{rnd(UP + DG, 10)}/{rnd(AN, 24)}"


def stripe() -> str:
    return pick("sk_live_", "rk_live_", "sk_test_", "sk_live_") + rnd(AN, R.choice((24, 34, 99)))


def openai() -> str:
    if R.random() < 0.5:
        return "sk-" + rnd(AN, 20) + "T3BlbkFJ" + rnd(AN, 20)
    return "sk-proj-" + rnd(URL, 156)


def anthropic() -> str:
    return "sk-ant-api03-" + rnd(URL, 93) + "AA"


def google_key() -> str:
    return "AIza" + rnd(URL, 35)


def gocspx() -> str:
    return "GOCSPX-" + rnd(URL, 28)


def hf() -> str:
    return "hf_" + rnd(UP + LO, 34)


def npm() -> str:
    return "npm_" + rnd(AN, 36)


def pypi() -> str:
    return "pypi-AgEIcHlwaS5vcmc" + rnd(URL, R.randint(60, 160))


def sendgrid() -> str:
    return f"SG.{rnd(URL, 22)}.{rnd(URL, 43)}"


def twilio_sid() -> str:
    return "AC" + rnd(HEX, 32)


def telegram() -> str:
    return f"{R.randint(100000000, 9999999999)}:AA{rnd(URL, 33)}"


def azure_account_key() -> str:
    return rnd(B64, 86) + "=="


def azure_client_secret() -> str:
    return rnd(AN, 3) + str(R.randint(0, 9)) + "Q~" + rnd(AN + "_~.-", 34)


def mailchimp() -> str:
    return rnd(HEX, 32) + f"-us{R.randint(1, 21)}"


def jwt() -> str:
    header = b64url(json.dumps({"alg": pick("HS256", "RS256", "ES256"), "typ": "JWT"}).encode())
    payload = b64url(json.dumps({"sub": str(R.randint(1, 99999)), "name": pick("Ada", "Lin", "Sam"),
                                 "iat": R.randint(1600000000, 1800000000)}).encode())
    return f"{header}.{payload}.{rnd(URL, 43)}"


def private_key() -> str:
    label = pick("RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY", "OPENSSH PRIVATE KEY",
                 "ENCRYPTED PRIVATE KEY", "PRIVATE KEY", "PGP PRIVATE KEY BLOCK")
    body = rnd(B64, 64)
    if label == "OPENSSH PRIVATE KEY":
        body = "b3BlbnNzaC1rZXktdjEAAAAA" + rnd(B64, 40)
    elif label == "RSA PRIVATE KEY":
        body = "MIIEpAIBAAKCAQEA" + rnd(B64, 48)
    nl = pick("\n", "\\n")
    return f"-----BEGIN {label}-----{nl}{body}{nl}{rnd(B64, 64)}{nl}-----END {label}-----"


def putty() -> str:
    return (f"PuTTY-User-Key-File-{pick('2', '3')}: ssh-{pick('rsa', 'ed25519')}\nEncryption: none\n"
            f"Comment: deploy\nPublic-Lines: 2\n{rnd(B64, 64)}\nPrivate-Lines: 1\n{rnd(B64, 44)}")


PASSWORDS = lambda: pick(  # noqa: E731
    rnd(AN, 10) + pick("!", "#", "%", "&", "@", "$"), "Tr0ub4dor&" + rnd(DG, 2), rnd(LO, 6) + rnd(DG,
                                                                                                  3) + "!",
    pick("Summer", "Winter", "Falcon", "Maple") + rnd(DG, 4) + pick("!", "?", "#"), rnd(AN + "!@#%^&*", 16),
    "hunter2" + rnd(LO, 2) + "!", rnd(LO, 4) + "-" + rnd(DG, 4) + "-" + rnd(LO, 4))


def email() -> str:
    first = pick("jane", "john", "maria", "wei", "priya", "lucas", "olga", "ahmed", "sofia", "kenji",
                 "fatima")
    last = pick("doe", "smith", "garcia", "chen", "patel", "silva", "ivanova", "hassan", "rossi", "tanaka")
    local = pick(f"{first}.{last}", f"{first}{last}{R.randint(1, 99)}", f"{first[0]}{last}",
                                                                                     f"{first}_{last}")
    dom = pick("gmail.com", "outlook.com", "yahoo.co.uk", "proton.me", "acme-corp.com", "hey.com",
               "icloud.com",
               "fastmail.fm", "company.io", "uni-heidelberg.de")
    return f"{local}@{dom}"


def phone() -> str:
    return pick(
        f"+1 {R.randint(201, 989)}-{R.randint(200, 999)}-{R.randint(1000, 9999)}",
        f"+1{R.randint(201, 989)}{R.randint(200, 999)}{R.randint(1000, 9999)}",
        f"({R.randint(201, 989)}) {R.randint(200, 999)}-{R.randint(1000, 9999)}",
        f"{R.randint(201, 989)}-{R.randint(200, 999)}-{R.randint(1000, 9999)}",
        f"+44 20 {R.randint(7000, 8999)} {R.randint(1000, 9999)}",
        f"+44 7{R.randint(100, 999)} {R.randint(100000, 999999)}",
        f"07{R.randint(100, 999)} {R.randint(100000, 999999)}",
        f"+49 30 {R.randint(1000000, 99999999)}",
        f"+33 6 {R.randint(10, 99)} {R.randint(10, 99)} {R.randint(10, 99)} {R.randint(10, 99)}",
        f"06 {R.randint(10, 99)} {R.randint(10, 99)} {R.randint(10, 99)} {R.randint(10, 99)}",
        f"+91 {R.randint(70000, 99999)} {R.randint(10000, 99999)}",
        f"+61 4{R.randint(10, 99)} {R.randint(100, 999)} {R.randint(100, 999)}",
    )


def luhn_complete(prefix: str, length: int) -> str:
    digits = prefix + rnd(DG, length - len(prefix) - 1)
    for check in DG:
        cand = digits + check
        total = 0
        for i, ch in enumerate(reversed(cand)):
            d = int(ch)
            if i % 2:
                d = d * 2 - 9 if d > 4 else d * 2
            total += d
        if total % 10 == 0:
            return cand
    raise AssertionError


def card() -> str:
    kind = pick("visa", "mc", "mc2", "amex", "disc")
    if kind == "amex":
        d = luhn_complete(pick("34", "37"), 15)
        return pick(d, f"{d[:4]} {d[4:10]} {d[10:]}", f"{d[:4]}-{d[4:10]}-{d[10:]}")
    prefix = {"visa": "4", "mc": pick("51", "52", "53", "54", "55"), "mc2": "2221", "disc": "6011"}[kind]
    d = luhn_complete(prefix, 16)
    groups = [d[i:i + 4] for i in range(0, 16, 4)]
    return pick(d, " ".join(groups), "-".join(groups))


def iban() -> str:
    country, length = pick(*["DE:22", "GB:22", "FR:27", "NL:18", "ES:24", "IT:27", "BE:16", "CH:21",
                             "AT:20", "PL:28"])[:2], 0
    length = {"DE": 22, "GB": 22, "FR": 27, "NL": 18, "ES": 24, "IT": 27, "BE": 16, "CH": 21, "AT": 20,
              "PL": 28}[
        country]
    if country in ("GB", "NL"):
        bban = rnd(UP, 4) + rnd(DG, length - 8)
    elif country == "IT":
        bban = rnd(UP, 1) + rnd(DG, length - 5)
    else:
        bban = rnd(DG, length - 4)
    num = int("".join(str(int(c, 36)) for c in bban + country + "00"))
    full = f"{country}{98 - num % 97:02d}{bban}"
    return pick(full, " ".join(full[i:i + 4] for i in range(0, len(full), 4)))


def ssn() -> str:
    while True:
        a = R.randint(1, 899)
        if a != 666:
            break
    return f"{a:03d}-{R.randint(1, 99):02d}-{R.randint(1, 9999):04d}"


def ipv4() -> str:
    import ipaddress
    while True:
        ip = ipaddress.IPv4Address(R.randint(1 << 24, (224 << 24) - 1))
        if ip.is_global and str(ip) not in ("8.8.8.8", "1.1.1.1"):
            return str(ip)


def ipv6() -> str:
    return f"2{rnd('0123456789abcdef', 3)}:{rnd(HEX, 3)}:{rnd(HEX, 4)}:{rnd(HEX, 2)}::{rnd(HEX, 2)}".replace(
        "2001:db8", "2a01:4f8")


def jwt_kid() -> str:
    """A longer token as identity providers issue them: a kid in the header, iss/exp/scope claims."""
    alg = pick("RS256", "ES256", "PS256")
    header = b64url(json.dumps({"alg": alg, "typ": "JWT", "kid": rnd(URL, R.choice((16, 22, 27)))}).encode())
    claims = {"sub": pick("usr_", "svc_", "acct_") + rnd(LO + DG, 16), "iat": R.randint(1600000000, 1800000000),
              "scope": pick("read write", "admin", "billing:read"), "iss": f"https://{pick('sso', 'auth')}.acme.io"}
    claims["exp"] = int(claims["iat"]) + 3600
    return f"{b64url(json.dumps(claims).encode())}".join((header + ".", "." + rnd(URL, 86 if alg == "ES256" else 342)))


def django_key() -> str:
    return rnd("abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)", 50)


def basic_credentials() -> str:
    return base64.b64encode(f"{pick('ops', 'partner-acme', 'ci')}:{rnd(AN, 14)}".encode()).decode()


def bare_ssn() -> str:
    return ssn().replace("-", "")


def bad_iban() -> str:
    """An IBAN-shaped string whose groups hold a Luhn-valid card number (its own check fails)."""
    card = luhn_complete(pick("4", "51", "2221"), 16)
    return f"{pick('CH', 'NO', 'DE')}{rnd(DG, 2)} {' '.join(card[i:i + 4] for i in range(0, 16, 4))} {rnd(DG, 1)}"


# ---- templates ----------------------------------------------------------------------------------
P: list[tuple[str, Callable[[], str], list[str]]] = [
    ("aws-access-key-id", aws_id, [
        "Deploy to eu-west-1 failed: the CI user's key {v} was deactivated by the org SCP.",
        "aws_access_key_id = {v}",
        "export AWS_ACCESS_KEY_ID={v}",
        "Rotated {v} after it showed up in a public gist.",
        "- summary: S3 uploads use access key {v}\n  category: fact",
        "{{\"AccessKeyId\": \"{v}\", \"Status\": \"Active\"}}",
    ]),
    ("aws-secret-access-key", aws_secret, [
        "aws_secret_access_key = {v}",
        "AWS_SECRET_ACCESS_KEY={v}",
        "The AWS secret access key for the backup bucket is {v}",
        "aws secret: {v}",
        "  secretAccessKey: \"{v}\"",
    ]),
    ("github-token", github, [
        "CI failed because {v} expired on Friday; regenerate it with repo scope.",
        "GITHUB_TOKEN={v}",
        "git clone https://x-access-token:{v}@github.com/acme/api.git",
        "Use token {v} for the release bot.",
        "  token: {v}",
        "gh auth login --with-token <<< {v}",
    ]),
    ("gitlab-token", gitlab, [
        "The mirror job authenticates with {v} (scope: read_repository).",
        "GITLAB_TOKEN: {v}",
        "curl --header \"PRIVATE-TOKEN: {v}\" https://gitlab.acme.io/api/v4/projects",
        "Personal access token for the runner: {v}",
    ]),
    ("slack-token", slack_token, [
        "The deploy notifier posts with bot token {v}.",
        "SLACK_BOT_TOKEN={v}",
        "slack:\n  token: \"{v}\"",
        "Alerts stopped because {v} was revoked when Sam left.",
    ]),
    ("slack-webhook", slack_hook, [
        "Incidents go to {v}",
        "SLACK_WEBHOOK_URL={v}",
        "webhook: {v}  # #ops-alerts",
        "Post the nightly report to the webhook {v} instead of email.",
    ]),
    ("stripe-key", stripe, [
        "Deploy failed because STRIPE key {v} was rotated.",
        "STRIPE_SECRET_KEY={v}",
        "stripe.api_key = \"{v}\"",
        "Billing tests run against {v} in the sandbox account.",
        "payments:\n  secret_key: {v}",
    ]),
    ("openai-key", openai, [
        "The summariser calls the API with {v}.",
        "OPENAI_API_KEY={v}",
        "client = OpenAI(api_key=\"{v}\")",
        "Quota errors: key {v} belongs to the old org.",
    ]),
    ("anthropic-key", anthropic, [
        "ANTHROPIC_API_KEY={v}",
        "The eval harness uses {v}; it is rate limited to 50 rpm.",
        "anthropic.Anthropic(api_key='{v}')",
        "key for claude: {v}",
    ]),
    ("google-api-key", google_key, [
        "Maps widget key: {v}",
        "GOOGLE_API_KEY={v}",
        "The geocoder returned 403 because {v} is restricted to the web referrer.",
        "<script src=\"https://maps.googleapis.com/maps/api/js?key={v}\"></script>",
    ]),
    ("google-oauth-client-secret", gocspx, [
        "client_secret: {v}",
        "GOOGLE_CLIENT_SECRET={v}",
        "OAuth login broke after the secret {v} was regenerated in the console.",
        "{{\"web\": {{\"client_id\": \"1234-abc.apps.googleusercontent.com\", \"client_secret\": \"{v}\"}}}}",
    ]),
    ("huggingface-token", hf, [
        "HF_TOKEN={v}",
        "Model downloads need {v} because the repo is gated.",
        "huggingface-cli login --token {v}",
        "from huggingface_hub import login; login(\"{v}\")",
    ]),
    ("npm-token", npm, [
        "//registry.npmjs.org/:_authToken={v}",
        "NPM_TOKEN={v}",
        "Publishing uses the automation token {v}.",
    ]),
    ("pypi-token", pypi, [
        "password = {v}",
        "TWINE_PASSWORD={v}",
        "Upload with the project-scoped token {v}",
        "[pypi]\nusername = __token__\npassword = {v}",
    ]),
    ("sendgrid-key", sendgrid, [
        "SENDGRID_API_KEY={v}",
        "Password reset mails go out through SendGrid with {v}.",
        "sg = SendGridAPIClient('{v}')",
    ]),
    ("twilio-account-sid", twilio_sid, [
        "TWILIO_ACCOUNT_SID={v}",
        "SMS verification uses account {v}.",
        "twilio:\n  sid: {v}",
    ]),
    ("twilio-auth-token", lambda: rnd(HEX, 32), [
        "TWILIO_AUTH_TOKEN={v}",
        "twilio auth token: {v}",
        "The Twilio auth token was {v} until we rotated it on 2026-01-12.",
    ]),
    ("telegram-bot-token", telegram, [
        "TELEGRAM_BOT_TOKEN={v}",
        "The on-call bot talks to https://api.telegram.org/bot{v}/sendMessage",
        "Bot token: {v}",
    ]),
    ("azure-secret", azure_account_key, [
        "DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey={v};EndpointSuffix=core.windows.net",
        "AZURE_STORAGE_KEY={v}",
        "The blob uploader failed because AccountKey={v} belongs to the old storage account.",
    ]),
    ("azure-secret", azure_client_secret, [
        "AZURE_CLIENT_SECRET={v}",
        "The service principal secret {v} expires in March.",
        "az login --service-principal -u 0d3f... -p {v} --tenant acme",
    ]),
    ("mailchimp-key", mailchimp, [
        "MAILCHIMP_API_KEY={v}",
        "Newsletter sync uses the Mailchimp key {v}.",
    ]),
    ("private-key", private_key, [
        "{v}",
        "The deploy key is\n{v}",
        "  \"private_key\": \"{v}\",",
        "ssh_key: |\n  {v}",
    ]),
    ("jwt", jwt, [
        "Reproduce with curl -H 'Authorization: Bearer {v}' https://api.acme.io/me",
        "The session cookie was {v}; it expired because iat was in the future.",
        "id_token={v}",
        "Sample admin token for staging: {v}",
    ]),
    ("password", PASSWORDS, [
        "the password is {v}",
        "pw for the staging box: {v}",
        "DB_PASSWORD={v}",
        "\"passwd\": \"{v}\"",
        "password: {v}",
        "The admin password for Grafana was reset to {v} by Lee.",
        "mysql -u root --password={v} app",
        "  db_password: '{v}'",
        "Login for the router: admin / password {v}",
        "PGPASSWORD={v} psql -h db.internal -U app",
        "Remember: the VPN passphrase is {v}",
        "redis_pass = \"{v}\"",
    ]),
    ("url-credentials", PASSWORDS, [
        "DATABASE_URL=postgres://app:{v}@db.prod.acme.io:5432/app",
        "The worker connects to amqp://rabbit:{v}@mq.internal:5672/",
        "mongodb+srv://svc-reporting:{v}@cluster0.ab1cd.mongodb.net/reports",
        "Proxy is http://proxyuser:{v}@proxy.corp.acme.io:3128",
        "redis://:{v}@cache-1.acme.io:6379/0",
        "ftp://deploy:{v}@files.acme.io/incoming",
    ]),
    ("http-auth", lambda: pick(base64.b64encode(f"{pick('admin', 'ci', 'svc')}:{rnd(AN, 12)}".encode())
                               .decode(),
                               rnd(AN + "-._", 40)), [
        "Authorization: Basic {v}",
        "curl -H \"Authorization: Bearer {v}\" https://api.acme.io/v1/jobs",
        "headers = {{\"Authorization\": \"Bearer {v}\"}}",
        "The webhook sends Authorization: Token {v}",
    ]),
    ("generic-secret", lambda: pick(rnd(AN, 32), rnd(HEX, 40), rnd(AN + "-_", 24), rnd(B64, 44)), [
        "api_key = \"{v}\"",
        "SENTRY_AUTH_TOKEN={v}",
        "secret: {v}",
        "webhook_secret: '{v}'",
        "The Datadog API key is {v}",
        "{{\"apiKey\": \"{v}\", \"region\": \"us\"}}",
        "JWT_SECRET={v}",
        "The signing secret for staging is {v}",
        "X-Api-Key: {v}",
        "client_secret={v}",
        "ALGOLIA_ADMIN_KEY={v}",
        "encryption_key: {v}",
    ]),
    ("email", email, [
        "Ask {v} before touching the billing schema.",
        "Escalation contact: {v}",
        "Reporter: {v} (customer, EU)",
        "Co-authored-by: Jane Doe <{v}>",
        "owner: {v}",
        "The bug came from a support ticket by {v}.",
    ]),
    ("phone", phone, [
        "On-call phone: {v}",
        "Call Priya on {v} if the backup job fails twice.",
        "Customer reached us at {v} about the double charge.",
        "contact:\n  phone: \"{v}\"",
        "mobile {v}",
        "Vendor support line {v} (24/7).",
    ]),
    ("credit-card", card, [
        "Refund failed for card {v}; the customer asked us to retry.",
        "card_number: \"{v}\"",
        "Customer pasted their card {v} into the chat transcript.",
        "Payment log: pan={v} exp=09/28",
    ]),
    ("iban", iban, [
        "Payout account: {v}",
        "iban: {v}",
        "The supplier changed bank details to IBAN {v}; verify by phone before paying.",
        "Refund to {v} (SEPA).",
    ]),
    ("us-ssn", ssn, [
        "Applicant SSN: {v}",
        "ssn: \"{v}\"",
        "The import failed on row 12 because the SSN {v} was formatted with dashes.",
        "tax id {v}",
    ]),
    ("ip-address", lambda: pick(ipv4(), ipv4(), ipv4(), ipv6()), [
        "The attacker came from {v}; block it at the WAF.",
        "Production DB is at {v}:5432.",
        "ssh deploy@{v}",
        "allowlist:\n  - {v}",
        "Customer's office egress IP is {v}.",
        "nginx log: {v} - - [01/Feb/2026:10:30:00 +0000] \"GET /login\"",
    ]),
    # Added after a blind corpus showed these shapes missed (new values, own phrasing).
    ("jwt", jwt_kid, [
        "kubectl config set-credentials deployer --token={v}",
        "sessionStorage.setItem(\"jwt\", \"{v}\")",
        "{{\"token_type\": \"Bearer\", \"id_token\": \"{v}\", \"expires_in\": 3600}}",
        "The gateway logged refresh_token: {v}",
    ]),
    ("aws-secret-access-key", aws_secret, [
        "aws configure set aws_secret_access_key {v} --profile ci",
        "containers:\n- env:\n  - name: AWS_SECRET_ACCESS_KEY\n    value: \"{v}\"",
        "provider \"aws\" {{\n  region     = \"eu-central-1\"\n  secret_key = \"{v}\"\n}}",
    ]),
    ("twilio-auth-token", lambda: rnd(HEX, 32), [
        "from twilio.rest import Client; client = Client(account_sid, \"{v}\")",
        "Twilio: after the leak we rotated the auth token, the new one is {v}",
        "twilio:\n  region: ie1\n  auth_token: {v}",
    ]),
    ("http-auth", basic_credentials, [
        "proxy_set_header Authorization \"Basic {v}\";",
        "{{\"key\": \"Authorization\", \"value\": \"Basic {v}\", \"type\": \"text\"}}",
        "headers:\n  - name: Authorization\n    value: \"Basic {v}\"",
    ]),
    ("azure-secret", azure_account_key, [
        "storage account key2 (regenerated on Monday): {v}",
        "az storage container list --account-name acmebackups --account-key {v}",
    ]),
    ("huggingface-token", hf, ["HF token for the gated model: {v}"]),
    ("password", PASSWORDS, [
        "mysql -h db-replica -u report -p'{v}' analytics",
        "mysqldump -u root -p\"{v}\" shop > shop.sql",
        "sshpass -p '{v}' ssh deploy@build-7",
        "redis-cli -h cache-2 -a '{v}' info",
        "env:\n  - name: DB_PASSWORD\n    value: \"{v}\"",
    ]),
    ("generic-secret", django_key, ["SECRET_KEY = '{v}'", "DJANGO_SECRET_KEY=\"{v}\""]),
    ("phone", phone, ["TEL;TYPE=HOME,VOICE:{v}", "phone={v}"]),
    ("us-ssn", bare_ssn, ["tax_id: \"{v}\"", "employee record {v}  # SSN", "taxpayer id {v}"]),
    ("ip-address", ipv4, ["2026-01-09 12:00:01 WARN throttled client_ip={v}", "upstream_addr={v}:443 status=502"]),
    # Added after a second blind corpus: template literals, JSON held as an escaped string, AWS prose and
    # credentials-file sections, a password reset *to* a value, a test card that is not a published one.
    ("http-auth", basic_credentials, [
        "const r = await fetch(api, {{ headers: {{ Authorization: `Basic {v}` }} }});",
        "{{\"content\": \"{{\\\"Authorization\\\": \\\"Basic {v}\\\"}}\"}}",
    ]),
    ("password", PASSWORDS, [
        "{{\"kind\": \"fact\", \"content\": \"{{\\\"user\\\": \\\"etl\\\", \\\"password\\\": \\\"{v}\\\"}}\"}}",
        "{{\"body\": \"{{\\\"db_password\\\":\\\"{v}\\\",\\\"port\\\":5432}}\"}}",
        "jenkins admin password reset to {v} after the audit",
    ]),
    ("generic-secret", lambda: rnd(AN, 32), [
        "{{\"note\": \"{{\\\"api_key\\\": \\\"{v}\\\"}}\"}}",
        "const client = new Client({{ apiKey: `{v}` }});",
    ]),
    ("aws-secret-access-key", aws_secret, [
        "the secret access key for the {v2} user is {v}",
        "[profile ci]\nsecret_key = {v}\nregion = eu-west-1",
        "{{\"content\": \"[default]\\naws_secret_access_key = {v}\\nregion = us-east-2\"}}",
    ]),
    ("credit-card", card, ["{v} is our own test card on the staging merchant", "test number {v} was declined"]),
    ("phone", phone, ["our Twilio number {v} forwards to the on-call phone"]),
]


TRAPS: list[str] = [
    # hashes, ids, digests
    "Fixed in commit {sha40}.", "merge {sha7} into main", "git rebase --onto {sha40}", "tree sha {sha64}",
    "image: ghcr.io/acme/api@sha256:{sha64}", "digest: sha256:{sha64}", "md5 {md5} for the tarball",
    "request_id: {uuid}", "trace {uuid} timed out", "id: {ulid}",
    "MEM-20260201-001 supersedes MEM-20260115-004",
    "supersedes: MEM-20251231-017", "source: {{session_id: abc123, commit: {sha40}}}",
    "etag \"{md5}\"", "checksum={sha64}", "run {uuid_nodash}",
    # versions, dates, numbers
    "Upgraded from 1.2.3.4 to 1.2.3.5 to pick up the fix.", "requires python>=3.11.4",
    "version: 10.0.19045.3803",
    "Chrome 120.0.6099.109 renders it wrong", "bumped numpy to 1.26.4", "v2.10.0-rc.1 is the last good tag",
    "timestamp: 2026-02-01T10:30:00Z", "expires_at: 2026-05-02", "on 01.02.2026 at 10:30", "took 00:30:00",
    "confidence: 0.95", "score 80, applications 5, successes 4", "port 5432 on localhost",
    "listen 0.0.0.0:8080",
    "unix time 1706780000", "order #2024-0001-3345 shipped", "ISBN 978-3-16-148410-0",
    "invoice 4000-2231-9987",
    "build 20260201.4 passed", "OID 1.3.6.1.4.1.343 in the MIB", "latency p99 1234.5 ms", "pi is 3.14159265",
    "coordinates 51.5074, -0.1278", "1,234,567 rows migrated", "call stack depth 10000",
    # private and documentation networks
    "The VPN hands out 10.8.0.0/24.", "db at 192.168.1.20:5432", "use 127.0.0.1 not localhost", "dns 8.8.8.8",
    "metadata endpoint 169.254.169.254", "docs example 192.0.2.15", "test net 198.51.100.23",
    "203.0.113.7 in docs",
    "IPv6 doc prefix 2001:db8::1", "link local fe80::1%eth0", "::1 is loopback", "fd00:1234::5 is ULA",
    "Kubernetes pods get 172.16.0.0/12", "CGNAT 100.64.0.1 on the carrier side", "mac 00:1a:2b:3c:4d:5e",
    # reserved domains and role addresses
    "Email alice@example.com in the fixture.", "user@example.org", "test@foo.test", "bob@invalid.invalid",
    "noreply@github.com", "123456+octocat@users.noreply.github.com", "git@github.com:acme/api.git",
    "dependabot[bot]@users.noreply.github.com", "support@acme.io handles refunds", "icon@2x.png is blurry",
    "npm i lodash@4.17.21", "pip install requests==2.31.0", "@types/node@20.11.5",
    "security@acme.io for reports",
    "root@localhost", "admin@example.net",
    # placeholders and references
    "api_key = \"YOUR_API_KEY\"", "token: <token>", "password: ${DB_PASSWORD}", "export API_KEY=$API_KEY",
    "GITHUB_TOKEN: ${{{{ secrets.GITHUB_TOKEN }}}}", "password: ****", "secret: xxx", "OPENAI_API_KEY=sk-...",
    "password: changeme", "token: <redacted>", "stripe key: sk_live_XXXXXXXXXXXXXXXXXXXXXXXX",
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "AWS_SECRET_ACCESS_KEY=<your-secret>",
    "password=os.environ['PW']",
    "password = getpass.getpass()", "password: str", "password: Optional[str] = None",
    "db.password = cfg.password",
    "token = request.headers['X-Token']", "api_key: {{{{ .Values.apiKey }}}}", "secret: !vault |",
    "PASSWORD=%DB_PASSWORD%", "password: \"\"", "token=REPLACE_ME", "api_key: null", "password: '********'",
    "sk-...", "hf_...", "Authorization: Bearer <token>", "Authorization: Bearer $TOKEN",
    "Authorization: Basic dXNlcjpwYXNzd29yZA==", "postgres://user:password@localhost:5432/app",
    "postgres://postgres:postgres@localhost/test", "https://user:${PASSWORD}@host/path", "redis://:@localhost:6379",
    # env var names and prose about secrets
    "export GITHUB_TOKEN", "GITHUB_TOKEN is required", "Set STRIPE_SECRET_KEY in the environment.",
    "Rotate the API key every 90 days.", "The password policy requires 12 characters.", "max_tokens: 4096",
    "tokens: 1500 used of 8000", "Never paste tokens into memory entries.", "secretName: db-credentials",
    "secretKeyRef: {{name: api, key: token}}", "password_file: /run/secrets/db_password",
    "token_budget: 2000",
    "key: value", "sort_key: created_at", "primary key (id)", "keyboard shortcut ctrl-k",
    "monkeypatch the token",
    "The password was reset yesterday.", "pw reset link expired", "passwordless login via magic link",
    "Bypass the cache with --no-cache.", "The auth token is stored in the OS keychain.",
    "credentials: see 1Password",
    "secret: prod/db/password", "api_key: settings.API_KEY", "token: env(\"SLACK_TOKEN\")",
    # public keys, certificates, vendor examples
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC{b64} deploy@ci",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64s} me@laptop",
    "-----BEGIN PUBLIC KEY-----\\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA{b64}"
    "\\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa{b64}"
    "\n-----END CERTIFICATE-----",
    "Never commit a file that starts with -----BEGIN RSA PRIVATE KEY-----.",
    "AWS docs use AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY.",
    "Stripe's docs key sk_test_4eC39HqLyjWDarjtT1zdp7dc works in examples.",
    "Use test card 4242 4242 4242 4242 with any CVC.", "4111 1111 1111 1111 is the Visa test number",
    "Example IBAN DE89 3704 0044 0532 0130 00 from the spec.", "SSN 123-45-6789 is a well-known fake",
    "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "The JWT header is eyJhbGciOiJIUzI1NiJ9 (base64 of the alg)",
    # base64 and long words
    "aGVsbG8gd29ybGQgdGhpcyBpcyBub3QgYSBzZWNyZXQ=",
    "favicon data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB",
    "Pneumonoultramicroscopicsilicovolcanoconiosis", "internationalization and localization",
    "ThisIsAVeryLongCamelCaseIdentifierName", "test_should_reject_expired_tokens_gracefully",
    "useAuthTokenRefreshInterceptor hook", "sk-learn is not a package; use scikit-learn",
    "Skeleton screens reduce perceived latency", "AKIA prefix means long-term key",
    "color #ff00aa and #00ff00", "font-size: 14px; line-height: 1.5", "the regex [A-Za-z0-9]{{40}} matched",
    "TODO(ada): document the token refresh flow", "hf_transfer speeds up downloads",
    "npm_config_cache is set",
    "glpat tokens expire after a year", "xoxb tokens are bot tokens", "GOCSPX prefix marks client secrets",
    "phone: TBD", "+1 vote from the team", "+100 lines, -20 lines", "Python 3.11.7 (main, May 9 2026)",
    "10.0.0.0/8, 172.16.0.0/12 and 192.168.0.0/16 are private", "RFC 5737 reserves 192.0.2.0/24",
    "ticket JIRA-12345", "PR #4521", "issue 12345678", "SKU 4006381333931", "EAN 5901234123457",
    "the cron is 0 0 * * 0", "chmod 0644 file", "offset 0x7ffd5fbff8c0", "tracking 1Z999AA10123456784",
    # Added after a blind corpus showed these lookalikes flagged.
    "build number 2026.0117.4412", "part number 914-27-3365", "serial number 3306-118-2290",
    "deploy_pubkey: \"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64s}\"", "signing_public_key = \"{b64}\"",
    "authorized_key: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC{b64} ops@bastion",
    "restore cache key: pip-Linux-{sha64}", "CACHE_KEY=deps-macOS-{sha64}", "idempotency key {uuid}",
    "transfer rejected, invalid IBAN {badiban}",
    "db_password: !secret db_password", "api_token: !env_var API_TOKEN", "MasterUserPassword: !Ref DbMasterPassword",
    "AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/"
    "KBHBeksoGMGw==",
    "Cosmos DB emulator: AccountKey=C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw"
    "/Jw==",
    "SSDP discovery on 239.255.255.250:1900", "IGMP all-hosts group 224.0.0.1", "class E 240.12.3.4 is reserved",
    "[assembly: AssemblyFileVersion(\"4.1.0.2\")]", "productVersion=\"5.2.0.1\"", "min_version: 3.4.1.0",
    "mkdir -p build/out && ssh -p 2222 deploy@host", "mysql -u root -p app_db", "docker run -p 8080:80 nginx",
    "mysql -u root -p$MYSQL_ROOT_PASSWORD app", "ls -a /etc",
    "proxy_set_header Authorization $http_authorization;",
    "{{\"key\": \"Authorization\", \"value\": \"Bearer {{{{token}}}}\"}}",
    "- name: AWS_SECRET_ACCESS_KEY\n  valueFrom:\n    secretKeyRef: {{name: aws-creds, key: secret}}",
    "- name: LOG_LEVEL\n  value: debug", "SECRET_KEY = env('DJANGO_SECRET_KEY')",
    "twilio-python wheel sha256 {sha64}", "Twilio message SM{md5} delivered", "twilio 9.4.1 md5 {md5}",
    "employee id 412345678", "tax id 912345678",
    # Added after a second blind corpus showed these lookalikes flagged.
    "host key fingerprint SHA256:{fp43}", "ECDSA key fingerprint is SHA256:{fp43}.",
    "RSA key fingerprint is MD5:{colonhex}", "deploy key fingerprint: {colonhex}",
    "{{\"content\": \"server host key: SHA256:{fp43}\"}}",
    "password reset link sent to m***@o***.com", "password policy: min 12 chars, 1 symbol",
    "password manager entry for the vpn: see 1Password", "api token: ghp_****************************Xq7",
    "Stripe test card 4000 0566 5566 5556 (Visa debit)", "Braintree sandbox JCB 3530 1113 3330 0000",
    "Adyen test Amex 3700 0000 0000 002", "Diners 14-digit test card 3622 720627 1667",
    "Twilio magic number +15005550006 returns a valid number", "set From to +1 500 555 0001 in test mode",
    "fetch(u, {{ headers: {{ Authorization: `Bearer ${{token}}` }} }})",
    "{{\"content\": \"{{\\\"password\\\": \\\"${{DB_PASSWORD}}\\\"}}\"}}",
]


def fill(template: str) -> str:
    fields = {
        "sha40": lambda: rnd(HEX, 40), "sha7": lambda: rnd(HEX, 7), "sha64": lambda: rnd(HEX, 64),
        "md5": lambda: hashlib.md5(rnd(AN, 8).encode()).hexdigest(),
        "uuid": lambda: str(uuid.UUID(int=R.getrandbits(128), version=4)),
        "uuid_nodash": lambda: uuid.UUID(int=R.getrandbits(128)).hex,
        "ulid": lambda: "01" + rnd("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24), "b64": lambda: rnd(B64, 60),
        "b64s": lambda: rnd(B64, 40),
        "badiban": bad_iban, "fp43": lambda: rnd(B64, 43),
        "colonhex": lambda: ":".join(rnd(HEX, 2) for _ in range(16)),
    }
    for name, make in fields.items():
        while "{" + name + "}" in template:
            template = template.replace("{" + name + "}", make(), 1)
    return template.replace("{{", "{").replace("}}", "}")


# ---- forms that hid a secret from the gate (issue 19), and everyday prose that must pass ----------------------
# Their own seeded generator, so adding them leaves every row above unchanged.
R2 = random.Random(20261125)
ZERO_WIDTH = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff")


def _r2(alphabet: str, n: int) -> str:
    return "".join(R2.choice(alphabet) for _ in range(n))


def _gh() -> str:
    return R2.choice(("ghp_", "gho_", "ghs_")) + _r2(AN, 36)


def _aws() -> str:
    return R2.choice(("AKIA", "ASIA")) + _r2(UP + "234567", 16)


def _wide(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in text)


def _key_lines(n: int = 3) -> str:
    head = R2.choice(("MIIEpAIBAAKCAQEA", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "b3BlbnNzaC1rZXktdjEAAAAA"))
    body = head + _r2(B64, 64 * n - len(head))
    return "\n".join(body[i:i + 64] for i in range(0, len(body), 64))


def adversarial_positives() -> list[dict[str, str]]:
    rows = []
    for _ in range(2):
        t, a = _gh(), _aws()
        cut = R2.randint(8, 30)
        zw = R2.choice(ZERO_WIDTH)
        rows += [
            {"text": f"- id: MEM-20260101-001\n  x-{t}: enabled", "kind": "github-token"},
            {"text": f"- id: MEM-20260101-001\n  x_{t}: enabled", "kind": "github-token"},
            {"text": f'{{"category": "fact", "content": "mirror header", "x-{t}": "v"}}', "kind": "github-token"},
            {"text": f"  tags: [storage, {a.lower()}]", "kind": "aws-access-key-id"},
            {"text": f"  thread: {a.lower()}", "kind": "aws-access-key-id"},
            {"text": f"  content: |\n    the mirror header is {t[:cut]}\n    {t[cut:]} for now",
             "kind": "github-token"},
            {"text": f"Learning: the mirror header is {t[:cut]}\n  {t[cut:]}", "kind": "github-token"},
            {"text": f"the backup user is {a[:cut // 2]}\n{a[cut // 2:]}", "kind": "aws-access-key-id"},
            {"text": f"mirror header {t[:cut]}{zw}{t[cut:]}", "kind": "github-token"},
            {"text": f"backup user {a[:9]}{zw}{a[9:]}", "kind": "aws-access-key-id"},
            {"text": f"mirror header {_wide(t)}", "kind": "github-token"},
            {"text": f"backup user {_wide(a[:4])}{a[4:]}", "kind": "aws-access-key-id"},
            {"text": f"-----begin rsa private key-----\n{_key_lines()}\n-----end rsa private key-----",
             "kind": "private-key"},
            {"text": f"deploy key (headers stripped):\n{_key_lines()}", "kind": "private-key"},
            {"text": f"  content: |\n    {_key_lines().replace(chr(10), chr(10) + '    ')}", "kind": "private-key"},
        ]
    return rows


EVERYDAY = [
    "you must pass timeout=30 to requests.get", "pass check_same_thread=False to sqlite3.connect",
    "set retries=3 before the upload", "use check_same_thread=False in tests", "pass timeout=30",
    "set retries=3", "use check_same_thread=False", "set max_retries=5 on the client", "use verify=True in prod",
    "pass --dry-run=true first", "set ttl=90d for episodes", "use workers=4 on CI", "pass stream=True to read lazily",
    "tags: [akia-rollout, storage]", "thread: aws-key-rotation",
    "- id: MEM-20260101-001\n  category: fact\n  summary: index rebuilds take 6 s\n  ttl: permanent",
    "see MEM-20260101-001 and\n  MEM-20260101-002 for the\n  decision (commit 3f2a9c1)",
    "the certificate body starts MIIDdzCCAl+gAwIBAgIJAKS0pXUSmGm5MA0GCSqGSIb3DQEBCwUAMFIxCzAJBgNVBAYTAlVT",
    "Zero\u200bwidth spaces crept into the CSV header; strip U+200B before parsing",
    "ＦＵＬＬＷＩＤＴＨ digits like １２３ come from Japanese IMEs",
]


def main() -> None:
    here = Path(__file__).parent
    rows = []
    for kind, gen, templates in P:
        for t in templates:
            for _ in range(2):
                v2 = pick("ci-deployer", "backup", "etl") if "{v2}" in t else ""
                rows.append({"text": t.format(v=gen(), v2=v2), "kind": kind})
    with (here / "positives.jsonl").open("w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
        for row in adversarial_positives():
            f.write(json.dumps(row) + "\n")
    with (here / "traps.jsonl").open("w") as f:
        for t in TRAPS:
            for _ in range(2 if any("{" + n + "}" in t for n in ("sha40", "sha7", "sha64", "md5", "uuid",
                                                                 "ulid", "b64", "badiban", "fp43", "colonhex")) else 1):
                f.write(json.dumps({"text": fill(t), "kind": None}) + "\n")
        for t in EVERYDAY:
            f.write(json.dumps({"text": t, "kind": None}) + "\n")


if __name__ == "__main__":
    main()
