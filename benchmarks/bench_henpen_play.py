"""Random legal play, one decision at a time through the public State API, against pickomino-env.

Both loops pick uniformly among legal moves. A henkit step is one decision (roll, take a face,
stop with a claim); a pickomino-env step is one `env.step((face, roll_or_stop))`, which also
plays its bots' whole turns after a stop. The peer is a speed reference only (it deviates
from the rules), and it is optional: without it the row says so.
"""

from __future__ import annotations

import numpy as np

from benchmarks.harness import Result, rate
from henkit.henpen import State

PEER_STEPS_PER_SECOND = 3100  # pickomino-env 1.4.1 measured on the development machine, one core


def henkit_random_steps(rng: np.random.Generator, decisions: int = 20_000) -> int:
    """Play random legal 2-player games for about `decisions` decisions; return the count."""
    done = 0
    s = State.new(2)
    while done < decisions:
        if s.is_over:
            s = State.new(2)
        if s.is_chance:
            s = s.apply(s.sample_chance(rng))
        else:
            acts = s.legal_actions()
            s = s.apply(acts[int(rng.integers(len(acts)))])
            done += 1
    return done


def peer_random_steps(env, rng: np.random.Generator, steps: int = 2_000) -> int:
    """The same loop on pickomino-env: a random face among the legal ones, roll or stop."""
    _obs, info = env.reset(seed=int(rng.integers(2**31)))
    done = 0
    while done < steps:
        rolled, collected = info["dice_rolled"], info["dice_collected"]
        legal = [f for f in range(6) if rolled[f] and not collected[f]]
        face = legal[int(rng.integers(len(legal)))] if legal else 0
        _obs, _r, terminated, truncated, info = env.step((face, int(rng.integers(2))))
        done += 1
        if terminated or truncated:
            _obs, info = env.reset(seed=int(rng.integers(2**31)))
    return done


def run() -> list[Result]:
    """Steps per second of random legal play: henkit against pickomino-env, side by side."""
    rng = np.random.default_rng(0)
    ours = rate(lambda: henkit_random_steps(rng), min_seconds=2.0)
    try:
        import gymnasium as gym
        import pickomino_env  # noqa: F401 - registers Pickomino-v0

        env = gym.make("Pickomino-v0").unwrapped
        peer = rate(lambda: peer_random_steps(env, rng), min_seconds=2.0)
        note = f"pickomino-env measured now: {peer:,.0f} steps/s"
    except ImportError:
        peer = PEER_STEPS_PER_SECOND
        note = f"pickomino-env not installed (make bench installs it): using {peer} steps/s"
    return [
        Result("henpen: random legal play, decisions/s (vs 10x peer)", ours, "st/s",
               target=10 * peer, note=note + f"; henkit/peer = {ours / peer:.1f}x"),
    ]
