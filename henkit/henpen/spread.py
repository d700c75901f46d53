"""Spread, risk and waiting: the exact distributions of lesson 10, computed here so the notebook,
its tests and its charts (`henkit.charts.spread`) get every number from one place.

- `roll_total_distribution`: the chance of each total of one roll (every die's points: a worm
  counts 5), summed over the engine's rolls; `simulate_roll_totals` draws seeded rolls of it;
- `spread_of`: the mean, variance and standard deviation of any exact distribution;
- `turn_worms` / `policy_worms`: the worms a fresh turn wins on a full grill under a way of
  playing (a threshold rule, the solver's most worms, the solver's best chance of a total);
- `target_policy`: the best chance of a total, and once it is out of reach the most worms (a
  player's rule: the solver playing for the total alone stops with nothing once it cannot reach it);
- `sum_of_turns`, `chance_at_least`: several independent turns added up;
- waiting times: `geometric` (independent tries, each a hit with chance p), `waiting_spread`,
  `draws_until` (drawing without putting back: the first of `copies` cards in a deck), and
  `waits` (cut a seeded run of tries into waits, to check the exact law by simulation).

Chances are `Fraction`s where the input is exact (floats in, floats out for the quick turn
solves); a distribution is a dict value -> chance, values in increasing order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np

from henkit.checks import whole
from henkit.henpen.batch import optimal_policy, threshold_policy
from henkit.henpen.dice import (
    MAX_ROLLS,
    VALUES,
    check_dice,
    roll_outcomes,
    roll_probabilities,
    sample_rolls,
)
from henkit.henpen.inputs import as_fraction, check_flag, check_seed
from henkit.henpen.odds import (
    TIE_TOLERANCE,
    EndDistribution,
    TurnReward,
    position_reward,
    solve_turn,
)
from henkit.henpen.turnspace import TurnPolicy

__all__ = [
    "Spread",
    "chance_at_least",
    "draws_until",
    "geometric",
    "policy_worms",
    "roll_total_distribution",
    "simulate_roll_totals",
    "spread_of",
    "sum_of_turns",
    "target_policy",
    "turn_worms",
    "waiting_spread",
    "waits",
]

MAX_TURNS = 50
"""The most turns `sum_of_turns` adds up."""
MAX_DECK = 10_000
"""The largest deck `draws_until` takes."""

Number = Fraction | float


# -- one roll's total --------------------------------------------------------------------------


@cache
def _roll_totals(n: int) -> tuple[tuple[int, Fraction], ...]:
    out: dict[int, Fraction] = {}
    for counts, p in zip(roll_outcomes(n), roll_probabilities(n), strict=True):
        total = sum(c * v for c, v in zip(counts, VALUES, strict=True))
        out[total] = out.get(total, Fraction(0)) + p
    return tuple(sorted(out.items()))


def roll_total_distribution(n: int = 8) -> dict[int, Fraction]:
    """Exact chance of each total of one roll of n dice (1 to 20): the points of every die
    added up, a worm counting 5 (summed over the engine's rolls and their chances)."""
    return dict(_roll_totals(check_dice(n, "n (dice rolled)", 1)))


def simulate_roll_totals(n: int, rolls: int, seed: Any = 0) -> np.ndarray:
    """The total of each of `rolls` seeded rolls of n dice (the engine's roll table, one
    uniform per roll as in `dice.sample_roll`)."""
    n = check_dice(n, "n (dice rolled)", 1)
    rolls = whole(rolls, "rolls", 1, MAX_ROLLS)
    check_seed(seed)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    return sample_rolls(n, rng, rolls) @ np.array(VALUES, dtype=np.int64)


# -- spread ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """The centre and the spread of a distribution: mean, variance (exact when the chances are)
    and standard deviation (the square root of the variance, a float)."""

    mean: Number
    variance: Number

    @property
    def sd(self) -> float:
        """The standard deviation: the square root of the variance."""
        return math.sqrt(self.variance)


def _check_dist(dist: object, what: str = "dist") -> dict[Number, Number]:
    # A distribution: a non-empty dict value -> chance, chances from 0 to 1 adding up to 1.
    if not isinstance(dist, Mapping) or not dist:
        raise ValueError(f"{what} must be a dict of value -> chance, not {dist!r}"[:300])
    out: dict[Number, Number] = {}
    for value, p in dist.items():
        v = value if isinstance(value, float) else as_fraction(value, f"each value of {what}")
        q = p if isinstance(p, float) else as_fraction(p, f"each chance of {what}")
        if not -1e-9 <= q <= 1 + 1e-9 or (isinstance(v, float) and not math.isfinite(v)):
            raise ValueError(f"{what}'s chances must be from 0 to 1 and its values finite, "
                             f"not {value!r}: {p!r}")
        out[v] = q
    total = sum(out.values())
    if (abs(total - 1) > 1e-9) if isinstance(total, float) else total != 1:
        raise ValueError(f"{what}'s chances must add up to 1, not {total!r}")
    return out


def spread_of(dist: Mapping[Any, Any]) -> Spread:
    """Mean, variance and standard deviation of a distribution (value -> chance):
    mean = sum of value x chance, variance = sum of (value - mean)^2 x chance."""
    d = _check_dist(dist)
    mean = sum(v * p for v, p in d.items())
    variance = sum((v - mean) ** 2 * p for v, p in d.items())
    return Spread(mean, variance)


# -- worms per turn ----------------------------------------------------------------------------


def turn_worms(ends: EndDistribution, reward: TurnReward | None = None) -> dict[int, Number]:
    """The worms a turn wins, by its end: each end total's serving (`reward`, default the full
    grill with nothing to lose), a failed turn or a total with nothing to claim 0 worms."""
    if not isinstance(ends, EndDistribution):
        raise ValueError(f"ends must be how a turn ends (an end distribution), not {ends!r}")
    reward = position_reward() if reward is None else reward
    if not isinstance(reward, TurnReward):
        raise ValueError(f"reward must be a TurnReward, not {reward!r}")
    if len(ends.at_total) > len(reward.stop_value):
        raise ValueError(f"the turn reaches totals up to {len(ends.at_total) - 1}, the reward "
                         f"covers {reward.max_total}")
    out: dict[int, Number] = {}

    def add(worth: Fraction, p: Number) -> None:
        if worth.denominator != 1:
            raise ValueError(f"a serving is worth whole worms, not {worth}")
        out[int(worth)] = out.get(int(worth), 0 * p) + p

    for t, p in enumerate(ends.at_total):
        if p:
            add(reward.stop_value[t], p)
    add(reward.fail_value, ends.fail)
    return dict(sorted(out.items()))


POLICY = re.compile(r"stop at (\d+)|most worms|best chance of (\d+) or more(, then most worms)?")


def target_policy(target: int, exact: bool = False) -> TurnPolicy:
    """A fresh turn on a full grill played for the best chance of a total of `target` or more
    (with a worm) and, once that is out of reach, for the most worms still to be won.

    The solver playing for the target alone ('best chance of T or more') values every move at 0
    once no roll can bring the total to T, and its tie-break then stops at once, often below 21
    with nothing to claim. A player would play on. So, here: at a moment of the turn where the
    chance of the target is 0, the most-worms solver decides whether to stop or roll; at a roll
    where no face leaves any chance of the target, it picks the face too (and every later
    moment is out of reach). Everywhere else the target's solver decides, with its tie-breaks.
    With `exact` the chances are Fractions and "out of reach" is a chance of exactly 0; in float
    mode a chance within the solver's tie tolerance of 0 counts as 0.
    """
    exact = check_flag(exact, "exact")
    return _target_policy(whole(target, "target (a total)", 0, position_reward().max_total), exact)


@cache
def _target_policy(target: int, exact: bool) -> TurnPolicy:
    reward = position_reward()
    goal = solve_turn(TurnReward.at_least(target, reward.max_total), exact=exact)
    worms = solve_turn(reward, exact=exact)
    space = goal.space
    if worms.space is not space:  # both are the fresh turn of the rules' dice: one cached space
        raise RuntimeError("the two solutions of a fresh turn cover different spaces")
    # The target's chance at every node (FAIL last), as the solver keeps it: whole numbers over
    # one scale when exact, floats otherwise; positive means the target is still within reach.
    value = np.array([v > 0 for v in goal._value] if exact else
                     np.asarray(goal._value) > TIE_TOLERANCE * TurnReward.at_least(
                         target, reward.max_total).scale)
    node_live = value[:-1]
    edge_live = value[space.edge_child]
    pair_live = np.logical_or.reduceat(edge_live, space.pair_edge_start[:-1]) if edge_live.size \
        else np.zeros(0, dtype=bool)
    mine, other = goal.policy, worms.policy
    choice = np.where(pair_live, mine.choice, other.choice)
    stop = np.where(node_live, mine.stop[:-1], other.stop[:-1])
    return TurnPolicy(space, choice, stop, f"best chance of {target} or more, then most worms")


def policy_worms(names: Iterable[str], exact: bool = False) -> dict[str, dict[int, Number]]:
    """Worms per fresh turn on a full grill, by way of playing: 'stop at T' (the threshold rule),
    'most worms' (the solver's best expected worms), 'best chance of T or more' (the solver
    playing for a total of at least T, with a worm) or 'best chance of T or more, then most
    worms' (the same, playing on for the most worms once T is out of reach: `target_policy`).
    Exact fractions when `exact`."""
    exact = check_flag(exact, "exact")
    if isinstance(names, str | bytes) or not isinstance(names, Iterable):
        raise ValueError(f"names must be a list of ways of playing, not {names!r}")
    reward = position_reward()
    out: dict[str, dict[int, Number]] = {}
    for name in names:
        m = POLICY.fullmatch(name) if isinstance(name, str) else None
        if m is None:
            raise ValueError(f"a way of playing is 'stop at T', 'most worms', 'best chance of T "
                             f"or more' or 'best chance of T or more, then most worms' (T a total "
                             f"from 0 to {reward.max_total}), not {name!r}")
        if m.group(1) is not None:
            t = whole(int(m.group(1)), "T", 0, reward.max_total)
            ends = threshold_policy(t).end_distribution(exact=exact)
        elif m.group(3) is not None:
            t = whole(int(m.group(2)), "T", 0, reward.max_total)
            ends = target_policy(t, exact).end_distribution(exact=exact)
        else:
            goal = reward if m.group(2) is None else TurnReward.at_least(
                whole(int(m.group(2)), "T", 0, reward.max_total), reward.max_total)
            sol = solve_turn(goal, exact=exact)
            ends = optimal_policy(sol).end_distribution(exact=exact)
        out[name] = turn_worms(ends, reward)
    return out


def sum_of_turns(dist: Mapping[int, Any], turns: int) -> dict[int, Number]:
    """The distribution of the worms of `turns` independent turns (1 to MAX_TURNS), each with
    the distribution `dist` (worms -> chance): the turns' distributions convolved."""
    d = _check_dist(dist)
    if not all(isinstance(v, Fraction) and v.denominator == 1 for v in d):
        raise ValueError("dist's values must be whole numbers of worms")
    turns = whole(turns, "turns", 1, MAX_TURNS)
    total: dict[int, Number] = {0: Fraction(1)}
    for _ in range(turns):
        step: dict[int, Number] = {}
        for a, p in total.items():
            for b, q in d.items():
                step[a + int(b)] = step.get(a + int(b), 0 * q) + p * q
        total = step
    return dict(sorted(total.items()))


