"""The fast paths agree with the plain rules: they change speed, never a move or a score."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.core import Game, make_rng
from henkit.hens.actions import DECK, Draw
from henkit.hens.bots import make_bot
from henkit.hens.scoring import group_sizes, shape_facts
from henkit.hens.simulate import play_to_end
from henkit.hens.state import new_game, randbelow

from .helpers import random_game

SEEDS = st.integers(min_value=0, max_value=2**31)
PLAYERS = st.sampled_from([2, 3, 4])


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_random_action_is_a_uniform_pick_from_the_legal_list(seed, players):
    g = random_game(players, seed)
    for i, s in enumerate(g.states):
        if s.is_over or s.is_chance:
            continue
        rng = make_rng(seed + i)
        twin = copy.deepcopy(rng)
        legal = s.legal_actions()
        # The same draw from the same stream picks the same move, and uses the stream alike.
        assert s.random_action(rng) == legal[randbelow(twin, len(legal))]
        assert rng.bit_generator.random_raw() == twin.bit_generator.random_raw()


def test_random_action_has_no_move_once_the_game_is_over():
    end = random_game(2, 0).state
    with pytest.raises(ValueError, match="game is over"):
        end.random_action(make_rng(0))


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_group_sizes_match_the_groups_found_cell_by_cell(seed, players):
    g = random_game(players, seed)
    for s in g.states[::17] + [g.state]:
        for y in s.yards:
            assert group_sizes(y) == [grp.size for grp in y.groups()]
            assert sum(group_sizes(y)) == y.hen.bit_count()


def _full_lines_by_hand(y, eggs_wanted, rows):
    """Full rows (or columns) of the box whose cells are all hens with exactly `eggs_wanted`."""
    h, w = y.shape
    lines = range(h) if rows else range(w)
    across = range(w) if rows else range(h)
    count = 0
    for a in lines:
        cards = [y.at((a, b) if rows else (b, a)) for b in across]
        count += all(c is not None and c.eggs == eggs_wanted for c in cards)
    return count


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_line_goals_count_the_lines_a_player_would_count(seed, players):
    g = random_game(players, seed)
    for s in g.states[::11] + [g.state]:
        for y in s.yards:
            if not y.n:
                continue
            rows = shape_facts(y.hen, y.coop, y.e2, y.e3, 4)[0]
            cols = shape_facts(y.hen, y.coop, y.e2, y.e3, 5)[1]
            assert rows == _full_lines_by_hand(y, 1, rows=True)
            assert cols == _full_lines_by_hand(y, 2, rows=False)


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, players=PLAYERS, kinds=st.lists(st.sampled_from(["random", "greedy"]),
                                                   min_size=4, max_size=4))
def test_fast_self_play_is_the_game_the_plain_protocol_plays(seed, players, kinds):
    # play_to_end skips chance states and deals deck draws directly; core.Game steps through
    # every state with apply and sample_chance. Same seed, same bots: the very same game.
    start = new_game(players, seed=seed)
    fast = play_to_end(start, [make_bot(k) for k in kinds[:players]], seed)
    plain = Game(start, [make_bot(k) for k in kinds[:players]], seed=seed)
    plain.run()
    assert fast == plain.state and fast.to_dict() == plain.state.to_dict()
    assert any(isinstance(h.action, Draw) and h.action.source == DECK for h in plain.history)
