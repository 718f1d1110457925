"""``recall``: the memories that bear on a task, within a token budget, most important first.

Progressive disclosure: cues first (corrections as ``BEFORE <trigger>: <lesson>``, then preferences),
then an index of what exists (one line each), a timeline of recent key decisions, and full entries
while the budget lasts. Corrections fire when their trigger describes the task's action, in any words:
the task's embedding against the trigger's, lifted when both name the same action type.
"""

from __future__ import annotations

import itertools
import json
import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from loa_memory.answer.adapter import adapted, task_map
from loa_memory.answer.imperatives import correction_line, preference_line
from loa_memory.answer.typical import Baseline, sources
from loa_memory.model import Entry, Finding, headline
from loa_memory.render.problems import problem_records
from loa_memory.search.retriever import Retriever
from loa_memory.search.search import Hit, SearchOptions, check_query, run
from loa_memory.search.strategy import TaskType, actions, detect_task_type, same_action
from loa_memory.store.config import Config
from loa_memory.store.env import env_session_id
from loa_memory.store.load import Grimoire, load_grimoire
from loa_memory.store.relations import Contradiction, contradictions
from loa_memory.store.times import format_time, now_utc
from loa_memory.tuning.profiles import profile_weights, select_profile

# Correction cues, calibrated on benchmarks/data/cues, benchmarks/data/retrieval and the task sets of blind activation
# sets 1-6 pooled (docs/retrieval.md#recall). A correction's relevance to a task: the better of the task's cosines to
# its trigger and to its whole text, plus SAME_ACTION_LIFT when task and trigger do the same kind of thing to the
# same kind of object, plus COVERAGE_SHARE times the share of the task's words (synonyms included) the correction
# holds; measured in deviations above the task's relevance to a typical memory of the grimoire, plus CUE_WORDS times
# the names they share in deviations (``answer/cues/words.py``, trusted by the grimoire's size as for action cues).
# It fires when that reaches CUE_STANDOUT (from meaning's bar alone to the sum's as names earn trust) and is within
# CUE_MARGIN of the best correction's. A task that asks for prose (document, explain, summarise) fires only a
# correction that names the same kind of action; one that asks for tests, only such a correction or one about tests.
# One that only sets a value in a file ("bump the image to 2.7.1", "scale invoice-service to 4 replicas"), not on a
# live system, fires only a correction that names the same kind of action or whose trigger is about changing a value.
# With a task adapter for the embedder (``adapter.py``: MPNet) the task's vector is first turned towards the triggers
# it pulls, for the trigger cosines and the typical memory alike; the deviations then count with FIT_WEIGHT times the
# relevance itself (before the action lift), against ADAPTED_STANDOUT and within ADAPTED_MARGIN of the best: a
# trigger the task fits well in plain terms needs to stand out less from a grimoire whose memories spread widely
# (fitted on cue sets f-k, written blind after the map, at 0.25 corrections per task without one; checked on blind
# activation sets 72-77 and cue sets b-e: benchmarks/reports/recall-fit.md).
CUE_STANDOUT = (3.5, 5.5)  # meaning alone, meaning and names at full trust
CUE_MARGIN = 1.0
ADAPTED_STANDOUT = (10.55, 12.55)  # deviations plus FIT_WEIGHT x relevance, the task's vector turned (``adapter.py``)
ADAPTED_MARGIN = 0.5
FIT_WEIGHT = 20.0
CUE_WORDS = 0.5
SAME_ACTION_LIFT = 0.10
COVERAGE_SHARE = 0.3
LEXICAL_DEPTH = 300  # word matches beyond this many entries add nothing worth counting
# Preference cues: the task's cosine to the preference's context and headline (plus ACTION_LIFT for a shared
# specific action) reaches PREFERENCE_THRESHOLD and is within PREFERENCE_MARGIN of the best preference.
PREFERENCE_THRESHOLD = 0.43
PREFERENCE_MARGIN = 0.12
ACTION_LIFT = 0.10
SPECIFIC_ACTIONS = frozenset({"schema-change", "data-deletion", "dependency-change", "credentials", "git-history",
                              "release", "datetime", "email"})
