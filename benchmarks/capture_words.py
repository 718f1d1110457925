"""Does capture hear a correction however it is worded, and does promotion see it recur? Runs the real pipeline
(``capture`` on every session file of a set, then ``promote --dry-run``) in a fresh grimoire.

A set is a folder of Claude Code session files plus ``labels.json``: ``groups`` (each: ``sessions``, a one-line
``correction``, the exact ``user_lines`` that give it, one per session), optionally ``pairs`` (the same shape, a
correction given in only two sessions: captured, but never promoted) and ``negatives`` (sessions with no
correction). Timestamps are shifted as a block so the newest turn is a day old (episodes live 30 days).

Reports, per set: recall (labelled correction lines captured as a correction episode), precision (correction
episodes that are a labelled correction line), false corrections per negative session (and other cues there),
and groups whose three sessions were all captured and promoted as one recurring correction (no other group's
episode in it). ``--embedder hashing`` measures without the embedding models.

Run: python benchmarks/capture_words.py --set benchmarks/data/capture-words/transcripts [--embedder NAME]
     [--report FILE --title TITLE] [--show] [--alone]
     python benchmarks/capture_words.py --set DIR --time-detect 20   # detection time on one long transcript
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loa_memory.capture.cues import detect
from loa_memory.capture.pipeline import CaptureOptions, capture
from loa_memory.capture.transcript import read_transcript
from loa_memory.lifecycle.promote import promote
from loa_memory.repo.init import init_repo
from loa_memory.search.embed import select_embedder
from loa_memory.store import load_config

_STAMP = re.compile(r'"timestamp":\s*"([^"]+)"')


def _fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.casefold()).strip()


def _session_files(
    folder: Path, labels: dict[str, Any], key: str = "groups"
) -> tuple[dict[str, list[str]], list[str]]:
    """Group (or pair) → its session file stems, and the negative stems, whatever spelling labels.json uses."""
    stems = {p.stem for p in folder.glob("*.jsonl")}

    def stem(name: Any) -> str:
        text = str(name.get("session") or name.get("file") or name.get("id")) if isinstance(name, dict) else str(name)
        text = Path(text).name.removesuffix(".jsonl")
        if text in stems:
            return text
        ids = {read_transcript(folder / f"{s}.jsonl").session_id: s for s in stems}
        return ids.get(text, text)

    items = _group_items(labels, key)
    groups = {str(name): [stem(s) for s in value["sessions"]] for name, value in items}
    negatives = labels.get("negatives", [])
    if isinstance(negatives, dict):
        negatives = list(negatives)
    return groups, [stem(n) for n in negatives]


def _group_items(labels: dict[str, Any], key: str = "groups") -> list[tuple[str, dict[str, Any]]]:
    """The groups (or ``pairs``) of labels.json: under ``key`` (a mapping or a list), or groups as top-level keys."""
    raw = labels.get(key)
    if raw is None and key != "groups":
        return []
    if raw is None:
        return [(key, value) for key, value in labels.items() if isinstance(value, dict) and "sessions" in value]
    if isinstance(raw, dict):
        return list(raw.items())
    return [(str(g.get("group") or g.get("id")), g) for g in raw]


def _user_lines(labels: dict[str, Any]) -> dict[str, list[str]]:
    items = _group_items(labels) + _group_items(labels, "pairs")
    return {str(key): [str(line) for line in value.get("user_lines", [])] for key, value in items}


def _shifted_copy(folder: Path, target: Path) -> dict[str, Path]:
    """Copies of the set's session files with every timestamp moved by one offset (the newest is a day old)."""
    texts = {p.stem: p.read_text("utf-8") for p in sorted(folder.glob("*.jsonl"))}
    stamps = [datetime.fromisoformat(s.replace("Z", "+00:00")) for t in texts.values() for s in _STAMP.findall(t)]
    offset = (datetime.now(UTC) - timedelta(days=1)) - max(stamps)

    def move(match: re.Match[str]) -> str:
        moved = datetime.fromisoformat(match[1].replace("Z", "+00:00")) + offset
        return f'"timestamp": "{moved.strftime("%Y-%m-%dT%H:%M:%S.000Z")}"'

    copies = {}
    for stem, text in texts.items():
        copies[stem] = target / f"{stem}.jsonl"
        copies[stem].write_text(_STAMP.sub(move, text), "utf-8")
    return copies


def _labelled_line_numbers(path: Path, wanted: list[str]) -> set[int]:
    """Line numbers of the user speech that is (or holds) a labelled correction line."""
    folded = [_fold(w) for w in wanted]
    found: set[int] = set()
    for turn in read_transcript(path).turns:
        if turn.role == "user" and any(f and (f in _fold(turn.text) or _fold(turn.text) in f) for f in folded):
            found.add(turn.line)
    return found