def chance_at_least(dist: Mapping[Any, Any], value: Any) -> Number:
    """The chance that a value of `dist` is `value` or more."""
    d = _check_dist(dist)
    v = value if isinstance(value, float) else as_fraction(value, "value")
    ps = [p for x, p in d.items() if x >= v]
    return sum(ps[1:], ps[0]) if ps else 0 * next(iter(d.values()))


# -- waiting times -----------------------------------------------------------------------------


def _chance(p: object) -> Fraction:
    q = as_fraction(p, "p (the chance of a hit on each try)")
    if not 0 < q <= 1:
        raise ValueError(f"p (the chance of a hit on each try) must be above 0 and at most 1, not {p!r}")
    return q


def geometric(p: Any, n: int) -> Fraction:
    """P(wait = n): the chance that the first hit comes on try n (1, 2, ...) when each try is a
    hit with chance p, independently: (1 - p)^(n - 1) x p."""
    q = _chance(p)
    n = whole(n, "n (the try of the first hit)", 1)
    return (1 - q) ** (n - 1) * q


def waiting_spread(p: Any) -> Spread:
    """Mean 1/p and variance (1 - p)/p^2 of the wait for the first hit (chance p per try)."""
    q = _chance(p)
    return Spread(1 / q, (1 - q) / q ** 2)