RELEVANCE_FLOOR = 0.3  # index entries below this fused score are noise, not memory
MAX_CORRECTIONS = 2
MAX_PREFERENCES = 2
TIMELINE = 5
# asked in any sentence of the task: "Our migrations folder has no README. Write a short one ..."
_ASKS_FOR_PROSE = re.compile(r"(?:^|(?<=[.!?:])\s++)(?i:(?:please\s+)?(?:document|explain|summari[sz]e|describe|"
                             r"(?:write|add|create|draft)\s+(?:(?:a|an|the|some)\s+)?(?:short\s+|new\s+)?"
                             r"(?:runbook|readme|documentation|docs|doc page|wiki page|how-?to|postmortem)|"
                             r"add (?:a|an) (?:section|paragraph|note) to (?:the )?(?:readme|docs?|contributing|"
                             r"changelog)|update (?:the )?(?:readme|docs?|changelog)|"
                             # a comment in the code documents it as a runbook would
                             r"(?:write|add)\s+(?:(?:a|an|some)\s+)?(?:short\s+)?(?:doc)?(?:comments?|docstrings?)|"
                             # so do a typo fixed, a changelog entry and release notes
                             r"(?:fix|correct)\s+(?:(?:the|a|two|some)\s+)?typos?|"
                             r"(?:write|add|draft|create)\s+(?:(?:a|an|the)\s+)?(?:changelog(?:\s+entry)?|"
                             r"release\s+notes?)))\b")
# the start of a task that only asks to look, and a clause that acts (see ``_only_looks``)
_ONLY_LOOKS = re.compile(r"\A(?i:(?:quick question[^:?]{0,80}:\s*)?(?:list|find|show me|which|where|what|who|"
                         r"how many|how much|how (?:does|do|did|is|are)|walk me through|is|are|does|do|did|has|have|"
                         r"tell me|look (?:at|into|through)|"
                         r"check (?:whether|if)|count|why|when (?:was|were|is|are|did|does|do|has|have|will)))\b")
_ACTS = re.compile(r"(?:\A|(?<=[.!?:;,])\s*+|\b(?:and|then|please|just|also)\s+)(?i:add|fix|change|update|delete|"
                   r"remove|make|set|create|write|implement|run|deploy|scale|restart|bump|rename|move|upgrade|migrate|drop|"
                   r"push|merge|apply|install|rotate|wipe|clean|squash|rebase|revert|display|convert|hook|wire|send|"
                   r"store|use|switch|replace|point|enable|disable|suggest|flush|purge|kill|stop|start|trigger)\b")
# looking at production data can itself be the mistake ("How many session keys are in the prod Redis?": KEYS)
_PRODUCTION = re.compile(r"(?i:\b(?:prod|production)\b)")
_DATA = re.compile(r"(?i:\b(?:redis|cache|database|db|table|keys|bq|bigquery|warehouse|postgres|mysql|sql|query|"
                   r"rows)\b)")
# a task that only sets a value: a verb of change, then within the clause "to" a number, a version or a log level
# ("bump the recommendations image to 2.7.1", "scale invoice-service to 4 replicas", "raise its memory limit to 1Gi")
_SETS_A_VALUE = re.compile(r"(?i)\b(?:bump|scale|raise|lower|increase|decrease|reduce|change|update|turn|set|upgrade|"
                           r"downgrade)\b[^.?!]{0,80}?\b(?:to|->)\s+(?:v?\d[\w.]*|warn|warning|debug|info|error)\b")
# ... on a live system rather than in a file: production, a host, the CLI ("on lb-02", "on pg-main-03 in prod")
_LIVE = re.compile(r"(?i)\b(?:prod|production|live|cli|box|servers?|hosts?|there|staging)\b|"
                   r"\b[a-z]++(?:-[a-z]++){0,4}+-\d++\b")
# a trigger about changing a value itself ("lower a timeout value", "changing the partition count of a topic")
_CHANGES_A_VALUE = re.compile(r"(?i)\b(?:chang|rais|lower|increas|reduc|decreas|bump|tun|scal|upgrad|downgrad)"
                              r"(?:e|es|ed|ing)?\b")
