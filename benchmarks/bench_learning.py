"""Q-learning of the Henpen turn (henkit.henpen.learning): turns learned per second, the cost
of one exact grade, and, paired, how many simulated turns of the same length the batch
simulator plays in the time of one learned turn (rounds taken in turn, so a loaded machine
slows both alike)."""

from __future__ import annotations

import statistics
import time

from benchmarks.harness import Result, machine_load, median_seconds
from henkit.henpen.batch import simulate_turns
from henkit.henpen.learning import QLearner

TURNS = 200_000
"""Turns per timed training (the lesson's run)."""
ROUNDS = 5


def run() -> list[Result]:
    """Learning rate in turns/s, a grade's time, the simulator-per-learner ratio."""
    learner = QLearner(seed=0)
    learner.train(10_000)  # warm: the solver, the tables, numpy's first calls
    policy = learner.solution.policy
    learn, simulate = [], []
    for r in range(ROUNDS):
        t0 = time.perf_counter()
        learner.train(TURNS)
        learn.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        simulate_turns(policy, TURNS, seed=r)
        simulate.append(time.perf_counter() - t0)
    ratios = [s / q for s, q in zip(simulate, learn, strict=True)]
    grade_s = median_seconds(learner.grade, repeat=11)
    return [
        Result("henpen learning: Q-learning turns/s, 8 dice", TURNS / statistics.median(learn),
               "/s", target=50_000,
               note=f"{TURNS:,} turns per call, batches of {learner.batch}; {machine_load()}"),
        Result("henpen learning: one exact grade of the learned play", grade_s * 1e3, "ms",
               target=100, higher_is_better=False,
               note="greedy policy, its exact value, agreement over 24,946 decisions"),
        Result("henpen learning: learned turn / simulated turn (time, paired)",
               1 / statistics.median(ratios), "x", higher_is_better=False,
               note="a learned turn costs this many simulated optimal turns (batch simulator)"),
    ]
