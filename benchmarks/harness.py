"""Tiny benchmark harness: time a callable, compare with a target, print one table."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """One measured figure, its target and whether more is better."""

    name: str
    value: float
    unit: str
    target: float | None = None
    higher_is_better: bool = True
    note: str = ""

    @property
    def ratio(self) -> float | None:
        """How many times better than the target (>= 1 meets it)."""
        if self.target is None or self.value == 0:
            return None
        return self.value / self.target if self.higher_is_better else self.target / self.value

    @property
    def verdict(self) -> str:
        """'ok', 'MISS' or '' (no target)."""
        r = self.ratio
        return "" if r is None else ("ok" if r >= 1 else "MISS")


def median_seconds(fn: Callable[[], object], repeat: int = 21, warmup: int = 2) -> float:
    """Median wall time of `fn()` over `repeat` runs after `warmup` untimed runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def rate(fn: Callable[[], int], min_seconds: float = 1.0) -> float:
    """Units per second of `fn()`, which does some work and returns how many units it did."""
    fn()  # warm up caches and imports
    done, t0 = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < min_seconds or done == 0:
        done += fn()
    return done / elapsed


def _num(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"


def format_table(results: list[Result]) -> str:
    """A fixed-width table of results: figure, target, ratio to target, verdict."""
    head = f"{'benchmark':<58} {'measured':>16} {'target':>18} {'ratio':>8}  "
    lines = [head, "-" * len(head)]
    for r in results:
        sign = ">=" if r.higher_is_better else "<="
        target = f"{sign} {_num(r.target)} {r.unit}" if r.target is not None else ""
        ratio = f"{r.ratio:.1f}x" if r.ratio is not None else ""
        lines.append(
            f"{r.name:<58} {_num(r.value):>10} {r.unit:<5} {target:>18} {ratio:>8}  {r.verdict}"
        )
        if r.note:
            lines.append(f"    {r.note}")
    return "\n".join(lines)


def machine_load() -> str:
    """The machine's load averages and cores, as `uptime` says them (for notes beside figures)."""
    import os

    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def pickomino_steps_per_second(seconds: float = 2.0) -> float | None:
    """The machine's pickomino-env reference figure: random legal play, steps per second on one
    core (3,100 on the development machine), or None when pickomino-env is not installed. A slow
    machine shows here as well as in the dashboards' figures; a slow page only there."""
    try:
        import gymnasium as gym
        import numpy as np
        import pickomino_env  # noqa: F401 - registers Pickomino-v0
    except ImportError:
        return None
    env = gym.make("Pickomino-v0").unwrapped
    rng = np.random.default_rng(0)

    def steps(count: int = 2_000) -> int:
        _obs, info = env.reset(seed=int(rng.integers(2**31)))
        for _ in range(count):
            rolled, collected = info["dice_rolled"], info["dice_collected"]
            legal = [f for f in range(6) if rolled[f] and not collected[f]]
            face = legal[int(rng.integers(len(legal)))] if legal else 0
            _obs, _r, terminated, truncated, info = env.step((face, int(rng.integers(2))))
            if terminated or truncated:
                _obs, info = env.reset(seed=int(rng.integers(2**31)))
        return count

    return rate(steps, min_seconds=seconds)
