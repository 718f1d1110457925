"""Measure the secret gate on the labelled corpus: precision, recall, false positives, speed.

    PYTHONPATH=. python benchmarks/secrets_corpus.py [--detect-secrets] [--show-misses]

Prints the numbers and writes ``benchmarks/reports/secrets.md``. A positive line counts as found
when any hit is reported on it (per-kind recall also requires the labelled kind); a trap line
counts as a false positive when anything is reported on it.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "secrets" / "corpus"
REPORT = ROOT / "benchmarks" / "reports" / "secrets.md"

Detect = Callable[[str], set[str]]  # kinds found in a line (empty: nothing)


def load(name: str) -> list[tuple[str, str | None]]:
    with (CORPUS / name).open() as f:
        return [(r["text"], r["kind"]) for r in map(json.loads, f) if r]


def ours() -> Detect:
    from loa_memory.secrets import scan_text

    return lambda text: {h.kind for h in scan_text(text)}


def detect_secrets() -> Detect:
    """detect-secrets 1.x with its default plugins and filters, scanning each text as a file."""
    import tempfile

    from detect_secrets import SecretsCollection
    from detect_secrets.settings import default_settings

    tmp = Path(tempfile.mkdtemp()) / "memory.txt"

    def detect(text: str) -> set[str]:
        tmp.write_text(text + "\n")
        found = SecretsCollection()
        with default_settings():
            found.scan_file(str(tmp))
        return {s.type for _, s in found}

    return detect


def evaluate(detect: Detect, rows: list[tuple[str, str | None]], show: bool) -> dict[str, object]:
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # lines, any hit, right kind
    fp = traps = tp_lines = 0
    misses: list[str] = []
    for text, kind in rows:
        found = detect(text)
        if kind is None:
            traps += 1
            if found:
                fp += 1
                misses.append(f"FP {sorted(found)}: {text[:120]!r}")
        else:
            k = per_kind[kind]
            k[0] += 1
            k[1] += bool(found)
            k[2] += kind in found
            tp_lines += bool(found)
            if not found:
                misses.append(f"FN {kind}: {text[:120]!r}")
    positives = sum(k[0] for k in per_kind.values())
    if show:
        print("\n".join(misses))
    return {
        "positives": positives, "traps": traps,
        "recall": tp_lines / positives if positives else 0.0,
        "kind_recall": sum(k[2] for k in per_kind.values()) / positives if positives else 0.0,
        "fp_rate": fp / traps if traps else 0.0,
        "precision": tp_lines / (tp_lines + fp) if tp_lines + fp else 0.0,
        "per_kind": dict(sorted(per_kind.items())),
    }


SENTENCES = (
    "Use PostgreSQL for the database layer due to JSONB support and mature tooling.",
    "The migration added a nullable column first, backfilled it in batches of 5000, then set NOT NULL.",
    "Retry the payment webhook with exponential backoff; Stripe resends for up to 3 days.",
    "BEFORE changing the users table, check the replica lag dashboard because long locks block logins.",
    "Tests flaked on CI because the Redis container took 12 s to start; added a health check.",
    "Decided to keep SQLite for local development and run integration tests against Postgres 16.",
    "The API token budget is 8000 per request; summaries must stay under 400 tokens.",
    "Rotate secrets through Vault; never paste keys into memory entries or commit messages.",
    "Upgraded numpy to 1.26.4 and pinned ruamel.yaml<0.19 after the round-trip regression.",
    "p99 latency went from 180 ms to 240 ms after enabling the audit log on 2026-01-14.",
    "See MEM-20260115-004 for the original decision and commit 3f2a9c1 for the rollback.",
    "The lint rule flags entries whose confidence is below the category minimum of 0.7.",
    "Index rebuilds take about 6 s for 10k entries; run them in the post-merge hook only.",
    "Prefer small modules and functions over classes; records are frozen dataclasses.",
    "The key decision was to append entries as text instead of a full round-trip dump.",
)


def synth_yaml(size: int, dense: bool = False) -> str:
    """A grimoire-like YAML text of about ``size`` bytes, with a few secrets sprinkled in.

    ``dense`` fills content with a shuffled vocabulary in which secret-like words (token, key,
    secret, password) and numbers are far more frequent than in real memories: a worst case.
    """
    rnd = random.Random(7)
    words = [
        "database", "migration", "index", "cache", "retry", "timeout", "deploy", "rollback", "schema",
        "column", "users", "orders", "api", "token", "budget", "key", "decision", "because", "failed",
        "passed", "review", "lint", "config", "secret", "vault", "rotate", "PostgreSQL", "SQLite", "JSONB",
        "Redis", "queue", "worker", "latency", "p99", "version", "1.2.3", "python==3.11.4", "on",
        "2026-02-01",
    ]
    out: list[str] = []
    n = 0
    i = 0
    while n < size:
        i += 1
        if dense:
            content = " ".join(rnd.choice(words) for _ in range(rnd.randint(40, 90)))
        else:
            content = " ".join(rnd.choice(SENTENCES) for _ in range(rnd.randint(2, 6)))
        if i % 500 == 0:
            token = "".join(rnd.choice("abcXYZ0123456789") for _ in range(36))
            content += f" ask jane.doe@gmail.com, token ghp_{token}"
        summary = " ".join(words[i % 20:i % 20 + 8])
        entry = (f"- id: MEM-20260201-{i:03d}\n  category: decision\n  summary: {summary}\n"
                 f"  content: |\n    {content}\n  confidence: 0.95\n"
                 f"  source: {{session_id: abc{i}, agent: dev, timestamp: '2026-02-01T10:30:00Z', "
                 f"commit: {rnd.getrandbits(160):040x}}}\n  ttl: permanent\n  tags: [database, api]\n"
                 f"  effectiveness: {{applications: 5, successes: 4, score: 80}}\n")
        out.append(entry)
        n += len(entry)
    return "".join(out)


def throughput(dense: bool) -> tuple[float, float, int]:
    """(MB, best seconds of 3, hits) for scanning 8 MB of synthetic YAML."""
    from loa_memory.secrets import scan_text

    text = synth_yaml(8_000_000, dense)
    scan_text("warm up")
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        hits = scan_text(text)
        times.append(time.perf_counter() - t0)
    return len(text) / 1e6, min(times), len(hits)


def import_ms() -> float:
    code = ("import time; t=time.perf_counter(); import loa_memory.secrets; "
            "print((time.perf_counter()-t)*1000)")
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                 cwd=ROOT, env={"PYTHONPATH": str(ROOT)}).stdout) for _ in range(5)]
    return sorted(runs)[2]


def table(results: dict[str, dict[str, object]]) -> list[str]:
    lines = ["| corpus | tool | lines (pos/traps) | recall | kind-exact recall | precision "
             "| FP rate on traps |",
             "|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        corpus, tool = name.split(" / ")
        lines.append(f"| {corpus} | {tool} | {r['positives']}/{r['traps']} | {r['recall']:.1%} | "
                     f"{r['kind_recall']:.1%} | {r['precision']:.1%} | {r['fp_rate']:.1%} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--detect-secrets", action="store_true", help="also measure detect-secrets if installed")
    ap.add_argument("--show-misses", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    corpora = {"corpus": load("positives.jsonl") + load("traps.jsonl"), "holdout": load("holdout.jsonl"),
               "blind-a": load("blind-a.jsonl"), "blind-b": load("blind-b.jsonl"), "blind-c": load("blind-c.jsonl")}
    tools: dict[str, Detect] = {"loa-memory": ours()}
    if args.detect_secrets:
        tools["detect-secrets"] = detect_secrets()
    results = {f"{c} / {t}": evaluate(fn, rows, args.show_misses and t == "loa-memory")
               for c, rows in corpora.items() for t, fn in tools.items()}
    mb, secs, nhits = throughput(False)
    dmb, dsecs, _ = throughput(True)
    imp = import_ms()
    per_kind = results["corpus / loa-memory"]["per_kind"]
    assert isinstance(per_kind, dict)
    out = ["# Secret gate: measured quality and speed", "",
           "Generated by `benchmarks/secrets_corpus.py`. `corpus` is "
           "`tests/secrets/corpus/positives.jsonl` + "
           "`traps.jsonl` (templated, used while tuning); `holdout` is `holdout.jsonl` (written separately, "
           "different phrasing); `blind-a` and `blind-b` were written by two helper sessions that never saw the "
           "scanner (fresh random values, valid checksums; blind-a was then used to fix the scanner, blind-b only "
           "after measuring 99.0% recall and 1.3% false positives on it). `blind-c` was written by a third, as the "
           "prose of memories about credentials (300 lines with none, 80 with one): measured once at 98.8% recall "
           "and 1.7% false positives (5 of 300), then four of the five shapes were fixed (a quoted phrase the words "
           "do not give as the value, password hashing or encryption named, a shell expansion `${X:?...}`) and "
           "a password after `mongosh -p` found. "
           "Line-level: a positive counts as found when anything is reported on it.", "",
           *table(results), "",
           f"Throughput: {mb:.1f} MB of grimoire-like YAML scanned in {secs:.2f} s = "
           f"**{mb / secs:.1f} MB/s** "
           f"({nhits} hits); keyword-dense worst case {dmb / dsecs:.1f} MB/s ({dsecs:.2f} s). "
           f"Best of 3 runs. Import of `loa_memory.secrets`: **{imp:.1f} ms** "
           "(median of 5, fresh interpreter).",
           "", "## Recall per kind (corpus)", "", "| kind | lines | any hit | right kind |",
           "|---|---|---|---|"]
    for kind, (n, anyhit, exact) in per_kind.items():
        out.append(f"| {kind} | {n} | {anyhit / n:.0%} | {exact / n:.0%} |")
    REPORT.write_text("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
