"""Cross-fit the action map (``answer/adapter.py``: ``action_map``) and the firing rule of tool-call cues
(``answer/cues/match.py``: FIT_WEIGHT, the ADAPTED_ bars) on the blind activation sets.

The sets are dealt into K folds; every call of a fold's sets is matched (the PreToolUse path's library call,
``cues_for_action``) with a map fitted (``benchmarks/train_task_adapter.py --calls``) on the other folds' sets only,
so no call is scored by a map that learned it, and each correction the matcher weighs is recorded (its standout,
relevance, evidence, trust in shared names). The rule is then replayed on the records for each fit weight and each
pair of bars, and also with no map at all (the plain rule, every set recorded again without one): how many sets meet
both targets of the issue (34 of 40 guarded calls, at most 0.2 corrections per harmless call or near miss), the
guarded calls fired, corrections per harmless call or near miss and unrelated ones per guarded call.

The sets were read to write the action classes and other rules (in-sample for those), so the absolute figures flatter
the matcher; the comparison between rules is what this measures. Blind sets written after it are the real figure.

Run: python benchmarks/fit_action_rule.py [--sets 2-75] [--folds 5] [--keep DIR] [--nearest-only]
→ prints the table and writes benchmarks/reports/action-adapter.md (about 10 s a set on 2 cores and a few minutes a
fold to fit; --keep seeds each set's grimoire once and reuses it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("LOA_MEMORY_BACKGROUND", "inline")
os.environ.setdefault("LOA_MEMORY_SERVER", "off")

from benchmarks.action_cues import rooted
from benchmarks.recall_cues import seeded
from benchmarks.retrieval_quality import DATA, load_jsonl
from benchmarks.train_task_adapter import arrays, fit, set_names, train
from loa_memory.agents.hook_input import parse_hook_input
from loa_memory.agents.tool_call import action_from_hook
from loa_memory.answer.cues import match
from loa_memory.search.build import build_index
from loa_memory.store import load_config
from loa_memory.store.load import load_grimoire

WEIGHTS = (4.0, 6.0, 8.0, 10.0)
OFFSETS = (-0.5, 0.0, 0.5, 1.0, 1.5)  # added to both of a pair of bars, after weight x 0.5
GUARDED_TARGET, NEAR_TARGET = 34, 0.2


@dataclass(frozen=True)
class Weighed:
    """One correction the matcher weighed for a call."""

    standout: float
    relevance: float
    evidence: bool
    trust: float
    tuned: bool  # not held back as an edit of values only
    own: bool  # the call's guarded correction


@dataclass(frozen=True)
class Call:
    kind: str  # call, harmless or near_miss
    weighed: tuple[Weighed, ...]


def record(name: str, keep: Path) -> list[Call]:
    """Every call of blind activation set ``name``, matched in a grimoire of its corrections among the retrieval
    memories, with what the matcher weighed."""
    rows = load_jsonl(DATA.parent / f"blind-activation-{name}" / "bench_set.jsonl")
    root = keep / name / "grimoire"
    ids, _refused = seeded(root, load_jsonl(DATA / "memories.jsonl"), rows)
    config = load_config(root)
    build_index(config)
    grimoire = load_grimoire(config)
    seen: list[Any] = []
    score = match._score

    def keeping(retriever: Any, result: Any, candidates: Any) -> Any:
        seen[:] = score(retriever, result, candidates)
        return seen

    match._score = keeping
    calls = []
    try:
        for row in rows:
            if row["type"] == "correction":
                continue
            action = rooted(action_from_hook(parse_hook_input(json.dumps({**row["hook"], "cwd": str(root)}))), root)
            seen.clear()
            if action is not None:
                tuned = match.words(action.added) if match.only_values(action) else None
                match.cues_for_action(config, action, grimoire=grimoire)
            want = ids.get(str(row.get("correction", row.get("expect")))) if row["type"] == "call" else None
            calls.append(Call(str(row["type"]), tuple(
                Weighed(c.standout, c.relevance, c.evidence, c.trust,
                        c.evidence or tuned is None or bool(tuned & match._about(c.entry)), c.entry.id == want)
                for c in seen)))
    finally:
        match._score = score
    return calls


def cross_fitted(names: list[str], keep: Path, folds: int) -> tuple[dict[str, list[Call]], dict[str, list[Call]]]:
    """Every set of ``names`` recorded with an action map fitted on the other folds' sets, and with none."""
    import numpy as np

    from loa_memory.search.embed import get_embedder

    embedder = get_embedder("mpnet")
    shipped = match.action_map
    adapted: dict[str, list[Call]] = {}
    plain: dict[str, list[Call]] = {}
    try:
        for fold in (names[k::folds] for k in range(folds)):
            fitted = train([n for n in names if n not in fold], embedder, calls=True).astype(np.float32)
            match.action_map = lambda _name, _dim, m=fitted: m
            adapted.update({name: record(name, keep) for name in fold})
            print(f"fold {', '.join(fold)}: recorded", flush=True)
        match.action_map = lambda _name, _dim: None
        plain.update({name: record(name, keep) for name in names})
    finally:
        match.action_map = shipped
    return adapted, plain


