"""Action classes: what a tool call does, read from its command or diff, and what a correction guards, read from
its words, in one vocabulary, so "ALTER TABLE invoices DROP COLUMN memo" meets "dropping a column from a table".

Each class is a ``Rule``: ``command`` is a pattern over a shell command; ``change`` over the lines an edit or
write brings in; ``path`` over the files an edit or write touches (with ``change`` too, both must match);
``prose`` over a correction's trigger; ``gloss`` says it in words for the embedder. Add a class by adding a row.
A ``decisive`` class also silences a correction that guards it when the call does not perform it (its patterns
know every spelling of the action that matters); the others only add evidence when both sides have them, unless
their ``scope`` finds the action itself in the call, done right: a Redis ``set(..., ex=60)`` is the write a "cache
entries in Redis" correction guards, without its mistake, and silences it as a decisive class would. A ``wrong``
class is found only in the mistake itself (deletion protection turned off, a public access block that blocks
nothing): a call that has it makes the mistake even when it carries the lesson's fix beside it. A ``whole`` class
reads an edit's whole new text rather than the lines it brings in, under the lines of the file that enclose it when
the file could be read (a probe's key stays above the check changed). A class with ``unless`` is not found when
the file holds the fix anywhere (a Go file that takes a lock), read after the edit when it could be read.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from loa_memory.answer.cues.action import Action


class Rule(NamedTuple):
    prose: str
    gloss: str
    command: str | None = None
    change: str | None = None
    path: str | None = None
    kinds: tuple[str, ...] = ("edit", "write")  # which file actions ``path``/``change`` apply to
    decisive: bool = True  # a correction guarding it stays silent for a call that does not perform it
    scope: str | None = None  # over the command or the change: the action itself, done right or wrong
    wrong: bool = False  # its patterns find only the mistake (a block turned off), never the right way beside it
    whole: bool = False  # ``change`` reads an edit's whole new text, not only the lines it brings in
    unless: str | None = None  # the file (after an edit, when it could be read; else the new text) holds the fix


_GO_LOCK = r"\bsync\.(?:RW)?Mutex\b|\bsync\.Map\b|\.R?Lock\(\)"  # a Go file that takes a lock
_MANIFEST = (r"(?:^|/)(?:package\.json|requirements[\w.-]*\.(?:txt|in)|pyproject\.toml|setup\.cfg|setup\.py|Pipfile|"
             r"Gemfile|go\.mod|Cargo\.toml|build\.gradle(?:\.kts)?|pom\.xml|composer\.json|[\w.-]+\.csproj)$")
_LOCKFILE = (r"(?:^|/)(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|poetry\.lock|Pipfile\.lock|"
             r"Cargo\.lock|Gemfile\.lock|go\.sum|composer\.lock|uv\.lock|requirements[\w.-]*\.lock)$")
_TLS_OFF = (r"\bverify\s*=\s*False\b|\bverify_ssl\s*=\s*False\b|--insecure\b|\bcurl\b[^\n]*\s-k\b|"
            r"NODE_TLS_REJECT_UNAUTHORIZED\s*=?\s*['\"]?0|InsecureSkipVerify\s*:\s*true|rejectUnauthorized\s*:\s*false|"
            r"sslmode=disable|CERT_NONE|check_hostname\s*=\s*False|SSL_VERIFYPEER|--no-check-certificate|"
            r"strict-ssl\s*(?:=|\s)\s*false|sslVerify\s*(?:=|\s)\s*false|GIT_SSL_NO_VERIFY|PYTHONHTTPSVERIFY\s*=\s*0")
_CURL_SH = r"\b(?:curl|wget)\b[^\n|]*\|\s*(?:sudo(?:\s+-\S+)*\s+)?(?:ba|z)?sh\b"
_DEPLOYS = r"production|prod|release|live|deploy"  # a branch whose pushes deploy
_MOVING_TAG = r"(?:latest|stable|main|master|prod|production|dev|develop|edge|nightly|release|current)"
_DOCKERFILE = r"(?:^|/)(?:[\w.-]*Dockerfile[\w.-]*|Containerfile)$"
_IMAGE_FILE = r"(?:^|/)(?:[\w.-]*Dockerfile[\w.-]*|Containerfile|[^/\n]+\.ya?ml)$"  # a Dockerfile or a manifest
_PUBLIC_SECRET = (r"\b(?:NEXT_PUBLIC|VITE|REACT_APP|EXPO_PUBLIC|NUXT_PUBLIC)_\w*"
                  r"(?:SECRET|API_?KEY|TOKEN|PASSWORD|PRIVATE|(?:ADMIN|SERVICE(?:_?ROLE)?|WRITE|MASTER)_?KEY)\w*")
_CI_FILE = (r"(?:^|/)(?:\.github/workflows/[^/\n]+\.ya?ml|\.gitlab-ci\.ya?ml|\.circleci/config\.ya?ml|Jenkinsfile|"
            r"azure-pipelines\.ya?ml|\.buildkite/[^/\n]+)$")
_SHELL_TRACE = (r"^[ \t]*set\s+-[a-wyzA-Z]*x|\bbash\s+-[a-wyz]*x\b|\bset\s+-o\s+xtrace\b|"
                r"^[ \t]*(?:-\s*run:\s*)?(?:env|printenv)\s*(?:\||$)")
_UNBATCHED = (r"\b(?-i:[A-Z])[A-Za-z]++\.(?:all|where)\b[^\n{]{0,300}?\.(?:each|map)\s*(?:\{|do\b)|"
              r"\bfor\s+\w+\s+in\s+\w+\.objects\.(?:all|filter|exclude)\((?![^\n]{0,500}\.iterator\()[^\n]{0,500}\)\s*:")
# a prefix of a bucket deleted: `aws s3 rm s3://b/p --recursive`, `gsutil -m rm -r`, not a `--dryrun` preview
_S3_RM_RECURSIVE = (r"\bs3\s+rm\b(?![^\n|;&]*--dryrun)[^\n|;&]*\s--recursive\b|"
                    r"\bgsutil\b(?:\s+-\w+)*\s+rm\s+(?:-\w+\s+)*-\w*r|"
                    r"\bgcloud\s+storage\s+rm\b(?![^\n|;&]*--dry-run)[^\n|;&]*\s(?:--recursive|-r)\b")
# a bucket synced with deletes: what the source lacks is deleted there (`aws s3 sync dist s3://b --delete`), not a
# `--dryrun` preview
_SYNC_DELETE = (r"\bs3\s+sync\b(?![^\n|;&]*--dryrun)[^\n|;&]*\s--delete\b|"
                r"\bgsutil\b(?:\s+-\w+)*\s+rsync\b(?![^\n|;&]*\s-\w*n)[^\n|;&]*\s-\w*d")
# a port published on every interface: `- "5432:5432"` in a compose file, `docker run -p 27017:27017`
_PUBLIC_PORT = r"^[ \t]*+-[ \t]*+[\"']?\d{2,5}:\d{2,5}(?:/(?:tcp|udp))?[\"']?[ \t]*+$"
# a CLI's options before its subcommand (`kubectl --context prod -n web delete`; a flag may take no value)
_CLI_OPTIONS = r"(?:\s++--?\w[\w-]*+(?:[= ](?!-)[^\s;&|]++)?)*"
_CHMOD = r"\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx|o\+w|ugo\+rwx)\b|\bos\.chmod\([^)]*0o?777"
_REDIS_SET = r"\b\w{0,40}?(?:redis|cache|client|rds)\w{0,40}+\.set\("
_HTTP_CALL = r"\b(?:requests|session|httpx)\.(?:get|post|put|patch|delete|head|request)\("
# a character of a call's own arguments, parentheses two levels deep counting as one: `json.dumps(q, sep=(",", ":"))`
# a clause of a SQL statement written in capitals that takes values, which a string of a query split over lines
# may start with (not ORDER BY: a column put there from an allowlist is the way to sort)
_SQL_CLAUSE = r"(?-i:WHERE|AND|OR|HAVING|VALUES|SET|FROM|JOIN|LIMIT)"
_ARGUMENT = r"(?:[^()]|\((?:[^()]|\([^()]{0,200}\)){0,500}\))"
# a whole manifest (written, or applied from a heredoc) of a workload whose containers declare no resources
_NO_RESOURCES = (r"\A(?![\s\S]*\bresources:)(?=[\s\S]*\bcontainers:)[\s\S]*?\bkind:\s*(?:Deployment|StatefulSet|"
                 r"DaemonSet|Job|CronJob)\b")
# a field of an API response, a protobuf or Avro message or an event is not a database column
_DB_FIELD = (r"fields?\b(?!.{0,40}\b(?:api|responses?|proto\w*|messages?|payloads?|json|avro|graphql|events?|forms?|"
             r"structs?|serializers?|dtos?)\b)")

# what a lesson about logs calls sensitive
_SENSITIVE = (r"\b(?:card ?numbers?|(?:full )?cards?|pans?|cvv|cvc|passwords?|secrets?|tokens?|api keys?|"
              r"credentials?|pii|ssns?|social security|personal data|emails?|e-mail addresses|phone numbers?|"
              r"auth(?:orization)? headers?|cookies?|ibans?|(?:request |response )?bod(?:y|ies)|headers)\b")
# a logging or print call, its arguments following on the same line
_LOG_CALL = (r"(?:\bprint(?:ln|f)?|\bconsole\.(?:log|info|warn|error|debug)|"
             r"\b(?:\w*log\w*|logging|slog|zap|logrus|Timber)\.(?:info|debug|warn\w*|error|log|trace|fatal|critical|"
             r"exception|print\w*|[diewv]|Info\w*|Debug\w*|Warn\w*|Error\w*))\s*\(")


def _names(*words: str) -> str:
    """Identifiers holding one of ``words`` as a part: ``card_number``, ``cardNumber``, ``payment.pan``, ``PAN``;
    not ``discard`` nor ``company`` (a short word must end where the part does)."""
    parts = []
    for word in words:
        end = r"(?![a-z])" if len(word) <= 4 else ""
        parts += [rf"(?<![A-Za-z]){word}{end}", *(rf"(?<![A-Z]){w}{end}" for w in (word.capitalize(), word.upper()))]
    return "(?-i:" + "|".join(parts) + ")"


_SENSITIVE_NAME = _names("card", "pan", "cvv", "cvc", "password", "passwd", "secret", "token", "apikey", "api_key",
                         "ssn", "authorization", "cookie", "email", "phone", "iban", "dob", "headers", "header")

RULES: dict[str, Rule] = {
    "schema-drop": Rule(
        prose=r"\b(?:drop|remov|delet|get\w* rid of)\w* .{0,40}?\b(?:columns?\b|tables?\b|" + _DB_FIELD + r")|"
              r"\b(?:columns?|tables?) .{0,20}?\b(?:drop|remov)",
        gloss="drop a column or table from the database schema",
        command=r"\bdrop\s+(?:table|column)\b",
        change=r"\bdrop\s+(?:table|column)\b|\b(?:op\.)?drop_(?:column|table)\b|\bremove_column\b|\bRemoveField\b|"
               r"\bDeleteModel\b|\bdrop(?:Column|Table)\b|\bremoveColumn\b|\bdropColumns\b"),
    "schema-rename": Rule(
        prose=r"\brenam\w* .{0,40}?\b(?:columns?|tables?|fields?)\b|\b(?:columns?|tables?) renam",
        gloss="rename a database column or table",
        command=r"\brename\s+(?:column|to)\b",
        change=r"\brename\s+(?:column\s+\w+\s+)?to\b|\brename_(?:column|table)\b|\bRename(?:Field|Model)\b|"
               r"\brenameColumn\b|\bnew_column_name\b"),
    "schema-add": Rule(
        prose=r"\badd\w* .{0,40}?\b(?:columns?\b|" + _DB_FIELD + r")|\bnot null\b|\bcreat\w* .{0,20}?\btables?\b",
        gloss="add a column or table to the database schema",
        command=r"\badd\s+column\b|\bcreate\s+table\b",
        change=r"\badd\s+column\b|\b(?:op\.)?add_column\b|\bAddField\b|\baddColumn\b|\bcreate\s+table\b|"
               r"\bcreate_table\b|\bCreateModel\b"),
    "index-create": Rule(
        prose=r"\b(?:add|creat|build)\w* .{0,30}?\bindex(?:es)?\b|\bindex(?:es)? on\b",
        gloss="create a database index on a table",
        command=r"\bcreate\s+(?:unique\s+)?index\b",
        change=r"\bcreate\s+(?:unique\s+)?index\b|\b(?:op\.)?create_index\b|\badd_index\b|\bAddIndex\b"),
    "data-delete": Rule(
        prose=r"\b(?:delet(?!ion (?:protection|settings))|purg|truncat|wip|eras|flush)\w* .{0,40}?\b(?:data|rows?|"
              r"records?|volumes?|buckets?|"
              r"database|keys|objects|tables? contents?)\b|\bbulk delet|\bdrop (?:the |a )?database\b",
        gloss="delete stored data in bulk (rows, keys, buckets, volumes)",
        command=r"\bdelete\s+from\b|\btruncate\b|\bdrop\s+database\b|\bflush(?:all|db)\b|" + _S3_RM_RECURSIVE + "|"
                + _SYNC_DELETE + "|"
                r"\bs3\s+rb\b|\bdocker(?:-compose|\s+compose)(?:\s+-[\w-]+(?:[= ][^\s-]\S*)?)*\s+down\b[^\n|;&]*\s"
                r"(?:-v\b|--volumes)|\bvolume\s+(?:rm|prune)\b|"
                r"\bredis-cli\b[^\n|;&]*\s(?:DEL|UNLINK)\b",
        change=r"\bdelete\s+from\b|\btruncate\b|\.delete_many\(|\.destroy_all\b|\.objects\.all\(\)\.delete\(|"
               r"\bflush(?:all|db)\(|\.deleteMany\("),
    "data-update": Rule(
        prose=r"\b(?:updat|bulk[- ]chang|backfill|rewrit)\w* .{0,40}?\b(?:data|rows?|records?|fields?|columns?)\b|"
              r"\bUPDATE (?:or|and) DELETE\b|\b(?:DELETE|INSERT) (?:or|and) UPDATE\b|\bmass[- ]updat",
        gloss="update stored rows in bulk",
        command=r"\bupdate\s+[\w.\"`]+\s+set\b|\.update_all\b|\.updateMany\(",
        change=r"\bUPDATE\s+[\w.\"`]+\s+SET\b|\.update_all\b|\.updateMany\(|\.objects\.[^\n]{0,200}?\.update\(",
        decisive=False),  # "bulk-updating rows" is written in many ways: evidence, never a reason for silence
    "force-push": Rule(
        prose=r"\bforce[- ]?push\w*|\bpush\w* .{0,20}?--force|\bpush\w* .{0,20}?\bforce\b|"
              r"\boverwrit\w* .{0,20}?\bremote",
        gloss="force push, overwriting a shared branch's history",
        command=r"\bgit\s+push\b[^\n|;&]{0,300}?\s(?:-f\b|--force\b|--force-with-lease\b|\+[\w/-]+)"),
    "push-main": Rule(
        prose=r"\bpush\w* .{0,30}?\b(?:main|master|trunk|" + _DEPLOYS + r")\b|"
              r"\bdirectly (?:to|on(?:to)?) (?:main|master|trunk)\b|"
              r"\bpush\w* .{0,40}?\bbranch(?:es)? (?:that|which) (?:deploys?|ships?|releases?)\b|"
              r"\bpush\w* .{0,40}?\b(?:deploy(?:ing|ment)?|release) branch",
        gloss="push commits straight to the main branch or a branch that deploys",
        command=r"\bgit\s+push\b[^\n|;&]{0,300}?\s(?:[\w-]+\s+)?(?:HEAD:)?(?:refs/heads/)?"
                r"(?:main|master|trunk|" + _DEPLOYS + r")(?![\w/-])"),
    "history-rewrite": Rule(
        prose=r"\brebas\w*|\bamend\w*|\breset --hard\b|\brewrit\w* .{0,20}?\bhistory\b|\bsquash\w*|filter-branch",
        gloss="rewrite git history (rebase, amend, hard reset)",
        command=r"\bgit\s+(?:rebase|reset\s+--hard|filter-branch|filter-repo)\b|\bgit\s+commit\b[^\n]*--amend"),
    "dependency-add": Rule(
        prose=r"\b(?:add(?:s|ed|ing)?|introduc\w*|install\w* (?:a|an|new|another|extra)|pull\w* in|bring\w* in|new|"
              r"tak\w* on) (?:(?!\bto\b).){0,30}?"
              r"\b(?:dependenc\w*|packages?|librar\w*|gems?|crates?|modules?)\b|"
              r"\bthird[- ]party (?:packages?|librar\w*|dependenc\w*)",
        gloss="add a new third-party dependency package",
        command=r"\b(?:npm\s+(?:install|i|add)\s+(?:-\S+\s+)*[@\w]|yarn\s+add\b|pnpm\s+add\b|"
                r"pip3?\s+install(?![^\n]*\s-[rec]\b)\s+(?:-\S+\s+)*[\w\[]|poetry\s+add\b|uv\s+add\b|cargo\s+add\b|"
                r"go\s+get\b|bundle\s+add\b|gem\s+install\b|composer\s+require\b)",
        path=_MANIFEST),
    "lockfile-edit": Rule(
        prose=r"\b(?:edit|chang|modif|touch|rewrit|delet|remov|regenerat|resolv|fix|updat|merg)\w* .{0,30}?"
              r"\b(?:lock ?files?|package-lock|yarn\.lock|poetry\.lock|cargo\.lock|gemfile\.lock|go\.sum|pnpm-lock|"
              r"uv\.lock)|\block ?files? by hand\b",
        gloss="edit a dependency lockfile by hand",
        command=r"\b(?:sed|perl)\s+-i\b[^\n]*(?:\.lock|lock\.json|lock\.yaml|go\.sum)\b|"
                r">[ \t]*+(?=[^\s>]*(?:\.lock|lock\.json|lock\.yaml|go\.sum)\b)",
        path=_LOCKFILE),
    "unpinned-image": Rule(
        prose=r":latest\b|\blatest (?:tags?|images?)\b|\b(?:images?|tags?|docker|containers?)\b.{0,30}?\blatest\b|"
              r"\bunpinned (?:images?|tags?|base)|\bfloating tags?\b|\bpin\w* .{0,30}?\b(?:images?|digests?|tags?)\b|"
              r"\bbase images?\b",
        gloss="use a container image without a pinned version (latest tag)",
        command=r"\bdocker\s+(?:pull|run|build|push|tag)\b[^\n]*:latest\b|"
                r"\bkubectl\b[^\n|;&]*\sset\s+image\b[^\n]*:" + _MOVING_TAG + r"\b|"
                r"\bimage\.tag=latest\b|--image[= ]\S+:latest\b",
        change=r"^[ \t]*FROM\s+(?:--platform=\S+\s+)?[\w./-]+(?::" + _MOVING_TAG + r")?(?:\s+AS\s+\w+)?\s*$|"
               r"^[ \t]*+-?[ \t]*+image:[ \t]*+[\"']?[\w./-]++(?::" + _MOVING_TAG + r")?[\"']?[ \t]*$",
        path=_IMAGE_FILE),
    "recursive-delete": Rule(
        prose=r"\brm -r|\brecursive\w*|\brmtree\b|\bdelet\w* .{0,30}?\b(?:director\w*|folders?|trees?)\b|"
              r"\bwip\w* .{0,20}?\b(?:director\w*|folders?)\b",
        gloss="delete files and directories recursively",
        command=r"\brm\s+(?:-\w+\s+)*-\w*[rR]\w*\b|\brm\s+--recursive\b|\bfind\b[^\n]*\s-delete\b|"
                + _S3_RM_RECURSIVE + "|"
                r"\bgit\s+clean(?![^\n|;&]*\s(?:-[a-zA-Z]*n|--dry-run))\s+-\w*[fdx]|\bRemove-Item\b[^\n]*-Recurse",
        change=r"\bshutil\.rmtree\(|\brm\s+-\w*[rR]\w*\b|\bfs\.rm(?:Sync)?\([^)]*recursive|\brimraf\b"),
    "tls-disable": Rule(
        prose=r"\b(?:tls|ssl|https|certificates?|certs?)\b.{0,40}?\b(?:verif\w*|validat\w*|check\w*)|"
              r"\b(?:disabl|skip|turn\w* off|bypass)\w* .{0,30}?\b(?:tls|ssl|certificates?|certs?)\b|\binsecure\b",
        gloss="disable TLS certificate verification",
        command=_TLS_OFF, change=_TLS_OFF),
    "ci-secrets": Rule(
        prose=r"\b(?:ci|workflows?|pipelines?|github actions)\b.{0,60}?\b(?:secrets?|tokens?|credentials?|"
              r"permissions)\b|\b(?:secrets?|tokens?|credentials?)\b.{0,60}?\b(?:ci|workflows?|pipelines?|"
              r"github actions)\b",
        gloss="change the secrets, tokens or permissions of a CI workflow",
        change=r"\bsecrets\.\w+|\bsecrets\s*:|\b[A-Z_]*(?:TOKEN|SECRET|PASSWORD|API_KEY|CREDENTIALS)\b|"
               r"\bpull_request_target\b|\bpermissions\s*:",
        path=_CI_FILE, decisive=False),  # "steps that handle secrets" is not always a change of them
    "pr-target": Rule(
        prose=r"\bpull_request_target\b",
        gloss="run a workflow on pull_request_target, with the base repository's secrets, on a pull request's code",
        change=r"\bpull_request_target\b|\bgithub\.event\.pull_request\.head\.(?:sha|ref)\b|\bgithub\.head_ref\b|"
               r"\brefs/pull/",
        path=_CI_FILE),
    "migration-edit": Rule(
        prose=r"\b(?:edit|chang|modif|rewrit|touch|fix)\w* .{0,30}?\b(?:existing|applied|old|past|shipped|merged|"
              r"already[- ]run) migrations?\b|\bmigrations? (?:that|which) (?:has|have) (?:already )?(?:run|been "
              r"applied|shipped)",
        gloss="edit an existing, already applied database migration",
        path=r"(?:^|/)(?:migrations?|alembic/versions|db/migrate|flyway|liquibase)/", kinds=("edit",)),
    "infra-destroy": Rule(
        prose=r"\bterraform (?:apply|destroy)\b|\bkubectl delete\b|\bauto-approve\b|\b(?:destroy|tear\w* down|delet|"
              r"terminat)\w* .{0,30}?\b(?:infrastructure|resources|clusters?|instances?|namespaces?|stacks?)\b",
        gloss="destroy or apply infrastructure without a reviewed plan",
        command=r"\bterraform\b[^\n|;&]*\s(?:destroy\b|apply\b[^\n]*-auto-approve)|\bkubectl\b[^\n|;&]*?\sdelete\b|"
                r"\bhelm\s+(?:uninstall|"
                r"delete)\b|\baws\s+\w+\s+(?:delete|terminate)-|\bgcloud\b[^\n]*\bdelete\b|\bpulumi\s+destroy\b"),
    "deletion-protection-off": Rule(
        prose=r"\bdeletion[- _]protection\b|\bdeletion settings\b|\bfinal[- _]snapshots?\b|"
              r"\btermination[- _]protection\b|\bprevent_destroy\b",
        gloss="turn off deletion protection or the final snapshot of a database or resource",
        command=r"--no-deletion-protection\b|--skip-final-snapshot\b|--no-termination-protection\b",
        change=r"\bdeletion_protection\s*=\s*false\b|\bskip_final_snapshot\s*=\s*true\b|"
               r"\bprevent_destroy\s*=\s*false\b|\bdisable_api_termination\s*=\s*false\b|"
               r"\b[Dd]eletionProtection[\"']?\s*[:=]\s*[\"']?(?:false|False|\$false)\b|"
               r"\bdeletion_protection_enabled\s*=\s*false\b", wrong=True),
    "public-bucket": Rule(
        prose=r"\bpublic(?:ly)?[- ]?(?:read\w*|access\w*|acls?|listable|visible)\b.{0,40}?\b(?:buckets?|objects?|"
              r"s3|blobs?|containers?|storage)\b|\b(?:buckets?|objects?|s3|blobs?)\b.{0,40}?\bpublic(?:ly)?\b",
        gloss="make a storage bucket or its objects public",
        command=r"--acl\s+public-read|\bs3api\s+put-public-access-block\b[^\n]*=false|\ballUsers\b|"
                r"--public-access\s+(?:blob|container)\b",
        change=r"\bblock_public_(?:acls|policy)\s*=\s*false\b|\brestrict_public_buckets\s*=\s*false\b|"
               r"\bacl\s*=\s*[\"']public-read|[\"']?Principal[\"']?\s*[:=]\s*[\"']\*[\"']|\ballUsers\b|"
               r"\bBlockPublic(?:Acls|Policy)[\"']?\s*[:=]\s*[\"']?false|\bcontainer_access_type\s*=\s*[\"'](?:blob|container)",
        decisive=False, wrong=True),
    "publish-package": Rule(
        prose=r"\bpublish\w* (?:(?:a|an|the|our|new|its) )?(?:[\w.-]+ ){0,2}(?:packages?|crates?|gems?|releases?|"
              r"versions?|librar\w*|wheels?|charts?|modules?|artifacts?)\b|\bpublish\w* to (?:npm|pypi|crates\.io|"
              r"rubygems|maven|the registry)\b|\b(?:npm|yarn|pnpm|cargo|poetry) publish\b|"
              r"\brelease\w* .{0,30}?\b(?:packages?|versions?|to pypi|to npm|crates?|gems?)\b|"
              r"\bcut\w* a release\b",
        gloss="publish a package release to a registry",
        command=r"\b(?:npm|yarn|pnpm)\s+publish\b|\btwine\s+upload\b|\b(?:poetry|uv|flit|hatch)\s+publish\b|"
                r"\bcargo\s+publish\b|\bgem\s+push\b"),
    # a version tag made or pushed by hand: pushing a tag is not publishing from a checkout, and the reverse
    "push-tags": Rule(
        prose=r"^(?!.*\b(?:images?|containers?|docker)\b).*?(?:\bpush\w* .{0,20}?\btags?\b|\b(?:cut\w*|tag\w*) a "
              r"release\b|\brelease tags?\b|\btag\w* (?:a |the )?(?:new )?versions?\b)",
        gloss="make or push a version tag of a release",
        command=r"\bgit\s+push\b[^\n|;&]{0,300}?--(?:follow-)?tags\b|\bgit\s+tag\s+(?:-[asf]\s+)*v?\d|"
                r"\bgit\s+push\b[^\n|;&]{0,200}?\s(?:refs/tags/)?v\d+\.\d+"),
    "skip-hooks": Rule(
        prose=r"--no-verify\b|\b(?:skip|bypass|disabl)\w* .{0,30}?\b(?:hooks?|pre-commit|signing)\b",
        gloss="commit or push while skipping the git hooks",
        command=r"--no-verify\b|\bHUSKY=0\b|\bcore\.hooksPath\b|--no-gpg-sign\b|\bSKIP=\S|"
                r"\bgit\s+commit\b[^\n|;&]*\s-[a-mo-zA-Z]*n[a-zA-Z]*\b"),  # git commit -n is --no-verify
    "test-skip": Rule(
        prose=r"\b(?:skip|disabl|xfail|mut|quarantin|ignor|comment\w* out)\w* .{0,30}?\b(?:tests?|specs?)\b|"
              r"\b(?:tests?|specs?) .{0,20}?\b(?:skip|xfail)",
        gloss="skip or disable a failing test",
        command=r"--deselect\b|\s-k\s+[\"']?not\b",
        change=r"@pytest\.mark\.(?:skip|xfail)|\bpytest\.skip\(|\b(?:it|describe|test)\.skip\(|\bx(?:it|describe)\(|"
               r"@unittest\.skip|@Disabled\b|@Ignore\b|\bt\.Skip\("),
    "curl-pipe-shell": Rule(
        prose=r"\bcurl\b.{0,40}?\b(?:sh|bash|shell)\b|\bpip\w* .{0,30}?\binto (?:a )?shell|\b(?:remote|install) "
              r"scripts?\b",
        gloss="pipe a script downloaded from the internet into a shell",
        command=_CURL_SH, change=_CURL_SH),
    "permissions-open": Rule(
        prose=r"\bchmod\b|\bworld[- ]writable\b|\b777\b",
        gloss="make files world-writable (chmod 777)",
        command=_CHMOD, change=_CHMOD),
    "naive-datetime": Rule(
        prose=r"\bnaive\b|\butcnow\b|\bdatetime\.now\b|^(?!.*\b(?:cron|schedul\w*)).*?\b(?:time ?zones?|local time)\b",
        gloss="use a timezone-naive or local-time datetime",
        change=r"\bdatetime\.(?:now|utcnow|today)\(\s*\)|\bdate\.today\(\)|\btime\.localtime\("),
    "sql-string": Rule(
        prose=r"\bsql injection\b|\b(?:string|f-string)\w* .{0,30}?\b(?:sql|quer\w*)\b|\b(?:sql|quer\w*) .{0,30}?"
              r"\b(?:string formatting|concatenat\w*|interpolat\w*|f-strings?)\b|\bsql strings?\b|"
              r"\bbuild\w* (?:raw )?(?:sql|quer\w*)\b.{0,30}?\b(?:request|user|input|param)",
        gloss="build a SQL query by string formatting",
        change=r"\b(?:execute|raw|query)\s*\(\s*f[\"']|\b(?:SELECT|INSERT|UPDATE|DELETE)\b[^\n\"']{0,300}[\"']\s*(?:\+|%)\s*"
               r"|(?-i:\b(?:WHERE|AND|OR|ORDER BY|VALUES|SET|FROM)\b)[^\n\"']{0,300}[\"']\s*(?:\+|%)\s*\w"
               r"|\bf\"(?:SELECT|INSERT|UPDATE|DELETE|" + _SQL_CLAUSE + r")\b[^\"\n]{0,300}\{"
               r"|\bf'(?:SELECT|INSERT|UPDATE|DELETE|" + _SQL_CLAUSE + r")\b[^'\n]{0,300}\{"
               r"|\bf(?:\"\"\"|''')\s*(?:SELECT|INSERT|UPDATE|DELETE|WITH)\b(?:(?!\"\"\"|''')[\s\S]){0,1500}?\{\w"),
    "secret-literal": Rule(
        prose=r"\bhard-?cod\w* .{0,30}?\b(?:secrets?|credentials?|passwords?|keys?|tokens?)\b|\b(?:commit|check\w* in)"
              r"\w* .{0,30}?\b(?:secrets?|credentials?|\.env|api keys?)\b",
        gloss="write a secret or credential into a tracked file",
        change=r"\b\w{0,40}?(?:password|passwd|secret|api_?key|token|access_key)\w{0,40}+\s*+[:=]\s*+[\"'][^\"'\s]{8,}[\"']"),
    "open-network": Rule(
        prose=r"0\.0\.0\.0/0|\b(?:security groups?|firewall rules?|ingress rules?|inbound rules?)\b|"
              r"\bopen\w* .{0,40}?\bto (?:the )?(?:internet|world|public)\b",
        gloss="open a port or firewall rule to the whole internet (0.0.0.0/0)",
        command=r"0\.0\.0\.0/0|::/0", change=r"0\.0\.0\.0/0|::/0", decisive=False),
    "iam-wildcard": Rule(
        prose=r"\biam\b|\bleast[- ]privilege\b|\bwildcard\w* .{0,30}?\b(?:permissions?|actions?|polic\w*|"
              r"resources?|roles?)\b|\b(?:permissions?|polic\w*|roles?)\b.{0,30}?\bwildcards?\b",
        gloss="grant wildcard IAM permissions (Action or Resource *)",
        command=r"--policy-document\b|\badd-iam-policy-binding\b|\broles/(?:owner|editor)\b",
        change=r"[\"']?(?:Action|Resource|actions|resources)[\"']?\s*[:=]\s*\[?\s*[\"']\*[\"']|"
               r"[\"'][a-z0-9-]+:\*[\"']|\broles/(?:owner|editor)\b", decisive=False),
    "build-arg-secret": Rule(
        prose=r"\bbuild[- ]args?\b|--build-arg\b|\bimage (?:history|layers?)\b|\bARG\b|"
              r"\b(?:docker|image|container) builds?\b.{0,60}?\b(?:credentials?|tokens?|secrets?|passwords?)\b|"
              r"\b(?:credentials?|tokens?|secrets?|passwords?)\b.{0,40}?\b(?:docker|image|container) builds?\b",
        gloss="pass a secret into a container image build (build-arg, ARG, ENV)",
        command=r"--build-arg[= ]\s*\w*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|CREDENTIALS?|AUTH)\w*",
        change=r"^[ \t]*(?:ARG|ENV)\s+\w*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|CREDENTIALS?|AUTH)\w*",
        path=_IMAGE_FILE, decisive=False),
    "autoscaled-replicas": Rule(
        prose=r"\bhpa\b|\bhorizontalpodautoscaler\b|\bautoscal\w*",
        gloss="set a fixed replica count on a workload an autoscaler manages",
        command=r"\bkubectl\s+scale\b|--replicas[= ]\d",
        change=r"^[ \t]*replicas:\s*\d+", path=r"\.ya?ml$", decisive=False),
    "terraform-move": Rule(
        prose=r"\brenam\w* .{0,40}?\b(?:terraform|resources?|modules?)\b|\bmoved blocks?\b|"
              r"\b(?:terraform )?state (?:mv|move)\b|\bmov\w* .{0,30}?\b(?:resources?|modules?) .{0,20}?\bmodules?\b",
        gloss="rename or move a Terraform resource or module address",
        command=r"\bterraform\s+state\s+(?:mv|rm)\b",
        change=r"^[ \t]*(?:resource|module)\s+\"", path=r"\.tf$", kinds=("edit",), decisive=False,
        scope=r"^[ \t]*moved\s*\{"),
    "unbounded-fanout": Rule(
        prose=r"\bpromise\.all\b|\bunbounded\b|\bfan\w*[- ]out\b|\bconcurrency limits?\b|\basyncio\.gather\b|"
              r"\ball at once\b",
        gloss="start one concurrent task per item of an unbounded list",
        change=r"\bPromise\.all(?:Settled)?\(\s*[\w.]+\.map\(|\basyncio\.gather\(\s*\*|\bparallelStream\(\)",
        decisive=False),
    "not-in-subquery": Rule(
        prose=r"\bnot in\b",
        gloss="filter with NOT IN over a subquery (NULLs make it match nothing)",
        command=r"\bnot\s+in\s*\(\s*select\b", change=r"\bnot\s+in\s*\(\s*select\b", decisive=False),
    "shell-word-split": Rule(
        prose=r"\bword[- ]split\w*|\bfor \w+ in \$\(|\b(?:file ?names?|paths?) with spaces\b|\$\((?:find|ls)\b|"
              r"\bunquoted\b",
        gloss="loop over unquoted find or ls output in a shell script",
        command=r"\bfor\s+\w+\s+in\s+(?:\$\(|`)\s*(?:find|ls)\b",
        change=r"\bfor\s+\w+\s+in\s+(?:\$\(|`)\s*(?:find|ls)\b", decisive=False),
    "replace-table": Rule(
        prose=r"\bto_sql\b|\bif_exists\b|\b(?:overwrit|replac)\w* .{0,30}?\b(?:an )?existing tables?\b",
        gloss="overwrite an existing database table from a DataFrame",
        change=r"\.to_sql\([^)\n]*if_exists\s*=\s*[\"']replace|\.mode\(\s*[\"']overwrite[\"']\s*\)",
        decisive=False),
    "deploy-workflow": Rule(
        prose=r"\b(?:deploy\w*|release) (?:workflows?|jobs?|pipelines?)\b|"
              r"\b(?:workflows?|pipelines?) .{0,30}?\bdeploy\w*|\bconcurrency (?:groups?|keys?)\b",
        gloss="write or change a CI workflow that deploys",
        change=r"\bdeploy", path=r"(?:^|/)(?:\.github/workflows/[^/\n]+\.ya?ml|\.gitlab-ci\.ya?ml|Jenkinsfile)$",
        decisive=False),
    "unsafe-deserialize": Rule(
        prose=r"\byaml\.(?:load|unsafe_load)\b|\bunsafe_load\b|\bpickle\b|\bdeserializ\w*|\bmarshal\b|"
              r"\bObjectInputStream\b",
        gloss="deserialize untrusted data with an unsafe loader",
        change=r"\byaml\.(?:unsafe_load|load)\((?![^)\n]*SafeLoader)|\byaml\.Loader\b|\bpickle\.loads?\(|"
               r"\bMarshal\.load\b|\bObjectInputStream\(|\bBinaryFormatter\b", decisive=False),
    "cors-origin": Rule(
        prose=r"\bcors\b|access-control-allow-origin|\borigins?\b.{0,30}?\b(?:reflect\w*|echo\w*|any|wildcard)\b",
        gloss="set the CORS allowed origins (reflecting the request's Origin or a wildcard)",
        # the mistake: any origin allowed or the request's own reflected; an origin callback counts as one, for that
        # is where reflecting hides (read as the action done right instead, 9 guarded calls of blind sets 1-24 went
        # silent), so only a declared allowlist is the action done right
        change=r"Access-Control-Allow-Origin[\"']?\s*[,:=]\s*(?:[\"']\*|(?:req|request|r|ctx|c)\b[.\w\[\]\"'()-]{0,40}"
               r"[Oo]rigin)|\ballow_origins\s*=\s*\[\s*[\"']\*|\bCORS_(?:ORIGIN_)?ALLOW_ALL(?:_ORIGINS)?\s*=\s*True|"
               r"\bAllowAnyOrigin\b|\b(?:allowedOrigins|allowedOriginPatterns|AllowedOrigins|AllowOrigins|origins)"
               r"\s*[(=:]\s*(?:\[\]string\{|\[|\{)?\s*[\"']\*[\"']|\borigin\s*:\s*(?:true|[\"']\*[\"'])|"
               r"\b(?:cb|callback|done)\(\s*null\s*,\s*true\s*\)|\borigin\s*:\s*\(?\s*origin\b[^\n]{0,80}?=>",
        # the action: setting which origins may call
        scope=r"Access-Control-Allow-(?:Origin|Credentials)|\ballow_origins\b|\bcors\(|\bCORS_\w*ORIGIN|"
              r"\bAllowAnyOrigin\b|\b(?:allowedOrigins|allowedOriginPatterns|AllowedOrigins|AllowOrigins)\b|"
              r"@CrossOrigin\b|\bCORSMiddleware\b|\borigin\s*:", decisive=False),
    "password-hash": Rule(
        prose=r"\bpassword hash\w*|\bhash\w* .{0,20}?\bpasswords?\b|\bbcrypt\b|\bargon2\b|\bscrypt\b|\bpbkdf2\b|"
              r"\b(?:stor|sav|verif|check)\w* (?:(?:user|users'|account|customer)s? )?passwords?\b",
        gloss="hash passwords with a fast general-purpose hash (MD5, SHA)",
        change=r"\bhashlib\.(?:md5|sha1|sha256|sha512)\(|\bMessageDigest\.getInstance\(|\bcrypto\.createHash\(|"
               r"\b(?:md5|sha1|sha256|sha512)\s*\(|\bDigest::(?:MD5|SHA\d+)\b|\bhash\(\s*['\"](?:md5|sha\d+)",
        scope=r"\b(?:argon2|bcrypt|scrypt|pbkdf2|PasswordHasher|CryptContext|make_password|password_hash)\b",
        decisive=False),
    # well-known mistakes seen in code: evidence when a correction names them, never a reason for silence
    "command-injection": Rule(
        prose=r"\bshell\b.{0,60}?\b(?:user|input|request|untrusted|param\w*)\b|\bcommand injection\b|\bexecFile\b|"
              r"\bshell=True\b|\bos\.system\b|\bcommand strings?\b",
        gloss="run a shell command built from user input",
        change=r"\b(?:exec|execSync|execAsync)\(\s*`[^`]*\$\{|\bsubprocess\.\w+\([^)\n]*shell\s*=\s*True|"
               r"\bos\.(?:system|popen)\(\s*f[\"']|\bos\.(?:system|popen)\([^)\n]*[\"']\s*\+",
        decisive=False),
    "open-redirect": Rule(
        prose=r"\bredirect\w*\b.{0,40}?\b(?:url|request|user|query|param\w*|input|return_?to|next)\b|"
              r"\bopen redirects?\b",
        gloss="redirect to a URL taken from the request",
        change=r"\bredirect\(\s*(?:req\.(?:query|body|params)|request\.(?:GET|POST|args|query_params|form)|params\[)|"
               r"\bredirect\(\s*\w*(?:return_?to|returnUrl|return_?url|redirect_?url|redirect_?to)\w*\s*[),]",
        decisive=False),
    "timing-compare": Rule(
        prose=r"\bconstant[- ]time\b|\btiming[- ]safe\b|\bcompare_digest\b|\btimingSafeEqual\b|"
              r"\bcompar\w* .{0,30}?\b(?:signatures?|tokens?|secrets?|hmacs?|digests?|api keys?)\b",
        gloss="compare a signature, token or secret with plain equality",
        change=r"\b\w{0,40}?(?:signature|hmac|digest|secret)\w{0,40}+\s*+(?:!==?|===?)\s*+"
               r"(?!(?:null|None|undefined|nil|true|false)\b)[\w.]|(?<![\w.])[\w.]++\s*+(?:!==?|===?)\s*+\w{0,40}?"
               r"(?:signature|expected_?sig|hmac|digest)\w{0,40}+\b",
        decisive=False),
    "git-add-all": Rule(
        prose=r"\bgit add (?:-A|--all|\.)(?=\s|$|`|,)|\bstag\w* (?:everything|all (?:changes|files)|the whole "
              r"(?:tree|repo\w*))\b",
        gloss="stage every change in the working tree (git add -A, git add .)",
        command=r"\bgit\s+add\s+(?:-A\b|--all\b|\.(?=\s|$|&|;|\|))", decisive=False),
    "unbatched-iteration": Rule(
        prose=r"\bfind_each\b|\bin_batches\b|\biterat\w* .{0,40}?\b(?:whole|entire|all|large|big)\b|"
              r"\b(?:whole|entire|large|big) (?:tables?|relations?|querysets?)\b",
        gloss="loop over every row of a large table in one query",
        command=_UNBATCHED, change=_UNBATCHED, decisive=False),
    "auto-ack": Rule(
        prose=r"\bauto[- ]?ack\w*|\backnowledg\w*|\back(?:s|ed|ing)?\b|\bauto[- ]?commit\w*|\bprefetch\w*|"
              r"\bcommit\w* .{0,20}?\boffsets?\b|\boffsets?\b.{0,20}?\bcommit\w*",
        gloss="consume queue messages with automatic acknowledgement or offset commit",
        change=r"\bauto_ack\s*=\s*True|\bautoAck\s*[:=]\s*true|\bnoAck\s*:\s*true|\bno_ack\s*=\s*True|"
               r"\benable[._]auto[._]commit\W{1,3}(?:true|True)\b",
        decisive=False),
    "ci-continue-on-error": Rule(
        prose=r"\bcontinue-on-error\b|\ballow[_ ]failure\b|\bnon-?blocking\b|"
              r"\b(?:failing|flaky|red) (?:or flaky )?(?:tests?|builds?|steps?|jobs?) in (?:ci|the pipeline)\b",
        gloss="let a failing CI step or job pass (continue-on-error, allow_failure)",
        change=r"\bcontinue-on-error:\s*true\b|\ballow_failure:\s*true\b", path=_CI_FILE, decisive=False),
    "shell-trace": Rule(
        prose=r"\bset -x\b|\bbash -x\b|\b(?:shell )?tracing\b|\bxtrace\b|\becho\w* .{0,20}?\b(?:secrets?|tokens?|"
              r"values|credentials)\b",
        gloss="trace shell commands (set -x) or print the environment where secrets are set",
        command=_SHELL_TRACE, change=_SHELL_TRACE, decisive=False),
    "redis-no-ttl": Rule(
        prose=r"\bredis\b.{0,60}?\b(?:keys?|cache\w*|entries|writ\w*|ttl|expir\w*)\b|"
              r"\b(?:keys?|cache\w*|entries|ttl|expir\w*)\b.{0,60}?\bredis\b",
        gloss="write a Redis key without an expiry",
        command=r"\bredis-cli\b[^\n|;&]{0,300}?\sSET\s++\S++\s++\S++(?![^\n]{0,300}\b(?:EX|PX|EXAT|PXAT|KEEPTTL)\b)",
        change=_REDIS_SET + r"(?!" + _ARGUMENT + r"{0,1000}?\b(?:ex|px|exat|pxat|keepttl)\b)",
        scope=_REDIS_SET + r"|\bredis-cli\b[^\n|;&]{0,300}?\sSET\s", decisive=False),
    "http-no-timeout": Rule(
        prose=r"\b(?:http|api|external|outbound|remote)\b.{0,40}?\b(?:calls?|requests?|services?|apis?)\b.{0,40}?"
              r"\b(?:requests|httpx|timeouts?|python)\b|\brequests or httpx\b",
        gloss="call an HTTP API without a timeout",
        change=_HTTP_CALL + r"(?!" + _ARGUMENT + r"{0,2000}?\btimeout\s*=)", scope=_HTTP_CALL, decisive=False),
    "index-key": Rule(
        prose=r"\b(?:array |list |loop |map )?index\w* as (?:a |the |list |react )?keys?\b|\bkey(?:s|ed|ing)?\b.{0,30}?"
              r"\b(?:by|from|with|on) (?:the |their |its )?(?:array |list |loop |map )?index|"
              # a list whose items move or change is what its keys are for
              r"\brender\w* (?:a )?lists?\b.{0,60}?\b(?:reorder\w*|sort\w*|filter\w*|edit\w*|insert\w*|delet\w*|"
              r"remov\w*|shrink\w*|stateful)",
        gloss="key rendered list items by their array index",
        change=r"(?<![\w.])key=\{[^}\n]{0,80}?(?:\b(?:i|idx|index|ix)\b|Math\.random\(\))|:key=\"(?:i|idx|index)\"|"
               r"\bkeyExtractor=\{\s*\([^)\n]{0,40}\bindex\b[^)\n]{0,40}\)\s*=>[^}\n]{0,60}\bindex\b",
        scope=r"(?<![\w.])key=\{|:key=\"|\bkeyExtractor=\{", decisive=False),
    "mutable-default": Rule(
        prose=r"\bmutable default|\bdefault arguments?\b|\b(?:list|dict) (?:or (?:a )?(?:list|dict) )?(?:as (?:a )?)?"
              r"default\b|\bdefault (?:value|argument|parameter)s?\b",
        gloss="give a Python function a list or dict as a default argument",
        change=r"\bdef\s+\w+\([^)]{0,500}?=\s*(?:\[\]|\{\}|list\(\)|dict\(\)|set\(\))"),
    "cmd-shell-form": Rule(
        prose=r"(?-i:\b(?:CMD|ENTRYPOINT)\b)|\bexec form\b|\bPID 1\b",
        gloss="write a Dockerfile CMD or ENTRYPOINT in shell form",
        change=r"(?-i:^[ \t]*(?:CMD|ENTRYPOINT)\s+(?!\[)\S)", path=_DOCKERFILE, decisive=False),
    "blocking-in-async": Rule(
        prose=r"\basync\b.{0,40}?\b(?:blocking|synchronous|sync)\b|\b(?:blocking|synchronous|sync)\b.{0,40}?\basync\b|"
              r"\bevent loop\b",
        gloss="make a blocking call (requests, time.sleep, std::fs) inside async code",
        change=r"\basync\s+def\b(?:(?!\n\S)[\s\S]){0,2000}?\b(?:requests\.(?:get|post|put|patch|delete|head|request)\(|"
               r"time\.sleep\(|urllib\.request\.urlopen\()|\basync\s+fn\b[\s\S]{0,2000}?\bstd::fs::",
        decisive=False),
    "async-foreach": Rule(
        prose=r"\bforEach\b.{0,30}?\basync\b|\basync\b.{0,30}?\bforEach\b",
        gloss="pass an async callback to Array.forEach",
        change=r"\.forEach\(\s*async\b", decisive=False),
    "raw-html": Rule(
        prose=r"\braw html\b|\binner ?html\b|\bdangerouslySetInnerHTML\b|\bxss\b|\bv-html\b|\bmark_safe\b|"
              r"\bhtml_safe\b|\b(?:user|customer)[- ](?:provided|supplied|generated|submitted) "
              r"(?:content|html|markup)\b|\b(?:render|inject|insert|output)\w* .{0,40}?\bas (?:raw |unescaped )?html\b",
        gloss="render user-provided content as raw HTML",
        change=r"\bdangerouslySetInnerHTML\b|\.(?:inner|outer)HTML\s*\+?=|\[innerHTML\]|\binsertAdjacentHTML\(|"
               r"\bdocument\.write(?:ln)?\(|\bv-html\s*=|\|\s*safe\b|\bmark_safe\(|\bMarkup\(|\.html_safe\b|<%=\s*raw\b|"
               r"<%==|\{!!|\{\{\{|\bbypassSecurityTrust\w*\(|\{@html\b"),
    "no-pipefail": Rule(
        prose=r"\bpipefail\b|\bshell pipelines?\b|\bscripts? with pipelines?\b|\bpip(?:e|ing)\b.{0,40}?"
              r"\b(?:gzip|zstd|bzip2|xz|compress\w*)\b|\bset -e\b",
        gloss="pipe a dump into another command without pipefail",
        command=r"\A(?![\s\S]*pipefail)[\s\S]*?\b(?:pg_dump|pg_dumpall|mysqldump|mongodump)\b[^\n|]*\|",
        change=r"\A(?![\s\S]*pipefail)[\s\S]*?(?:^[ \t]*set[ \t]+-e[ \t]*$|\b(?:pg_dump|pg_dumpall|mysqldump|"
               r"mongodump)\b[^\n|]*\|)",
        decisive=False),
    "copy-all": Rule(
        prose=r"(?-i:\bCOPY \. \.)|\.dockerignore\b|\bbuild context\b",
        gloss="copy the whole build context into an image (COPY . .)",
        change=r"^[ \t]*COPY\s+(?:--\S+\s+)*\.\s+\.?/?\s*$", path=_DOCKERFILE, decisive=False),
    "public-env-secret": Rule(
        prose=r"\b(?:NEXT_PUBLIC|VITE|REACT_APP|EXPO_PUBLIC|NUXT_PUBLIC)_|\bpublic env\w*",
        gloss="expose a secret through a public build-time variable (NEXT_PUBLIC_...)",
        command=_PUBLIC_SECRET, change=_PUBLIC_SECRET, decisive=False),
    "env-file-commit": Rule(
        prose=r"\.env\b.{0,40}?\bgit\b|\bgit\b.{0,40}?\.env\b|\bcredential files?\b",
        gloss="commit a .env or credential file",
        command=r"\bgit\s+add\b[^\n|;&]{0,300}?(?:\s|/)(?:\.env(?!\.example\b|\.sample\b)(?:\.[\w-]+)?\b|"
                r"[\w.-]{0,60}?(?:secret|credential)s?[\w.-]{0,60}?\.(?:ya?ml|json|env|ini|toml|properties|conf)\b|"
                r"[\w.-]{1,60}?\.(?:pem|p12|pfx|keystore|jks)\b|id_rsa\b|[\w-]{0,60}?service[-_]account[\w.-]{0,60}?\.json\b)",
        decisive=False),
    "metric-label-id": Rule(
        prose=r"\b(?:metric|prometheus)\b.{0,40}?\blabels?\b|\blabels?\b.{0,40}?\b(?:metric|prometheus)\b|"
              r"\bcardinality\b",
        gloss="put a per-user or per-request id in a metric label",
        # Go's vectors, prometheus_client's `Histogram("name", "doc", ["step", "customer_email"])`, prom-client's
        # `labelNames: [...]`: a label per user, request, order, cart... (an id, an email, an address)
        change=r"\b(?:NewCounterVec|NewHistogramVec|NewGaugeVec|NewSummaryVec|labelnames\s*=|labelNames\s*:|"
               r"\.labels\(|(?<![\w.])(?:Counter|Histogram|Gauge|Summary)\()[\s\S]{0,300}?[\"'](?:\w+_)?(?:user|request|job|"
               r"order|session|trace|customer|account|tenant|cart|client)_?(?:id|email|ip|uuid)[\"']", decisive=False),
    "select-star": Rule(
        prose=r"\bbigquery\b|\bpartition(?:ed)? tables?\b|\bpartition columns?\b|\bbytes (?:scanned|billed)\b",
        gloss="select every column of a large warehouse table",
        command=r"\b(?:bq\s+query|bigquery)\b[^\n]*\bSELECT\s+\*",
        change=r"\bSELECT\s+\*\s+FROM\s+`[\w-]+\.[\w-]+\.[\w-]+`", decisive=False),
    "configmap-secret": Rule(
        prose=r"\bconfig ?maps?\b",
        gloss="put a password or API key in a Kubernetes ConfigMap",
        command=r"\bconfigmap\b[\s\S]{0,600}?\b\w*(?:PASSWORD|SECRET|API_?KEY|TOKEN)\w*\s*[=:]",
        change=r"\bkind:\s*ConfigMap\b[\s\S]{0,1000}?\b\w*(?:PASSWORD|SECRET|API_?KEY|TOKEN)\w*\s*:", decisive=False),
    "force-unwrap": Rule(
        prose=r"\bforce[- ]?unwrap\w*|\btry!|\bas!",
        gloss="force-unwrap or force-try in Swift (try!, as!)",
        change=r"\btry!\s|\bas!\s", decisive=False),
    "atom-from-input": Rule(
        prose=r"\batoms?\b",
        gloss="create Elixir atoms from user input",
        change=r"\bString\.to_atom\(|\bbinary_to_atom\(|\blist_to_atom\(", decisive=False),
    "laravel-env": Rule(
        prose=r"\benv\(\)|\blaravel\b.{0,60}?\benv\w*|\benv\w*.{0,60}?\blaravel\b",
        gloss="call env() outside Laravel's config files",
        change=r"\benv\(\s*['\"]", path=r"(?:^|/)(?:app|routes|resources|database)/", decisive=False),
    "cluster-hand-change": Rule(
        prose=r"\bkubectl\b.{0,40}?\b(?:mutat|modif|chang|patch|apply|edit|scal|writ)\w*|"
              r"\b(?:mutat|modif)\w* kubectl\b|\bgitops\b|\bargo ?cd\b|\bflux ?cd\b|\bkube-?contexts?\b|"
              r"\b(?:mutat|modif|chang|edit|patch)\w* .{0,30}?\b(?:cluster|kubernetes|k8s)(?: resources?| objects?)?\b",
        gloss="change live Kubernetes resources by hand with kubectl",
        # the verb is kubectl's subcommand, after its options (`--insecure-skip-tls-verify apply`: a flag may take no
        # value): `kubectl get deploy label-printer` labels nothing
        command=r"\bkubectl" + _CLI_OPTIONS + r"\s++(?:apply|delete|scale|patch|set|edit|"
                r"replace|create|label|annotate|drain|cordon|taint|rollout\s+(?:restart|undo))(?![\w-])",
        decisive=False),
    "k8s-no-resources": Rule(
        prose=r"\bresource (?:requests|limits)\b|\brequests and limits\b|\bwithout (?:resource )?(?:requests|limits)\b|"
              r"\bmemory limits?\b|\bcpu (?:requests?|limits?)\b",
        gloss="run a Kubernetes workload without resource requests and limits",
        command=_NO_RESOURCES, change=_NO_RESOURCES, path=r"\.ya?ml$", kinds=("write",), decisive=False),
    "docker-root": Rule(
        prose=r"\broot\b.{0,40}?\b(?:containers?|dockerfiles?|images?)\b|\b(?:containers?|dockerfiles?|images?)\b.{0,40}?"
              r"\broot\b|\bnon-?root\b|(?-i:\bUSER\b)",
        gloss="write a Dockerfile whose container runs as root",
        change=r"\A(?![\s\S]*^[ \t]*USER\s)[\s\S]*?^[ \t]*FROM\s", path=_DOCKERFILE, kinds=("write",), decisive=False),
    "redis-keys": Rule(
        prose=r"(?-i:\bKEYS\b)|\bkeys\s+['\"]?[\w:]*\*|\bflush(?:all|db)\b|(?-i:\bSCAN\b)|"
              r"\bredis keys by (?:a )?pattern\b|\bkeys by (?:a )?pattern\b.{0,30}?\bredis\b|"
              r"\bclear\w* .{0,30}?\bcach\w*.{0,40}?\bredis\b|"
              # keys that match a pattern, on Redis: what KEYS is reached for
              r"\bredis\b.{0,60}?\b(?:match\w*|pattern)\b|\b(?:match\w*|pattern)\b.{0,60}?\bredis\b",
        gloss="run KEYS or FLUSHALL against a shared Redis",
        command=r"\bredis-cli\b[^\n|;&]{0,300}?\s(?:KEYS|FLUSHALL|FLUSHDB)\b",
        change=r"\.keys\(\s*[fbr]?['\"][^'\"\n]{0,100}\*|\.(?:flushall|flushdb)\(",
        scope=r"\bredis-cli\b|\.scan_iter\(|\bscanStream\(|(?-i:\bSCAN\b)", decisive=False),  # other commands, a SCAN
    "state-mutation": Rule(
        prose=r"\bmutat\w* .{0,30}?\bstate\b|\bstate\b.{0,30}?\b(?:holds?|holding|with) (?:an? )?"
              r"(?:arrays?|objects?|lists?)\b|\b(?:updat|chang|modif)\w* (?:an? )?(?:arrays?|objects?|lists?) .{0,20}?"
              r"\b(?:held )?in (?:react |component )?state\b",
        gloss="mutate a React state array or object in place and hand the same one to its setter",
        # `tags.push(tag); setTags(tags)`, `form.email = v; setForm(form)`: the same reference back to the setter
        change=r"(?<![\w.])(\w++)(?:\.(?:push|splice|unshift|pop|shift|sort|reverse)\([^()\n]{0,200}\)|"
               r"(?:\.\w++|\[[^\]\n]{1,80}\])\s*+=(?!=)[^\n;]{1,200})[\s\S]{1,120}?(?<![\w.])set\w{0,40}\(\s*+\1\s*+\)",
        decisive=False),  # a state mutated in other ways (`items[i].qty = q; setItems([...items])`) is still one
    "crontab-replace": Rule(
        prose=r"\bcrontabs?\b",
        gloss="replace a user's whole crontab with one line piped in",
        # not `(crontab -l; echo "...") | crontab -`, which keeps the lines there are; a file installed whole
        # (`crontab jobs.txt`) replaces them too. Any other crontab command is the action done right. The line
        # echoed may redirect (`>> log 2>&1`) or chain in quotes (`'cd /srv && bin/rake x'`).
        command=r"(?m)^(?![^\n]*?crontab\s++-l)[^\n]*?(?:(?<![\w-])(?:echo|printf)\b"
                r"(?:'[^'\n]*+'|[^\n|;&']|&(?!&))*+\|\s*+(?:sudo\s++)?crontab(?:\s++-u\s++\S++)?\s++-(?![\w-])|"
                r"(?:^|[;&|('\"]|\bsudo)\s*+crontab(?:\s++-u\s++\S++)?\s++(?![-|;&])[\w./~$])",
        scope=r"(?<![\w-])crontab\b", decisive=False),
    "log-sensitive": Rule(
        prose=r"\b(?:log|logs|logg\w*|print\w*|writ\w*|dump\w*|emit\w*)\b.{0,40}?" + _SENSITIVE + r"|"
              + _SENSITIVE + r".{0,40}?\b(?:in|into|to|from) (?:(?:the|our|application|app|server) ){0,2}logs?\b",
        gloss="write a card number, password, token or personal data to a log",
        # a name in code, not a word of the message: `card.number)`, `{payment.pan}`, `{ email, password }`; not
        # "sending password reset email to %s"
        change=_LOG_CALL + r"[^\n;]{0,200}?(?:" + _SENSITIVE_NAME + r"(?!inal|iz)(?=\w*+\s*+[.,)}\]\[])|"
               r"(?:req|request)\.body)",
        decisive=False),
    "git-add-force": Rule(
        prose=r"\bgitignor\w*|\b(?:commit|add|check\w* in|get\w*|push)\w* .{0,40}?\bignored\b|"
              r"\bgit add (?:-f|--force)\b",
        gloss="force-add a file that .gitignore excludes (git add -f)",
        command=r"\bgit\s++add\b[^\n;&|]*?\s(?:-[A-Za-z]*f[A-Za-z]*|--force)(?=\s|$)", decisive=False),
    "volume-claim-delete": Rule(
        prose=r"\bpersistent ?volume ?claims?\b|\bvolume claims?\b|\bpvcs?\b",
        gloss="delete a Kubernetes PersistentVolumeClaim and the volume bound to it",
        command=r"\bkubectl" + _CLI_OPTIONS + r"\s++delete\s++(?:-\S++\s++)*"
                r"(?:pvc|persistentvolumeclaims?)\b", decisive=False),
    "liveness-dependency": Rule(
        prose=r"\bliveness\b",
        gloss="make a Kubernetes liveness probe check databases, caches or other dependencies",
        # a probe's own lines are indented under its key: the readiness probe after it may check what it likes;
        # an edit of the probe's check leaves its key above the lines it changes
        change=r"^([ \t]*+)livenessProbe:[^\n]*+\n(?:\1[ \t]++[^\n]*+\n){0,20}?\1[ \t]++[^\n]*?"
               r"(?:postgres|pg_isready|mysql|redis|kafka|mongo|rabbit|elastic|cassandra|database|\bdb\b|"
               r"dependenc|\bdeps?\b|/health/\w|include=)",
        scope=r"\blivenessProbe:", decisive=False, whole=True),
    "secret-purge": Rule(
        prose=r"\b(?:delet|remov|purg|clean)\w* .{0,40}?\bsecrets?\b|\bsecrets?\b.{0,30}?\b(?:delet|remov|purg)\w*|"
              r"\brecovery window\b",
        gloss="delete a cloud secret at once, with no recovery window",
        command=r"\bdelete-secret\b[^\n|;&]*?\s--(?:force-delete-without-recovery|recovery-window-in-days[= ]0)\b|"
                r"\bkeyvault\s+secret\s+purge\b|\bgcloud\s+secrets\s+delete\b",
        change=r"\bForceDeleteWithoutRecovery\s*[=:]\s*(?:True|true)|\bforce_delete_without_recovery\s*=\s*true",
        decisive=False),
    "helm-uninstall": Rule(
        prose=r"\bhelm\b.{0,40}?\b(?:uninstall|delet|remov|purg)\w*|\b(?:uninstall|delet|remov)\w* .{0,30}?"
              r"\b(?:helm |a )?(?:release|chart)s?\b.{0,40}?\b(?:crds?|custom ?resource)",
        gloss="uninstall a Helm release, deleting what its chart installed",
        command=r"\bhelm\b" + _CLI_OPTIONS + r"\s++(?:uninstall|delete|del|un)\s",
        decisive=False),
    "action-unpinned": Rule(
        prose=r"\bthird[- ]party (?:github )?actions?\b|\b(?:pin|referenc)\w* .{0,30}?\bactions?\b|"
              r"\bactions? (?:by|to|at) (?:a )?(?:tags?|branch\w*|sha|commit)",
        gloss="use a third-party GitHub Action by a tag or branch, not a pinned commit",
        # first-party `actions/*` aside; a full commit SHA is the action pinned (the scope)
        change=r"^[ \t]*+(?:-[ \t]*+)?uses:[ \t]*+[\"']?(?!actions/|github/|docker://|\./)[\w.-]++/[\w./-]++@"
               r"(?![0-9a-f]{40}\b)[\w./-]",
        path=r"(?:^|/)\.github/(?:workflows|actions)/", scope=r"\buses:[ \t]*+[\"']?[\w.-]++/[\w./-]++@[0-9a-f]{40}\b",
        decisive=False),
    "go-map-shared": Rule(
        prose=r"\bmaps?\b.{0,40}?\b(?:goroutines?|handlers?|concurren\w*|threads?)\b|\bconcurrent map\b|"
              r"\bshared maps?\b",
        gloss="write to a Go map shared by goroutines or handlers without a lock",
        # a receiver's map field or a package-level map written to, in a file that takes no lock
        change=r"(?<![\w.])\w{1,12}+\.\w++\[[^\]\n]{1,100}\][ \t]*+=(?!=)|\bvar[ \t]++(\w++)[ \t]*+=[ \t]*+"
               r"(?:make\()?map\[[\s\S]*?(?<![\w.])\1\[[^\]\n]{1,100}\][ \t]*+=(?!=)",
        unless=_GO_LOCK, path=r"\.go$", scope=_GO_LOCK, decisive=False),
    "pandas-chained": Rule(
        prose=r"\bpandas\b|\bdata ?frames?\b.{0,40}?\b(?:assign|subset|filter|slic)\w*|\bchained assignment\b|"
              r"SettingWithCopy",
        gloss="assign to a filtered pandas DataFrame through chained indexing instead of .loc",
        # `df[df["a"] > 1]["b"] = v`: the mask is built from the frame itself
        change=r"(?<![\w.])(\w++)\[[ \t]*+\1\b[^\n]{0,200}?\]\[[ \t]*+[\"'][^\"'\n]{1,60}[\"'][ \t]*+\][ \t]*+=(?!=)",
        path=r"\.(?:py|ipynb)$", scope=r"\.loc\[", decisive=False),
    "public-port": Rule(
        prose=r"\bpublish\w* .{0,40}?\bports?\b|\bports?\b.{0,40}?\b(?:public|every interface|all interfaces|"
              r"0\.0\.0\.0)",
        gloss="publish a container port on every interface of the host",
        command=r"\bdocker\s++(?:container\s++)?run\b[^\n|;&]*?\s(?:-p|--publish)[ =][\"']?\d{2,5}:\d{2,5}\b",
        change=_PUBLIC_PORT, path=r"(?:^|/)(?:docker-)?compose[\w.-]*\.ya?ml$",
        scope=r"\b127\.0\.0\.1:\d{2,5}:\d|\[::1\]:\d", decisive=False),
    "alert-no-for": Rule(
        prose=r"\balert(?:ing)? rules?\b|\bpag(?:e|es|ing) alerts?\b|\balerts? that pages?\b|\bprometheus alerts?\b",
        gloss="write a Prometheus alert that fires on one evaluation, with no for: duration",
        # an alert's own lines are indented under it: one without `for:` among them pages on a single blip
        change=r"^([ \t]*+)- alert:[^\n]*+\n(?:\1[ \t]++(?!for:)[^\n]*+\n|[ \t]*+\n)*+(?![ \t]*+for:)",
        path=r"\.ya?ml$", scope=r"^[ \t]*+for:[ \t]*+\d", decisive=False),
    "event-injection": Rule(
        prose=r"\bgithub\.(?:event|head_ref)\b|\bevent (?:text|data|fields?|payloads?)\b|\$\{\{",
        gloss="put a GitHub event's text (${{ github.event.* }}) straight into a workflow's run script",
        # the run script's own lines are indented under its key (read in an edit's whole new text: the lines it
        # brings in alone may join an `env:` value to the script); an `env:` beside it does not undo the text put
        # into the script itself
        change=r"^([ \t]*+)(?:-[ \t]*+)?run:(?:[^\n]*+\n\1[ \t]++){0,80}?[^\n]*?\$\{\{[ \t]*+"
               r"github\.(?:event\.|head_ref\b)",
        path=r"(?:^|/)\.github/(?:workflows|actions)/|(?:^|/)action\.ya?ml$", decisive=False, wrong=True, whole=True),
    "ssrf": Rule(
        prose=r"\bssrf\b|\buser[- ](?:supplied|provided|submitted|given|entered)\b.{0,20}?\burls?\b|"
              r"\bfetch\w* .{0,30}?\burls?\b|\bunfurl\w*|\blink previews?\b",
        gloss="fetch a URL a user supplied from the server",
        # a variable (not a CONSTANT) holding the URL: ``url``, ``image_url``, ``feedUrl``
        change=r"\b(?:requests|httpx|session|client|aiohttp|axios|got|request)\.(?:get|post|head|request|stream)\(\s*"
               r"(?-i:[\w.]{0,40}?(?:url|Url|uri|Uri|link|Link|href|target)\w*)\s*[,)]|"
               r"\bfetch\(\s*(?-i:[\w.]{0,40}?(?:url|Url|link|Link|href|target)\w*)\s*[,)]|"
               r"\burlopen\(\s*(?-i:[\w.]{0,40}?(?:url|Url)\w*)\s*[,)]", decisive=False),
    # compose's volumes removed with the stack: `docker compose down -v` where data lives; a plain `down` is the way
    "compose-down-volumes": Rule(
        prose=r"\bdocker[- ]compose\b.{0,40}?\b(?:down|restart\w*|stop\w*|tear\w*|recreat\w*|reset\w*)|"
              r"\b(?:restart\w*|stop\w*|tear\w* down|recreat\w*|reset\w*)\b.{0,40}?\b(?:docker[- ])?compose\b|"
              r"\bcompose (?:stacks?|projects?)\b",
        gloss="take a Docker Compose stack down with its volumes",
        command=r"\bdocker[- ]compose\b[^\n|;&]*\sdown\b[^\n|;&]*\s(?:-v|--volumes)\b",
        scope=r"\bdocker[- ]compose\b[^\n|;&]*\sdown\b", decisive=False),
    # partitions added to a keyed topic move keys between partitions; a new topic created with them does not
    "kafka-repartition": Rule(
        prose=r"\btopics? partitioned\b|\bpartitioned by (?:a |the )?key\b|\bpartition (?:count|number)s?\b|"
              r"\b(?:add\w*|increas\w*|rais\w*|chang\w*|more) .{0,20}?\bpartitions\b|\brepartition\w*",
        gloss="add partitions to an existing Kafka topic",
        command=r"\bkafka-topics(?:\.sh)?\b(?=[^\n|;&]*--alter\b)[^\n|;&]*--partitions\b",
        change=r"^[ \t]*(?:partitions|partition_count|num_partitions|numPartitions)[ \t]*[:=][ \t]*\d+",
        path=r"\.(?:tf|ya?ml|json)$",
        scope=r"\bkafka-topics(?:\.sh)?\b[^\n|;&]*--partitions\b"),
    # a producer that may lose what it sends: leader-only or no acks, idempotence off (only the mistake: a call that
    # also tunes `linger.ms`, as the lesson asks, still makes it)
    "kafka-acks": Rule(
        prose=r"\bkafka producers?\b|\bproducer (?:settings|config\w*|acks|properties)\b|\backs\b",
        gloss="lower a Kafka producer's acks or turn idempotence off",
        change=r"^[ \t]*[\"']?acks[\"']?[ \t]*:[ \t]*[\"']?[01][\"']?[ \t]*,?$|\backs\s*=\s*[\"']?[01]\b|"
               r"\benable\.idempotence[\"']?[ \t]*[:=][ \t]*[\"']?false\b|\bACKS_CONFIG\b[^\n]{0,40}?[\"'][01][\"']",
        wrong=True),
    # a queue created with nowhere for poison messages to go (not the dead-letter queue itself)
    "queue-no-redrive": Rule(
        prose=r"\b(?:creat|add|chang|defin|provision|configur)\w* .{0,25}?\bsqs queues?\b|\bsqs queues? .{0,30}?\b"
              r"(?:terraform|cloudformation|redrive|dead[- ]letter|dlq)\b|"
              r"\bqueues? without (?:a )?(?:dlq|dead[- ]letter|redrive)",
        gloss="create an SQS queue without a dead-letter queue (redrive policy)",
        change=r"\A(?![\s\S]*\b(?:redrive_policy|RedrivePolicy|deadLetterQueue)\b)[\s\S]*?"
               r"(?:\bresource\s+\"aws_sqs_queue\"\s+\"(?![\w-]*(?:dlq|dead))[\w-]+\"|\bAWS::SQS::Queue\b)",
        path=r"\.(?:tf|ya?ml|json)$", whole=True, decisive=False),
    # a row found or created in two steps races a second request: a unique index and create-then-find is the way
    "find-or-create": Rule(
        prose=r"\bfind[- ]or[- ]create\b|\bget[- ]or[- ]create\b|\bfirst[- ]or[- ]create\b|\bupsert\w*|"
              r"\b(?:creat|insert)\w* .{0,30}?\bonly if (?:it |one )?(?:doesn'?t|does not|don'?t) (?:already )?exist|"
              r"\b(?:creat|insert)\w* .{0,30}?\bif (?:it'?s |it is )?(?:missing|not (?:already )?there|absent)\b",
        gloss="find a row or create it in two steps (find_or_create_by, get_or_create)",
        change=r"\.(?:first_or_create|find_or_create_by|find_or_initialize_by)\b|\bget_or_create\(|\bfindOrCreate\(",
        scope=r"\.(?:first_or_create|find_or_create_by|create_or_find_by|find_or_initialize_by|upsert)\b|"
              r"\bget_or_create\(|\bfindOrCreate\(|\bON CONFLICT\b|\bRecordNotUnique\b", decisive=False),
}
FLAGS = re.I | re.M


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, FLAGS)


def action_classes(action: Action, paths: tuple[str, ...]) -> frozenset[str]:
    """The classes of what ``action`` does (``paths`` relative to the repository root)."""
    found = set()
    for name, rule in RULES.items():
        if action.kind == "command":
            if rule.command and _compiled(rule.command).search(action.text):
                found.add(name)
            continue
        if action.kind not in rule.kinds or not (rule.path or rule.change):
            continue
        if rule.path and not any(_compiled(rule.path).search(p) for p in paths):
            continue
        if rule.change and not _compiled(rule.change).search((action.enclosing or action.text) if rule.whole
                                                                   else action.added):
            continue
        if rule.unless and _compiled(rule.unless).search(action.after or action.text):
            continue
        found.add(name)
    if "dependency-add" in found and action.kind == "edit" and not _new_dependency(action):
        found.discard("dependency-add")  # a version bump of a dependency already there
    if "terraform-move" in found and action.kind == "edit" and not _renamed_block(action):
        found.discard("terraform-move")  # a block added or changed, not one given a new address
    return frozenset(found)


_BLOCK = re.compile(r"^[ \t]*(resource|module)\s+(\"[^\"]+\"(?:\s+\"[^\"]+\")?)", re.M)


_MOVED_FROM = re.compile(r"^[ \t]*from\s*=\s*([\w.-]+)", re.M)


def _renamed_block(action: Action) -> bool:
    """Whether an edit of Terraform gives a resource or module block another address without a ``moved`` block from
    the old one: a block header it removes comes back under another name."""
    before = set(_BLOCK.findall(action.removed))
    after = set(_BLOCK.findall(action.text))
    moved = set(_MOVED_FROM.findall(action.text))
    return bool(after - before) and any(_address(kind, labels) not in moved for kind, labels in before - after)


def _address(kind: str, labels: str) -> str:
    """A block's address: ``resource "aws_s3_bucket" "logs"`` is ``aws_s3_bucket.logs``, ``module "vpc"``
    ``module.vpc``."""
    names = re.findall(r'"([^"]+)"', labels)
    return ".".join(names) if kind == "resource" else "module." + names[0]


_DEP_NAME = re.compile(r"^[ \t]*[\"']?(@?[A-Za-z][\w.@/-]*)")


def _new_dependency(action: Action) -> bool:
    """Whether an edit of a manifest brings in a name the text it replaces did not have."""
    before = {m.group(1).lower() for line in action.removed.splitlines() if (m := _DEP_NAME.match(line))}
    return any(m.group(1).lower() not in before for line in action.added.splitlines()
               if (m := _DEP_NAME.match(line)) and not line.strip().startswith(("#", "//")))


def prose_classes(text: str) -> frozenset[str]:
    """The classes a correction's words guard (its trigger, or failing that its summary)."""
    return _prose_classes(text)


@functools.lru_cache(maxsize=4096)
def _prose_classes(text: str) -> frozenset[str]:
    return frozenset(name for name, rule in RULES.items() if _compiled(rule.prose).search(text))


def done_right(change: str, classes: frozenset[str]) -> frozenset[str]:
    """The classes whose action a call performs without their mistake: ``change`` (its command, or the lines it
    brings in) enters the rule's ``scope`` and ``classes`` (what the call was found to do) lacks the class."""
    return frozenset(name for name, rule in RULES.items()
                     if rule.scope and name not in classes and _compiled(rule.scope).search(change))


def wrong(classes: frozenset[str]) -> frozenset[str]:
    """Those of ``classes`` that a call has only by making the mistake: no fix it carries beside undoes them."""
    return frozenset(name for name in classes if RULES[name].wrong)


def decisive(classes: frozenset[str]) -> frozenset[str]:
    """Those of ``classes`` whose absence from a call silences a correction that guards them."""
    return frozenset(name for name in classes if RULES[name].decisive)


def glosses(classes: frozenset[str]) -> list[str]:
    return [RULES[name].gloss for name in sorted(classes)]
