"""Many independent Henpen turns at once, vectorised with numpy, for Monte Carlo lessons.

Every turn is a walk over the nodes of a `TurnSpace`, so a step of all turns is a few integer
table look-ups: sample each turn's next projected roll, move to the node its policy takes, and
retire the turns whose policy stops there. Rolls are sampled with Walker's alias method on one
table per (dice left, faces untaken) pattern, the same exact distribution the solver uses, in
O(1) per roll. No Python loop runs per turn, only per step (at most 6 steps: one per face).

Policies: `threshold_policy(T)` ("stop once the total is >= T with a worm"; take worms while none
are taken, else the face setting aside the most points, ties to the higher face) and
`optimal_policy(reward)` (the solver's play). Results encode a failed turn as FAILED (-1).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.henpen.inputs import check_seed
from henkit.henpen.odds import TurnReward, TurnSolution, resolve_start, solve_turn
from henkit.henpen.rules import Rules
from henkit.henpen.turnspace import (
    FAILED,
    RollPattern,
    TurnPoint,
    TurnPolicy,
    TurnSpace,
    space_for,
    threshold_policy_on,
)

__all__ = [
    "FAILED",
    "TurnResults",
    "optimal_policy",
    "simulate_turns",
    "threshold_policy",
]

CHUNK = 1 << 16
"""Turns simulated together: small enough for the working arrays to stay in cache."""
MAX_TURNS = 100_000_000
"""The most turns one `simulate_turns` call plays (a few seconds per ten million)."""


def threshold_policy(
    threshold: int,
    *,
    start: Any = None,
    dice: int | None = None,
    taken: Iterable[int] = (),
    total: int = 0,
    rules: Rules | None = None,
) -> TurnPolicy:
    """Stop once the total is >= threshold with a worm; take worms while none are taken, else
    the face setting aside the most points (ties: the higher face, a worm above a 5)."""
    point, turn_dice = resolve_start(start, dice, taken, total, rules)
    return threshold_policy_on(space_for(point, turn_dice), threshold)


def optimal_policy(
    reward: TurnReward | TurnSolution,
    *,
    start: Any = None,
    dice: int | None = None,
    taken: Iterable[int] = (),
    total: int = 0,
    rules: Rules | None = None,
) -> TurnPolicy:
    """The solver's optimal policy for a reward (or an existing solution's policy)."""
    if isinstance(reward, TurnSolution):
        if start is not None or dice is not None or taken or (type(total) is not int or total) or (
                rules is not None):
            raise ValueError("a solution's policy takes no start, dice, taken, total or rules")
        return reward.policy
    return solve_turn(reward, start=start, dice=dice, taken=taken, total=total, rules=rules).policy


def _alias(probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walker/Vose alias table: keep bucket b when frac < threshold[b], else take alias[b]."""
    m = len(probs)
    scaled = probs * m
    threshold = np.ones(m)
    alias = np.arange(m, dtype=np.int32)
    small = [i for i in range(m) if scaled[i] < 1.0]
    large = [i for i in range(m) if scaled[i] >= 1.0]
    while small and large:
        s, g = small.pop(), large.pop()
        threshold[s], alias[s] = scaled[s], g
        scaled[g] -= 1.0 - scaled[s]
        (small if scaled[g] < 1.0 else large).append(g)
    # Leftovers are 1 up to rounding: they keep their own bucket (threshold 1).
    return threshold, alias


@lru_cache(maxsize=64)
def _pattern_alias(pattern: RollPattern) -> tuple[np.ndarray, np.ndarray]:
    return _alias(pattern.probs)


@dataclass(frozen=True, eq=False)
class _Sampler:
    """Alias tables of every roll pattern of a space, and per node where its table lives."""

    threshold: np.ndarray
    alias: np.ndarray
    offset: np.ndarray  # per node: first bucket of its table
    size: np.ndarray  # per node: buckets (float, multiplied by a uniform)
    pair_start: np.ndarray


