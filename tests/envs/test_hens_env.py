"""The Hens AEC environment: masks are the engine's legal moves, each agent sees its own view
and nothing more, seeds fix games, every game ends, rewards add up as the docstring says, and
an illegal action changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.envs import HensAECEnv, HensCodec
from henkit.envs.hens import ACTIONS, CELLS, COOP_BASE, DISCARD_BASE, NO_ROOSTER, PLACE_BASE
from henkit.hens import CARDS, Discard, Draw, Place, PlaceCoop, PlaceRooster
from henkit.hens.odds import sample_state
from tests.envs.playing import check_mask_is_the_legal_moves, pick, play_aec

FAST = settings(max_examples=8, deadline=None, derandomize=True)
MAX_STEPS = 5_000  # a Hens game of 4 players takes a few hundred decisions


def play(env: HensAECEnv, seed: int, rng: np.random.Generator, check=None) -> list:
    """One game of random masked actions; what every agent saw, with its rewards."""
    return play_aec(env, seed, rng, MAX_STEPS, check)


@FAST
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_masks_are_the_engines_legal_moves_and_decode_to_them(players, seed):
    play(HensAECEnv(players), seed, np.random.default_rng(seed), check_mask_is_the_legal_moves)


@FAST
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_games_end_and_win_rewards_add_up_to_one(players, seed):
    env = HensAECEnv(players)
    seen = play(env, seed, np.random.default_rng(seed))
    final = {agent: reward for agent, _obs, reward, term in seen if term}
    assert set(final) == set(env.possible_agents)
    assert sum(final.values()) == pytest.approx(1.0)
    assert [final[a] for a in env.possible_agents] == pytest.approx(list(env.state.returns()))


def test_points_rewards_add_up_to_each_players_points():
    env = HensAECEnv(3, reward="points")
    rng = np.random.default_rng(4)
    env.reset(seed=4)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for _agent in env.agent_iter(MAX_STEPS):
        obs, _r, term, _t, _i = env.last()
        if term:
            env.step(None)
            continue
        env.step(pick(obs["action_mask"], rng))
        for a, r in env.rewards.items():
            total[a] += r
    assert env.state.is_over
    assert [total[a] for a in env.possible_agents] == list(map(float, env.state.scores()))


def test_each_agent_sees_its_own_view_and_nothing_hidden_from_it():
    # Whatever the hidden cards (other hands, their coops, the deck) are, an agent sees the
    # same: resampling everything its view does not show leaves its observation unchanged.
    env = HensAECEnv(3)
    env.reset(seed=21)
    rng = np.random.default_rng(21)
    checked = differed = 0
    for step, _agent in enumerate(env.agent_iter(MAX_STEPS)):
        obs, _r, term, _t, _i = env.last()
        if term:
            env.step(None)
            continue
        if step % 15 == 0:
            state = env.state
            for seat, name in enumerate(env.possible_agents):
                mine = env.observe(name)["observation"]
                other = sample_state(state.view(seat), seed=step)
                differed += other.hands != state.hands or other.deck != state.deck
                env.state = other
                assert np.array_equal(env.observe(name)["observation"], mine)
                env.state = state
                checked += 1
        env.step(pick(obs["action_mask"], rng))
    assert checked >= 24 and differed > checked // 2  # the hidden cards did change


def test_the_observation_reads_back_the_players_view():
    env = HensAECEnv(4)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(150):
        obs, _r, _term, _t, _i = env.last()
        env.step(pick(obs["action_mask"], rng))
    codec, state = env.codec, env.state
    assert len(codec.observation_layout()) == codec.size
    for seat, agent in enumerate(env.possible_agents):
        vec = env.observe(agent)["observation"]
        assert env.observation_space(agent)["observation"].contains(vec)
        view = state.view(seat)
        hand = [int(vec[k]) for k in range(48)]
        assert hand == [view.hand.count(k) for k in range(48)]
        for r in range(4):
            q = (seat + r) % 4
            base = codec.seat_base + r * codec.SEAT_SIZE
            yard = view.barnyards[q]
            for c, cell in enumerate(CELLS):
                code = int(vec[base + c])
                content = yard.content(*cell)
                if content < 0:
                    assert code == 0
                elif yard.at(cell) is not None:
                    assert code == 1 + yard.at(cell)
                elif q == seat:
                    assert code == 49 + yard.coop_card(cell)  # one's own coops are known
                else:
                    assert code == 97  # a face-down coop of another player
            pile = view.discards[q]
            counts = vec[base + 38: base + 38 + 48].tolist()
            assert counts == [pile.count(k) for k in range(48)]
            assert vec[base + 38 + 48 + 1] == view.hand_sizes[q]
        tail = vec[codec.tail_base:]
        assert (tail[0], tail[1], tail[6]) == (view.deck_size, view.round, view.goal)


def test_same_seed_same_game_and_another_seed_another():
    first = play(HensAECEnv(3), 5, np.random.default_rng(0))
    assert play(HensAECEnv(3), 5, np.random.default_rng(0)) == first
    assert play(HensAECEnv(3), 6, np.random.default_rng(0)) != first


def test_an_illegal_action_raises_naming_it_and_what_is_legal_and_changes_nothing():
    env = HensAECEnv(2)
    env.reset(seed=3)
    state, agent = env.state, env.agent_selection
    mask = env.observe(agent)["action_mask"]
    with pytest.raises(ValueError, match=r"action 3544 \(keep the rooster off.*\) is not legal "
                       r"now; legal: 0 \(draw from the deck\)"):
        env.step(NO_ROOSTER)
    assert env.state is state and env.agent_selection == agent
    assert np.array_equal(env.observe(agent)["action_mask"], mask)
    for bad in (-1, ACTIONS, 1.5, "0", True):
        with pytest.raises(ValueError, match="action"):
            env.step(bad)
        assert env.state is state


def test_the_action_numbering():
    codec = HensCodec(4)
    assert ACTIONS == 3545 and len(CELLS) == 36 and CELLS[0] == (-1, -1)
    k, c = 10, CELLS.index((1, 2))
    assert codec.describe(PLACE_BASE + 36 * k + c) == f"place {CARDS[k]} at row 1, column 2"
    assert "face down" in codec.describe(COOP_BASE + 36 * k + c)
    assert codec.describe(DISCARD_BASE + k) == f"discard {CARDS[k]}"
    assert "3 seats after you" in codec.describe(3)
    # Decoding follows the same numbering (legality is the mask's to say).
    env = HensAECEnv(4)
    env.reset(seed=1)
    state = env.state
    assert codec.action(state, PLACE_BASE + 36 * k + c) == Place(CARDS[k], (1, 2))
    assert codec.action(state, COOP_BASE + 36 * k + c) == PlaceCoop(CARDS[k], (1, 2))
    assert codec.action(state, DISCARD_BASE + k) == Discard(CARDS[k])
    assert codec.action(state, NO_ROOSTER) == PlaceRooster(None)
    assert codec.action(state, 0) == Draw(-1)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"players": 5}, "2, 3 or 4 players"),
    ({"reward": "worms"}, "reward must be one of 'win', 'points'"),
    ({"render_mode": "rgb_array"}, "render_mode must be one of"),
    ({"rules": "hens"}, "rules must be None or henkit.hens Rules for 2 players"),
])
def test_bad_settings_are_refused_naming_what_is_allowed(kwargs, match):
    with pytest.raises(ValueError, match=match):
        HensAECEnv(**kwargs)


def test_render_shows_the_game_and_the_numbered_actions():
    env = HensAECEnv(2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "Hens, 2 players" in text and "Actions: 0 draw from the deck" in text


@FAST
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_the_quick_observation_and_mask_equal_their_plain_definitions(players, seed):
    # The environment writes only what changed since an agent's last observation, and builds
    # masks from rows of cells: each must equal the plain encoding of the view and of the
    # engine's legal moves, whichever agent looks, however seldom, and after a state is put in
    # from outside (a resampled one: the parts it shares with the game's state are few).
    rng = np.random.default_rng(seed)
    env = HensAECEnv(players)
    codec = env.codec

    def check(env, obs):
        state = env.state
        assert np.array_equal(obs["action_mask"], codec.mask(codec.legal(state)))
        assert np.array_equal(obs["observation"], codec.observe(state.view(state.player)))
        if rng.random() < 0.3:  # another agent, after some steps unseen
            seat = int(rng.integers(players))
            mine = env.observe(env.possible_agents[seat])["observation"]
            assert np.array_equal(mine, codec.observe(state.view(seat)))
        if rng.random() < 0.05:
            other = sample_state(state.view(state.player), seed=int(rng.integers(2**31)))
            for seat in range(players):
                assert np.array_equal(codec.observe_state(other, seat),
                                      codec.observe(other.view(seat)))

    play(env, seed, rng, check)
