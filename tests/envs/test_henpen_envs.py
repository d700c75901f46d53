"""Henpen environments: masks are the engine's legal moves, seeds fix games, every game ends,
rewards add up as the docstrings say, and an illegal action changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.envs import HenpenAECEnv, HenpenCodec, HenpenEnv
from henkit.envs.henpen import GRILL_ACTION
from henkit.henpen import Rules, State
from henkit.henpen.actions import ROLL, Stop, Take
from tests.envs.playing import check_mask_is_the_legal_moves, pick, play_aec

FAST = settings(max_examples=12, deadline=None, derandomize=True)
MAX_STEPS = 20_000  # far above any game of random play: a game that reaches it never ends


def aec_game(env: HenpenAECEnv, seed: int, rng: np.random.Generator, check=None) -> list:
    """Play one game of random masked actions; return what every agent saw."""
    return play_aec(env, seed, rng, MAX_STEPS, check)


def legal_set(codec: HenpenCodec, state: State, mask: np.ndarray) -> set:
    return {codec.action(state, i) for i in np.flatnonzero(mask).tolist()}


@FAST
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_aec_masks_are_the_engines_legal_actions(players, seed):
    aec_game(HenpenAECEnv(players), seed, np.random.default_rng(seed),
             check_mask_is_the_legal_moves)


@FAST
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_aec_games_end_and_win_rewards_add_up_to_one(players, seed):
    env = HenpenAECEnv(players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for steps, agent in enumerate(env.agent_iter()):
        assert steps < MAX_STEPS
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(pick(obs["action_mask"], rng))
        for a in env.rewards:
            total[a] += env.rewards[a]
    final = env.state
    assert final.is_over and not env.agents
    assert sum(total.values()) == pytest.approx(1.0)
    assert [total[a] for a in env.possible_agents] == pytest.approx(list(final.returns()))


@FAST
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_aec_worms_rewards_add_up_to_each_players_worms(players, seed):
    env = HenpenAECEnv(players, reward="worms")
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(MAX_STEPS):
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(pick(obs["action_mask"], rng))
        for a in env.rewards:
            total[a] += env.rewards[a]
    assert env.state.is_over
    assert [total[a] for a in env.possible_agents] == list(map(float, env.state.scores()))


@FAST
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1),
       opponents=st.sampled_from(["random", "greedy", "threshold:27"]))
def test_gym_games_end_and_the_return_is_the_engines(players, seed, opponents):
    env = HenpenEnv(players, opponents, seat=None)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    ret, steps, over = 0.0, 0, False
    while not over:
        state, mask = env.state, info["action_mask"]
        assert state.player == env.seat and not state.is_over  # the learner decides
        assert legal_set(env.codec, state, mask) == set(state.legal_actions())
        obs, reward, over, truncated, info = env.step(pick(mask, rng))
        assert not truncated and env.observation_space.contains(obs)
        ret += reward
        steps += 1
        assert steps < MAX_STEPS
    assert env.state.is_over and not info["action_mask"].any()
    assert ret == env.state.returns()[env.seat]


def test_gym_worms_rewards_add_up_to_the_learners_worms():
    env = HenpenEnv(3, "greedy", reward="worms")
    rng = np.random.default_rng(5)
    _obs, info = env.reset(seed=5)
    ret, over = 0.0, False
    while not over:
        _obs, reward, over, _t, info = env.step(pick(info["action_mask"], rng))
        ret += reward
    assert ret == env.state.worms(0)


def gym_trajectory(seed: int, **kwargs) -> list:
    env = HenpenEnv(**kwargs)
    rng = np.random.default_rng(0)  # the same actions for the same masks
    obs, info = env.reset(seed=seed)
    out = [(env.seat, obs.tolist())]
    over = False
    while not over:
        obs, reward, over, _t, info = env.step(pick(info["action_mask"], rng))
        out.append((obs.tolist(), reward, info["action_mask"].tolist()))
    return out


def test_same_seed_same_game_and_another_seed_another():
    kwargs = {"players": 3, "opponents": ["random", "greedy"], "seat": None}
    a, b = gym_trajectory(11, **kwargs), gym_trajectory(11, **kwargs)
    assert a == b
    assert gym_trajectory(12, **kwargs) != a
    env = HenpenAECEnv(4)
    first = aec_game(env, 3, np.random.default_rng(0))
    assert aec_game(HenpenAECEnv(4), 3, np.random.default_rng(0)) == first
    assert aec_game(env, 4, np.random.default_rng(0)) != first


def test_reset_without_a_seed_plays_on_with_the_same_generator():
    env = HenpenEnv(2)
    env.reset(seed=1)
    env.reset()
    # Two unseeded resets after one seed: a fixed sequence of games.
    again = HenpenEnv(2)
    again.reset(seed=1)
    again.reset()
    assert env.state == again.state


def decision(players: int = 2) -> HenpenAECEnv:
    # A game at a decision with a roll waiting (the first decision of the first turn).
    env = HenpenAECEnv(players)
    env.reset(seed=7)
    assert env.state.phase == "take"
    return env


def test_an_illegal_action_raises_naming_it_and_what_is_legal_and_changes_nothing():
    env = decision()
    state, mask = env.state, env.observe(env.agent_selection)["action_mask"]
    bad = next(i for i in range(env.codec.actions) if not mask[i])
    before = (env.agent_selection, dict(env._cumulative_rewards), env.np_random.bit_generator.state)
    with pytest.raises(ValueError, match=rf"action {bad} \(.*\) is not legal now; legal: "
                       rf"{np.flatnonzero(mask)[0]} \(take the"):
        env.step(bad)
    assert env.state is state
    assert (env.agent_selection, dict(env._cumulative_rewards),
            env.np_random.bit_generator.state) == before


@pytest.mark.parametrize("action", [-1, 99, 2.0, "0", None, True, np.array([1])])
def test_an_action_that_is_no_index_is_refused(action):
    env = decision()
    state = env.state
    with pytest.raises(ValueError, match="action"):
        env.step(action)
    assert env.state is state
    gym = HenpenEnv(2)
    gym.reset(seed=1)
    with pytest.raises(ValueError, match="action"):
        gym.step(action)


def test_numpy_integers_are_actions():
    env = decision()
    i = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    env.step(np.int64(i))
    assert env.state.phase in ("decide", "take", "over") and env.state.kept != (0,) * 6


def test_gym_illegal_action_raises_and_changes_nothing_or_terminates_when_asked():
    env = HenpenEnv(2, "greedy")
    _obs, info = env.reset(seed=2)
    state = env.state
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"action {bad} .* is not legal now"):
        env.step(bad)
    assert env.state is state
    env = HenpenEnv(2, "greedy", illegal="terminate")
    _obs, info = env.reset(seed=2)
    _obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(ValueError, match="call reset"):
        env.step(0)


def test_step_before_reset_and_after_the_end_is_refused():
    with pytest.raises(ValueError, match="reset"):
        HenpenEnv(2).step(0)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"players": 1}, "2 to 7 players"),
    ({"players": 8}, "2 to 7 players"),
    ({"players": 3, "opponents": ["random"]}, "one per opponent"),
    ({"opponents": "grandmaster"}, "unknown Henpen bot"),
    ({"seat": 2}, "seat must be"),
    ({"reward": "points"}, "reward must be one of 'win', 'worms'"),
    ({"illegal": "ignore"}, "illegal must be one of"),
    ({"render_mode": "rgb_array"}, "render_mode must be one of"),
    ({"rules": "pickomino"}, "rules must be"),
])
def test_bad_settings_are_refused_naming_what_is_allowed(kwargs, match):
    with pytest.raises(ValueError, match=match):
        HenpenEnv(**kwargs)


def test_the_action_numbering_decodes_to_the_engines_actions():
    codec = HenpenCodec(3, Rules())
    assert codec.index_of(ROLL, 0) == 0
    assert [codec.index_of(Take(f), 1) for f in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    # Random play until decisions where stealing is legal: each steal's index counts the seats
    # from the thief, and decodes back to the same Stop.
    env, rng, steals = HenpenAECEnv(3), np.random.default_rng(1), 0
    for seed in range(40):
        env.reset(seed=seed)
        for agent in env.agent_iter(MAX_STEPS):
            obs, _r, term, _t, _i = env.last()
            if term:
                env.step(None)
                continue
            state = env.state
            for i in np.flatnonzero(obs["action_mask"]).tolist():
                a = codec.action(state, i)
                assert codec.index_of(a, state.player) == i
                if i > GRILL_ACTION:
                    steals += 1
                    assert isinstance(a, Stop)
                    assert a.claim.owner == (state.player + i - GRILL_ACTION) % 3
                    assert a.claim.tile == state.total == state.top(a.claim.owner)
                elif i == GRILL_ACTION:
                    assert isinstance(a, Stop) and a.claim.owner is None
            env.step(pick(obs["action_mask"], rng))
    assert steals > 0


def test_the_observation_is_the_position_seen_from_the_observer():
    env = HenpenAECEnv(3)
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    for _ in range(400):  # into the game, with servings in stacks
        obs, _r, term, _t, _i = env.last()
        if term:
            break
        env.step(pick(obs["action_mask"], rng))
    state, codec = env.state, env.codec
    names = codec.observation_layout()
    assert len(names) == codec.size
    t = len(codec.tiles)
    for seat, agent in enumerate(env.possible_agents):
        vec = env.observe(agent)["observation"]
        assert env.observation_space(agent)["observation"].contains(vec)
        for r in range(3):
            p = (seat + r) % 3
            assert vec[2 * t + r] == state.worms(p)
            stack = state.stacks[p]
            for depth, tile in enumerate(stack, 1):
                i = codec.tiles.index(tile)
                assert (vec[i], vec[t + i]) == (2 + r, depth)
        for tile in state.grill:
            assert vec[codec.tiles.index(tile)] == 0
        for tile in state.out_of_play:
            assert vec[codec.tiles.index(tile)] == 1
        turn = vec[codec.board_size:]
        assert tuple(turn[:6]) == state.kept and turn[13] == state.total
        assert turn[15] == (state.player - seat) % 3


def test_render_shows_the_position_and_the_numbered_actions(capsys):
    env = HenpenEnv(2, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text.startswith("You are player 1.") and "Grill: 21" in text
    assert "Actions: " in text and "take the" in text
    aec = HenpenAECEnv(2, render_mode="human")
    aec.reset(seed=3)
    assert aec.render() is None
    assert "Actions: " in capsys.readouterr().out
    assert HenpenEnv(2).render() is None  # no render mode


@pytest.mark.parametrize("opponent", ["optimal", "win"])
def test_the_solver_bots_are_opponents_too(opponent):
    env = HenpenEnv(2, opponent)
    rng = np.random.default_rng(3)
    _obs, info = env.reset(seed=3)
    over, steps = False, 0
    while not over:
        _obs, reward, over, _t, info = env.step(pick(info["action_mask"], rng))
        steps += 1
        assert steps < MAX_STEPS
    assert reward == env.state.returns()[0]
    assert env.opponents[0].name == opponent