@lru_cache(maxsize=16)
def _sampler(space: TurnSpace) -> _Sampler:
    thresholds, aliases, offsets = [], [], []
    at = 0
    for pat in space.pattern_list:
        t, a = _pattern_alias(pat)
        thresholds.append(t)
        aliases.append(a)
        offsets.append(at)
        at += len(t)
    pid = space.node_pattern
    sizes = np.array([len(p.weights) for p in space.pattern_list] or [0], dtype=np.float64)
    offs = np.array(offsets or [0], dtype=np.int64)
    rollable = pid >= 0
    node_off = np.where(rollable, offs[np.maximum(pid, 0)], 0)
    # Shrunk by 2**-50 so that uniform * size never rounds up to `size` (one bucket too far).
    node_size = np.where(rollable, sizes[np.maximum(pid, 0)], 0.0) * (1.0 - 2.0**-50)
    return _Sampler(
        np.concatenate(thresholds) if thresholds else np.ones(0),
        np.concatenate(aliases) if aliases else np.zeros(0, dtype=np.int32),
        np.r_[node_off, 0],
        np.r_[node_size, 0.0],
        np.r_[space.pair_start[:-1], 0],
    )


@dataclass(frozen=True, eq=False)
class TurnResults:
    """End totals of simulated turns: a total for a turn that stopped with a worm, else FAILED."""

    totals: np.ndarray  # int16, FAILED (-1) for a failed turn
    max_total: int
    policy_name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "max_total", whole(self.max_total, "max_total", 0, 10_000))
        t = self.totals
        if not (isinstance(t, np.ndarray) and t.ndim == 1 and t.dtype.kind in "iu"):
            raise ValueError("totals must be a 1-d numpy array of end totals (FAILED = -1)")
        if t.size and (t.min() < FAILED or t.max() > self.max_total):
            raise ValueError(f"totals must be from {FAILED} (failed) to max_total {self.max_total}")
        if not isinstance(self.policy_name, str):
            raise ValueError(f"policy_name must be text, not {self.policy_name!r}")

    @property
    def turns(self) -> int:
        """How many turns were simulated."""
        return len(self.totals)

    @property
    def failed(self) -> np.ndarray:
        """Boolean mask of the failed turns."""
        return self.totals == FAILED

    def histogram(self) -> tuple[np.ndarray, int]:
        """(count of turns ending with a worm at each total 0..max_total, count of failures)."""
        ok = self.totals[self.totals != FAILED]
        return np.bincount(ok, minlength=self.max_total + 1), int(self.failed.sum())

    def frequencies(self) -> tuple[np.ndarray, float]:
        """The histogram as fractions of all turns."""
        if not self.turns:
            raise ValueError("no turns were simulated: there are no frequencies")
        counts, fails = self.histogram()
        return counts / self.turns, fails / self.turns

    def chance_at_least(self, target: int) -> float:
        """Share of turns that ended with a worm at a total >= target."""
        target = whole(target, "target")
        if not self.turns:
            raise ValueError("no turns were simulated: there is no share to give")
        return float(np.mean(self.totals >= max(target, 0)))

    def mean_reward(self, reward: TurnReward) -> float:
        """Average of the reward over the simulated turns."""
        if not isinstance(reward, TurnReward):
            raise ValueError(f"reward must be a TurnReward, not {reward!r}")
        if reward.max_total < self.max_total:
            raise ValueError(f"the reward covers totals up to {reward.max_total}, the turns reach "
                             f"{self.max_total}")
        if not self.turns:
            raise ValueError("no turns were simulated: there is no average")
        stop_value, fail = reward.floats
        counts, fails = self.histogram()
        return float((counts @ stop_value[: len(counts)] + fails * fail) / self.turns)


