"""``weights status|compare|summarize`` as text."""

from __future__ import annotations

from typing import Any


def _probs(values: dict[str, float]) -> str:
    return ", ".join(f"{name} {p:.2f}" for name, p in values.items()) or "-"


def status_text(data: dict[str, Any]) -> str:
    adaptive = data["adaptive"]
    lines = [f"profiles: {', '.join(p['name'] + (' (built in)' if p['builtin'] else '') for p in data['profiles'])}",
             f"configured profile: {data['profile']}"]
    if adaptive["enabled"]:
        lines.append(f"adaptive: on over {', '.join(adaptive['profiles'])} (exploration floor "
                     f"{adaptive['exploration']:g}, max shift {adaptive['max_daily_shift']:g}/day, rollback when the "
                     f"last {adaptive['rolling_days']} days fall {adaptive['rollback_drop']:g} below the baseline, "
                     f"min {adaptive['min_outcomes']} outcomes)")
    else:
        lines.append(f"adaptive: off (recall uses {data['profile']}); below is what the policy would serve if on")
    summary = data["summary"]
    lines.append(f"summary: {summary['path']} ({summary['days']} days)" if summary["exists"] else
                 f"summary: {summary['path']} does not exist yet (`loa-memory weights summarize` writes it)")
    pending = data["pending"]
    if pending["recalls"] or pending["outcomes"]:
        lines.append(f"not yet summarized: {pending['recalls']} recalls, {pending['outcomes']} outcomes")
    lines.append(f"serving {data['today']}:")
    for task in data["task_types"]:
        evidence = ", ".join(f"{arm} {c['successes']}/{c['successes'] + c['failures']}"
                             for arm, c in task["evidence"].items())
        lines.append(f"  {task['task_type']}: {_probs(task['probabilities'])} [{task['last_event']}; "
                     f"{task['days']} days; successes since reset: {evidence or '-'}]")
        for rollback in task["rollbacks"]:
            lines.append(f"    rollback from {rollback['serves_from']}: rolling rate {rollback['rolling_rate']} vs "
                         f"baseline {rollback['baseline_rate']}")
    lines.extend(f"[warning] {warning}" for warning in data["warnings"])
    return "\n".join(lines)


def _arm(arm: dict[str, Any]) -> str:
    if arm["success_rate"] is None:
        return f"{arm['profile']} no outcomes ({arm['served']} served)"
    lo, hi = arm["ci95"]
    return (f"{arm['profile']} {arm['successes']}/{arm['outcomes']} = {arm['success_rate']:.2f} "
            f"[{lo:.2f}..{hi:.2f}]")


def compare_text(data: dict[str, Any]) -> str:
    source = data["source"]
    lines = [f"from {source['summary']} ({source['summarized_days']} days) and {source['pending_recalls']} recalls "
             f"not yet summarized; success rates with 95% intervals, min {data['min_outcomes']} outcomes per profile"]
    for item in data["comparisons"]:
        lines.append(f"{item['task_type']}: {_arm(item['a'])} vs {_arm(item['b'])}: {item['verdict']}")
    lines.extend(f"[warning] {warning}" for warning in data["warnings"])
    return "\n".join(lines)


def summarize_text(data: dict[str, Any]) -> str:
    verb = "would fold" if data["dry_run"] else "folded"
    lines = [f"[warning] {warning}" for warning in data["warnings"]]
    if not (data["recalls"] or data["successes"] or data["failures"]):
        lines.append(f"nothing new to fold into {data['path']}")
    else:
        lines.append(f"{verb} {data['recalls']} recalls and {data['successes'] + data['failures']} outcomes "
                     f"({data['successes']} successes) into {data['path']} ({len(data['days'])} days)"
                     + ("; commit it" if data["written"] else ""))
    return "\n".join(lines)
