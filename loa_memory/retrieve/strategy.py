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
