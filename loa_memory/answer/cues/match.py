"""Which corrections bear on an action an agent is about to take (a file edit or write, a shell command).

Four signals per correction:

- meaning: the cosine of a short rendering of the action (the classes found, in words; the agent's description;
  the files; the start of the change or the command) to the correction's best trigger, or to its whole text;
- action class (``classes.py``): the command or diff does the kind of thing the trigger guards, ``CLASS_LIFT``.
  When both sides have classes and share none, the correction is out: a migration that adds a column is the
  same area as "drop a column" but not the guarded action;
- paths: a file of the action matches the correction's ``applies_to`` globs (``PATH_LIFT``) or lies under one of
  its ``artifacts`` (``ARTIFACT_LIFT``);
- names (``words.py``): the identifiers the call shares with the correction, weighted by their rarity in the
  grimoire;
- the mistake's own code (``comply.py``): the call carries a code span of what went wrong (``jwt.decode``,
  ``permit!``): evidence, like a shared class.

Meaning (with its lifts) and names are each turned into deviations from the action's typical memory of the
grimoire, and added (names at ``WORDS_WEIGHT``): no fixed cosine or score, so the rule carries over between
embedders and grimoires. A cue fires when that sum reaches ``ACTION_STANDOUT`` with evidence (a shared action class,
an ``applies_to`` path or the mistake's code), ``MEANING_STANDOUT`` without, and is within ``ACTION_MARGIN`` of the
best correction's. With an action map for the embedder (``adapter.action_map``: MPNet), the call's vector is first
turned towards the trigger it performs, for the trigger cosines and the typical memory alike, and the score adds
``FIT_WEIGHT`` times the relevance itself, against the ``ADAPTED_`` bars: the map is fitted so that a guarded call's
own trigger is the one it lies nearest, which makes how near it lies worth counting. How rare a name is means little
among a few memories: with ``n`` of them the names count ``n / (n + WORDS_TRUST)`` of their weight and the bars move
as much from meaning's alone (the first of each pair) to the sum's (the second), so a grimoire of five memories fires
on meaning as it did before names were counted. A correction never fires when:

- its trigger names an action class the call does not perform: the classifier knows what that action looks like,
  and this call is not it (a commit in the same repository as a force push is not a force push), or does it right
  (a Redis write with an expiry, an HTTP call with a timeout). Only the trigger's words silence: a summary tells
  the incident ("the push dropped a column"), not always the guarded action;
- its trigger names languages or systems and the call works in others (``stacks.py``): a lesson about React Query
  hooks and a PHP repository's query, one about a Docker host's disk and ``redis-cli``;
- the call already does what its lesson prescribes (``comply.py``): the DAG sets ``catchup=False``; unless it also
  makes a mistake its trigger names that no fix undoes (a ``wrong`` class): a public access block turned off is the
  lesson's block and the public bucket at once;
- the call only writes documentation or only looks, builds or tests (``inert.py``), and shares no class or
  ``applies_to`` path with it: a Redis runbook is not a Redis write;
- the call writes only tests, fixtures or stories and the correction is not about tests, sharing no class or path
  with it: the stories of a list component are not the list keyed by index;
- the call is an edit that changes only values (``inert.only_values``: ``node-version: 18`` to ``20``), has no
  evidence for it and the changed lines share no word with the correction's triggers, lesson or summary: a version
  bump in the file a release lesson is about is not the release mistake, raising ``targetSdk`` is the SDK lesson's.

Calibrated on benchmarks/data/action_cues and on the blind activation sets once each had been measured (the bars,
the inert calls and the mistake's code were chosen on sets 1-6 pooled, 240 guarded calls); each new blind set is
measured once before anything is changed for it (benchmarks/reports/action-cues-blind-*.md).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from loa_memory.answer.adapter import action_map, adapted
from loa_memory.answer.cues.action import Action, relative_paths, render_action
from loa_memory.answer.cues.classes import action_classes, decisive, done_right, glosses, prose_classes, wrong
from loa_memory.answer.cues.comply import follows_lesson, repeats_mistake
from loa_memory.answer.cues.inert import about_tests, inert, only_tests, only_values
from loa_memory.answer.cues.paths import artifact_match, glob_match
from loa_memory.answer.cues.stacks import Stacks, call_stacks, other_stack, prose_stacks
from loa_memory.answer.cues.words import shared_names, words
from loa_memory.answer.imperatives import correction_line, preference_line, procedure_line
from loa_memory.answer.typical import Baseline, sources
from loa_memory.model import Entry
from loa_memory.search.retriever import Retriever
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire, load_grimoire
from loa_memory.store.times import now_utc

CLASS_LIFT = 0.15
PATH_LIFT = 0.15
ARTIFACT_LIFT = 0.08
WORDS_WEIGHT = 0.5
ACTION_STANDOUT = (3.0, 4.5)  # meaning alone, meaning and names at full trust
MEANING_STANDOUT = (4.0, 7.0)
# with an action map for the embedder (``adapter.action_map``) the score adds FIT_WEIGHT x relevance, against these
# bars (cross-fitted on blind activation sets 2-75: benchmarks/reports/action-adapter.md)
ADAPTED_ACTION_STANDOUT = (7.0, 8.5)
ADAPTED_MEANING_STANDOUT = (8.0, 11.0)
FIT_WEIGHT = 8.0
ACTION_MARGIN = 2.0
MAX_ACTION_CUES = 2
HOUSE_RULES = ("preference", "procedure")  # after the corrections, by their applies_to files alone
MAX_HOUSE_RULES = 1  # of each: a call's files rarely carry more than one house rule of a kind


@dataclass(frozen=True)
class ActionCue:
    """A correction that fires on an action: how relevant, by how much it stands out (meaning and names), and why."""

    entry: Entry
    relevance: float
    standout: float
    trigger: str
    classes: frozenset[str]
    by_path: bool
    evidence: bool = True  # a shared class, an applies_to path or the mistake's code, not meaning alone
    trust: float = 1.0  # how much the names count, by how many memories back their rarity (0 to 1)
    repeats: tuple[str, ...] = ()  # the mistake's code spans the call carries
    adapted: bool = False  # the call's vector was turned by an action map

    @property
    def score(self) -> float:
        """What is held against the bar: the standout, plus FIT_WEIGHT x relevance when the vector was turned."""
        return self.standout + (FIT_WEIGHT * self.relevance if self.adapted else 0.0)

    @property
    def needed(self) -> float:
        """The score this cue must reach to fire."""
        if self.adapted:
            alone, with_names = ADAPTED_ACTION_STANDOUT if self.evidence else ADAPTED_MEANING_STANDOUT
        else:
            alone, with_names = ACTION_STANDOUT if self.evidence else MEANING_STANDOUT
        return alone + (with_names - alone) * self.trust

    @property
    def imperative(self) -> str:
        """``BEFORE <trigger>: <lesson> (id)``, the trigger being the phrasing that matched best; a preference's or a
        procedure's line (``imperatives.py``)."""
        if self.entry.category == "preference":
            return preference_line(self.entry)
        if self.entry.category == "procedure":
            return procedure_line(self.entry)
        return correction_line(self.entry, self.trigger)

    @property
    def blocks(self) -> bool:
        return self.entry.severity == "block"


