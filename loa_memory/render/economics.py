"""``stats --economics`` as text: totals, then each threshold in priority order, breaches with their action."""

from __future__ import annotations

from typing import Any


def _value(check: dict[str, Any]) -> str:
    value = check["value"]
    if value is None:
        return "nothing read" if check["breached"] else "no data"
    if check["metric"] == "discovery_read_ratio":
        return f"{value:.2f}"
    return f"{value:.1f}%" if check["metric"] == "savings_pct" else f"{value:.1f}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def economics_text(data: dict[str, Any]) -> str:
    econ = data["economics"]
    lines = [f"[warning] {warning}" for warning in econ["warnings"]]
    if not econ["recalls"]:
        return "\n".join([*lines, econ["message"]])
    totals = econ["totals"]
    period = econ["period"]
    lines += [f"{_count(econ['recalls'], 'recall')} in {_count(econ['sessions'], 'session')} ({period['from']} .. "
              f"{period['to']}) from {econ['log']}",
              f"tokens: discovery {totals['discovery_tokens']}, read {totals['read_tokens']}, cues "
              f"{totals['cue_tokens']}, spent {totals['total_tokens']} of a full load of {totals['full_load_tokens']} "
              f"(saved {totals['tokens_saved']})", ""]
    for check in econ["checks"]:
        mark = "n/a" if check.get("judged") is False else "BREACH" if check["breached"] else "ok"
        per = {"recall": " per recall", "session": " per session"}.get(check["per"], "")
        lines.append(f"{check['priority']}. [{mark}] {check['label']}: {_value(check)} (threshold {check['op']} "
                     f"{check['threshold']:g}{per}; {check['breaching']} of {check['measured']} "
                     f"{'sessions' if check['per'] == 'session' else 'recalls'} breach on their own)")
        if check["action"]:
            lines.append(f"   → {check['action']['name']}: {check['action']['text']}")
    breaches = econ["breaches"]
    if econ["message"]:
        lines += ["", econ["message"]]
    lines += ["", f"{len(breaches)} of {len(econ['checks'])} thresholds breached"
              + (f"; act on them in this order: {', '.join(breaches)}" if breaches else "")]
    return "\n".join(lines)
