"""Cloud and SaaS keys and tokens recognised by their vendor prefix and shape.

A prefixed token (``ghp_``, ``glpat-``, ``xoxb-``, ``sk_live_``, ``AIza``, ``hf_`` ...) is reported
wherever it appears, in code, config or prose. Fails: ``token ghp_8mZ0c...`` (40 characters).
Passes: ``ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx``, ``sk-...``, ``AKIAIOSFODNN7EXAMPLE`` (placeholders
and vendors' published examples).
"""

from __future__ import annotations

import re
from functools import cache

from loa_memory.secrets.detector import Check, Detector, Found, Texts, is_word_char
from loa_memory.secrets.values import is_placeholder

_B = r"(?![A-Za-z0-9_-])"  # right boundary for tokens made of [A-Za-z0-9_-]
_W = r"(?![A-Za-z0-9])"


@cache
def _before_re(pattern: str) -> re.Pattern[str]:
    return re.compile(f"(?:{pattern})\\Z")


def _extend_left(kind: str, before: str, allowed_before: str = "") -> Check:
    """A check for a trigger that starts inside the token: ``before`` must match just before it."""

    def check(m: re.Match[str], texts: Texts) -> Found | None:
        text = texts.text
        window = text[max(0, m.start() - 64):m.start()]
        b = _before_re(before).search(window)
        if b is None:
            return None
        start = m.start() - (len(window) - b.start())
        if start > 0 and is_word_char(text[start - 1]) and not (
                allowed_before and text[max(0, start - len(allowed_before)):start] == allowed_before):
            return None
        if is_placeholder(text[start:m.end()]):
            return None
        return Found(kind, start, m.end())

    return check


def _check_lower_aws(m: re.Match[str], texts: Texts) -> Found | None:
    """An AWS access key id lower-cased (a tag, a thread name): the id is upper-case base32, so the lower-case
    form still names the key. A mixed-case span is the upper-case detector's to judge."""
    text = texts.text
    value = text[m.start():m.end()]
    if value != value.lower() or (m.start() > 0 and is_word_char(text[m.start() - 1])):
        return None
    body = value[4:]
    if sum(c.isdigit() for c in body) < 2 or sum(c.isalpha() for c in body) < 4 or is_placeholder(value):
        return None
    return Found("aws-access-key-id", m.start(), m.end())


def _t(kind: str, description: str, pattern: str, show: int, *, random: bool = False,
       priority: int = 5) -> Detector:
    return Detector(kind, description, pattern, show=show, random=random, priority=priority)


