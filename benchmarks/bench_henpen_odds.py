"""Henpen single-turn odds: float and exact solves of a fresh 8-dice turn, batch turns/s."""

from __future__ import annotations

import time

import numpy as np

from benchmarks.harness import Result, median_seconds, rate
from henkit.henpen.batch import optimal_policy, simulate_turns
from henkit.henpen.odds import TurnPoint, TurnReward, position_reward, solve_turn
from henkit.henpen.turnspace import turn_space


def run() -> list[Result]:
    """Median float solve for a new reward, one exact solve, batch turns/s (optimal policy)."""
    turn_space(TurnPoint(8))  # the tables are built once per dice count; not part of a solve
    rng = np.random.default_rng(0)
    # A new reward every call, so nothing about the reward can be cached between solves.
    rewards = [TurnReward(rng.integers(-4, 10, 41).tolist(), -2) for _ in range(128)]
    it = iter(rewards)  # 104 timed and warm-up calls: each gets a reward never solved before

    def float_solve() -> None:
        solve_turn(next(it)).value()

    float_s = median_seconds(float_solve, repeat=101, warmup=3)

    reward = position_reward(own_top=24, grill=[21, 22, 23, *range(25, 37)], steal_weight=1)

    def full_answer() -> None:
        sol = solve_turn(reward)
        sol.policy  # noqa: B018 - tie-broken policy tables
        sol.end_distribution()

    full_s = median_seconds(full_answer, repeat=41)

    t0 = time.perf_counter()
    exact = solve_turn(TurnReward.at_least(25, 40), exact=True)
    exact.value()
    exact_s = time.perf_counter() - t0

    policy = optimal_policy(solve_turn(TurnReward.at_least(25, 40)))
    seeds = iter(range(10**6))
    turns = 1_000_000
    per_s = rate(lambda: simulate_turns(policy, turns, next(seeds)).turns, min_seconds=2.0)

    return [
        Result("henpen odds: float solve, fresh 8-dice turn, new reward", float_s * 1e3, "ms",
               target=5.0, higher_is_better=False,
               note="values of every node; 1,939 nodes, 34,389 projected rolls, 73,598 takes"),
        Result("henpen odds: float solve + policy + end distribution", full_s * 1e3, "ms",
               higher_is_better=False),
        Result("henpen odds: exact Fraction solve, fresh 8-dice turn", exact_s * 1e3, "ms",
               higher_is_better=False, note=f"P(>=25) = {float(exact.value()):.6f}"),
        Result("henpen batch: turns/s, optimal policy, 8 dice", per_s, "/s", target=1e6,
               note="1,000,000 turns per call, one process"),
    ]