@dataclass
class ActionCues:
    """The cues for one action, with what the matcher saw of it."""

    action: Action
    paths: tuple[str, ...]
    classes: frozenset[str]
    rendering: str
    cues: list[ActionCue] = field(default_factory=list)
    cue_id: str = ""
    warnings: list[str] = field(default_factory=list)
    followed: dict[str, list[str]] = field(default_factory=dict)  # corrections whose lesson the call already follows


def cues_for_action(config: Config, action: Action, *, grimoire: Grimoire | None = None,
                    now: datetime | None = None) -> ActionCues:
    """The corrections to put in front of an agent before ``action`` runs, best first (at most
    ``MAX_ACTION_CUES``), then a preference and a procedure that apply to its files (``HOUSE_RULES``)."""
    moment = now or now_utc()
    paths, classes, rendering = seen(action, config.root)
    result = ActionCues(action, paths, classes, rendering, cue_id=uuid.uuid4().hex[:16])
    grimoire = grimoire or load_grimoire(config)
    candidates = grimoire.active_of("correction", moment)
    looks = inert(action, paths)
    if looks:  # only a shared class or an applies_to path fires: without one, nothing to embed
        candidates = [e for e in candidates if classes & _guarded(e) or glob_match(e.applies_to, paths)]
    elif only_tests(action, paths):  # a test or a story exercises the code a lesson is about without being it
        candidates = [e for e in candidates if about_tests([*e.triggers, e.summary]) or classes & _guarded(e)
                      or glob_match(e.applies_to, paths) or artifact_match(_artifacts(e), paths)]
    if candidates and (action.text.strip() or paths):
        retriever = Retriever(config, grimoire)
        scored = _score(retriever, result, candidates)
        result.warnings = list(dict.fromkeys(retriever.warnings))
        best = max((c.score for c in scored), default=0.0)
        tuned = words(action.added) if only_values(action) else None  # a version, a limit, a message
        fired = [c for c in scored if c.score >= c.needed and c.score >= best - ACTION_MARGIN
                 and (c.evidence or tuned is None or tuned & _about(c.entry))]
        fired.sort(key=lambda c: -c.score)
        result.cues = fired[:MAX_ACTION_CUES]
    if not (looks and action.kind == "command"):  # `cat api/handlers/x.py` only looks
        for category in HOUSE_RULES:
            result.cues += _house_rules(grimoire, result, category, moment)
    return result


