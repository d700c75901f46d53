"""Hens speed: 4-player full games per second with random bots and with greedy bots."""

from __future__ import annotations

from itertools import count

from benchmarks.harness import Result, rate
from henkit.hens.bots import GreedyBot, RandomBot
from henkit.hens.simulate import simulate


def _games(make_bots, batch: int):
    """A callable that plays `batch` new seeded 4-player games and returns how many it played."""
    seeds = count(step=batch)

    def run_batch() -> int:
        # simulate, as a lesson or the CLI plays games: a series with the same bots, no seed
        # played twice across calls.
        simulate(make_bots(), batch, seed=next(seeds))
        return batch

    return run_batch


def run() -> list[Result]:
    """Measure games per second (fresh bots for every series, a new seed for every game)."""
    random_rate = rate(_games(lambda: [RandomBot() for _ in range(4)], 20), min_seconds=2.0)
    greedy_rate = rate(_games(lambda: [GreedyBot() for _ in range(4)], 5), min_seconds=2.0)
    return [
        Result("hens: 4-player games, random bots", random_rate, "games/s", target=500,
               note="setup, deal, every draw, placement, discard and rooster; final scoring"),
        Result("hens: 4-player games, greedy bots", greedy_rate, "games/s", target=100,
               note="greedy scores every placement of every card it holds or may draw"),
    ]