def draws_until(deck: int, copies: int = 1) -> dict[int, Fraction]:
    """P(the first of `copies` cards shows on draw n), drawing a shuffled deck of `deck` cards
    one by one without putting any back: P(wait > n) = C(deck - copies, n) / C(deck, n)."""
    deck = whole(deck, "deck (cards in the deck)", 1, MAX_DECK)
    copies = whole(copies, f"copies (cards of the kind waited for, 1 to the deck's {deck})", 1, deck)

    def longer(n: int) -> Fraction:
        return Fraction(math.comb(deck - copies, n), math.comb(deck, n))

    return {n: longer(n - 1) - longer(n) for n in range(1, deck - copies + 2)}


def waits(hits: Any) -> np.ndarray:
    """The waits in a run of tries (True for a hit): the number of tries up to and including
    each hit since the previous one. A wait still running at the end is left out."""
    h = np.asarray(hits) if isinstance(hits, list | tuple | np.ndarray) else None
    if h is None or h.ndim != 1 or h.dtype.kind not in "biu" or (
            h.dtype.kind != "b" and not np.isin(h, (0, 1)).all()):
        raise ValueError(f"hits must be a list of True/False, one per try, not {hits!r}"[:300])
    where = np.flatnonzero(h)
    return np.diff(where, prepend=-1).astype(np.int64)