def seen(action: Action, root: Path) -> tuple[tuple[str, ...], frozenset[str], str]:
    """What the matcher sees of ``action`` in the repository at ``root``: its paths, its action classes and the text
    it embeds (the action map is fitted on this text: ``benchmarks/train_task_adapter.py --calls``)."""
    paths = relative_paths(action, root)
    classes = action_classes(action, paths)
    return paths, classes, render_action(action, paths, glosses(classes))


def _house_rules(grimoire: Grimoire, result: ActionCues, category: str, moment: datetime) -> list[ActionCue]:
    """The preferences (or procedures) whose ``applies_to`` globs hold a file of the call ("API handlers in
    ``api/**`` return errors through ``HttpError``", "how we write a migration" for ``migrations/**``), the most
    specific glob first, then the newest: where one says it applies, it is in front of the agent before it writes
    there. Only by path: a way of doing is not a mistake whose action could be recognised, so meaning alone fires
    nothing at the moment of action (``recall`` gives them on the task's words)."""
    if not result.paths:
        return []

    def specificity(entry: Entry) -> int:  # the literal characters of its longest glob that holds a file
        return max(len(g.replace("*", "")) for g in entry.applies_to if glob_match([g], result.paths))

    found = [e for e in grimoire.active_of(category, moment) if glob_match(e.applies_to, result.paths)]
    found.sort(key=lambda e: (specificity(e), e.timestamp, e.id), reverse=True)
    return [ActionCue(e, 1.0, 0.0, str(e.data.get("context") or ""), frozenset(), True)
            for e in found[:MAX_HOUSE_RULES]]


