"""Task-aware strategy: what kind of task a text describes, which categories matter for it, and
which kinds of action it performs (the taxonomy that lets a correction's trigger fire on a task
that says the same thing in other words)."""

from __future__ import annotations

import functools
import re
from typing import Literal

TaskType = Literal["exploration", "implementation", "debugging", "review", "refactoring"]
TASK_TYPES: tuple[TaskType, ...] = ("exploration", "implementation", "debugging", "review", "refactoring")

_TASK_WORDS: dict[TaskType, str] = {
    "debugging": r"error|bug|fail\w*|crash\w*|exception|traceback|broken|fix\w*|debug\w*|flaky|timeout|timing out|"
                 r"regression|stack ?trace|not working|doesn'?t work|500|panic|leak\w*|hang\w*|outage|incident",
    "review": r"review\w*|pull request|\bpr\b|audit\w*|approve|sign[- ]off|check (?:the|this|that) (?:change|diff)",
    "refactoring": r"refactor\w*|renam\w*|extract\w*|clean ?up|restructur\w*|split\w*|simplif\w*|dedup\w*|"
                   r"reorgani[sz]\w*|move .* (?:into|to) |tidy",
    "exploration": r"how does|how do|where (?:is|are|do)|what (?:is|are|does)|why (?:do|did|does|is|are)|"
                   r"understand\w*|explor\w*|investigat\w*|find out|overview|explain\w*|learn about",
    "implementation": r"add\w*|implement\w*|build\w*|creat\w*|write|writing|migrat\w*|support\w*|feature|"
                      r"endpoint|integrat\w*|introduc\w*|set ?up|upgrade|deploy\w*",
}

# Per task type, how much each category counts (1.0 = neutral).
CATEGORY_WEIGHTS: dict[TaskType, dict[str, float]] = {
    "debugging": {"error": 1.5, "correction": 1.4, "learning": 1.25, "procedure": 1.15, "episode": 1.1,
                  "fact": 1.0, "decision": 0.9, "preference": 0.8},
    "implementation": {"correction": 1.4, "procedure": 1.3, "decision": 1.25, "preference": 1.2, "fact": 1.0,
                       "learning": 1.0, "error": 0.9, "episode": 0.8},
    "review": {"preference": 1.4, "correction": 1.35, "decision": 1.2, "procedure": 1.0, "fact": 1.0,
               "learning": 1.0, "error": 0.9, "episode": 0.8},
    "refactoring": {"decision": 1.3, "preference": 1.3, "correction": 1.3, "procedure": 1.1, "learning": 1.0,
                    "fact": 1.0, "error": 0.9, "episode": 0.8},
    "exploration": {"fact": 1.3, "decision": 1.3, "learning": 1.15, "procedure": 1.0, "correction": 1.0,
                    "preference": 0.9, "error": 0.9, "episode": 1.0},
}

# Action types: an action a task performs and a correction's trigger guards.
ACTIONS: dict[str, str] = {
    "schema-change": r"(?:drop|remov|delet|renam|alter|add|chang|modif)\w* .{0,40}?(?:column|field|table|index|"
                     r"schema|constraint)|(?:column|table|schema)s? .{0,20}?(?:drop|remov|renam|alter)\w*|"
                     r"migration|migrate the (?:db|database|schema)",
    "data-deletion": r"(?:delet|purg|truncat|wip|eras|drop)\w* .{0,30}?(?:data|rows|records|table|bucket|"
                     r"database|volume|backups?)|data retention|clean(?:ing)? up old (?:data|records)",
    "dependency-change": r"(?:upgrad|bump|updat|pin|install|add|replac|swap)\w* .{0,30}?(?:dependenc\w*|package|"
                         r"librar\w*|version|gem|module|sdk|framework|plugin)|lock ?file|requirements\.txt|"
                         r"package\.json|go\.mod|pyproject",
    "release": r"\b(?:deploy\w*|releas\w*|roll ?out|ship\w*|publish\w*|tag(?:ging)? a release|go live|cut a release)\b",
    "credentials": r"secret|token|api key|credential|password|private key|rotat\w* (?:keys?|certs?)|certificate",
    "config-change": r"config\w*|env(?:ironment)? var\w*|setting|feature flag|toggle",
    "auth": r"\b(?:login|log in|sign[- ]in|auth\w*|sso|oauth|permission\w*|roles?|access control|rbac)\b",
    "api-change": r"\b(?:endpoint|api|route|versioning|breaking change|response format|request format|graphql|rest)\b",
    "infrastructure": r"terraform|kubernetes|k8s|\bnodes?\b|cluster|dns|load balancer|autoscal\w*|scal\w* (?:up|down)|"
                      r"instance|vm\b|container|helm|ingress",
    "testing": r"\btests?\b|testing|fixture|mock\w*|\bci\b|pipeline|flaky",
    "git-history": r"rebas\w*|force[- ]push\w*|squash\w*|cherry[- ]pick\w*|merg\w* (?:branch|main|master)|"
                   r"rewrit\w* history|amend",
    "performance": r"performance|latency|slow|cach\w*|optimi[sz]\w*|throughput|query plan|n\+1",
    "datetime": r"date\w*|time ?zones?|timestamps?|datetime|utc|daylight|clock",
    "email": r"e-?mails?|smtp|notification\w*|mailer",
}


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


