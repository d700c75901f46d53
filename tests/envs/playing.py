"""Random masked play through the environments, shared by the Henpen and Hens env tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of `mask` (a player asked to move always has one)."""
    legal = np.flatnonzero(mask)
    assert len(legal), "a player asked to move has a legal action"
    return int(legal[rng.integers(len(legal))])


def play_aec(env: Any, seed: int, rng: np.random.Generator, max_steps: int,
             check: Callable[[Any, dict], None] | None = None) -> list:
    """One AEC game of random masked actions from `reset(seed=seed)`, each decision passed to
    `check`; what every agent saw: (agent, observation, reward, terminated) per step."""
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter(max_steps):
        obs, reward, term, trunc, _info = env.last()
        seen.append((agent, obs["observation"].tolist(), reward, term))
        if term or trunc:
            env.step(None)
            continue
        if check is not None:
            check(env, obs)
        env.step(pick(obs["action_mask"], rng))
    assert not env.agents, f"the game ended within {max_steps} steps"
    return seen


def check_mask_is_the_legal_moves(env: Any, obs: dict) -> None:
    """The mover's mask decodes to exactly the engine's legal moves, each once, and every other
    agent's mask is empty."""
    state, mask = env.state, obs["action_mask"]
    acts = state.legal_actions()
    assert mask.dtype == np.int8 and int(mask.sum()) == len(acts)
    decoded = [env.codec.action(state, i) for i in np.flatnonzero(mask).tolist()]
    assert set(decoded) == set(acts) and len(set(decoded)) == len(decoded)
    for a in env.agents:
        if a != env.agent_selection:
            assert not env.observe(a)["action_mask"].any()