def measure(folder: Path, embedder: str | None, show: bool = False) -> dict[str, Any]:
    labels = json.loads((folder / "labels.json").read_text("utf-8"))
    groups, negatives = _session_files(folder, labels)
    pairs, _ = _session_files(folder, labels, "pairs")
    given = {**groups, **pairs}  # every labelled correction, whether it recurs three times or two
    user_lines = _user_lines(labels)
    with tempfile.TemporaryDirectory(prefix="capture-words-") as scratch:
        root = Path(scratch) / "repo"
        root.mkdir()
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        init_repo(root)
        if embedder:
            config_file = root / ".loa.config.yaml"
            text = config_file.read_text("utf-8").replace("  retrieval:\n", f"  retrieval:\n    embedder: {embedder}\n")
            config_file.write_text(text, "utf-8")
        copies = _shifted_copy(folder, Path(scratch))
        config = load_config(root)
        session_of = {stem: read_transcript(path).session_id for stem, path in copies.items()}
        report = capture(config, CaptureOptions(transcripts=tuple(copies[s] for s in sorted(copies))))
        episodes = [w.data for w in report.added if w.data.get("category") == "episode"]
        promoted = promote(config, dry_run=True).as_dict()
        used = select_embedder(embedder).embedder.name if embedder else select_embedder().embedder.name
        shutil.rmtree(root, ignore_errors=True)
        labelled: dict[str, set[int]] = {}
        for group, stems in given.items():
            for index, stem in enumerate(stems):
                lines = (
                    user_lines[group][index : index + 1] if len(user_lines[group]) == len(stems) else user_lines[group]
                )
                labelled[stem] = _labelled_line_numbers(copies[stem], lines)

    stem_of = {sid: stem for stem, sid in session_of.items()}
    corrections = [e for e in episodes if "correction" in e.get("action_types", [])]

    def lines_of(entry: dict[str, Any]) -> set[int]:
        first, _, last = str(entry["source"]["line_range"]).partition("-")
        return set(range(int(first), int(last or first) + 1))

    hits: set[str] = set()
    true_episodes: dict[str, str] = {}  # episode id → group
    false_episodes: list[dict[str, Any]] = []
    for entry in corrections:
        stem = stem_of.get(str(entry["session_id"]), "")
        if lines_of(entry) & labelled.get(stem, set()):
            hits.add(stem)
            true_episodes[str(entry["id"])] = next(g for g, s in given.items() if stem in s)
        else:
            false_episodes.append(entry)
    positives = sum(len(s) for s in given.values())
    negative_ids = {session_of[n] for n in negatives if n in session_of}
    in_negatives = [e for e in corrections if e["session_id"] in negative_ids]
    other_in_negatives = [
        e
        for e in episodes
        if e["session_id"] in negative_ids and "task" not in e["action_types"] and "correction" not in e["action_types"]
    ]

    recurring: list[str] = []
    impure: list[str] = []
    for group, stems in groups.items():
        wanted = {session_of[s] for s in stems}
        for cluster in promoted["promoted"]:
            if cluster["kind"] != "correction" or not wanted <= set(cluster["sessions"]):
                continue
            others = {true_episodes.get(i) for i in cluster["episodes"]} - {group}
            (impure if others else recurring).append(group)
    pairs_promoted = [
        pair
        for pair, stems in pairs.items()
        if any(c["kind"] == "correction" and {session_of[s] for s in stems} <= set(c["sessions"])
               for c in promoted["promoted"])
    ]
    result = {
        "embedder": used,
        "sessions": len(copies),
        "labelled": positives,
        "captured": len(hits),
        "recall": len(hits) / positives if positives else 0.0,
        "correction_episodes": len(corrections),
        "precision": len(true_episodes) / len(corrections) if corrections else 0.0,
        "negatives": len(negatives),
        "false_in_negatives": len(in_negatives),
        "false_per_negative": len(in_negatives) / len(negatives) if negatives else 0.0,
        "other_cues_in_negatives": len(other_in_negatives),
        "groups": len(groups),
        "recurring": sorted(set(recurring)),
        "impure": sorted(set(impure)),
        "not_recurring": sorted(set(groups) - set(recurring)),
        "pairs": len(pairs),
        "pairs_promoted": sorted(pairs_promoted),
        "missed": sorted(s for stems in given.values() for s in stems if s not in hits),
        "false": [f"{stem_of.get(str(e['session_id']), '?')}: {e['evidence'][0]}" for e in false_episodes],
        "promoted_clusters": len(promoted["promoted"]),
    }
    if show:
        print(json.dumps(result, indent=2))
    return result


