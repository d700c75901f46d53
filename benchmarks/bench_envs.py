"""Environment steps per second with random masked actions (henkit.envs), against pickomino-env
in the same run: the issue's target is at least 10x pickomino-env for every environment.

A step is one `env.step(action)` with an action drawn uniformly from the mask the environment
gave with its last observation (`info["action_mask"]` for Gymnasium, the observation's
"action_mask" for PettingZoo, read through `env.last()` as an AEC user does). Henpen's Gymnasium
step plays the opponents' whole turns (random bots here) before it returns, as a pickomino-env
step plays its bots'. pickomino-env (`benchmarks.harness.pickomino_steps_per_second`: one step
takes a face and says roll or stop) is measured just before and just after each environment and
averaged, so a machine loaded by other work slows both sides alike: the ratio is the figure to
read, the rates say how loaded the machine was.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from benchmarks.bench_henpen_play import PEER_STEPS_PER_SECOND
from benchmarks.harness import Result, machine_load, pickomino_steps_per_second, rate

TARGET_RATIO = 10
SECONDS = 1.5
PEER_SECONDS = 1.0


def gym_steps(env, rng: np.random.Generator, steps: int = 2_000) -> int:
    """`steps` Gymnasium steps with random masked actions, resetting when a game ends."""
    _obs, info = env.reset(seed=int(rng.integers(2**31)))
    for _ in range(steps):
        legal = info["action_mask"].nonzero()[0]
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
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.integers(len(legal))]))
    return steps


def workloads() -> list[tuple[str, Callable[[np.random.Generator], int]]]:
    """Every environment with its stepping loop."""
    from henkit.envs import HenpenAECEnv, HenpenEnv, HensAECEnv

    out: list[tuple[str, Callable[[np.random.Generator], int]]] = []
    for players in (2, 4):
        env = HenpenEnv(players, opponents="random")
        out.append((f"henpen gymnasium, {players} players (vs random bots)",
                    lambda rng, env=env: gym_steps(env, rng)))
    for players in (2, 7):
        env = HenpenAECEnv(players)
        out.append((f"henpen pettingzoo AEC, {players} players",
                    lambda rng, env=env: aec_steps(env, rng)))
    for players in (2, 4):
        env = HensAECEnv(players)
        out.append((f"hens pettingzoo AEC, {players} players",
                    lambda rng, env=env: aec_steps(env, rng)))
    return out


def run() -> list[Result]:
    """Steps per second of every environment, each with its ratio to pickomino-env measured just
    before and just after it (paired: the machine's load changes from minute to minute)."""
    try:
        import henkit.envs  # noqa: F401 - needs the [rl] extra
    except ImportError as e:
        return [Result("envs: not measured", float("nan"), "st/s", note=str(e))]
    rng = np.random.default_rng(0)
    results = []
    before = pickomino_steps_per_second(PEER_SECONDS)
    for name, step in workloads():
        ours = rate(lambda step=step: step(rng), min_seconds=SECONDS)
        after = pickomino_steps_per_second(PEER_SECONDS)
        if before is None or after is None:
            peer = float(PEER_STEPS_PER_SECOND)
            source = (f"pickomino-env not installed (make bench installs it): using {peer:,.0f} "
                      "steps/s from the development machine")
        else:
            peer = (before + after) / 2
            source = f"pickomino-env {before:,.0f} before, {after:,.0f} after"
        results.append(Result(f"envs: {name}, steps/s (vs {TARGET_RATIO}x peer)", ours, "st/s",
                              target=TARGET_RATIO * peer,
                              note=f"{ours / peer:.1f}x pickomino-env ({source}); {machine_load()}"))
        before = after
    return results
