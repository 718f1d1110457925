"""Anti-patterns: error/resolution pairs that recur in task traces become corrections.

Every resolved item of an active episode's ``errors`` (see ``capture/trace.py``) is embedded by its action,
error and resolution, and clustered like ``promote``'s cues. A cluster seen in at least
``lifecycle.promotion_min_sessions`` sessions becomes one correction: ``trigger`` is the action that
failed (``running `npm test```), ``lesson`` the resolution as an imperative ("Add an empty
app/clients/__init__.py"), and ``links`` point ``derived_from`` each episode, with ``note: errors[N]``
naming the pair inside it. A cluster any of whose pairs a correction already derives from is not
promoted again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from loa_memory.capture.trace import SHELL_TOOLS, clip
from loa_memory.lifecycle.clusters import Cluster, greedy
from loa_memory.model import Entry
from loa_memory.store.config import Config
from loa_memory.store.load import Grimoire

KIND = "anti-pattern"
_LEADS = re.compile(r"^(?:(?:so|ok|okay|then|and)\b[\s,]*)?(?:i |we )?(?:(?:have |'ve )?(?:fixed|resolved|solved)"
                    r"(?: it| this| that| the \w+)? by|the fix (?:was|is)(?: to)?|it turned out(?: that)?|turns out"
                    r"(?: that)?|the (?:root )?(?:cause|problem|issue) (?:was|is)(?: that)?)[\s:,]*", re.IGNORECASE)
_CAUSE = re.compile(r"\b(?:turn(?:s|ed) out|cause|problem|issue)\b", re.IGNORECASE)
_TAIL = re.compile(r"(?:,? and (?:the |now |it |everything )|,? so (?:the |now |it )|[;—]| - ).*$", re.IGNORECASE)
_GERUNDS = {"adding": "add", "running": "run", "using": "use", "installing": "install", "setting": "set",
            "passing": "pass", "removing": "remove", "changing": "change", "updating": "update", "pinning": "pin",
            "quoting": "quote", "calling": "call", "importing": "import", "creating": "create", "moving": "move",
            "renaming": "rename", "replacing": "replace", "upgrading": "upgrade", "downgrading": "downgrade",
            "restarting": "restart", "clearing": "clear", "deleting": "delete", "enabling": "enable",
            "disabling": "disable", "making": "make", "putting": "put", "writing": "write", "reading": "read",
            "exporting": "export", "declaring": "declare", "escaping": "escape", "configuring": "configure"}


def pair_text(pair: dict[str, Any]) -> str:
    return f"{pair.get('action', '')}\n{pair['error']}\n{pair.get('resolution', '')}".strip()


def trigger_of(action: str) -> str:
    """The action a correction guards: ``Bash: npm test`` → ``running `npm test```."""
    name, _, target = action.partition(": ")
    if name.lower() in SHELL_TOOLS and target:
        return f"running `{target}`"
    return f"{name} on {target}" if target else name


def lesson_of(resolution: str) -> str:
    """A resolution as an imperative: lead phrases and trailing reports cut, a leading gerund made a verb."""
    text = _LEADS.sub("", resolution.strip(), count=1)
    cause = text != resolution.strip() and _CAUSE.search(resolution[:40] or "") is not None
    text = _TAIL.sub("", text).strip().rstrip(".!")
    first, _, rest = text.partition(" ")
    verb = _GERUNDS.get(first.lower())
    if verb:
        text = f"{verb} {rest}".strip()
    elif cause:
        text = f"check first: {text}"
    return (text[:1].upper() + text[1:]) if text else resolution


def trace_pairs(grimoire: Grimoire, world: str | None = None) -> list[tuple[Entry, int, dict[str, Any]]]:
    """Every resolved error of an active episode (of ``world``), oldest first, with its index in ``errors``."""
    found = []
    for entry in grimoire.entries:
        errors = entry.data.get("errors")
        if entry.category != "episode" or not isinstance(errors, list) or grimoire.status(entry) != "active":
            continue
        if world is not None and entry.world != world:
            continue
        found += [(entry, n, pair) for n, pair in enumerate(errors)
                  if isinstance(pair, dict) and pair.get("error") and pair.get("resolution")]
    return sorted(found, key=lambda t: (t[0].timestamp, t[0].id, t[1]))


def cluster_pairs(config: Config, grimoire: Grimoire, threshold: float, warnings: list[str] | None = None,
                  world: str | None = None, progress: Callable[[int, int], None] | None = None) -> list[Cluster]:
    """Recurring error/resolution pairs, clustered by cosine similarity of their text."""
    from loa_memory.search.retriever import Retriever

    pairs = trace_pairs(grimoire, world)
    if not pairs:
        return []
    retriever = Retriever(config, grimoire, progress, waits=True)
    matrix = retriever.vectors([pair_text(p) for _e, _n, p in pairs], cache=True)
    if warnings is not None:
        warnings.extend(retriever.warnings)
    clusters = greedy([(entry, KIND, n) for entry, n, _p in pairs], matrix, threshold)
    derived = {(link.to, link.note): e.id for e in grimoire.entries if e.category == "correction"
               for link in e.links if link.relation == "derived_from"}
    for cluster in clusters:
        cluster.promoted_as = next((derived[key] for e, n in zip(cluster.episodes, cluster.slots, strict=True)
                                    if (key := (e.id, f"errors[{n}]")) in derived), None)
    return clusters


def central_pair(cluster: Cluster) -> dict[str, Any]:
    index = cluster.central_index()
    pair: dict[str, Any] = cluster.episodes[index].data["errors"][cluster.slots[index]]
    return pair


def correction_fields(config: Config, cluster: Cluster) -> dict[str, Any]:
    """The correction a cluster of error/resolution pairs becomes (before ``complete_entry``)."""
    pair = central_pair(cluster)
    action = str(pair.get("action") or "this action")
    trigger, lesson = trigger_of(action), lesson_of(str(pair["resolution"]))
    content = (f"`{action}` failed with: {pair['error']}\nWhat fixed it: {pair['resolution']}\n"
               f"Seen in {len(cluster.sessions)} sessions.")
    cat = config.category("correction")
    confidence = max(cat.min_confidence, min(0.95, 0.7 + 0.05 * len(cluster.sessions)))
    return {"category": "correction", "summary": clip(f"{lesson} (before {trigger})", 200), "content": content,
            "confidence": round(confidence, 2), "trigger": trigger, "lesson": lesson,
            "tags": ["anti-pattern"], "source": {"agent": "promote", "capture": "promote"},
            "links": [{"to": e.id, "relation": "derived_from", "note": f"errors[{n}]"}
                      for e, n in zip(cluster.episodes, cluster.slots, strict=True)]}


def describe(cluster: Cluster) -> dict[str, Any]:
    pair = central_pair(cluster)
    return {"kind": KIND, "summary": clip(f"{pair.get('action', '')}: {pair['error']}", 200),
            "episodes": list(dict.fromkeys(e.id for e in cluster.episodes)), "sessions": cluster.sessions}
