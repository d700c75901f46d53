"""Reinforcement-learning environments of both games (`pip install henkit[rl]`).

- `HenpenEnv`: Henpen for one learner against henkit bots (Gymnasium; also
  `gymnasium.make("henkit/Henpen-v0", players=3, opponents="greedy")`);
- `HenpenAECEnv`: Henpen with every seat a learner, 2 to 7 players (PettingZoo AEC);
- `HensAECEnv`: Hens with every seat a learner, 2 to 4 players, each seeing only its own view
  (PettingZoo AEC).

Every environment numbers its actions once and for all (see each module's note), gives an action
mask with every observation, rolls and shuffles with a numpy Generator seeded by
`reset(seed=...)`, refuses an illegal action with a ValueError that changes nothing, and
renders as text. The rules are the engines'; the environments add none.
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401 - checked here so the message below names both
except ImportError as e:  # the core of henkit needs neither
    raise ImportError(f"henkit.envs needs gymnasium and pettingzoo ({e.name} is missing): "
                      "pip install henkit[rl]") from e

from henkit.envs.henpen import HenpenAECEnv, HenpenCodec, HenpenEnv
from henkit.envs.hens import HensAECEnv, HensCodec

ENV_ID = "henkit/Henpen-v0"
"""The Gymnasium id of `HenpenEnv`."""

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="henkit.envs.henpen:HenpenEnv")

__all__ = ["ENV_ID", "HenpenAECEnv", "HenpenCodec", "HenpenEnv", "HensAECEnv", "HensCodec"]
