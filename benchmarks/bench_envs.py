"""Environment steps per second with random masked actions (henkit.envs), against pickomino-env
in the same run: the issue's target is at least 10x pickomino-env for every environment.

A step is one `env.step(action)` with an action drawn uniformly from the mask the environment
gave with its last observation (`info["action_mask"]` for Gymnasium, the observation's
"action_mask" for PettingZoo, read through `env.last()` as an AEC user does; the masks hold 0
and 1, so the legal indices come from a boolean view of the mask, for which numpy's `nonzero` is
several times faster than for int8 on Hens' 3,545 actions). Henpen's Gymnasium
step plays the opponents' whole turns (random bots here) before it returns, as a pickomino-env
step plays its bots', so each is paired with a pickomino-env of as many bots; the AEC
environments with pickomino-env's default of one bot. A pickomino-env step takes a face and
says roll or stop (`benchmarks.bench_henpen_play.peer_random_steps`, the loop of
`benchmarks.harness.pickomino_steps_per_second`).

Both sides are timed in CPU seconds of this process, in alternating chunks: on a machine loaded
by other work, wall-clock rates of the two measured a few seconds apart differed by 2x and more,
while CPU time counts only the work done. The ratio is the figure to read. The harness's
wall-clock pickomino-env figure closes the table as the machine's reference.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from benchmarks.bench_henpen_play import PEER_STEPS_PER_SECOND, peer_random_steps
from benchmarks.harness import Result, machine_load, pickomino_steps_per_second, rate

TARGET_RATIO = 10
SECONDS = 1.5  # CPU seconds of each side per environment
ROUNDS = 3
PEER_SECONDS = 2.0


def gym_steps(env, rng: np.random.Generator, steps: int = 2_000) -> int:
    """`steps` Gymnasium steps with random masked actions, resetting when a game ends."""
    _obs, info = env.reset(seed=int(rng.integers(2**31)))
    for _ in range(steps):
        legal = info["action_mask"].view(bool).nonzero()[0]
        _obs, _r, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated or truncated:
            _obs, info = env.reset(seed=int(rng.integers(2**31)))
    return steps


def aec_steps(env, rng: np.random.Generator, steps: int = 2_000) -> int:
    """`steps` PettingZoo AEC steps with random masked actions (through `env.last()`), starting
    a new game when one ends; the closing steps of finished agents (action None) count too."""
    env.reset(seed=int(rng.integers(2**31)))
    for _ in range(steps):
        obs, _r, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            if not env.agents:
                env.reset(seed=int(rng.integers(2**31)))
            continue
        legal = obs["action_mask"].view(bool).nonzero()[0]
        env.step(int(legal[rng.integers(len(legal))]))
    return steps


Workload = tuple[str, Callable[[np.random.Generator], int], int]


def workloads() -> list[Workload]:
    """Every environment with its stepping loop and the bots of the pickomino-env it is paired
    with: as many as the Gymnasium environment's opponents (both play their bots' turns inside
    a step), pickomino-env's default of one for the AEC environments."""
    from henkit.envs import HenpenAECEnv, HenpenEnv, HensAECEnv

    out: list[Workload] = []
    for players in (2, 4):
        env = HenpenEnv(players, opponents="random")
        out.append((f"henpen gymnasium, {players} players vs random bots",
                    lambda rng, env=env: gym_steps(env, rng), players - 1))
    for players in (2, 7):
        env = HenpenAECEnv(players)
        out.append((f"henpen pettingzoo AEC, {players} players",
                    lambda rng, env=env: aec_steps(env, rng), 1))
    for players in (2, 4):
        env = HensAECEnv(players)
        out.append((f"hens pettingzoo AEC, {players} players",
                    lambda rng, env=env: aec_steps(env, rng), 1))
    return out


def cpu_seconds(fn: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Run `fn()` (which returns the steps it took) for at least `seconds` of this process's
    CPU time; return the steps and the CPU seconds."""
    done, t0 = 0, time.process_time()
    while (spent := time.process_time() - t0) < seconds or done == 0:
        done += fn()
    return done, spent


def paired_rates(ours: Callable[[], int], peer: Callable[[], int]) -> tuple[float, float]:
    """Steps per CPU second of two loops measured in alternating chunks (ROUNDS of each), so
    that both meet the same load, caches and clock speeds."""
    ours(), peer()  # warm up caches and imports
    totals = [[0, 0.0], [0, 0.0]]
    for _ in range(ROUNDS):
        for total, fn in zip(totals, (ours, peer), strict=True):
            done, spent = cpu_seconds(fn, SECONDS / ROUNDS)
            total[0] += done
            total[1] += spent
    return totals[0][0] / totals[0][1], totals[1][0] / totals[1][1]


def run() -> list[Result]:
    """Steps per CPU second of every environment, paired with pickomino-env's in alternating
    chunks (target: 10x); the machine's reference figure (wall clock) in the note."""
    try:
        import henkit.envs  # noqa: F401 - needs the [rl] extra
    except ImportError as e:
        return [Result("envs: not measured", float("nan"), "st/s", note=str(e))]
    reference = pickomino_steps_per_second(PEER_SECONDS)
    rng = np.random.default_rng(0)
    results = []
    try:
        import gymnasium
        import pickomino_env  # noqa: F401 - registers Pickomino-v0

        def peer_env(bots: int) -> gymnasium.Env:
            return gymnasium.make("Pickomino-v0", number_of_bots=bots).unwrapped
    except ImportError:
        peer_env = None
    load = machine_load()
    for name, step, bots in workloads():
        if peer_env is None:
            ours = rate(lambda step=step: step(rng), min_seconds=SECONDS)
            peer = float(PEER_STEPS_PER_SECOND)
            source = (f"pickomino-env not installed (make bench installs it): {peer:,.0f} "
                      "steps/s of the development machine, wall clock")
        else:
            penv = peer_env(bots)
            ours, peer = paired_rates(lambda step=step: step(rng),
                                      lambda penv=penv: peer_random_steps(penv, rng, 500))
            source = (f"pickomino-env with {bots} bot{'s' * (bots > 1)}: {peer:,.0f} steps per "
                      "CPU second beside it")
        results.append(Result(f"envs: {name} (vs {TARGET_RATIO}x peer)", ours, "st/s",
                              target=TARGET_RATIO * peer,
                              note=f"{ours / peer:.1f}x pickomino-env ({source})"))
    ref = f"{reference:,.0f} steps/s" if reference is not None else "not installed"
    results.append(Result("envs: machine reference, pickomino-env random play (wall clock)",
                          reference or float("nan"), "st/s",
                          note=f"{ref} at {load}; 3,100 on an idle core of the development "
                               "machine"))
    return results
