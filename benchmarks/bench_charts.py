"""Chart build times: the dice tray's live outlook chart (redrawn after every click) and others."""

from __future__ import annotations

import itertools

import numpy as np

from benchmarks.harness import Result, median_seconds
from henkit.charts import henpen as ch
from henkit.henpen import State
from henkit.henpen.bots import OptimalBot
from henkit.henpen.distributions import policy_distributions
from henkit.henpen.odds import position_reward, solve_turn


def _game_states(seed: int, most: int) -> list[State]:
    """Every state of seeded optimal-bot games that the dice tray shows (not chance, not over)."""
    rng = np.random.default_rng(seed)
    bots = [OptimalBot(), OptimalBot()]
    out: list[State] = []
    while len(out) < most:
        s = State.new(2)
        while not s.is_over and len(out) < most:
            if s.is_chance:
                s = s.apply(s.sample_chance(rng))
            else:
                out.append(s)
                s = s.apply(bots[s.current_player].choose(s, rng))
    return out


def run() -> list[Result]:
    """Outlook chart: warm (solution cached for the turn) and cold (a new position's solve)."""
    states = _game_states(0, 300)
    for s in states:  # warm: every turn's solution is cached, as after the turn's first click
        ch.turn_outlook_chart(s)
    cycle = itertools.cycle(states)
    warm = median_seconds(lambda: ch.turn_outlook_chart(next(cycle)), repeat=301)
    warm_json = median_seconds(lambda: ch.turn_outlook_chart(next(cycle)).to_json(), repeat=301)

    # Cold: a grill never seen before, so the turn's solution is solved inside the call.
    grills = iter(itertools.combinations(range(21, 37), 12))

    def cold() -> None:
        ch.turn_outlook_chart(State.new(2, grill=next(grills)))

    cold_s = median_seconds(cold, repeat=41)

    sol = solve_turn(position_reward())
    dists = policy_distributions((21, 25, 29))  # the engine computes, the chart draws
    others = {
        "bust_heatmap()": lambda: ch.bust_heatmap(),
        "roll_count_chart(8, simulated=seed, rolls=10,000)": lambda: ch.roll_count_chart(
            8, simulated=1, rolls=10_000),
        "law_of_large_numbers_chart(100,000 trials)": lambda: ch.law_of_large_numbers_chart(
            0.5, np.random.default_rng(0).random(100_000) < 0.5),
        "end_distribution_chart(3 policies)": lambda: ch.end_distribution_chart(dists),
        "policy_map(solution)": lambda: ch.policy_map(sol),
    }
    results = [
        Result("charts: dice tray outlook chart, solution cached", warm * 1e3, "ms", target=20.0,
               higher_is_better=False, note=f"median over {len(states)} states of seeded games"),
        Result("charts: dice tray outlook chart + to_json, cached", warm_json * 1e3, "ms",
               target=20.0, higher_is_better=False),
        Result("charts: dice tray outlook chart, new position (solve)", cold_s * 1e3, "ms",
               target=100.0, higher_is_better=False, note="first view of a turn: one solve"),
    ]
    for name, fn in others.items():
        results.append(Result(f"charts: {name}", median_seconds(fn, repeat=11) * 1e3, "ms",
                              target=100.0, higher_is_better=False))
    return results
