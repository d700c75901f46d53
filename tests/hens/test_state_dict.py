"""Loading states from dicts: malformed fields and impossible positions give a ValueError that
names the field; every state a game reaches loads back unchanged."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.core import Game
from henkit.hens.bots import RandomBot
from henkit.hens.odds import sample_state
from henkit.hens.rules import Rules
from henkit.hens.state import Phase, State

from .helpers import first_state, random_game

GAME = random_game(4, seed=3)
MID = first_state(GAME, lambda s: s.round == 3 and s.phase == "draw")
PLACE = first_state(GAME, lambda s: s.round == 4 and s.phase == "place")
assert MID.first_player == MID.turn == MID.player == PLACE.player == 0  # the messages below name seat 0
# One state of every phase, roosters mid-choice and roosters revealed.
BASES = [first_state(GAME, lambda s, ph=ph: s.phase == ph) for ph in Phase] + [
    MID,
    first_state(GAME, lambda s: s.phase == "rooster" and s.turn == 2),
    first_state(GAME, lambda s: s.round == 9 and s.phase == "discard"),
]


def as_dict(state: State) -> dict:
    return json.loads(json.dumps(state.to_dict()))


def changed(state: State, change) -> dict:
    d = as_dict(state)
    change(d)
    return d


def _deal_more(d: dict) -> None:
    d["hands"][0] += d["deck"][:5]
    d["deck"] = d["deck"][5:]


# (dict, a regex the message must match: the field, and what is allowed or why not)
BAD = {
    "removed_breeds int": (changed(MID, lambda d: d.update(removed_breeds=3)),
                           r"'removed_breeds' must be a list of breed codes"),
    "removed_breeds unhashable": (changed(MID, lambda d: d.update(removed_breeds=[[1]])),
                                  r"'removed_breeds': \[1\] is not a breed"),
    "removed_breeds for 4 players": (changed(MID, lambda d: d.update(removed_breeds=["Se"])),
                                     r"'removed_breeds': with 4 players remove no breed"),
    "barnyard rooster int": (changed(MID, lambda d: d["barnyards"][0].update(rooster=3)),
                             r"'barnyards\[0\]' \(player 1\): barnyard 'rooster' must be null or \[row, col\]"),
    "rooster_choices ints": (changed(MID, lambda d: d.update(rooster_choices=[5] * 4)),
                             r"'rooster_choices\[0\]' \(player 1\) must be null or \[row, col\]"),
    "rooster_chosen strings": (changed(MID, lambda d: d.update(rooster_chosen=["no"] * 4)),
                               r"'rooster_chosen\[0\]' \(player 1\) must be true or false, not 'no'"),
    "rooster chosen before round 6": (changed(MID, lambda d: d.update(rooster_chosen=[True] * 4)),
                                      r"'rooster_chosen\[0\]' \(player 1\) is True .* player 1 has not yet chosen"),
    "rules not a dict": (changed(MID, lambda d: d.update(rules=None)), r"'rules': rules must be"),
    "unknown key": (changed(MID, lambda d: d.update(rooster_choice=None)),
                    r"unknown Hens state keys \['rooster_choice'\]"),
    "phase a list": (changed(MID, lambda d: d.update(phase=["draw"])), r"phase \['draw'\]"),
    "clash": (changed(MID, lambda d: d["barnyards"][0].update(
        hens=[[0, 0, "Pa1"], [0, 1, "Wy4"]], coops=[])), r"'barnyards\[0\]' \(player 1\): Pa1 at .* touch"),
    "cards that don't touch": (changed(MID, lambda d: d["barnyards"][0].update(
        hens=[[0, 0, "Pa1"], [2, 2, "Wy4"]], coops=[])), r"'barnyards\[0\]'.*cut off"),
    "hand of 9": (changed(MID, _deal_more), r"'hands\[0\]' \(player 1\) holds 9 cards: player 1 may hold at most 4"),
    "round 1 with cards placed": (
        changed(MID, lambda d: d.update(round=1)),
        r"'barnyards\[0\]' \(player 1\) holds 2 cards but player 1 has placed 0 by round 1"),
    "over at round 3": (changed(MID, lambda d: d.update(phase="over")),
                        r"'phase' is 'over' at round 3"),
    "two draws in the draw phase": (changed(MID, lambda d: d.update(draws=2)),
                                    r"'draws' is 2 in the draw phase"),
    # MID: turn 0 of a round that seat 0 (player 1) starts.
    "player out of turn": (changed(MID, lambda d: d.update(player=1)),
                           (r"'player' is 1 \(player 2\) but at turn 0 of a round that player 1 "
                            r"starts, player 1 moves \('player' = \('first_player' \+ 'turn'\) "
                            r"mod 4 = 0\)")),
    "rooster phase in round 3": (changed(MID, lambda d: d.update(phase="rooster")),
                                 r"'phase' is 'rooster' in round 3"),
    "place phase before drawing": (changed(MID, lambda d: d.update(phase="place")),
                                   r"'draws' is 0 in the place phase"),
    "discard phase with a short hand": (changed(PLACE, lambda d: d.update(phase="discard")),
                                        r"'hands\[0\]' \(player 1\) holds 6 cards in the discard phase"),
    "rules remove another breed": (
        changed(State.new(3, Rules(players=3, removed_breeds=("Ba",)), seed=2),
                lambda d: d["rules"].update(removed_breeds=["Se"])),
        r"'removed_breeds' is \['Ba'\] but the rules remove \['Se'\]"),
    "rules name another goal": (
        changed(State.new(4, Rules(goal=5), seed=2), lambda d: d["rules"].update(goal=2)),
        r"'goal' is 5 but the rules set goal card 2"),
    "rules name another first player": (
        changed(State.new(4, Rules(first_player=1), seed=2),
                lambda d: d["rules"].update(first_player=2)),
        (r"'first_player' is 1 \(player 2\) but the rules say player 3 \(first_player 2\) "
         r"plays first")),
}


@pytest.mark.parametrize("name", list(BAD))
def test_malformed_or_impossible_dicts_are_refused_naming_the_field(name):
    d, message = BAD[name]
    with pytest.raises(ValueError, match=message):
        State.from_dict(copy.deepcopy(d))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_state_of_a_game_loads_back_and_is_valid(players):
    g = random_game(players, seed=40 + players)
    for s in g.states[::3] + [g.states[-1]]:
        s.validate()
        again = State.from_dict(as_dict(s))
        assert again == s and again.legal_actions() == s.legal_actions()


def test_states_sampled_from_a_view_are_valid():
    for s in BASES:
        for p in range(s.players):
            sample_state(s.view(p), seed=p).validate()


WRONG = [None, True, False, 0, 3, -1, 2.5, "", "x", "Pa1", "draw", [], [1], [[1]], ["no"],
         [5, 5], [0, 0, "Pa1"], {}, {"a": 1}]


def _paths(node, path=()):
    """Every place in a state dict: each key of a dict and each item of a list, nested."""
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


def _replace(d: dict, path: tuple, value) -> dict:
    d = copy.deepcopy(d)
    node = d
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return d


def _delete(d: dict, path: tuple) -> dict:
    d = copy.deepcopy(d)
    node = d
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return d


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(BASES), st.data())
def test_no_mutation_of_a_field_lets_another_error_escape(state, data):
    good = as_dict(state)
    path = data.draw(st.sampled_from([p for p in _paths(good) if p]))
    if data.draw(st.booleans()):
        bad = _replace(good, path, data.draw(st.sampled_from(WRONG)))
    else:
        bad = _delete(good, path)
    try:
        loaded = State.from_dict(bad)
    except ValueError as e:
        assert str(e)  # a message, never a bare ValueError
        return
    # A change that happens to describe a possible game is fine: it must load consistently,
    # round-trip through a dict and JSON, and play to the end with random bots.
    loaded.validate()
    assert State.from_dict(as_dict(loaded)) == loaded
    assert State.from_json(loaded.to_json()) == loaded
    end = Game(loaded, [RandomBot() for _ in range(loaded.players)], seed=1).run()
    assert end.is_over
    end.validate()


def test_revealed_rooster_choices_must_be_where_the_roosters_stand():
    s = first_state(GAME, lambda s: s.round == 9 and s.phase == "discard")
    d = as_dict(s)
    q = next(q for q in range(4) if d["rooster_choices"][q] is not None)
    cell = d["rooster_choices"][q]
    other = next(c for c, _ in s.barnyards[q].hens() if list(c) != cell)
    d["rooster_choices"][q] = list(other)
    with pytest.raises(ValueError, match=rf"'rooster_choices\[{q}\]' .* once revealed, the "
                                         "rooster stands where it was chosen"):
        State.from_dict(d)


def test_known_cards_must_be_in_their_hand():
    s = first_state(GAME, lambda s: any(s.known_in_hand))
    d = as_dict(s)
    q = next(q for q in range(4) if d["known_in_hand"][q])
    missing = next(c for c in ("Ce1", "Ce2", "Mo1", "Mo2", "Ce3") if c not in d["hands"][q])
    d["known_in_hand"][q] = d["known_in_hand"][q] + [missing]
    with pytest.raises(ValueError, match=rf"'known_in_hand\[{q}\]' .* not in 'hands\[{q}\]'"):
        State.from_dict(d)


def test_unreachable_pile_takes_and_known_cards_are_refused():
    """The reviewer's states: a pile emptied before anyone may draw from piles, known cards for a
    player who never drew from a pile, more known cards than two draws a turn allow."""
    import copy

    from henkit.core import play_out
    from henkit.hens.bots import make_bot

    bots = [make_bot("random")] * 3

    def at(round_):
        return play_out(State.new(3, seed=4), bots, 4, until=lambda x: x.round == round_
                        and x.phase == "draw" and x.turn == 0).to_dict()

    d = at(2)
    fp = d["first_player"]
    e = copy.deepcopy(d)
    e["deck"].append(e["discards"][(fp + 1) % 3].pop())
    with pytest.raises(ValueError, match="taken at most 0"):
        State.from_dict(e)
    e = copy.deepcopy(d)
    e["known_in_hand"][fp] = [e["hands"][fp][0]]
    with pytest.raises(ValueError, match="can have taken at most 0"):
        State.from_dict(e)
    d = at(3)
    q = d["first_player"]
    for k in (3, 4):
        e = copy.deepcopy(d)
        e["known_in_hand"][q] = e["hands"][q][:k]
        with pytest.raises(ValueError, match="can have taken at most 2"):
            State.from_dict(e)
    State.from_dict(d)
