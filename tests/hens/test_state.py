"""The game flow: setup, the three steps of a turn, the round-1 and own-pile bans, the hidden
simultaneous rooster, chance nodes, immutability, JSON round trips and the seeded runner."""

import json
from fractions import Fraction

import pytest

from henkit.core import CHANCE, Game, GameState, make_rng
from henkit.hens.actions import DECK, Discard, Draw, Place, PlaceCoop, PlaceRooster
from henkit.hens.bots import GreedyBot, RandomBot
from henkit.hens.cards import card
from henkit.hens.rules import Rules
from henkit.hens.state import TERMINAL, State

from .helpers import first_state, random_game


def test_setup_deals_four_cards_and_follows_the_rules_options():
    s = State.new(4, Rules(players=4, goal=5, first_player=2), seed=7)
    assert isinstance(s, GameState)
    assert [len(h) for h in s.hands] == [4, 4, 4, 4]
    assert len(s.deck) == 72 - 16
    assert s.goal == 5 and s.current_player == 2 and s.round == 1
    assert s.phase == "draw"
    s3 = State.new(3, Rules(players=3, removed_breeds=("Ba",)), seed=1)
    assert s3.removed_breeds == ("Ba",) and len(s3.deck) == 62 - 12
    with pytest.raises(ValueError, match="2, 3 or 4 players"):
        Rules(players=5)
    with pytest.raises(ValueError, match="goal cards are numbered 1 to 6"):
        Rules(goal=0)


def test_same_seed_same_setup_different_seed_different_deal():
    assert State.new(4, seed=3) == State.new(4, seed=3)
    assert State.new(4, seed=3).hands != State.new(4, seed=4).hands


def test_round_one_draws_only_from_the_deck():
    s = State.new(2, Rules(players=2, first_player=0), seed=1)
    assert s.legal_actions() == [Draw(DECK)]
    s = s.apply(Draw(DECK))
    assert s.is_chance and s.current_player == CHANCE
    outcomes = s.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    k, p = outcomes[0]
    assert p == Fraction(s.deck.count(k), len(s.deck))
    s = s.apply(k).apply(Draw(DECK)).apply(s.deck[-1])
    assert s.phase == "place" and len(s.hands[0]) == 6
    placed = s.apply(s.legal_actions()[0])
    assert placed.phase == "discard"
    d = placed.apply(placed.legal_actions()[0])
    assert len(d.hands[0]) == 4 and len(d.discards[0]) == 1
    # Round 1: seat 1 (player 2) may not draw seat 0's (player 1's) discard.
    assert d.current_player == 1 and d.legal_actions() == [Draw(DECK)]
    before = d.to_dict()
    with pytest.raises(ValueError, match="first round no one may draw from a discard pile"):
        d.apply(Draw(0, d.discards[0][-1]))
    assert d.to_dict() == before


def test_never_from_ones_own_pile_and_only_the_top():
    g = random_game(3, seed=11)
    s = first_state(g, lambda s: s.phase == "draw" and s.round > 1
                    and s.discards[s.player] and any(s.discards[q] for q in range(3) if q != s.player))
    me = s.player
    with pytest.raises(ValueError, match="never draw from your own discard pile"):
        s.apply(Draw(me, s.discards[me][-1]))
    other = next(q for q in range(3) if q != me and s.discards[q])
    assert Draw(other, s.discards[other][-1]) in s.legal_actions()
    wrong = next(c for c in map(card, ("Pa1", "Wy1")) if c != s.discards[other][-1])
    with pytest.raises(ValueError, match=f"the top of player {other + 1}'s discard pile is "
                                         f"{s.discards[other][-1]}, not {wrong}"):
        s.apply(Draw(other, wrong))
    taken = s.apply(Draw(other, s.discards[other][-1]))
    assert len(taken.discards[other]) == len(s.discards[other]) - 1
    assert len(taken.hands[me]) == len(s.hands[me]) + 1