def _rng(seed: Any) -> np.random.Generator:
    check_seed(seed)
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def simulate_turns(
    policy: TurnPolicy,
    turns: int,
    seed: Any = None,
    *,
    start: Any = None,
    cache: bool = True,
) -> TurnResults:
    """Play `turns` independent turns under `policy` from `start` (default: its space's root).

    cache: a run of at least CACHE_FROM turns from a whole-number seed is read from henkit's
    results cache when the same code played it before, and kept there otherwise (the same
    totals either way); False always plays.
    """
    if not isinstance(policy, TurnPolicy):
        raise ValueError(f"policy must be a TurnPolicy (threshold_policy, optimal_policy), "
                         f"not {type(policy).__name__}")
    turns = whole(turns, "turns", 0, MAX_TURNS)
    if not isinstance(cache, bool | np.bool_):
        raise ValueError(f"cache must be True or False, not {cache!r}")
    rng = _rng(seed)
    space = policy.space
    root = space.index(TurnPoint.of(start) if start is not None else space.root)
    seeded = isinstance(seed, int | np.integer) and not isinstance(seed, bool)
    # A seeded run is a pure function of the policy, the start, the count and the seed: kept
    # on disk (see `henkit.tournament_cache`; HENKIT_CACHE=off turns it off), so the kernels of
    # a class replay a lesson's million turns once, not once each.
    from henkit import tournament_cache

    if (not cache or turns < CACHE_FROM or not seeded
            or tournament_cache.cache_dir() is None):  # off: no key, no packing, just play
        return TurnResults(_play(policy, root, turns, rng), space.max_total, policy.name)
    key = _run_key(policy, root, turns, int(seed))
    size = turns * np.dtype(np.int16).itemsize
    found: list[np.ndarray] = []

    def check(g: int, row: Any) -> bool:
        try:
            found.append(tournament_cache.unpack(row[0], np.int16))
        except (ValueError, TypeError, IndexError, KeyError):
            return False
        return g == 0 and found[-1].size * 2 == size and bool(
            (found[-1] >= FAILED).all() and (found[-1] <= space.max_total).all())

    with tournament_cache.hold(key):
        if tournament_cache.load(key, check):
            return TurnResults(found[0], space.max_total, policy.name)
        out = _play(policy, root, turns, rng)
        # Level 1: a tenth of level 6's time, for 10 % more bytes.
        tournament_cache.store(key, [[tournament_cache.pack(out, 1)]])
    return TurnResults(out, space.max_total, policy.name)


CACHE_FROM = 100_000
"""`simulate_turns` keeps runs of at least this many turns (a shorter one plays in less time
than reading an entry takes)."""


def _run_key(policy: TurnPolicy, root: int, turns: int, seed: int) -> dict[str, Any]:
    """The results cache's key of a seeded run: the policy's tables digested, start, count, seed."""
    from henkit import tournament_cache

    sp = policy.space
    tables = [(name, getattr(policy, name)) for name in ("choice", "stop", "next", "outcome")]
    policy_digest = tournament_cache.digest(f"{sp.root} {sp.size} {sp.max_total}", tables)
    return {"what": "henpen.simulate_turns", "policy": policy_digest, "root": root,
            "turns": turns, "seed": seed}


def _play(policy: TurnPolicy, root: int, turns: int, rng: np.random.Generator) -> np.ndarray:
    """The end totals of `turns` turns from node `root` (see `simulate_turns`)."""
    space = policy.space
    smp = _sampler(space)
    nxt, stop, outcome = policy.next, policy.stop, policy.outcome
    out = np.empty(int(turns), dtype=np.int16)
    if stop[root]:
        out[:] = outcome[root]
    else:
        for c0 in range(0, int(turns), CHUNK):
            size = min(CHUNK, int(turns) - c0)
            where = np.arange(c0, c0 + size)
            node = np.full(size, root, dtype=np.int64)
            while where.size:
                u = rng.random(where.size) * smp.size[node]
                bucket = u.astype(np.int64)
                # The fractional part of u is a fresh uniform for the alias coin.
                g = smp.offset[node] + bucket
                local = np.where(u - bucket < smp.threshold[g], bucket, smp.alias[g])
                node = nxt[smp.pair_start[node] + local]
                done = stop[node]
                out[where[done]] = outcome[node[done]]
                keep = ~done
                where, node = where[keep], node[keep]
    return out