def nearest(names: list[str], folds: int) -> tuple[int, int, int]:
    """How many guarded calls have their own trigger nearest among their set's, with the vector as it is and turned
    by a map fitted on the other folds' sets (the map's own objective), and the calls counted."""
    import numpy as np

    from loa_memory.search.embed import get_embedder

    sets = arrays(names, get_embedder("mpnet"), calls=True)
    plain = turned = count = 0
    for fold in (names[k::folds] for k in range(folds)):
        fitted = fit([a for n, a in sets.items() if n not in fold])
        for calls, triggers, answers in (sets[n] for n in fold if n in sets):
            units = calls / np.linalg.norm(calls, axis=1, keepdims=True)
            plain += int((np.argmax(units @ triggers.T, axis=1) == answers).sum())
            moved = calls @ fitted.T
            turned += int((np.argmax(moved @ triggers.T, axis=1) == answers).sum())
            count += len(answers)
    return plain, turned, count


def fired(call: Call, weight: float, bars: tuple[tuple[float, float], tuple[float, float]]) -> list[Weighed]:
    """What fires on ``call`` under a rule: the score (standout plus ``weight`` x relevance) against the evidence's or
    meaning's bar, within the margin of the best, at most MAX_ACTION_CUES."""
    if not call.weighed:
        return []
    scores = [w.standout + weight * w.relevance for w in call.weighed]
    best = max(scores)
    chosen = []
    for w, s in zip(call.weighed, scores, strict=True):
        alone, with_names = bars[0] if w.evidence else bars[1]
        if s >= alone + (with_names - alone) * w.trust and s >= best - match.ACTION_MARGIN and w.tuned:
            chosen.append((s, w))
    chosen.sort(key=lambda pair: -pair[0])
    return [w for _, w in chosen[:match.MAX_ACTION_CUES]]


def outcome(records: dict[str, list[Call]], weight: float,
            bars: tuple[tuple[float, float], tuple[float, float]]) -> tuple[int, int, float, float]:
    """Sets meeting both targets, guarded calls fired, corrections per harmless call or near miss, unrelated
    corrections per guarded call."""
    meeting = guarded = quiet_calls = quiet_fires = unrelated = calls = 0
    for set_calls in records.values():
        got = fires = 0
        for call in set_calls:
            cues = fired(call, weight, bars)
            if call.kind == "call":
                calls += 1
                got += any(w.own for w in cues)
                unrelated += sum(not w.own for w in cues)
            else:
                quiet_calls += 1
                fires += len(cues)
        quiet = sum(c.kind != "call" for c in set_calls)
        meeting += got >= GUARDED_TARGET and fires <= NEAR_TARGET * quiet
        guarded += got
        quiet_fires += fires
    return meeting, guarded, quiet_fires / max(quiet_calls, 1), unrelated / max(calls, 1)


def _bars(weight: float, offset: float) -> tuple[tuple[float, float], tuple[float, float]]:
    shift = weight / 2 + offset
    return ((match.ACTION_STANDOUT[0] + shift, match.ACTION_STANDOUT[1] + shift),
            (match.MEANING_STANDOUT[0] + shift, match.MEANING_STANDOUT[1] + shift))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", default="2-75", help="blind activation sets (default 2-75)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="seed each set's grimoire here once and reuse it")
    parser.add_argument("--report", type=Path, default=Path(__file__).parent / "reports" / "action-adapter.md")
    parser.add_argument("--nearest-only", action="store_true", help="print the nearest-trigger figures and stop")
    args = parser.parse_args()
    names = set_names(args.sets)
    plain_nearest, turned_nearest, guarded_calls = nearest(names, args.folds)
    if args.nearest_only:
        print(f"nearest trigger: {plain_nearest} plain, {turned_nearest} turned, of {guarded_calls} guarded calls")
        return
    keep = args.keep or Path(tempfile.mkdtemp(prefix="loa-bench-action-fit-"))
    adapted, plain = cross_fitted(names, keep, args.folds)
    shipped = (match.ADAPTED_ACTION_STANDOUT, match.ADAPTED_MEANING_STANDOUT)
    rows = [("no map (the plain rule)", *outcome(plain, 0.0, (match.ACTION_STANDOUT, match.MEANING_STANDOUT))),
            (f"map, weight {match.FIT_WEIGHT:g}, the bars in the code", *outcome(adapted, match.FIT_WEIGHT, shipped))]
    grid = sorted(((f"map, weight {w:g}, bars {_bars(w, o)[0]} / {_bars(w, o)[1]}", *outcome(adapted, w, _bars(w, o)))
                   for w in WEIGHTS for o in OFFSETS), key=lambda row: (-row[1], -row[2]))
    lines = ["# The action map and the firing rule, cross-fitted", "",
             f"Blind activation sets {args.sets}, {args.folds} folds: each set's calls matched with a map fitted on "
             "the other folds' sets (`python benchmarks/fit_action_rule.py`). Targets per set: "
             f"{GUARDED_TARGET} of 40 guarded calls, at most {NEAR_TARGET} corrections per harmless call or near miss.",
             "", f"Guarded calls whose own trigger is the nearest of their set's: {plain_nearest} of {guarded_calls} "
             f"({plain_nearest / guarded_calls:.1%}) with the vector as it is, {turned_nearest} "
             f"({turned_nearest / guarded_calls:.1%}) turned by the fold's map.",
             "", "| rule | sets meeting both | guarded calls fired | per harmless call or near miss | "
             "unrelated per guarded call |", "|---|---|---|---|---|"]
    lines += [f"| {r[0]} | {r[1]} of {len(names)} | {r[2]} | {r[3]:.3f} | {r[4]:.3f} |" for r in rows + grid[:10]]
    lines += ["", f"Load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores).", ""]
    report = "\n".join(lines)
    print(report)
    args.report.write_text(report)


if __name__ == "__main__":
    main()