_WRITES_TESTS = re.compile(r"\A(?i:(?:please\s+)?(?:(?:add|write|fix|extend)\s+(?:(?:a|an|the|some|more)\s+)?"
                           r"(?:[\w.()-]++\s++){0,3}(?:tests?|specs?|fixtures?|stor(?:y|ies))|storybook\s+stor(?:y|ies)))\b")


def tokens(text: str) -> int:
    """A token estimate (≈ 4 characters each), good enough for budgeting."""
    return max(1, (len(text) + 3) // 4)


@dataclass(frozen=True)
class RecallOptions:
    task: str
    budget: int = 1500
    task_type: TaskType | None = None
    worlds: Sequence[str] = ()
    k: int = 12
    profile: str | None = None  # a weight profile by name; None: the adaptive policy's or the configured one


@dataclass
class Cue:
    entry: Entry
    relevance: float
    shared_actions: frozenset[str]
    standout: float = 0.0  # deviations above the task's typical memory, meaning and names (corrections only)
    fit: float = 0.0  # the relevance before the action lift (corrections only)

    @property
    def imperative(self) -> str:
        """``BEFORE <trigger>: <lesson> (id)`` or ``PREFER (when <context>): ... (id)`` (``imperatives.py``)."""
        if self.entry.category == "correction":
            return correction_line(self.entry, (self.entry.triggers or [self.entry.summary])[0])
        return preference_line(self.entry)


@dataclass
class Recall:
    task: str
    task_type: TaskType
    budget: int
    corrections: list[Cue] = field(default_factory=list)
    preferences: list[Cue] = field(default_factory=list)
    index: list[Hit] = field(default_factory=list)
    timeline: list[Entry] = field(default_factory=list)
    full: list[Hit] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
    economics: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    recall_id: str = ""
    profile: str = "default"
    selected_by: str = "config"
    weights: dict[str, Any] = field(default_factory=dict)
    problems: list[Finding] = field(default_factory=list)  # files skipped because they do not parse
    not_embedded: int = 0  # entries found by words only: no vector yet (being embedded in the background)


def _corrections(retriever: Retriever, task: str, task_vector: Any, now: datetime) -> list[Cue]:
    """The corrections whose trigger the task is about to pull, best first."""
    grimoire = retriever.grimoire
    candidates = grimoire.active_of("correction", now)
    if not candidates or _only_looks(task):
        return []
    from loa_memory.answer.cues.inert import about_tests  # lazily: loads the cues package, only with corrections
    from loa_memory.answer.cues.words import shared_names

    embedder = retriever.sidecar().embedder
    query = adapted(task_vector, task_map(embedder.name, embedder.dim))  # the task as triggers say it
    plain = query is task_vector  # no adapter for this embedder: deviations alone
    cosine = dict(retriever.semantic(task, vector=query))
    coverage = {key: cov for key, _, cov in retriever.lexical(task, LEXICAL_DEPTH)}
    baseline = Baseline({key: cos + COVERAGE_SHARE * coverage.get(key, 0.0) for key, cos in cosine.items()})
    names = shared_names(grimoire, task)
    prose = _ASKS_FOR_PROSE.search(task.strip()) is not None
    tests = _WRITES_TESTS.match(task.strip()) is not None
    sets_a_value = _SETS_A_VALUE.search(task) is not None and _LIVE.search(task) is None
    phrasings = [e.triggers or [_cue_text(e)] for e in candidates]  # a correction may name several triggers
    to_trigger = retriever.vectors([t for texts in phrasings for t in texts], cache=True) @ query
    scored = []
    start = 0
    for entry, texts in zip(candidates, phrasings, strict=True):
        key = grimoire.key_of(entry) or ""
        best = max(float(s) for s in to_trigger[start:start + len(texts)])
        start += len(texts)
        shared = frozenset().union(*(same_action(task, t) for t in texts))
        if (prose or (tests and not about_tests([*texts, entry.summary]))) and not shared:
            continue  # documenting, explaining or testing the area is not doing the guarded thing
        if sets_a_value and not shared and not _CHANGES_A_VALUE.search(" ".join(texts)):
            continue  # a value set in a file (an image tag, a replica count) tunes the code, it does not do the action
        fit = max(best, cosine.get(key, -1.0)) + COVERAGE_SHARE * coverage.get(key, 0.0)
        relevance = fit + (SAME_ACTION_LIFT if shared else 0.0)
        own = sources(grimoire, entry)  # its own episodes are not typical memories
        mean, deviation = baseline.without(own)
        standout = (relevance - mean) / deviation + CUE_WORDS * names.trust * names.deviations(key, own)
        scored.append(Cue(entry, relevance, shared, standout, fit))
    return fire_corrections(scored, names.trust, plain)


def fire_corrections(scored: list[Cue], trust: float, plain: bool) -> list[Cue]:
    """Those of ``scored`` that fire, best first: with no task adapter (``plain``) by their deviations against
    CUE_STANDOUT, with one by their deviations plus FIT_WEIGHT times their fit against ADAPTED_STANDOUT; the bar
    moves from low to high as ``trust`` in shared names grows, and a cue fires only within CUE_MARGIN (ADAPTED_MARGIN)
    of the best."""
    if not scored:
        return []
    low, high = CUE_STANDOUT if plain else ADAPTED_STANDOUT
    bar = low + (high - low) * trust
    score = {id(c): c.standout + (0.0 if plain else FIT_WEIGHT * c.fit) for c in scored}
    best = max(score.values())
    margin = CUE_MARGIN if plain else ADAPTED_MARGIN
    cues = [c for c in scored if score[id(c)] >= bar and score[id(c)] >= best - margin]
    cues.sort(key=lambda c: -score[id(c)])
    return cues


def _only_looks(task: str) -> bool:
    """Whether ``task`` only asks to look ("Which of our components use dangerouslySetInnerHTML? Just list them."):
    no clause acts, and it reads no production data, where looking can be the mistake (counting session keys with
    ``KEYS`` on the prod Redis)."""
    text = task.strip()
    return (_ONLY_LOOKS.match(text) is not None and _ACTS.search(text) is None
            and not (_PRODUCTION.search(text) and _DATA.search(text)))


def _preferences(retriever: Retriever, task: str, task_vector: Any, now: datetime) -> list[Cue]:
    """The preferences whose context the task falls in, best first."""
    grimoire = retriever.grimoire
    candidates = grimoire.active_of("preference", now)
    if not candidates:
        return []
    task_actions = actions(task)
    cue_texts = [_cue_text(e) for e in candidates]
    similarity = retriever.vectors(cue_texts, cache=True) @ task_vector
    scored = []
    for n, entry in enumerate(candidates):
        shared = task_actions & actions(cue_texts[n])
        lift = ACTION_LIFT if shared & SPECIFIC_ACTIONS else 0.0
        scored.append(Cue(entry, float(similarity[n]) + lift, frozenset(shared)))
    best = max(c.relevance for c in scored)
    cues = [c for c in scored if c.relevance >= PREFERENCE_THRESHOLD and c.relevance >= best - PREFERENCE_MARGIN]
    cues.sort(key=lambda c: -c.relevance)
    return cues


def _cue_text(entry: Entry) -> str:
    """What a cue guards: a correction's trigger; a preference's context and summary."""
    if entry.category == "correction" and entry.trigger:
        return entry.trigger
    context = str(entry.data.get("context") or "")
    return f"{context} {headline(entry)}".strip()


def recall(config: Config, options: RecallOptions, *, grimoire: Grimoire | None = None,
           now: datetime | None = None) -> Recall:
    """Assemble what an agent should know before ``options.task``."""
    check_query(options.task, "the task")
    moment = now or now_utc()
    grimoire = grimoire or load_grimoire(config, options.worlds or None)
    retriever = Retriever(config, grimoire)
    task_type = options.task_type or detect_task_type(options.task)
    recall_id = uuid.uuid4().hex[:16]
    selection = select_profile(config, task_type, recall_id, options.profile, moment)
    weights = profile_weights(config, selection.profile, task_type)
    found = run(retriever, SearchOptions(options.task, k=max(options.k * 2, 20), worlds=options.worlds),
                weights=weights, now=moment)
    result = Recall(options.task, task_type, options.budget, warnings=list(found.warnings), recall_id=recall_id,
                    profile=selection.profile.name, selected_by=selection.selected_by,
                    weights=selection.profile.weights_record(task_type), problems=grimoire.unreadable)
    if selection.warning:
        result.warnings.append(selection.warning)
    task_vector = retriever.vectors([options.task])[0]
    result.corrections = _corrections(retriever, options.task, task_vector, moment)[:MAX_CORRECTIONS]
    result.preferences = _preferences(retriever, options.task, task_vector, moment)[:MAX_PREFERENCES]
    cue_ids = {c.entry.id for c in [*result.corrections, *result.preferences]}
    ranked = [h for h in found.hits if h.entry.id not in cue_ids and h.score >= RELEVANCE_FLOOR
              and h.entry.category not in ("correction", "preference")]
    _disclose(result, ranked, grimoire, options, moment)
    result.not_embedded = max(found.unembedded, retriever.unembedded)
    return result


def _disclose(result: Recall, ranked: list[Hit], grimoire: Grimoire, options: RecallOptions, now: datetime) -> None:
    """Fill the layers within the budget: cues, index, timeline, then full entries."""
    spent = sum(tokens(c.imperative) for c in [*result.corrections, *result.preferences])
    index_tokens = timeline_tokens = 0
    for hit in ranked[: options.k]:
        line = index_line(hit.entry)
        if spent + tokens(line) > options.budget:
            break
        result.index.append(hit)
        spent += tokens(line)
        index_tokens += tokens(line)
    if "decisions-newest-first" not in grimoire.derived:
        grimoire.derived["decisions-newest-first"] = sorted(
            (e for e in grimoire.of_category("decision") if not e.archived), key=lambda e: e.timestamp, reverse=True)
    decisions = (e for e in grimoire.derived["decisions-newest-first"] if grimoire.status(e, now) == "active")
    for entry in itertools.islice(decisions, TIMELINE):
        line = timeline_line(entry)
        if spent + tokens(line) > options.budget:
            break
        result.timeline.append(entry)
        spent += tokens(line)
        timeline_tokens += tokens(line)
    read = 0
    for hit in result.index:
        cost = tokens(full_text(hit.entry))
        if spent + cost > options.budget:
            continue
        result.full.append(hit)
        spent += cost
        read += cost
    shown = {h.entry.id for h in result.index} | {c.entry.id for c in [*result.corrections, *result.preferences]}
    result.contradictions = [c for c in contradictions(grimoire, now) if c.ids & shown]
    everything = _full_load_tokens(grimoire, now)
    cue_tokens = sum(tokens(c.imperative) for c in [*result.corrections, *result.preferences])
    result.economics = {
        "discovery_tokens": index_tokens + timeline_tokens, "index_tokens": index_tokens,
        "timeline_tokens": timeline_tokens, "read_tokens": read, "cue_tokens": cue_tokens, "total_tokens": spent,
        "full_load_tokens": everything, "tokens_saved": max(0, everything - spent), "budget": options.budget,
        "savings_pct": round(100 * (1 - spent / everything), 1) if everything else 0.0,
        "layer3_loads": len(result.full), "timeline_entries": len(result.timeline),
    }


def index_line(entry: Entry) -> str:
    return f"{entry.id} [{entry.category}] {headline(entry)}"


def timeline_line(entry: Entry) -> str:
    return f"{entry.timestamp[:10]} {entry.id} {headline(entry)}"


def _full_load_tokens(grimoire: Grimoire, now: datetime) -> int:
    """What loading every active entry would cost, for the savings figure (kept with the grimoire for a
    minute: at 10,000 entries it is most of a recall's work)."""
    slot = ("full-load-tokens", now.replace(second=0, microsecond=0))
    if slot not in grimoire.derived:
        grimoire.derived[slot] = sum(tokens(full_text(e)) for e in grimoire.entries
                                     if not e.archived and grimoire.status(e, now) == "active")
    return int(grimoire.derived[slot])


def full_text(entry: Entry) -> str:
    parts = [f"{entry.id} [{entry.category}] {headline(entry)}", entry.content]
    for key in ("rationale", "resolution", "lesson"):
        if entry.data.get(key):
            parts.append(f"{key}: {entry.data[key]}")
    for alt in entry.data.get("alternatives") or []:
        if isinstance(alt, dict):
            parts.append(f"rejected {alt.get('option')}: {alt.get('rejected_because', '')}")
    return "\n".join(str(p) for p in parts if p)


def has_findings(result: Recall) -> bool:
    """Whether the recall found anything bearing on the task (the recent-decisions timeline alone does not count)."""
    return bool(result.corrections or result.preferences or result.index or result.full or result.contradictions)


ECONOMICS_LOG = "token_economics.jsonl"


def shown_ids(result: Recall) -> list[str]:
    """The memories a recall showed: its cues, then its index."""
    return [c.entry.id for c in [*result.corrections, *result.preferences]] + [h.entry.id for h in result.index]


def log_economics(config: Config, result: Recall, now: datetime | None = None,
                  session_id: str | None = None) -> None:
    """Append one line about this recall to ``.loa/token_economics.jsonl``: its token economics, the weight
    profile and weights that served it, and the memories it showed and read in full (one ``write`` of one
    short line in append mode, so concurrent recalls never interleave)."""
    from loa_memory.store.lock import ensure_local_dir

    ensure_local_dir(config.local_dir)
    record = {"at": format_time(now or now_utc()), "recall_id": result.recall_id, "task_type": result.task_type,
              **result.economics, "profile": result.profile, "selected_by": result.selected_by,
              "weights": result.weights, "shown": shown_ids(result), "read": [h.entry.id for h in result.full],
              "session_id": session_id or env_session_id() or ""}
    with open(config.local_dir / ECONOMICS_LOG, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record, sort_keys=True) + "\n")