def test_illegal_moves_raise_and_leave_the_state_unchanged():
    g = random_game(4, seed=5)
    place = first_state(g, lambda s: s.phase == "place" and len(s.barnyards[s.player]) > 2)
    before = place.to_dict()
    p = place.player
    not_in_hand = next(c for c in map(card, ("Ce1", "Ce2", "Ce3", "Mo1", "Mo2"))
                       if c not in place.hands[p])
    for bad, msg in [
        (Place(not_in_hand, (0, 0)),
         f"cannot place {not_in_hand}: it is not in player {p + 1}'s hand"),
        (Draw(DECK),
         rf"^Draw\(DECK\) \(draw from the deck\) is not a move now: player {p + 1} must place"),
        (Discard(place.hands[p][0]), "must place a card"),
        ("Pa3", "must place a card"),
    ]:
        with pytest.raises(ValueError, match=msg):
            place.apply(bad)
    with pytest.raises(ValueError, match="not a cell"):
        place.apply(PlaceCoop(place.hands[p][0], (9, 9)))  # refused as the action is built
    occupied = next(iter(place.barnyards[p].hens()))[0]
    with pytest.raises(ValueError, match="already taken"):
        place.apply(Place(place.hands[p][0], occupied))
    assert place.to_dict() == before


def test_apply_returns_a_new_state_and_keeps_the_old():
    s = State.new(4, seed=2)
    before = s.to_dict()
    t = s.apply(Draw(DECK))
    assert t is not s and s.to_dict() == before and not s.is_chance


def test_rooster_choices_are_hidden_until_everyone_has_chosen():
    g = Game(State.new(3, Rules(players=3, first_player=1), seed=4), [GreedyBot()] * 3, seed=9)
    g.advance(until=lambda s: s.phase == "rooster")
    s = g.state
    assert s.round == 6 and all(len(y) == 6 for y in s.barnyards) and s.current_player == 1
    cell = s.legal_actions()[0].cell
    s1 = s.apply(PlaceRooster(cell))
    assert s1.current_player == 2 and s1.phase == "rooster"
    v2 = s1.view(2)
    assert v2.rooster_chosen == (False, True, False)
    assert v2.barnyards[1].rooster_cell is None  # seat 1's choice is not shown yet
    assert v2.rooster_choice is None
    assert s1.view(1).rooster_choice == cell  # one's own choice is known to oneself
    with pytest.raises(ValueError, match="must stand on one of your hens"):
        s1.apply(PlaceRooster((3, 3)))  # outside any 6-card barnyard: no hen there
    s2 = s1.apply(s1.legal_actions()[0])
    s3 = s2.apply(s2.legal_actions()[0])
    assert s3.round == 7 and s3.phase in ("draw", "place")
    assert s3.barnyards[1].rooster_cell == cell
    assert all(y.rooster_cell is not None for y in s3.barnyards if y.hen)


def test_game_runner_plays_to_the_end_and_same_seed_same_game():
    a = random_game(4, seed=21)
    b = random_game(4, seed=21)
    assert a.state.is_over and a.state.current_player == TERMINAL
    assert [st.action for st in a.history] == [st.action for st in b.history]
    assert a.state.legal_actions() == []
    assert a.state.scores() == tuple(sc.total for sc in a.state.score_sheets())
    assert set(a.state.winners()) <= set(range(4))


def test_json_round_trip_through_a_whole_game():
    g = random_game(2, seed=8)
    for s in g.states[::5] + [g.states[-1]]:
        again = State.from_dict(json.loads(json.dumps(s.to_dict())))
        assert again == s
        assert again.legal_actions() == s.legal_actions()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("deck"), "lacks the keys"),
        (lambda d: d.update(phase="lunch"), "phase 'lunch' is unknown"),
        (lambda d: d.update(goal=9), "'goal' must be a whole number from 1 to 6"),
        (lambda d: d["hands"][0].append("Zz9"), "hands\\[0\\]"),
        (lambda d: d["deck"].pop(), "not exactly the deck"),
        (lambda d: d.update(hands=[[]]), "one entry per player"),
        (lambda d: d.update(game="henpen"), "not a 'hens' one"),
    ],
)
def test_from_dict_names_what_is_wrong(change, message):
    d = json.loads(json.dumps(State.new(4, seed=1).to_dict()))
    change(d)
    with pytest.raises(ValueError, match=message):
        State.from_dict(d)


def test_chance_sampling_follows_chance_outcomes():
    s = State.new(2, seed=3).apply(Draw(DECK))
    rng = make_rng(0)
    n = 20_000
    counts: dict = {}
    for _ in range(n):
        k = s.sample_chance(rng)
        counts[k] = counts.get(k, 0) + 1
    for k, p in s.chance_outcomes():
        sd = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(counts.get(k, 0) / n - float(p)) < 5 * sd


