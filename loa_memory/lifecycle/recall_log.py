"""Recalls as served and judged: run and log one recall; read the recall log; link outcomes to recalls.

Each recall appends one line to ``.loa/token_economics.jsonl`` (token economics, the weight profile and the
weights used, the memories shown and read, a ``recall_id``). Outcomes are ``feedback`` events in
``.loa/usage.jsonl``. An outcome belongs to the recall it names: ``feedback --recall ID``, or the one ``feedback``
resolved when it was written (the latest logged recall of the same session that showed the memory). An event
without a recall id (written before they existed) goes to the latest recall of its session that showed the
memory at or before its time. A recall succeeded when its outcomes hold more successes than failures, and
failed otherwise; a recall without outcomes has none.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from loa_memory.answer.cues import Action, ActionCues, cues_for_action
from loa_memory.answer.recall import ECONOMICS_LOG, Recall, RecallOptions, log_economics, recall, shown_ids
from loa_memory.lifecycle.usage import record_applications, record_recall
from loa_memory.store.config import Config
from loa_memory.store.lock import locked

REQUIRED = ("discovery_tokens", "read_tokens", "total_tokens", "full_load_tokens")


def serve_recall(config: Config, options: RecallOptions, *, track: bool = False, now: datetime | None = None,
                 session_id: str | None = None) -> Recall:
    """``recall``, logged: its economics, profile and weights; the cues it fired (``unfired-cue`` and
    ``graduate`` count sessions from them); with ``track``, each memory shown as an application."""
    result = recall(config, options, now=now)
    log_economics(config, result, now, session_id)
    record_recall(config, [c.entry.id for c in [*result.corrections, *result.preferences]], query=options.task,
                  session_id=session_id, recall_id=result.recall_id)
    if track:
        record_applications(config, shown_ids(result), source="recall", query=options.task,
                            session_id=session_id, recall_id=result.recall_id)
    return result


def serve_action_cues(config: Config, action: Action, *, now: datetime | None = None,
                      session_id: str | None = None) -> ActionCues:
    """``cues_for_action``, logged like a recall (source ``action``): the call and the cues it fired, so
    ``unfired-cue``, ``graduate`` and effectiveness count them. The log names the action's kind and files, never
    its text (a command may hold a secret)."""
    result = cues_for_action(config, action, now=now)
    query = f"{action.kind} {' '.join(result.paths)}".strip()
    record_recall(config, [c.entry.id for c in result.cues], query=query[:300], source="action",
                  session_id=session_id, recall_id=result.cue_id)
    return result


def read_recall_log(config: Config) -> tuple[list[dict[str, Any]], list[str]]:
    """The recall log's records in file order (each with its ``line``), and a warning per skipped line.

    A line that is not a JSON object with whole-number token counts is skipped and named ``file:line``;
    an unterminated last line is a write still in progress and is left for the next read.
    """
    path = config.local_dir / ECONOMICS_LOG
    shown = f"{config.local_dir.name}/{ECONOMICS_LOG}"
    try:
        with locked(config.local_dir, name="usage.lock"):
            raw = path.read_bytes()
    except FileNotFoundError:
        return [], []
    records: list[dict[str, Any]] = []
    warnings: list[str] = []
    for number, line in enumerate(raw.decode("utf-8", errors="replace").split("\n")[:-1], 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            warnings.append(f"{shown}:{number}: not valid JSON ({exc.msg}), skipped")
            continue
        except RecursionError:
            warnings.append(f"{shown}:{number}: JSON nested too deeply, skipped")
            continue
        problem = _problem(record)
        if problem:
            warnings.append(f"{shown}:{number}: {problem}, skipped")
            continue
        records.append({**record, "line": number})
    return records, warnings


def _problem(record: Any) -> str | None:
    if not isinstance(record, dict):
        return "not a JSON object"
    for key in REQUIRED:
        value = record.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return f"{key} is missing or not a whole number ≥ 0"
    if not isinstance(record.get("at"), str):
        return "`at` (the time of the recall) is missing"
    return None


def latest_recall_showing(records: Sequence[dict[str, Any]], session_id: str, memory_id: str) -> str:
    """The id of the last logged recall of ``session_id`` that showed ``memory_id`` ("" if none)."""
    for record in reversed(records):
        if str(record.get("session_id") or "") == session_id and memory_id in (record.get("shown") or []):
            return str(record.get("recall_id") or "")
    return ""


def link_outcomes(records: Sequence[dict[str, Any]], events: Sequence[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """recall id → (successes, failures) of the outcome events that belong to it (see the module docstring)."""
    known = {str(r["recall_id"]) for r in records if r.get("recall_id")}
    showed: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for record in records:
        if not record.get("recall_id"):
            continue
        for memory_id in record.get("shown") or []:
            showed.setdefault((str(record.get("session_id") or ""), str(memory_id)), []).append(
                (str(record["at"]), str(record["recall_id"])))
    for served in showed.values():
        served.sort()
    tally: dict[str, list[int]] = {}
    for event in events:
        if event.get("type") not in ("outcome", "recall_outcome"):
            continue
        recall_id = str(event.get("recall_id") or "")
        if not recall_id and event.get("type") == "outcome":
            served = showed.get((str(event.get("session_id") or ""), str(event.get("memory_id") or "")), [])
            at = bisect.bisect_right(served, (str(event.get("at") or ""), "\uffff"))
            recall_id = served[at - 1][1] if at else ""
        if recall_id in known:
            counts = tally.setdefault(recall_id, [0, 0])
            counts[0 if event.get("outcome") == "success" else 1] += 1
    return {recall_id: (s, f) for recall_id, (s, f) in tally.items()}


def recall_succeeded(successes: int, failures: int) -> bool:
    return successes > failures
