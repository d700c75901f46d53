"""The environments pass the libraries' own checkers: Gymnasium's `check_env` and PettingZoo's
`api_test` and `seed_test`, and the [rl] extra stays optional for the rest of henkit."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from henkit.envs import ENV_ID, HenpenAECEnv, HenpenEnv, HensAECEnv

# PettingZoo's api_test warns about every Dict observation ({"observation", "action_mask"}),
# the layout PettingZoo's own documentation prescribes for action masks: not a fault here.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


@pytest.mark.parametrize(("players", "opponents"), [(2, "random"), (3, "greedy"),
                                                    (7, "random")])
def test_gymnasium_env_passes_check_env(players, opponents):
    # check_env steps with unmasked random actions, so the environment ends the episode on an
    # illegal one (illegal="terminate") instead of raising; made through gymnasium.make, so the
    # checker also renders in every declared mode.
    env = gymnasium.make(ENV_ID, players=players, opponents=opponents, illegal="terminate")
    check_env(env.unwrapped)


@pytest.mark.parametrize(("make", "players"), [(HenpenAECEnv, 2), (HenpenAECEnv, 7),
                                               (HensAECEnv, 2), (HensAECEnv, 4)])
def test_aec_envs_pass_api_test_and_seed_test(make, players):
    api_test(make(players), num_cycles=1000)
    seed_test(lambda: make(players), num_cycles=300)


def test_aec_envs_pass_api_test_with_the_dense_rewards():
    api_test(HenpenAECEnv(3, reward="worms"), num_cycles=300)
    api_test(HensAECEnv(3, reward="points"), num_cycles=300)


def test_gymnasium_make_gives_the_env_with_its_arguments():
    env = gymnasium.make(ENV_ID, players=4, opponents="greedy", seat=2)
    assert isinstance(env.unwrapped, HenpenEnv)
    assert env.unwrapped.seat == 2 and env.action_space.n == 8 + 3


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=120)


def test_henkit_without_the_rl_extra_imports_neither_library():
    code = ("import sys, henkit, henkit.henpen, henkit.hens, henkit.arena, henkit.cli\n"
            "print(sorted(m for m in ('gymnasium', 'pettingzoo') if m in sys.modules))")
    out = run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("missing", ["gymnasium", "pettingzoo"])
def test_envs_without_the_rl_extra_say_how_to_install_it(missing):
    # sys.modules[name] = None makes `import name` fail as if it were not installed.
    out = run(f"import sys; sys.modules[{missing!r}] = None\nimport henkit.envs")
    assert out.returncode != 0
    assert "ImportError" in out.stderr and "pip install henkit[rl]" in out.stderr
    assert missing in out.stderr.splitlines()[-1]