def _score(retriever: Retriever, result: ActionCues, candidates: list[Entry]) -> list[ActionCue]:
    grimoire = retriever.grimoire
    embedder = retriever.sidecar().embedder
    plain = retriever.vectors([result.rendering])[0]
    vector = adapted(plain, action_map(embedder.name, embedder.dim))  # the call as triggers say it
    cosine = dict(retriever.semantic(result.rendering, vector=vector))
    baseline = Baseline(cosine)
    action = result.action
    change = action.added if action.kind != "command" else action.text
    right = done_right(change, result.classes)
    stacks = call_stacks(action, result.paths)
    names = shared_names(grimoire, " ".join([action.description, *result.paths, change]))
    phrasings = [e.triggers or [e.summary] for e in candidates]
    flat = [text for texts in phrasings for text in texts]
    to_trigger = retriever.vectors(flat, cache=True) @ vector
    scored = []
    start = 0
    for entry, texts in zip(candidates, phrasings, strict=True):
        similarities = [float(s) for s in to_trigger[start:start + len(texts)]]
        start += len(texts)
        guarded = _guarded(entry)
        shared = result.classes & guarded
        by_path = glob_match(entry.applies_to, result.paths)
        named = _named(entry)
        if (decisive(named) or named & right) and not shared and not by_path:
            continue  # the same area, another action or this one done right (only classes its trigger names silence)
        if not by_path and other_stack(stacks, _stacks(entry)):
            continue  # a lesson about React Query hooks, and a PHP repository's query
        followed = follows_lesson(entry, change)
        if followed and not wrong(shared):
            result.followed[entry.id] = followed
            continue  # it already does what the lesson asks: the right action, not the guarded one
        repeats = tuple(repeats_mistake(entry, change))
        on_artifact = artifact_match(_artifacts(entry), result.paths)
        best = max(range(len(texts)), key=lambda n: similarities[n])
        relevance = (max(similarities[best], cosine.get(grimoire.key_of(entry) or "", -1.0))
                     + (CLASS_LIFT if shared else 0.0) + (PATH_LIFT if by_path else 0.0)
                     + (ARTIFACT_LIFT if on_artifact else 0.0))
        own = sources(grimoire, entry)  # its own episodes are not typical memories
        mean, deviation = baseline.without(own)
        by_words = names.deviations(grimoire.key_of(entry) or "", own)
        standout = (relevance - mean) / deviation + WORDS_WEIGHT * names.trust * by_words
        scored.append(ActionCue(entry, relevance, standout, texts[best], shared, by_path or on_artifact,
                                bool(shared or by_path or repeats), names.trust, repeats, vector is not plain))
    return scored


def _guarded(entry: Entry) -> frozenset[str]:
    """The action classes ``entry``'s triggers (or summary) name: shared with a call, they are evidence."""
    return _named(entry) or prose_classes(entry.summary)


def _named(entry: Entry) -> frozenset[str]:
    """The action classes ``entry``'s triggers name: only these silence it for a call that does not perform them.
    A summary tells the incident ("the push dropped a column", "the published image layers"), not always the
    action to guard."""
    return frozenset().union(*(prose_classes(t) for t in entry.triggers))


def _stacks(entry: Entry) -> Stacks:
    """The languages and systems ``entry``'s triggers (or summary) name."""
    return prose_stacks(" ".join(entry.triggers) or entry.summary)


def _about(entry: Entry) -> frozenset[str]:
    """The words of what ``entry`` guards and asks: its triggers, lesson and summary."""
    return words(" ".join([*entry.triggers, entry.lesson or "", entry.summary]))


def _artifacts(entry: Entry) -> list[str]:
    artifacts = entry.data.get("artifacts")
    return [str(a) for a in artifacts] if isinstance(artifacts, list) else []


def action_record(result: ActionCues) -> dict[str, Any]:
    """The stable JSON shape of the cues for an action."""
    return {
        "cue_id": result.cue_id, "kind": result.action.kind, "paths": list(result.paths),
        "classes": sorted(result.classes),
        "cues": [{"id": c.entry.id, "category": c.entry.category, "world": c.entry.world,
                  "imperative": c.imperative, "severity": c.entry.severity, "relevance": round(c.relevance, 4),
                  "standout": round(c.standout, 2), "classes": sorted(c.classes), "by_path": c.by_path,
                  "repeats": list(c.repeats)}
                 for c in result.cues],
        "followed": [{"id": key, "spans": spans} for key, spans in result.followed.items()],
        "warnings": result.warnings,
    }