DETECTORS: tuple[Detector, ...] = (
    # Amazon Web Services
    _t("aws-access-key-id", "AWS access key id", r"A(?:KIA|SIA|BIA|CCA)[A-Z0-9]{16}" + _W, 4),
    Detector("aws-access-key-id", "AWS access key id (lower-cased)", r"a(?:kia|sia)[a-z2-7]{16}" + _W,
             check=_check_lower_aws, show=4, priority=5),
    # GitHub, GitLab, Bitbucket
    _t("github-token", "GitHub token", r"gh[pousr]_[A-Za-z0-9]{36,251}" + _W, 4),
    _t("github-token", "GitHub fine-grained token", r"github_pat_[A-Za-z0-9_]{40,255}" + _W, 11),
    _t("gitlab-token", "GitLab token",
       r"gl(?:pat|dt|rt|ptt|cbt|imt|soat|ffct|agent|oas|ft)-[A-Za-z0-9_-]{20,}" + _B, 6),
    _t("gitlab-token", "GitLab runner registration token", r"GR1348941[A-Za-z0-9_-]{20,}" + _B, 9),
    _t("bitbucket-token", "Bitbucket app password", r"ATBB[A-Za-z0-9_=.-]{28,}" + _B, 4),
    # Chat
    _t("slack-token", "Slack token", r"xox[abposre]-(?:\d+-)?[A-Za-z0-9-]{10,}" + _B, 5),
    _t("slack-token", "Slack app token", r"xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+" + _W, 5),
    _t("slack-webhook", "Slack webhook URL",
       r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}", 16),
    _t("discord-webhook", "Discord webhook URL",
       r"discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{50,}", 23),
    Detector("telegram-bot-token", "Telegram bot token", r":AA[A-Za-z0-9_-]{33}" + _B,
             check=_extend_left("telegram-bot-token", r"[0-9]{8,10}", "bot"), priority=5),
    # Payments and commerce
    Detector("stripe-key", "Stripe secret key", r"k_(?:live|test)_[A-Za-z0-9]{16,247}" + _W,
             check=_extend_left("stripe-key", "[sr]"), show=8, priority=5),
    _t("stripe-key", "Stripe webhook signing secret", r"whsec_[A-Za-z0-9+/=]{32,}" + _W, 6),
    _t("square-token", "Square access token", r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,60}" + _B, 7),
    _t("shopify-token", "Shopify access token", r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}" + _W, 6),
    # AI vendors
    _t("anthropic-key", "Anthropic API key", r"sk-ant-[A-Za-z0-9_-]{24,}" + _B, 7, random=True, priority=4),
    _t("openai-key", "OpenAI API key",
       r"sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}" + _B, 3, random=True),
    _t("huggingface-token", "Hugging Face token", r"hf_[A-Za-z0-9]{30,40}" + _W, 3, random=True),
    _t("huggingface-token", "Hugging Face organisation token", r"api_org_[A-Za-z0-9]{30,40}" + _W, 8,
       random=True),
    _t("replicate-token", "Replicate API token", r"r8_[A-Za-z0-9]{37}" + _W, 3, random=True),
    _t("groq-key", "Groq API key", r"gsk_[A-Za-z0-9]{48,56}" + _W, 4, random=True),
    _t("xai-key", "xAI API key", r"xai-[A-Za-z0-9]{70,90}" + _W, 4, random=True),
    _t("perplexity-key", "Perplexity API key", r"pplx-[a-f0-9]{48}" + _W, 5),
    # Google
    _t("google-api-key", "Google API key", r"AIza[0-9A-Za-z_-]{35}" + _B, 4),
    _t("google-oauth-client-secret", "Google OAuth client secret", r"GOCSPX-[A-Za-z0-9_-]{24,32}" + _B, 7),
    _t("google-oauth-token", "Google OAuth access token", r"ya29\.[0-9A-Za-z_-]{30,}" + _B, 5),
    _t("google-oauth-token", "Google OAuth refresh token", r"1//0[0-9A-Za-z_-]{40,}" + _B, 4),
    # Package registries
    _t("npm-token", "npm access token", r"npm_[A-Za-z0-9]{36}" + _W, 4),
    _t("pypi-token", "PyPI API token", r"pypi-AgE[A-Za-z0-9_-]{50,}" + _B, 5),
    _t("docker-token", "Docker Hub access token", r"dckr_pat_[A-Za-z0-9_-]{20,}" + _B, 9),
    # Email, messaging, monitoring
    _t("sendgrid-key", "SendGrid API key", r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}" + _B, 3),
    _t("twilio-account-sid", "Twilio account SID", r"AC[0-9a-f]{32}" + _W, 2),
    _t("twilio-api-key", "Twilio API key SID", r"SK[0-9a-f]{32}" + _W, 2),
    _t("mailgun-key", "Mailgun API key", r"key-[0-9a-f]{32}" + _W, 4),
    Detector("mailchimp-key", "Mailchimp API key", r"-us\d{1,2}" + _W,
             check=_extend_left("mailchimp-key", r"[0-9a-f]{32}"), priority=5),
    _t("newrelic-key", "New Relic API key", r"NRA[KI]-[A-Z0-9]{27}" + _W, 5),
    _t("sentry-token", "Sentry auth token", r"sntry[su]_[A-Za-z0-9+/=_]{40,}" + _W, 7),
    _t("grafana-token", "Grafana token", r"gl(?:sa|c)_[A-Za-z0-9+/_=]{32,}" + _W, 5),
    # Infrastructure and developer platforms
    # One kind for every Azure credential (as stripe-key covers webhook secrets): the description says which.
    Detector("azure-secret", "Azure client secret", r"Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])",
             check=_extend_left("azure-secret", r"[A-Za-z0-9_~.]{3}[0-9]"), priority=5),
    _t("digitalocean-token", "DigitalOcean token", r"do[opr]_v1_[a-f0-9]{64}" + _W, 7),
    _t("hashicorp-token", "HashiCorp Vault token", r"hv[sbr]\.[A-Za-z0-9_-]{24,}" + _B, 4),
    _t("hashicorp-token", "Terraform Cloud token", r"\.atlasv1\.[A-Za-z0-9_=-]{60,}" + _B, 0),
    _t("databricks-token", "Databricks token", r"dapi[a-f0-9]{32}(?:-\d)?" + _W, 4),
    _t("linear-key", "Linear API key", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}" + _W, 8),
    _t("notion-token", "Notion integration token", r"secret_[A-Za-z0-9]{43}" + _W, 7, random=True),
    _t("notion-token", "Notion integration token", r"ntn_[A-Za-z0-9]{40,50}" + _W, 4, random=True),
    _t("postman-key", "Postman API key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}" + _W, 5),
    _t("doppler-token", "Doppler token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}" + _W, 6),
    _t("atlassian-token", "Atlassian API token", r"ATATT3[A-Za-z0-9_=-]{100,}" + _B, 6),
    _t("supabase-token", "Supabase token", r"sb(?:p|_secret)_[A-Za-z0-9_-]{32,}" + _W, 4),
    _t("planetscale-token", "PlanetScale token", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}" + _B, 11),
    _t("figma-token", "Figma token", r"figd_[A-Za-z0-9_-]{40}" + _B, 5),
    _t("heroku-key", "Heroku API key", r"HRKU-[A-Za-z0-9_-]{40,}" + _B, 5),
    _t("flyio-token", "Fly.io token", r"fo1_[A-Za-z0-9_-]{39}" + _B, 4),
    _t("pulumi-token", "Pulumi token", r"pul-[a-f0-9]{40}" + _W, 4),
    _t("alibaba-key", "Alibaba Cloud access key id", r"LTAI[A-Za-z0-9]{12,20}" + _W, 4, random=True),
    _t("mapbox-token", "Mapbox secret token", r"sk\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{10,}" + _B, 3),
    _t("age-secret-key", "age secret key", r"AGE-SECRET-KEY-1[0-9A-Z]{58}" + _W, 15),
    _t("twitter-token", "X/Twitter bearer token", r"AAAAAAAAAAAAAAAAAAAAA[A-Za-z0-9%]{30,}" + _W, 0),
    _t("contentful-token", "Contentful token", r"CFPAT-[A-Za-z0-9_-]{43}" + _B, 6),
    _t("buildkite-token", "Buildkite token", r"bkua_[a-f0-9]{40}" + _W, 5),
    _t("render-key", "Render API key", r"rnd_[A-Za-z0-9]{28,40}" + _W, 4, random=True),
)
