"""Ratios of page times to a reference page, from rounds taken in turn on a busy machine.

A benchmark round opens every page once; the machine's state (its load, its clock) moves from
round to round and slows every page of a round alike. Dividing each page by the reference's
sample of the same round removes that, but adds the reference's own noise, one sample, to every
page's ratio of that round: on 2 busy cores one probe sample of 3.26 s among 1.25-1.95 s made
every dashboard look 0.5-0.9x in its round. Here each round's effect is estimated from all its
pages at once (Tukey's median polish of the log times: page effect + round effect + rest), and
a page's ratio is its effect over the reference's. Resampling whole rounds (a bootstrap) gives
an interval for each ratio, and with it whether the runs resolve a target at all.

Rounds from several runs (hours apart, the machine in other states) can be pooled: each round
keeps its own effect, and the bootstrap draws runs first, then rounds within each run drawn, so
that the interval covers how far the runs disagree, not only how far the rounds of one run do
(on the 2-core machine, a page's ratio moved by 0.05-0.1x between runs whose own intervals
were 0.15-0.3 wide).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

#: Sweeps of the median polish; a table of a dozen pages settles in two or three.
SWEEPS = 10
#: Bootstrap resamples of the rounds; the interval's ends move by about 0.01 between seeds.
RESAMPLES = 2000
#: The interval's coverage: 90 %, so each end alone is a 95 % one-sided bound.
COVERAGE = 0.90
#: Fewer rounds than this resolve nothing: resampling 2 to 4 rounds gives an interval no wider
#: than their spread, which says more about the draw than about the page.
MIN_ROUNDS = 5


@dataclass(frozen=True)
class Ratio:
    """One page's time as a multiple of the reference page's, with its bootstrap interval."""

    value: float
    low: float
    high: float
    rounds: int
    runs: int = 1

    def __str__(self) -> str:
        """The ratio and its interval as the benchmark prints them: 1.10x (0.97-1.32)."""
        return f"{self.value:.2f}x ({self.low:.2f}-{self.high:.2f})"

    def verdict(self, target: float) -> str:
        """'within' or 'over' the target when the whole interval is on one side of it, from
        MIN_ROUNDS rounds or more; else 'not resolved' (more rounds, or a quieter machine,
        would tell)."""
        if self.rounds < MIN_ROUNDS:
            return "not resolved"
        if self.high <= target:
            return "within"
        if self.low > target:
            return "over"
        return "not resolved"


def _table(times: Mapping[str, Sequence[float]], reference: str) -> tuple[list[str], np.ndarray]:
    """The pages (reference first) and their log times, one row per page, one column a round."""
    if reference not in times:
        raise ValueError(f"the reference page {reference!r} has no times; pages: "
                         f"{', '.join(times) or 'none'}")
    pages = [reference, *(p for p in times if p != reference)]
    rounds = {len(times[p]) for p in pages}
    if len(rounds) != 1 or 0 in rounds:
        raise ValueError("every page needs the same number of rounds, at least one; got "
                         + ", ".join(f"{p}: {len(times[p])}" for p in pages))
    table = np.array([[float(t) for t in times[p]] for p in pages])
    if not np.all(np.isfinite(table)) or np.any(table <= 0):
        raise ValueError("page times must be finite and positive seconds")
    return pages, np.log(table)


def page_effects(logs: np.ndarray, sweeps: int = SWEEPS) -> np.ndarray:
    """Each row's effect in a rows x rounds table of log times, by median polish.

    Rounds are swept first, so a round slowed as a whole (every page of it times a factor)
    changes no row's effect at all."""
    rest = logs.copy()
    rows = np.zeros(rest.shape[0])
    for _ in range(sweeps):
        rest -= np.median(rest, axis=0, keepdims=True)
        row = np.median(rest, axis=1)
        rows += row
        rest -= row[:, None]
    return rows


def round_adjusted(times: Mapping[str, Sequence[float]], reference: str) -> dict[str, float]:
    """Each page's time over the reference's, the rounds' effects taken out (median polish)."""
    pages, logs = _table(times, reference)
    rows = page_effects(logs)
    return {p: math.exp(rows[i] - rows[0]) for i, p in enumerate(pages) if i}


def ratios_to(times: Mapping[str, Sequence[float]], reference: str,
              rng: np.random.Generator | int = 0, resamples: int = RESAMPLES,
              runs: Sequence[object] | None = None) -> dict[str, Ratio]:
    """round_adjusted's ratios, each with a bootstrap interval over whole rounds (a round's
    pages stay together, as they were measured together). `runs` names each round's run when
    rounds of several runs are pooled: the bootstrap then draws runs, and rounds within them."""
    if resamples < 1:
        raise ValueError(f"resamples is a whole number of at least 1, not {resamples}")
    rng = np.random.default_rng(rng)
    pages, logs = _table(times, reference)
    rows = page_effects(logs)
    width = logs.shape[1]
    if runs is None:
        runs = [0] * width
    if len(runs) != width:
        raise ValueError(f"runs names each round's run: {width} names needed, not {len(runs)}")
    members = [np.flatnonzero([r == run for r in runs]) for run in dict.fromkeys(runs)]
    draws = np.empty((resamples, len(pages)))
    for k in range(resamples):
        if len(members) == 1:
            picked = logs[:, rng.integers(0, width, size=width)]
        else:
            chosen = rng.integers(0, len(members), size=len(members))
            picked = logs[:, np.concatenate([
                rng.choice(members[i], size=len(members[i])) for i in chosen])]
        draws[k] = page_effects(picked)
    spread = np.exp(draws[:, 1:] - draws[:, :1])
    tail = (1 - COVERAGE) / 2
    low, high = np.quantile(spread, [tail, 1 - tail], axis=0)
    return {p: Ratio(math.exp(rows[i] - rows[0]), float(low[i - 1]), float(high[i - 1]), width,
                     len(members))
            for i, p in enumerate(pages) if i}