def contradiction_record(pair: Contradiction) -> dict[str, Any]:
    """Both sides of an unresolved contradiction: ``a`` holds the ``contradicts`` link to ``b``."""
    return {"a": pair.holder.id, "b": pair.other.id, "a_says": headline(pair.holder),
            "b_says": headline(pair.other), "note": pair.note or None,
            "resolve": f"loa-memory supersede {pair.other.id} ... (or {pair.holder.id})"}


def recall_budget(config: Config, budget: int | None = None) -> int:
    """``budget``, else ``retrieval.budget`` (1500 tokens)."""
    return budget or int(config.retrieval.budget)


def recall_record(result: Recall) -> dict[str, Any]:
    """The stable JSON shape of a recall."""
    def cue(c: Cue) -> dict[str, Any]:
        return {"id": c.entry.id, "category": c.entry.category, "world": c.entry.world, "imperative": c.imperative,
                "relevance": round(c.relevance, 4), "shared_actions": sorted(c.shared_actions),
                "entry": dict(c.entry.data)}

    return {
        "task": result.task, "task_type": result.task_type, "budget": result.budget,
        "recall_id": result.recall_id, "profile": {"name": result.profile, "selected_by": result.selected_by},
        "corrections": [cue(c) for c in result.corrections],
        "preferences": [cue(c) for c in result.preferences],
        "index": [{"id": h.entry.id, "category": h.entry.category, "world": h.entry.world,
                   "summary": headline(h.entry),
                   "score": round(h.score, 4)} for h in result.index],
        "timeline": [{"id": e.id, "date": e.timestamp[:10], "summary": headline(e)} for e in result.timeline],
        "entries": [{"id": h.entry.id, "category": h.entry.category, "world": h.entry.world,
                     "text": full_text(h.entry),
                     "entry": dict(h.entry.data)} for h in result.full],
        "contradictions": [contradiction_record(c) for c in result.contradictions],
        "economics": result.economics,
        "warnings": result.warnings,
        "problems": problem_records(result.problems),
        "not_embedded": result.not_embedded,
    }