def test_h8_a_short_draw_means_no_discard():
    # Round 12 of a 4-player game, player 1 to draw, with the deck empty and one card left on
    # the opponents' piles (player 1's own pile holds the other 11, one discarded a turn): the
    # player draws once, places, and keeps 4 cards without discarding.
    s = State.new(4, Rules(players=4, first_player=0), seed=1)
    rng = make_rng(2)
    while s.round < 12:
        s = s.apply(s.sample_chance(rng) if s.is_chance else RandomBot().choose(s, rng))
    d = s.to_dict()
    left = d["deck"] + [k for pile in d["discards"] for k in pile]
    assert len(left) == 12
    d.update(deck=[], discards=[left[1:], [left[0]], [], []])
    s = State.from_dict(d)
    assert s.legal_actions() == [Draw(1, card(left[0]))]
    s = s.apply(s.legal_actions()[0])
    assert s.phase == "place"  # no source left: the draw step ends after one card
    s = s.apply(next(a for a in s.legal_actions() if isinstance(a, (Place, PlaceCoop))))
    assert len(s.hands[0]) == 4 and s.current_player == 1


def test_bots_play_every_seat():
    g = Game(State.new(3, seed=2), [RandomBot(), GreedyBot(), RandomBot()], seed=3)
    g.run()
    assert g.state.is_over


def test_randbelow_is_seeded_and_uniform():
    from henkit.hens.state import randbelow

    a = [randbelow(make_rng(5), 7) for _ in range(3)]
    assert a == [randbelow(make_rng(5), 7) for _ in range(3)]
    rng = make_rng(1)
    n = 70_000
    counts = [0] * 7
    for _ in range(n):
        counts[randbelow(rng, 7)] += 1
    sd = (n * (1 / 7) * (6 / 7)) ** 0.5
    assert all(abs(c - n / 7) < 5 * sd for c in counts)
    with pytest.raises(ValueError, match="n must be from 1 to"):
        randbelow(rng, 0)


def test_words_count_players_from_1_while_seats_count_from_0():
    g = random_game(3, seed=11)
    s = first_state(g, lambda s: s.phase == "draw" and s.round > 1 and s.player == 2
                    and s.discards[0] and not s.discards[1])
    text = str(s).splitlines()
    assert text[0].endswith(f"draw phase, player 3 to play, deck {len(s.deck)}")
    assert [ln.split(":")[0] for ln in text if ln.startswith("player")] == \
        ["player 1", "player 2", "player 3"]
    assert f"player 1: hand {' '.join(map(str, s.hands[0]))};" in str(s)
    top = s.discards[0][-1]
    assert str(Draw(0, top)) == f"draw {top} from player 1's discard pile"
    assert Draw(0, top) in s.legal_actions()  # the code API: seat index 0 is player 1
    before = s.to_dict()
    with pytest.raises(ValueError, match="^player 2's discard pile is empty$"):
        s.apply(Draw(1))
    with pytest.raises(ValueError, match=r"cannot draw from 3: a Draw's source is the "
                                         r"deck \(DECK\) or the seat index 0-2 of the player "
                                         r"whose pile it is \(0 is player 1, 2 is player 3\)"):
        s.apply(Draw(3))
    for src in (-2, "1"):  # refused as the Draw is built (its words once crashed on "1")
        with pytest.raises(ValueError, match=rf"cannot draw from {src!r}: a Draw's source is the "
                                             r"deck \(DECK\) or the seat index of the player "
                                             r"whose pile it is \(0 is player 1\)"):
            s.apply(Draw(src))
    assert s.to_dict() == before
    # The discard phase names the player from 1 too.
    d = first_state(g, lambda s: s.phase == "discard" and s.player == 1)
    missing = next(c for c in map(card, ("Ce1", "Ce2", "Ce3", "Mo1", "Mo2")) if c not in d.hands[1])
    with pytest.raises(ValueError, match=f"cannot discard {missing}: it is not in player 2's hand"):
        d.apply(Discard(missing))
    with pytest.raises(ValueError, match="player must be a seat index 0-2 \\(0 is player 1\\), "
                                         "not 3"):
        s.view(3)
    with pytest.raises(ValueError, match="first_player must be a seat index 0-2 \\(0 is player "
                                         "1\\), not 3"):
        Rules(players=3, first_player=3)


def test_must_discard_is_the_one_home_of_h8():
    import inspect

    from henkit.hens import state as state_module
    from henkit.hens.state import must_discard

    assert must_discard(5) and not must_discard(4) and not must_discard(3)
    assert "H8" in must_discard.__doc__
    assert "HAND_SIZE + 1:" not in inspect.getsource(state_module)  # no inline copies of H8
