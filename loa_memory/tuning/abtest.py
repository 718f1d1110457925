"""Comparing two weight profiles on their recall outcomes: rates, intervals and a verdict (pure functions).

Success rates get Wilson score intervals; the difference of two rates gets Newcombe's interval built from
them (method 10 of Newcombe 1998), which behaves well for small samples and rates near 0 or 1. A verdict is
only given when both profiles have ``min_outcomes`` outcomes and the interval of the difference excludes 0;
otherwise it says what is missing, with the sample size that would show a difference of the observed size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Z95 = 1.959964  # two-sided 95%
Z80_POWER = 0.841621  # one-sided 80% power


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (0..1 when there is no data)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def difference(s_a: int, n_a: int, s_b: int, n_b: int) -> tuple[float, float, float]:
    """rate(b) − rate(a) with Newcombe's hybrid score interval."""
    p_a, p_b = (s_a / n_a if n_a else 0.0), (s_b / n_b if n_b else 0.0)
    lo_a, hi_a = wilson(s_a, n_a)
    lo_b, hi_b = wilson(s_b, n_b)
    d = p_b - p_a
    lower = d - math.sqrt((p_b - lo_b) ** 2 + (hi_a - p_a) ** 2)
    upper = d + math.sqrt((hi_b - p_b) ** 2 + (p_a - lo_a) ** 2)
    return d, max(-1.0, lower), min(1.0, upper)


def needed_per_arm(p_a: float, p_b: float) -> int | None:
    """Outcomes per profile to detect ``p_b − p_a`` at 95% confidence and 80% power (None: no difference)."""
    gap = abs(p_b - p_a)
    if gap < 1e-9:
        return None
    variance = p_a * (1 - p_a) + p_b * (1 - p_b)
    return max(1, math.ceil((Z95 + Z80_POWER) ** 2 * max(variance, 1e-6) / gap ** 2))


@dataclass(frozen=True)
class Arm:
    name: str
    served: int
    successes: int
    failures: int

    @property
    def outcomes(self) -> int:
        return self.successes + self.failures

    def record(self) -> dict[str, Any]:
        lo, hi = wilson(self.successes, self.outcomes)
        rate = self.successes / self.outcomes if self.outcomes else None
        return {"profile": self.name, "served": self.served, "outcomes": self.outcomes,
                "successes": self.successes, "failures": self.failures,
                "success_rate": None if rate is None else round(rate, 4), "ci95": [round(lo, 4), round(hi, 4)]}


def compare(a: Arm, b: Arm, min_outcomes: int) -> dict[str, Any]:
    """B against A: the difference of success rates, its 95% interval and a verdict in words."""
    result: dict[str, Any] = {"a": a.record(), "b": b.record(), "difference": None, "verdict": "",
                              "enough_data": False, "needed_per_profile": None}
    short = [arm for arm in (a, b) if arm.outcomes < min_outcomes]
    if a.outcomes and b.outcomes:
        d, lo, hi = difference(a.successes, a.outcomes, b.successes, b.outcomes)
        result["difference"] = {"b_minus_a": round(d, 4), "ci95": [round(lo, 4), round(hi, 4)]}
        result["needed_per_profile"] = needed_per_arm(a.successes / a.outcomes, b.successes / b.outcomes)
    if short:
        names = ", ".join(f"{arm.name} has {arm.outcomes}" for arm in short)
        result["verdict"] = f"not enough data: {names} of the {min_outcomes} outcomes needed"
        return result
    result["enough_data"] = True
    diff = result["difference"]
    lo, hi = diff["ci95"]
    if lo > 0 or hi < 0:
        better, worse = (b, a) if lo > 0 else (a, b)
        result["verdict"] = (f"{better.name} is better than {worse.name} "
                             f"(difference {diff['b_minus_a']:+.2f}, 95% CI {lo:+.2f}..{hi:+.2f})")
    else:
        needed = result["needed_per_profile"]
        more = f"; about {needed} outcomes per profile would show a difference this size" if needed else ""
        result["verdict"] = f"no clear difference yet (95% CI {lo:+.2f}..{hi:+.2f} includes 0){more}"
    return result