def alone(folder: Path, embedder: str | None) -> dict[str, Any]:
    """The issue's own shape: each group's three sessions (each pair's two) in a grimoire of their own. A group
    passes when capture and promotion make exactly one correction of it, a pair when nothing is promoted."""
    labels = json.loads((folder / "labels.json").read_text("utf-8"))
    found: dict[str, list[str]] = {"groups": [], "groups_failed": [], "pairs_promoted": [], "pairs": []}
    for key in ("groups", "pairs"):
        stems, _ = _session_files(folder, labels, key)
        for name, value in _group_items(labels, key):
            with tempfile.TemporaryDirectory(prefix="capture-alone-") as scratch:
                subset = Path(scratch)
                for stem in stems[name]:
                    shutil.copy(folder / f"{stem}.jsonl", subset / f"{stem}.jsonl")
                only = {"groups": {name: value}} if key == "groups" else {"groups": {}, "pairs": {name: value}}
                (subset / "labels.json").write_text(json.dumps(only), "utf-8")
                result = measure(subset, embedder)
            if key == "groups":
                passed = name in result["recurring"] and result["promoted_clusters"] == 1
                found["groups" if passed else "groups_failed"].append(name)
            else:
                found["pairs"].append(name)
                if result["promoted_clusters"]:
                    found["pairs_promoted"].append(name)
    return found


def render(title: str, folder: Path, result: dict[str, Any]) -> str:
    lines = [
        f"### {title}",
        "",
        f"Set: `{folder}`, embedder `{result['embedder']}`.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| recall (labelled corrections captured) | {result['captured']}/{result['labelled']} = "
        f"{result['recall']:.2f} |",
        f"| precision (correction episodes that are labelled corrections) | "
        f"{result['correction_episodes'] - len(result['false'])}/{result['correction_episodes']} = "
        f"{result['precision']:.2f} |",
        f"| false corrections per negative session | {result['false_in_negatives']}/{result['negatives']} = "
        f"{result['false_per_negative']:.2f} |",
        f"| other cues (preference, decision, error) in negative sessions | {result['other_cues_in_negatives']} |",
        f"| groups captured in all 3 sessions and promoted as one recurring correction | "
        f"{len(result['recurring'])}/{result['groups']} |",
        f"| groups promoted together with another group's episode | {len(result['impure'])} |",
        *(
            [f"| corrections given in two sessions only that were promoted (should be none) | "
             f"{len(result['pairs_promoted'])}/{result['pairs']} |"]
            if result["pairs"]
            else []
        ),
        "",
    ]
    if result["missed"]:
        lines.append("Missed sessions: " + ", ".join(result["missed"]) + ".")
    if result["false"]:
        lines += ["", "Correction episodes that are not a labelled correction:", ""]
        lines += [f"- {f}" for f in result["false"]]
    if result["not_recurring"]:
        lines += ["", "Groups not promoted as one recurring correction: " + ", ".join(result["not_recurring"]) + "."]
    if "alone" in result:
        each = result["alone"]
        total = len(each["groups"]) + len(each["groups_failed"])
        lines += ["", f"Each group alone in a grimoire of its own (the issue's shape): {len(each['groups'])}/{total} "
                  f"promoted as exactly one correction; pairs alone promoted: {len(each['pairs_promoted'])}/"
                  f"{len(each['pairs'])} (should be none)."]
        if each["groups_failed"]:
            lines.append("Not promoted alone: " + ", ".join(each["groups_failed"]) + ".")
    return "\n".join(lines) + "\n"


def time_detect(folder: Path, copies: int) -> str:
    """How long ``detect`` takes on one long transcript: the set's session files joined ``copies`` times."""
    lines = [line for path in sorted(folder.glob("*.jsonl")) for line in path.read_text("utf-8").splitlines()]
    with tempfile.TemporaryDirectory() as scratch:
        joined = Path(scratch) / "joined.jsonl"
        joined.write_text("\n".join(lines * copies) + "\n", "utf-8")
        transcript = read_transcript(joined)
    runs, found = [], 0
    for _ in range(3):
        started = time.perf_counter()
        found = len(list(detect(transcript.turns, transcript.calls)))
        runs.append(time.perf_counter() - started)
    return (
        f"detect: {len(transcript.turns)} turns, {len(transcript.calls)} tool calls, {found} cues, "
        f"median of 3: {statistics.median(runs):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, required=True, help="folder of session files with labels.json")
    parser.add_argument("--embedder", help="pin an embedder (mpnet, minilm, hashing); default: the installed one")
    parser.add_argument("--report", type=Path, help="append the table to this Markdown file")
    parser.add_argument("--title", default="capture-words", help="heading of the table in the report")
    parser.add_argument("--show", action="store_true", help="print the full result as JSON")
    parser.add_argument("--alone", action="store_true",
                        help="also run each group (and pair) in a grimoire of its own, as the issue's check does")
    parser.add_argument(
        "--time-detect", type=int, metavar="N", help="only time cue detection on the set joined N times"
    )
    args = parser.parse_args()
    if args.time_detect:
        print(time_detect(args.set, args.time_detect))
        return
    result = measure(args.set, args.embedder, args.show)
    if args.alone:
        result["alone"] = alone(args.set, args.embedder)
    text = render(args.title, args.set, result)
    print(text)
    if args.report:
        with args.report.open("a", encoding="utf-8") as out:
            out.write("\n" + text)


if __name__ == "__main__":
    main()
