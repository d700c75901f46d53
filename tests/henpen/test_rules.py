"""One test per clause of the Henpen rules text and per decision P1-P8 (shared/rules)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from henkit.core import CHANCE, TERMINAL
from henkit.henpen import ROLL, WORM, Claim, Rules, State, Stop, Take, legal_claims
from henkit.henpen.dice import FACES, face_value, roll_outcomes, roll_probabilities
from henkit.henpen.state import Phase

ROLL_PHASE, DICE, TAKE, DECIDE, OVER = Phase.ROLL, Phase.DICE, Phase.TAKE, Phase.DECIDE, Phase.OVER


def roll(ones=0, twos=0, threes=0, fours=0, fives=0, worms=0) -> tuple[int, ...]:
    """A roll as counts per face, named so the tests read like the table."""
    return (ones, twos, threes, fours, fives, worms)


def play(state: State, *moves) -> State:
    """Apply moves in order: tuples are dice rolls, anything else an action."""
    for m in moves:
        state = state.apply(m)
    return state


def turn_to(state: State, *rolls_and_faces) -> State:
    """Roll then take, for each (roll, face) pair; ends in DECIDE (or the next turn)."""
    for r, face in rolls_and_faces:
        state = play(state, ROLL, r, Take(face))
    return state


# ----- the box ------------------------------------------------------------------------------


def test_text_grill_has_16_servings_21_to_36():
    assert State.new(2).grill == tuple(range(21, 37))


def test_p1_worms_per_serving():
    rules = Rules()
    expected = {**dict.fromkeys(range(21, 25), 1), **dict.fromkeys(range(25, 29), 2),
                **dict.fromkeys(range(29, 33), 3), **dict.fromkeys(range(33, 37), 4)}
    assert dict(rules.worm_table) == expected
    assert sum(rules.worm_table.values()) == 40


def test_p1_custom_worm_table_is_an_option():
    rules = Rules(worm_table={10: 1, 12: 5})
    assert State.new(2, rules).grill == (10, 12)
    assert rules.worms(12) == 5
    with pytest.raises(ValueError, match="no serving 11"):
        rules.worms(11)


def test_p2_eight_dice_faces_one_to_five_and_a_worm_worth_five():
    assert Rules().dice == 8
    assert FACES == (1, 2, 3, 4, 5, WORM)
    assert [face_value(f) for f in FACES] == [1, 2, 3, 4, 5, 5]
    assert State.new(2).dice_left == 8
    assert State.new(2, Rules(dice=5)).dice_left == 5


@pytest.mark.parametrize("players", range(1, 8))
def test_p3_two_to_seven_players_and_solo(players):
    state = State.new(players)
    assert state.players == players and state.current_player == 0


@pytest.mark.parametrize("players", [0, 8, -1, True, 2.0])
def test_p3_other_player_counts_are_refused(players):
    with pytest.raises(ValueError, match="players"):
        State.new(players)


def test_p3_solo_has_nobody_to_steal_from():
    s = State.new(1, stacks=[[27]], grill=[21, 22])
    assert s.others_tops() == {}


# ----- a turn -------------------------------------------------------------------------------


def test_text_a_turn_starts_by_rolling_all_eight_dice():
    s = State.new(2)
    assert s.legal_actions() == [ROLL]
    s = s.apply(ROLL)
    assert s.is_chance and s.current_player == CHANCE
    outcomes = s.chance_outcomes()
    assert all(sum(c) == 8 for c, _ in outcomes)
    assert sum(p for _, p in outcomes) == 1


def test_text_choose_a_symbol_from_the_roll():
    s = play(State.new(2), ROLL, roll(ones=3, fours=2, worms=3))
    assert s.phase == TAKE
    assert s.legal_actions() == [Take(1), Take(4), Take(WORM)]


def test_text_set_aside_all_dice_showing_that_symbol_and_add_their_value():
    s = play(State.new(2), ROLL, roll(ones=3, fours=2, worms=3), Take(WORM))
    assert s.kept == roll(worms=3)
    assert s.total == 15 and s.dice_left == 5
    s = play(s, ROLL, roll(twos=1, fours=4), Take(4))
    assert s.total == 31 and s.dice_left == 1


def test_text_a_symbol_already_taken_cannot_be_taken_again():
    s = play(State.new(2), ROLL, roll(fours=2, worms=6), Take(4), ROLL, roll(fours=2, worms=4))
    assert s.legal_actions() == [Take(WORM)]
    before = s.to_dict()
    with pytest.raises(ValueError, match="already took the 4s"):
        s.apply(Take(4))
    assert s.to_dict() == before


def test_text_a_face_not_in_the_roll_cannot_be_taken():
    s = play(State.new(2), ROLL, roll(ones=8))
    with pytest.raises(ValueError, match="no die shows 3"):
        s.apply(Take(3))


def test_text_roll_the_remaining_dice_again():
    s = play(State.new(2), ROLL, roll(ones=2, worms=6), Take(1))
    assert ROLL in s.legal_actions()
    s = s.apply(ROLL)
    assert all(sum(c) == 6 for c, _ in s.chance_outcomes())


def test_text_bust_when_the_new_roll_shows_only_taken_symbols():
    s = play(State.new(2), ROLL, roll(twos=2, worms=6), Take(2), ROLL, roll(twos=6))
    assert s.player == 1 and s.phase == ROLL_PHASE
    assert s.last_turn.failure == "bust" and s.last_turn.roll == roll(twos=6)


def test_text_stop_only_with_a_worm_among_the_taken_dice():
    s = play(State.new(2), ROLL, roll(fives=5, fours=3), Take(5))  # total 25, no worm
    assert s.total == 25 and s.claims() == [Claim(25)]
    assert s.legal_actions() == [ROLL]
    with pytest.raises(ValueError, match="only once a worm"):
        s.apply(Stop(Claim(25)))


def test_text_stop_with_the_total_on_the_grill_takes_that_serving():
    s = turn_to(State.new(2), (roll(worms=3, ones=5), WORM), (roll(fives=2, ones=3), 5))
    assert s.total == 25
    assert Stop(Claim(25)) in s.legal_actions()
    s = s.apply(Stop(Claim(25)))
    assert s.stacks[0] == (25,) and 25 not in s.grill
    assert s.player == 1 and s.last_turn.claim == Claim(25)


def test_text_steal_the_matching_top_serving_of_another_player():
    s = State.new(3, grill=[21, 22, 23, 24], stacks=[[], [30, 25], [26]])
    s = turn_to(s, (roll(worms=4, ones=4), WORM), (roll(fives=1, ones=3), 5))  # total 25
    assert s.total == 25
    acts = s.legal_actions()
    assert Stop(Claim(25, owner=1)) in acts
    assert Stop(Claim(24)) in acts  # 25 is missing from the grill: the lower serving is allowed
    s = s.apply(Stop(Claim(25, owner=1)))
    assert s.stacks == ((25,), (30,), (26,))


def test_text_only_the_top_serving_can_be_stolen():
    s = State.new(2, grill=[21, 22], stacks=[[], [25, 30]])
    s = turn_to(s, (roll(worms=4, ones=4), WORM), (roll(fives=1, ones=3), 5))  # total 25
    assert Stop(Claim(25, owner=1)) not in s.legal_actions()
    with pytest.raises(ValueError, match="cannot steal 25 from player 2"):
        s.apply(Stop(Claim(25, owner=1)))


def test_text_total_equal_to_own_top_takes_the_highest_lower_serving():
    s = State.new(2, grill=[21, 23, 26], stacks=[[25], []])
    s = turn_to(s, (roll(worms=4, ones=4), WORM), (roll(fives=1, ones=3), 5))  # total 25
    assert s.claims() == [Claim(23)]


def test_text_total_missing_from_the_grill_takes_the_highest_lower_serving():
    s = State.new(2, grill=[21, 22, 24, 30], stacks=[[], []])
    s = turn_to(s, (roll(worms=4, ones=4), WORM), (roll(threes=1, ones=3), 3))  # total 23
    assert s.claims() == [Claim(22)]


def test_p4_claims_offered_are_exactly_the_rule():
    grill = (21, 22, 24, 30)
    assert legal_claims(24, grill, None, {}) == [Claim(24)]  # on the grill: only itself
    assert legal_claims(26, grill, None, {1: 26}) == [Claim(24), Claim(26, 1)]
    assert legal_claims(40, grill, None, {}) == [Claim(30)]  # above every serving
    assert legal_claims(20, grill, None, {}) == []  # below every serving


def test_p4_stealing_is_optional():
    s = State.new(2, grill=[21, 26], stacks=[[], [27]])
    s = turn_to(s, (roll(worms=4, ones=4), WORM), (roll(twos=1, ones=3), 2))  # 22 with a worm
    s = play(s, ROLL, roll(fives=1, ones=2), Take(5))  # 27
    assert set(s.legal_actions()) == {ROLL, Stop(Claim(26)), Stop(Claim(27, 1))}


def test_p4_total_below_every_claimable_serving_cannot_stop():
    s = State.new(2, grill=[30, 31], stacks=[[], []])
    s = turn_to(s, (roll(worms=2, ones=6), WORM))
    assert s.total == 10 and s.legal_actions() == [ROLL]


def test_p5_all_dice_set_aside_ends_the_turn_with_a_claim():
    s = turn_to(State.new(2), (roll(worms=5, fives=3), WORM), (roll(fives=3), 5))  # 40, no dice
    assert s.dice_left == 0 and s.phase == DECIDE
    assert s.legal_actions() == [Stop(Claim(36))]
    with pytest.raises(ValueError, match="must stop"):
        s.apply(ROLL)


def test_p5_all_dice_set_aside_without_a_worm_fails():
    s = turn_to(State.new(2), (roll(fives=5, fours=3), 5), (roll(fours=3), 4))
    assert s.player == 1 and s.last_turn.failure == "no worm"


def test_p5_all_dice_set_aside_matching_no_serving_fails():
    s = State.new(2, grill=[21, 22], stacks=[[], []])
    s = turn_to(s, (roll(worms=1, ones=7), WORM), (roll(ones=7), 1))  # 12 with a worm, no dice
    assert s.last_turn.failure == "no serving"


def test_p5_every_face_taken_ends_the_turn():
    s = State.new(2)
    s = turn_to(s, (roll(1, 1, 1, 1, 1, 3), WORM), (roll(1, 1, 1, 1, 1), 1),
                (roll(0, 1, 1, 1, 1), 2), (roll(0, 0, 1, 1, 1), 3), (roll(0, 0, 0, 1, 1), 4))
    assert ROLL in s.legal_actions()  # five faces taken, one die left: rolling is allowed
    s = play(s, ROLL, roll(fives=1), Take(5))
    assert all(s.kept) and s.dice_left == 0 and s.total == 30
    assert s.legal_actions() == [Stop(Claim(30))]


# ----- failed turns (P6, P7) ----------------------------------------------------------------


def bust(state: State) -> State:
    """Make the player to move go bust on their first two rolls."""
    return play(state, ROLL, roll(ones=1, worms=7), Take(1), ROLL, roll(ones=7))


def test_text_p6_failed_turn_returns_top_and_turns_out_the_highest_serving():
    s = State.new(2, grill=[21, 22, 23, 35], stacks=[[24, 27], []])
    s = bust(s)
    assert s.stacks[0] == (24,)
    assert s.grill == (21, 22, 23, 27) and 35 in s.out_of_play
    assert s.last_turn.returned == 27 and s.last_turn.turned_out == 35


def test_p6_returned_serving_is_turned_out_when_it_is_the_highest():
    s = bust(State.new(2, grill=[21, 22], stacks=[[30], []]))
    assert s.grill == (21, 22) and 30 in s.out_of_play


def test_p6_option_keep_returned_if_highest():
    rules = Rules.pickomino()
    assert rules.keep_returned_if_highest
    s = bust(State.new(2, rules, grill=[21, 22], stacks=[[30], []]))
    assert s.grill == (21, 22, 30) and s.last_turn.turned_out is None


def test_p7_failed_turn_with_empty_stack_changes_nothing():
    s = bust(State.new(2, grill=[21, 22, 35], stacks=[[], [25]]))
    assert s.grill == (21, 22, 35) and s.stacks == ((), (25,))


def test_p7_option_flip_when_nothing_returned():
    s = bust(State.new(2, Rules(flip_when_nothing_returned=True), grill=[21, 22, 35], stacks=[[], []]))
    assert s.grill == (21, 22) and 35 in s.out_of_play


def test_text_failed_turn_when_stopping_without_a_worm_is_impossible_by_choice():
    # "You end your turn with no worms in your total": the engine never offers that stop.
    s = play(State.new(2), ROLL, roll(fives=5, fours=3), Take(5))
    assert all(not isinstance(a, Stop) for a in s.legal_actions())


# ----- end of the game (P8) -----------------------------------------------------------------


def test_text_game_ends_when_no_serving_remains_on_the_grill():
    s = State.new(2, grill=[21], stacks=[[22], [23]])
    s = turn_to(s, (roll(worms=4, ones=4), WORM), (roll(ones=4), 1))  # 24
    s = s.apply(Stop(Claim(21)))
    assert s.is_over and s.phase == OVER and s.current_player == TERMINAL
    assert s.legal_actions() == []
    with pytest.raises(ValueError, match="game is over"):
        s.apply(ROLL)


def test_p8_most_worms_wins():
    s = State.new(2, grill=[], stacks=[[21, 22], [33]])
    assert s.is_over and s.scores() == (2, 4) and s.winner == 1


def test_p8_tie_goes_to_the_highest_serving():
    s = State.new(3, grill=[], stacks=[[21, 29], [25, 26], [36]])
    assert s.scores() == (4, 4, 4) and s.winner == 2 and s.winners() == (2,)


def test_p8_all_empty_is_a_shared_result():
    s = State.new(2, grill=[], stacks=[[], []])
    assert s.winners() == (0, 1) and s.winner is None


# ----- chance ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_chance_outcomes_match_every_ordered_roll(n):
    counts: dict[tuple[int, ...], int] = {}
    for dice in itertools.product(FACES, repeat=n):
        c = tuple(dice.count(f) for f in FACES)
        counts[c] = counts.get(c, 0) + 1
    exact = dict(zip(roll_outcomes(n), roll_probabilities(n), strict=True))
    assert exact == {c: Fraction(k, 6**n) for c, k in counts.items()}


def test_chance_outcome_count_for_eight_dice_is_multisets_of_six_faces():
    from math import comb

    assert len(roll_outcomes(8)) == comb(8 + 5, 5)


def test_a_roll_that_is_not_the_dice_left_is_refused_and_nothing_changes():
    s = play(State.new(2), ROLL)

    for bad in [roll(ones=7), roll(ones=9), (1, 2), "88", roll(ones=-1, twos=9), None,
                roll(ones=7.0, twos=1), (True, 7, 0, 0, 0, 0), {1: 8}]:
        with pytest.raises(ValueError, match="a roll of 8 dice"):
            s.apply(bad)
    assert s.phase == DICE


def test_a_roll_given_as_numpy_integers_is_a_roll():
    import numpy as np

    s = play(State.new(2), ROLL)
    counts = np.array([1, 1, 2, 0, 2, 2])
    got = s.apply(tuple(np.int64(c) for c in counts))
    assert got == s.apply(counts) == s.apply(counts.tolist())
    assert got.roll == (1, 1, 2, 0, 2, 2) and all(type(c) is int for c in got.roll)
    assert got.apply(Take(np.int64(6))).kept == (0, 0, 0, 0, 0, 2)


def test_chance_outcomes_only_at_a_chance_node():
    with pytest.raises(ValueError, match="no dice are rolling"):
        State.new(2).chance_outcomes()


def test_a_game_refuses_dice_that_can_never_reach_a_serving():
    with pytest.raises(ValueError, match="4 dice reach at most 20, below the lowest serving 21"):
        State.new(2, Rules(dice=4))
    assert State.new(2, Rules(dice=5)).rules.max_total == 25


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"dice": 0}, "dice must be from 1 to 20"),
        ({"dice": "8"}, "dice must be a whole number"),
        ({"worm_table": {}}, "at least one serving"),
        ({"worm_table": {21: 0}}, "worms on serving 21 must be from 1"),
        ({"worm_table": {"21": 1}}, "serving number .* must be a whole number"),
    ],
)
def test_rules_refuse_bad_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Rules(**kwargs)


def test_rules_round_trip_and_refuse_unknown_fields():
    r = Rules(worm_table={21: 1, 30: 3}, dice=6, keep_returned_if_highest=True)
    assert Rules.from_dict(r.to_dict()) == r and hash(Rules.from_dict(r.to_dict())) == hash(r)
    with pytest.raises(ValueError, match="unknown rules fields"):
        Rules.from_dict({"dices": 8})


def test_p6_option_keep_returned_still_turns_out_a_higher_serving():
    s = bust(State.new(2, Rules.pickomino(), grill=[21, 22, 35], stacks=[[30], []]))
    assert s.grill == (21, 22, 30) and s.last_turn.turned_out == 35


def test_text_game_ends_when_a_failed_turn_turns_out_the_last_serving():
    # With P6 a failure returns one serving and turns out one: the grill cannot empty that way.
    s = bust(State.new(2, grill=[22], stacks=[[25], [26]]))
    assert s.grill == (22,) and not s.is_over
    # With the P7 option a failure with an empty stack turns out the last serving: game over.
    s = bust(State.new(2, Rules(flip_when_nothing_returned=True), grill=[23], stacks=[[], [27]]))
    assert s.grill == () and s.is_over and s.winners() == (1,)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"phase": "decide", "kept": [8, 0, 0, 0, 0, 0]}, "without a worm or a claim"),
        ({"phase": "dice", "kept": [1, 1, 1, 1, 1, 1]}, "no dice can roll"),
        ({"phase": "decide", "kept": [0, 0, 0, 0, 0, 0]}, "some dice must be set aside"),
        ({"turns_played": -1}, "turns_played must be at least 0"),
        ({"last_turn": [1, 2]}, "last_turn must be a dict"),
        ({"last_turn": {"player": 0, "total": 3, "kept": [3, 0, 0, 0, 0, 0], "failure": 12}}, "failure must be"),
        ({"last_turn": {"player": 0, "total": 3, "kept": [], "claim": ["a", "b"]}}, "serving"),
        ({"last_turn": {"player": "x", "total": 3, "kept": [], "failure": "bust"}}, "player"),
        ({"grill": "21"}, "grill must be a list"),
        ({"player": True}, "player must be a whole number"),
        ({"rules": {"dice": 8, "keep_returned_if_highest": 1}}, "True or False"),
        ({"stacks": [[21], [21]]}, "in two places"),
        ({"game": "hens"}, "not a Henpen state"),
    ],
)
def test_malformed_or_impossible_states_are_refused_with_a_reason(change, message):
    data = State.new(2).to_dict() | {"grill": list(range(22, 37)), "stacks": [[21], []],
                                     "turns_played": 1, "player": 1}
    with pytest.raises(ValueError, match=message):
        State.from_dict(data | change)


@pytest.mark.parametrize("claim, message", [(25.0, "a serving must be a whole number"),
                                            (0, "a serving must be at least 1"),
                                            ("25", "whole number")])
def test_claims_are_whole_serving_numbers(claim, message):
    with pytest.raises(ValueError, match=message):
        Claim(claim)
    with pytest.raises(ValueError, match="player stolen from"):
        Claim(25, -1)


def test_numpy_claims_become_plain_ints():
    import numpy as np

    claim = Claim(np.int64(25), np.int64(1))
    assert claim == Claim(25, 1) and type(claim.tile) is int and type(claim.owner) is int


@pytest.mark.parametrize("first_player", [True, 2, -1])
def test_first_player_must_be_a_seat(first_player):
    with pytest.raises(ValueError, match="first_player"):
        State.new(2, first_player=first_player)
