"""Fit the firing rule of correction cues in recall (``answer/recall.py``: FIT_WEIGHT, ADAPTED_STANDOUT) on some
task sets and check it on others.

Every task of every set is recalled once, with each correction the rule weighs recorded (its deviations above the
grimoire's typical memory, its fit, whether it is the task's own). The rule is then replayed on the records: for
each weight and margin, the lowest bar whose corrections on the fitting sets' tasks without one stay within
``--max-unrelated``, with what it fires there and on the retrieval benchmark's own tasks (``r``: its 26 corrections
share the domain of the grimoire's other memories, where a high fit is common, so its tasks without a correction
say what the fit costs in a project's own domain). The checking sets are scored with the rule in the code, the
fitted rule that fires the most on the fitting sets, and any ``--also`` rule. A set is ``a``..``e``
(benchmarks/data/cues/set-X), a number (benchmarks/data/blind-activation-N) or ``r``.

With ``--folds K`` the task adapter is cross-fitted first: the sets (all but ``r``) are dealt into K folds, and each
fold is recorded with a map fitted (``benchmarks/train_task_adapter.py``) on the other folds' sets only, so that no
task is scored by a map that learned it; ``r`` is recorded with the map fitted on all of them. Without it, the
shipped map records every set, and the sets it was fitted on are in-sample.

Run: python benchmarks/fit_cue_rule.py [--fit f,g,h,i,j,k] [--check r,b,c,d,e,72-77] [--folds 5] [--also 0,6,1]
[--keep DIR]
→ prints the tables and writes benchmarks/reports/recall-fit.md (5-10 s a set on 2 cores, and a minute a fold).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("LOA_MEMORY_BACKGROUND", "inline")
os.environ.setdefault("LOA_MEMORY_SERVER", "off")

from benchmarks.recall_cues import CUES, _retrieval_tasks, _task, seeded
from benchmarks.retrieval_quality import DATA, load_jsonl, seed
from loa_memory.answer import recall as R
from loa_memory.store import load_config

WEIGHTS = (0.0, 4.0, 8.0, 10.0, 12.0, 15.0, 20.0)
MARGINS = (0.5, 1.0)
BAR_SPREAD = 2.0  # the bar's rise from no trust in shared names to full trust, as in the code


@dataclass(frozen=True)
class Candidate:
    standout: float
    fit: float
    own: bool  # the task's own correction


@dataclass(frozen=True)
class Task:
    candidates: tuple[Candidate, ...]
    trust: float
    has_one: bool  # the task has a correction


@dataclass(frozen=True)
class Rule:
    weight: float
    high: float
    margin: float

    def fires(self, task: Task) -> list[Candidate]:
        bar = self.high - BAR_SPREAD * (1 - task.trust)
        return [c for score, c in near_best(task, self.weight, self.margin) if score >= bar]


def near_best(task: Task, weight: float, margin: float) -> list[tuple[float, Candidate]]:
    """What can fire on ``task`` whatever the bar, best first: the best candidates (as many as recall shows) within
    ``margin`` of the best, scored with ``weight``."""
    scored = sorted(((c.standout + weight * c.fit, c) for c in task.candidates), key=lambda pair: -pair[0])
    return [(score, c) for score, c in scored[:R.MAX_CORRECTIONS] if score >= scored[0][0] - margin]


def _sets(spec: str) -> list[str]:
    names: list[str] = []
    for part in filter(None, spec.split(",")):
        low, _, high = part.partition("-")
        names += list(map(str, range(int(low), int(high) + 1))) if high else [low]
    return names


def _path(name: str) -> Path:
    here = Path(__file__).parent / "data"
    return CUES / f"set-{name}.jsonl" if name.isalpha() else here / f"blind-activation-{name}" / "task_set.jsonl"


def cross_fitted(names: list[str], keep: Path, folds: int) -> dict[str, list[Task]]:
    """Every set of ``names`` recorded with a task adapter fitted on the other folds' sets (``r`` with one fitted on
    all of them)."""
    import numpy as np

    from benchmarks.train_task_adapter import train
    from loa_memory.search.embed import get_embedder

    embedder = get_embedder("mpnet")
    sets = [n for n in names if n != "r"]
    shipped = R.task_map

    def recorded(fitted_on: list[str], names: list[str]) -> dict[str, list[Task]]:
        fitted = train(fitted_on, embedder).astype(np.float32)
        R.task_map = lambda _name, _dim: fitted
        return {name: record(name, keep) for name in names}

    records: dict[str, list[Task]] = {}
    try:
        for fold in (sets[k::folds] for k in range(folds)):
            records.update(recorded([n for n in sets if n not in fold], fold))
        if "r" in names:
            records.update(recorded(sets, ["r"]))
    finally:
        R.task_map = shipped
    return records


def record(name: str, keep: Path) -> list[Task]:
    """Every task of set ``name`` recalled once, with the corrections the rule weighed."""
    memories = load_jsonl(DATA / "memories.jsonl")
    root = keep / name / "grimoire"
    if name == "r":
        if not (root / ".seeded").exists():
            seed(root, memories)
            (root / ".seeded").touch()
        tasks_of = _retrieval_tasks(memories)
    else:
        rows = load_jsonl(_path(name))
        ids, _ = seeded(root, memories, rows)
        tasks_of = [_task(row, ids) for row in rows if row["type"] in ("task", "negative")]
    config = load_config(root)
    seen: list[tuple[list[R.Cue], float]] = []
    fire = R.fire_corrections

    def recorder(scored: list[R.Cue], trust: float, plain: bool) -> list[R.Cue]:
        seen.append((scored, trust))
        return fire(scored, trust, plain)

    tasks = []
    R.fire_corrections = recorder
    try:
        for text, target in tasks_of:
            seen.clear()
            R.recall(config, R.RecallOptions(text))
            scored, trust = seen[0] if seen else ([], 0.0)
            tasks.append(Task(tuple(Candidate(c.standout, c.fit, c.entry.id == target) for c in scored), trust,
                              target is not None))
    finally:
        R.fire_corrections = fire
    return tasks


def score(rule: Rule, tasks: list[Task]) -> tuple[int, int, float, float]:
    """Tasks that get their correction, tasks with one, unrelated per such task, corrections per task without."""
    with_one = [t for t in tasks if t.has_one]
    without = [t for t in tasks if not t.has_one]
    hits = sum(any(c.own for c in rule.fires(t)) for t in with_one)
    unrelated = sum(sum(not c.own for c in rule.fires(t)) for t in with_one)
    stray = sum(len(rule.fires(t)) for t in without)
    return hits, len(with_one), unrelated / max(1, len(with_one)), stray / max(1, len(without))


def lowest_bars(tasks: list[Task], max_unrelated: float) -> list[Rule]:
    """For each weight and margin, the rule at the lowest bar whose corrections on ``tasks`` without one stay within
    ``max_unrelated``."""
    without = [t for t in tasks if not t.has_one]
    rules = []
    for weight in WEIGHTS:
        for margin in MARGINS:
            tops = [([score for score, _ in near_best(task, weight, margin)], BAR_SPREAD * (1 - task.trust))
                    for task in without]
            for step in range(0, 201):
                high = 2.0 + weight * 0.3 + step * 0.05
                stray = sum(sum(x >= high - lower for x in kept) for kept, lower in tops)
                if stray / max(1, len(without)) <= max_unrelated:
                    rules.append(Rule(weight, high, margin))
                    break
    return rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", default="f,g,h,i,j,k",
                        help="sets to fit on (default f-k: written blind after the map)")
    parser.add_argument("--check", default="r,b,c,d,e,72-77",
                        help="sets to check on (default r,b,c,d,e,72-77)")
    parser.add_argument("--folds", type=int, default=0, help="cross-fit the task adapter over this many folds")
    parser.add_argument("--max-unrelated", type=float, default=0.25,
                        help="corrections per task without one allowed on the fitting sets (default 0.25)")
    parser.add_argument("--also", action="append", default=[], metavar="WEIGHT,BAR,MARGIN",
                        help="score this rule too (a bar at full trust), e.g. the rule before: 0,6,1")
    parser.add_argument("--keep", type=Path, help="seed each set's grimoire here once and reuse it")
    parser.add_argument("--report", type=Path, default=Path(__file__).parent / "reports" / "recall-fit.md")
    args = parser.parse_args()
    keep = args.keep or Path(tempfile.mkdtemp(prefix="loa-bench-fit-"))
    names = list(dict.fromkeys([*_sets(args.fit), *_sets(args.check), "r"]))
    records = (cross_fitted(names, keep, args.folds) if args.folds
               else {name: record(name, keep) for name in names})
    fitting = [t for name in _sets(args.fit) for t in records[name]]
    checks = {name: records[name] for name in _sets(args.check)}
    in_domain = records["r"]
    today = Rule(R.FIT_WEIGHT, R.ADAPTED_STANDOUT[1], R.ADAPTED_MARGIN)
    candidates = lowest_bars(fitting, args.max_unrelated)
    fitted = max(candidates, key=lambda r: (score(r, fitting)[0], -score(r, fitting)[3]))
    lines = [
        "# Fitting the firing rule of correction cues", "",
        f"Fitted on sets {args.fit} ({len(fitting)} tasks), "
        + (f"the task adapter cross-fitted over {args.folds} folds" if args.folds
           else "with the shipped task adapter") + ". A correction's score: its deviations above the task's "
        "typical memory plus the weight times its fit; it fires at the bar (less 2 x (1 - trust in shared names)) "
        f"within the margin of the best. Each weight and margin at the lowest bar that keeps the fitting sets' tasks "
        f"without a correction at {args.max_unrelated} or less; `r` is the retrieval benchmark's tasks among its own "
        "corrections, in the grimoire's domain:", "",
        "| weight | margin | bar at full trust | fitting sets: tasks that get theirs | per task without | "
        "r: tasks that get theirs | r: per task without |", "|---|---|---|---|---|---|---|"]
    for rule in candidates:
        hits, total, _, stray = score(rule, fitting)
        r_hits, r_total, _, r_stray = score(rule, in_domain)
        lines.append(f"| {rule.weight:g} | {rule.margin:g} | {rule.high:.2f} | {hits}/{total} | {stray:.2f} | "
                     f"{r_hits}/{r_total} | {r_stray:.2f} |")
    rules = [(f"in the code ({today.weight:g}, {today.high:g}, {today.margin:g})", today),
             (f"fitted ({fitted.weight:g}, {fitted.high:.2f}, {fitted.margin:g})", fitted)]
    rules += [(f"given ({given})", Rule(*map(float, given.split(",")))) for given in args.also]
    lines += ["", "In the code and fitted, on the fitting sets: " + "; ".join(
        f"{label} {score(rule, fitting)[0]}/{score(rule, fitting)[1]} at {score(rule, fitting)[3]:.2f}"
        for label, rule in rules) + ".", "",
        "Checking sets (tasks that get their correction of those with one; unrelated per such task; corrections per "
        "task without one):", "", f"| set | {' | '.join(label for label, _ in rules)} |", "|---|" + "---|" * len(rules)]
    for name, tasks in checks.items():
        cells = []
        for _, rule in rules:
            hits, total, unrelated, stray = score(rule, tasks)
            cells.append(f"{hits}/{total}, {unrelated:.2f}, {stray:.2f}")
        lines.append(f"| {name} | {' | '.join(cells)} |")
    load = os.getloadavg()
    lines += ["", f"Load average when it finished: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores).",
              ""]
    print("\n".join(lines))
    args.report.write_text("\n".join(lines))


if __name__ == "__main__":
    main()