def detect_task_type(text: str) -> TaskType:
    """The task type a text describes (implementation when nothing says otherwise)."""
    counts = {kind: len(_compiled(_TASK_WORDS[kind]).findall(text)) for kind in TASK_TYPES}
    best = max(TASK_TYPES, key=lambda kind: (counts[kind], kind == "implementation"))
    return best if counts[best] else "implementation"


def actions(text: str) -> frozenset[str]:
    """The action types a task or trigger text mentions."""
    return frozenset(name for name, pattern in ACTIONS.items() if _compiled(pattern).search(text))


# What a task does and to what, in general terms: a correction's trigger ("drop a column from a database table")
# and a task that does it ("write an alembic migration that gets rid of the is_legacy attribute") share a kind of
# action (remove) on a kind of thing (schema) even when they share no word. Each class is a regex over the text.
VERBS: dict[str, str] = {
    "remove": r"\b(?:drop|remov|delet|purg|wip|eras|nuk|strip|retir|decommission|truncat|flush|discard|prun|kill|"
              r"destroy|deprecat|sunset)\w*|\bget(?:s|ting)? rid of|\bclean\w* (?:up|out)|\bclear\w* (?:out|down)|"
              r"\btear\w* down|\bempty(?:ing)?\b|\brm\b",
    "rename": r"\brenam\w*|\b(?:so|that) (?:it'?s|it is|they'?re) (?:called|named)|\bcall(?:ed)? it\b",
    "create": r"\b(?:add|creat|introduc|insert|expos|provision|regist|generat|implement|build|writ|enabl|allow|"
              r"support)\w*|\bset\w* up\b|\bnew\b|\blet (?:customers|users|people|support|admins)\b",
    "change": r"\b(?:chang|modif|alter|updat|switch|edit|tweak|adjust|rais|lower|reduc|increas|shrink|grow|convert|"
              r"replac|mov|migrat|tighten|loosen|extend|shorten|lengthen|resiz|scal)\w*|\bset\b|\bmake\b|"
              r"\bpoint\w* .{0,40}\b(?:at|to)\b|\bfrom \S+ (?:down |up )?to \S+",
    "upgrade": r"\b(?:upgrad|bump)\w*|\bfrom v?\d+(?:\.\d+)* to v?\d+|\b(?:latest|newer|next major) version|"
               r"\bmove (?:us |it )?to v?\d",
    "revert": r"\broll\w* ?back\b|\brevert\w*|\bdowngrad\w*|\bundo\w*|\bgo back to\b|\bback out\b",
    "release": r"\b(?:deploy|releas|ship|publish|launch|submit)\w*|\broll\w* ?out\b|\bgo(?:es|ing)? live\b|"
               r"\bpush\w* .{0,40}\b(?:prod\w*|fleet|servers|everyone|all users|store)\b|\bcut a release\b",
    "rotate": r"\b(?:rotat|revok|reissu|renew|regenerat|cycl)\w*|"
              r"\breplac\w* .{0,40}\b(?:key|token|secret|credential|password|cert)\w*|\bleak\w*",
    "commit": r"\b(?:commit|check\w* in|version[- ]control)\w*|\bpush\w* .{0,30}\b(?:repo|git|github|branch)\b|"
              r"\badd\w* .{0,30}\bto (?:git|the repo)",
    "overwrite-history": r"\bforce[- ]?push\w*|--force\b|\boverwrit\w*|\brewrit\w* (?:the )?history|\breset --hard|"
                         r"\bmatch (?:my|our) local",
    "skip": r"\b(?:skip|disabl|ignor|mute|quarantin|silenc)\w*|\bxfail\b|\bcomment\w* out\b|\bturn\w* off\b|"
            r"\bmark\w* .{0,30}\b(?:flaky|xfail|skip)",
    "rerun": r"\bre-?(?:run|try|start|trigger|send|play|queue|process)\w*|\btry again\b|\bkick\w* .{0,15}\boff again\b|"
             r"\bstart\w* .{0,15}\bagain\b|\bresum\w*",
    "send": r"\b(?:send|sent|email|blast|notif|announc|mail|broadcast|messag)\w*",
    "log": r"\b(?:log|print|dump|trac)\w*|\bverbose\b|\bdebug\w*",
    "schedule": r"\b(?:schedul|reschedul|cron)\w*|\brun\w* at\b|\bat \d{1,2} ?(?:am|pm)\b|"
                r"\b(?:every|each) (?:day|night|hour|week|morning)|\bnightly\b",
}
OBJECTS: dict[str, str] = {
    "schema": r"\b(?:column|field|attribute|table|schema|migration|alembic|flyway|liquibase|ddl|index|indices|indexes|"
              r"constraint|foreign key|not null|nullable|btree)\w*",
    "rows": r"\b(?:rows?|records?|entries|backfill\w*|populat\w*|existing data|data fix|older than)\b",
    "database": r"\b(?:database|db|sql|postgres\w*|mysql|sqlite|rds|aurora|mongo\w*|dynamo\w*)\b",
    "dependency": r"\b(?:dependenc\w*|packages?|librar\w*|libs?|gems?|crates?|modules?|lock ?files?|yarn\.lock|"
                  r"package-lock\.json|poetry\.lock|gemfile\.lock|go\.(?:mod|sum)|requirements\w*\.txt|npm|yarn|"
                  r"pnpm|pip|sdk|framework)\b|\bfrom v?\d+(?:\.\d+)* to v?\d+|\b[\w.-]+@\^?\d",  # a version move
    "release": r"\b(?:releases?|builds?|versions?|v\d+(?:\.\d+)+|deploy\w*|fleet|servers|production|prod|rollout|"
               r"canary)\b",
    "secret": r"\b(?:secrets?|credentials?|passwords?|api ?keys?|keys?|tokens?|\.env|cert\w*|private key|ssh key|"
              r"service account)\b",
    "flag": r"\b(?:feature[- ]flags?|flags?|toggles?|experiments?)\b",
    "api": r"\b(?:endpoints?|routes?|handlers?|api|apis|responses?|requests?|params?|parameters?|payloads?|json|"
           r"graphql|rest|webhooks?)\b|\b(?:get|post|put|patch|delete) /",
    "auth": r"\b(?:sessions?|log ?in|sign(?:ed)?[- ]?(?:in|out)|logout|jwt|expiry|permissions?|roles?|admins?|auth\w*|"
            r"password reset|sso|oauth|idle)\b",
    "infra": r"\b(?:terraform|tf|infrastructure|infra|cloudformation|pulumi|vpc|instance (?:size|type)|workspace|"
             r"iam)\b",
    "cluster": r"\b(?:kubernetes|k8s|pods?|replicas?|minreplicas|maxreplicas|hpa|autoscal\w*|limits?|resources?|"
               r"memory|ram|cpu|helm|nodes?|\d+[mg]i)\b",
    "dns": r"\b(?:dns|domains?|records?|cname|a record|ttl|nameservers?|route ?53)\b|"
           r"\b[\w-]+\.(?:com|io|net|org|dev)\b",
    "test": r"\b(?:tests?|specs?|xfail|ci|pipelines?|suites?|pytest|jest)\b|\btest_\w+",
    "git": r"\b(?:branch\w*|history|origin|main|master|develop|commits?|rebase|git)\b",
    "cache": r"\b(?:cach\w*|cdn|redis|memcached?|max-age|cache-control|varnish|cloudfront)\b",
    "time": r"\b(?:dates?|times?|timezones?|tz|utc|midnight|today|yesterday|daily|nightly|timestamps?|"
            r"\d{1,2} ?(?:am|pm)|calendar|dst)\b",
    "email": r"\b(?:e-?mails?|mail\w*|newsletters?|announcements?|digests?|notifications?|every (?:customer|user)|"
             r"all (?:customers|users))\b",
    "logging": r"\b(?:logs?|logg\w*|log level|verbose|debug|payloads?|bodies|body|pii|stdout)\b",
    "frontend": r"\b(?:frontend|front-end|assets?|static|bundles?|webpack|vite|css|js|javascript|cache headers)\b",
    "mobile": r"\b(?:ios|android|app ?store|play store|testflight|mobile|app builds?|apk|ipa)\b",
    "queue": r"\b(?:queues?|sqs|kafka|rabbit\w*|messages?|backlog|consumers?|workers?|dead[- ]letter|dlq|topics?)\b",
    "job": r"\b(?:cron\w*|jobs?|scheduled|schedules?|exports?|batch|nightly|weekly|digest)\b",
    "upload": r"\b(?:uploads?|attach\w*|files?|pictures?|images?|avatars?|photos?)\b",
    "search": r"\b(?:elasticsearch|elastic|opensearch|solr|search index|mappings?|analy[sz]ers?|reindex\w*|ngram)\b",
    "billing": r"\b(?:prices?|pricing|plans?|subscriptions?|stripe|billing|invoices?|charges?)\b|\$\d+",
}


def same_action(task: str, trigger: str) -> frozenset[str]:
    """The ``verb:object`` classes a task and a trigger share (empty unless they share both a kind of action and a
    kind of thing acted on)."""
    verbs = _classes(task, "verbs") & _classes(trigger, "verbs")
    things = _classes(task, "objects") & _classes(trigger, "objects")
    return frozenset(f"{verb}:{thing}" for verb in verbs for thing in things)


@functools.lru_cache(maxsize=4096)
def _classes(text: str, kind: Literal["verbs", "objects"]) -> frozenset[str]:
    table = VERBS if kind == "verbs" else OBJECTS
    return frozenset(name for name, pattern in table.items() if _compiled(pattern).search(text))
