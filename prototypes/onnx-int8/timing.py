"""Timing on a shared machine: how much of the CPU others used while we measured.

The two cores here are shared with other work (a test suite ran beside these benchmarks). Each
measurement records the wall time and the share of both cores that other processes took meanwhile
(from /proc/stat minus our own /proc/self/stat), so results can be taken from the quietest rounds.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import NamedTuple


class Sample(NamedTuple):
    seconds: float
    foreign: float  # share of all cores busy with other processes during the measurement (0..1)


def _busy_jiffies() -> int:
    with open("/proc/stat", encoding="ascii") as f:
        fields = [int(v) for v in f.readline().split()[1:]]
    return sum(fields) - fields[3] - fields[4]  # all but idle and iowait


def _own_jiffies() -> int:
    with open("/proc/self/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, all threads


def measure(work: Callable[[], object]) -> Sample:
    """Run ``work`` once; its wall time and the foreign CPU share meanwhile."""
    hz = os.sysconf("SC_CLK_TCK")
    cores = os.cpu_count() or 1
    busy, own = _busy_jiffies(), _own_jiffies()
    start = time.perf_counter()
    work()
    seconds = time.perf_counter() - start
    foreign = max(0, (_busy_jiffies() - busy) - (_own_jiffies() - own)) / hz
    return Sample(seconds, min(1.0, foreign / (seconds * cores)))


def quietest(samples: list[Sample]) -> Sample:
    """The fastest of the rounds in which others used the least CPU (within 5 points of the least)."""
    floor = min(s.foreign for s in samples)
    return min((s for s in samples if s.foreign <= floor + 0.05), key=lambda s: s.seconds)


def wait_for_quiet(limit: float = 0.10, patience: float = 60.0) -> float:
    """Wait (at most ``patience`` seconds) until others use under ``limit`` of the CPU over 1 s; return it."""
    deadline = time.monotonic() + patience
    while True:
        sample = measure(lambda: time.sleep(1.0))
        if sample.foreign < limit or time.monotonic() > deadline:
            return sample.foreign
