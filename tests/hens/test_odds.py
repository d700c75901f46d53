"""Draw odds from a player's view: hypergeometric over the cards the player cannot locate,
checked against direct counts over every way to deal the hidden cards of real positions, and
against seeded simulation of deck draws from sampled states; nothing but ValueError."""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.hens.barnyard import Barnyard
from henkit.hens.bots import GreedyBot
from henkit.hens.cards import CARDS, card
from henkit.hens.odds import (
    DrawOdds,
    Kind,
    as_kind,
    chance_at_least_one,
    draw_odds,
    exactly,
    expected_number,
    fits_cell,
    hypergeometric,
    of_breed,
    of_number,
    sample_state,
)
from henkit.hens.state import Phase, State

from ..fuzz_values import junk, only_value_error
from .test_view import game, hidden_cards

KINDS = [of_breed("Pa"), of_breed("Mo"), of_number(3), exactly("Ce6"), exactly("Wy2")]


@pytest.fixture(scope="module")
def view():
    s = next(s for s in game(3, 12) if s.round == 5 and s.phase is Phase.DRAW)
    return s.view(s.player)


# -- direct counts over the hidden cards -------------------------------------------------------


def slots(s: State, p: int) -> tuple[list, list]:
    """(the physical cards p cannot locate, taken from the state itself; the hidden places they
    fill: deck positions first, in the order they are drawn, then opponents' unknown hand cards
    and face-down coops, less as many of an opponent's places as cards are known to be in that
    opponent's hand or coops: `dealt` puts those cards there)."""
    cards = sorted(hidden_cards(s, p).elements())
    places = [("deck", i) for i in range(len(s.deck))]
    for q in range(s.players):
        if q != p:
            places += opponent_places(s, q)[len(s.known_in_hand_or_coops[q]):]
    assert len(places) == len(cards)
    return cards, places


def opponent_places(s: State, q: int) -> list:
    """Seat q's places hidden from the others: unknown hand cards, then face-down coops."""
    return ([("hand", q)] * (len(s.hands[q]) - len(s.known_in_hand[q]))
            + [("coop", q, c) for c in s.barnyards[q].coop_cells_taken()])


def dealt(s: State, p: int, cards: list, places: list) -> State:
    """The state with the hidden places of p's view filled with `cards` in the order of
    `places` (an arrangement the view cannot tell from the real one)."""
    d = s.to_dict()
    deck, hands = [], {q: list(s.known_in_hand[q]) for q in range(s.players) if q != p}
    coops = {}
    for q in hands:  # the cards known to be in q's hand or coops take q's first places
        held = s.known_in_hand_or_coops[q]
        cards = [*held, *cards]
        places = [*opponent_places(s, q)[:len(held)], *places]
    for k, place in zip(cards, places, strict=True):
        if place[0] == "deck":
            deck.append(k)
        elif place[0] == "hand":
            hands[place[1]].append(k)
        else:
            coops[place[1], tuple(place[2])] = k
    d["deck"] = [str(k) for k in deck]
    for q, h in hands.items():
        d["hands"][q] = [str(k) for k in h]
        for coop in d["barnyards"][q]["coops"]:
            coop[2] = str(coops[q, (coop[0], coop[1])])
    return State.from_dict(d)


def count_by_dealing(s: State, p: int, kind: Kind, draws: int) -> list[Fraction]:
    """P(exactly j cards of `kind` in the next `draws` deck draws) by dealing the hidden cards
    every possible way (each physical card distinct), deck order included; for larger positions
    every ordered choice of the first `draws` deck cards (each extends to the same number of
    whole deals)."""
    cards, places = slots(s, p)
    assert all(place[0] == "deck" for place in places[:draws])  # the cards drawn first
    n = len(cards)
    tally = Counter()
    if n <= 7:
        for order in permutations(range(n)):
            tally[sum(kind.test(cards[i]) for i in order[:draws])] += 1
    else:
        for first in permutations(range(n), draws):
            tally[sum(kind.test(cards[i]) for i in first)] += 1
    total = sum(tally.values())
    return [Fraction(tally[j], total) for j in range(draws + 1)]


@cache
def small_positions():
    """Late positions of 2-player greedy games where a player cannot locate at most 7 cards and
    the deck holds 2 or more, so every deal can be counted: from each game the first such
    position, the first where the opponent holds a card taken from a pile, and the first where
    the opponent has a face-down coop."""
    out = []
    for seed in range(12):
        found = [(s, p) for s in game(2, seed, GreedyBot) for p in range(2)
                 if len(s.deck) >= 2 and sum(s.view(p).unlocated().values()) <= 7]
        for test in (lambda s, p: True, lambda s, p: s.known_in_hand[1 - p],
                     lambda s, p: s.barnyards[1 - p].coops):
            out += [(s, p) for s, p in found if test(s, p)][:1]
    return out


def test_small_positions_cover_known_cards_and_coops():
    pos = small_positions()
    assert len(pos) >= 8
    assert any(s.known_in_hand[1 - p] for s, p in pos)  # a card taken from a pile
    assert any(s.barnyards[1 - p].coops for s, p in pos)  # a face-down coop


@pytest.mark.parametrize("kind", KINDS, ids=str)
@pytest.mark.parametrize("draws", [1, 2])
def test_draw_odds_equal_a_count_over_every_deal_of_the_hidden_cards(kind, draws):
    for s, p in small_positions():
        odds = draw_odds(s.view(p), kind, draws)
        assert list(odds.distribution) == count_by_dealing(s, p, kind, draws), str(s)


def test_every_deal_counted_is_a_state_the_view_cannot_tell_apart():
    rng = np.random.default_rng(0)
    for s, p in small_positions()[::3]:
        cards, places = slots(s, p)
        v = s.view(p)
        for _ in range(5):
            order = rng.permutation(len(cards))
            t = dealt(s, p, [cards[i] for i in order], places)
            assert t.view(p) == v


@pytest.mark.parametrize("draws", [1, 2, 3])
def test_draw_odds_equal_a_count_in_positions_with_known_cards(draws):
    # Mid-game positions of greedy games, where opponents hold cards taken from piles.
    checked = 0
    for players in (2, 3, 4):
        for s in game(players, 11, GreedyBot)[::9]:
            if not draws <= len(s.deck) <= 60 // draws:
                continue  # (the count takes every ordered choice of the first draws)
            for p in range(players):
                if not any(s.known_in_hand[q] for q in range(players) if q != p):
                    continue
                for kind in (of_breed("Su"), exactly(s.known_in_hand[(p + 1) % players][0])
                             if s.known_in_hand[(p + 1) % players] else of_number(2)):
                    got = draw_odds(s.view(p), kind, draws).distribution
                    assert list(got) == count_by_dealing(s, p, kind, draws)
                    checked += 1
    assert checked >= 12 // draws


def test_a_card_taken_from_a_pile_is_out_of_the_deck():
    # Issue 10: the only Mo3, taken by an opponent from a discard pile, kept odds of 1/43.
    for seed in range(40):
        states = game(4, seed)
        hit = [s for s in states if any(CARDS[card("Mo3")] in k for k in s.known_in_hand)]
        if hit:
            break
    assert hit, "no seeded game saw Mo3 taken from a pile"
    s = hit[0]
    holder = next(q for q in range(4) if card("Mo3") in s.known_in_hand[q])
    for p in range(4):
        v = s.view(p)
        if p != holder:
            assert v.unseen()[card("Mo3")] == 1  # out of sight...
            assert v.unlocated()[card("Mo3")] == 0  # ...but everyone knows where it is
        odds = draw_odds(v, "Mo3", 1)
        assert odds.matching == 0 and odds.at_least_one == 0 and odds.expected == 0
        assert chance_at_least_one(v, "Mo3", 1) == 0 == expected_number(v, "Mo3", 1)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.sampled_from([2, 3, 4]))
def test_each_card_kind_counts_its_copies_not_known_elsewhere(seed, players):
    for s in game(players, seed % 1000)[::11]:
        for p in range(players):
            v = s.view(p)
            want = hidden_cards(s, p)
            for k in CARDS[::5]:
                if v.deck_size:
                    odds = draw_odds(v, exactly(str(k)), 1)
                    assert odds.matching == want[k] and odds.unseen == sum(want.values())
                    assert odds.at_least_one == Fraction(want[k], sum(want.values()))


# -- the same odds by simulation ---------------------------------------------------------------


def test_odds_match_seeded_simulation_of_sampled_states():
    # Sample the hidden cards consistently with the view, then draw from the sampled deck;
    # positions where opponents hold cards taken from piles.
    rng = np.random.default_rng(123)
    states = game(3, 11, GreedyBot)
    s = max((s for s in states if s.phase is Phase.DRAW and s.deck),
            key=lambda s: sum(map(len, s.known_in_hand)))
    p = next(q for q in range(3) if any(s.known_in_hand[r] for r in range(3) if r != q))
    v = s.view(p)
    known = [k for q in range(3) if q != p for k in s.known_in_hand[q]]
    for kind in (exactly(str(known[0])), of_breed(known[0].breed.code), of_number(3)):
        exact = float(draw_odds(v, kind, 2).at_least_one)
        n, hits = 1000, 0
        for _ in range(n):
            t = sample_state(v, rng)
            got = rng.choice(len(t.deck), 2, replace=False)
            hits += any(kind.test(t.deck[i]) for i in got)
        sd = (exact * (1 - exact) / n) ** 0.5
        assert abs(hits / n - exact) <= 5 * sd + 1 / n, kind


# -- the formula and the words -----------------------------------------------------------------


def test_hypergeometric_small_case_by_hand():
    # 2 aces among 5 cards, draw 2: P(0) = C(3,2)/C(5,2) = 3/10, P(1) = 2*3/10, P(2) = 1/10.
    assert hypergeometric(5, 2, 2) == [Fraction(3, 10), Fraction(6, 10), Fraction(1, 10)]
    assert hypergeometric(np.int64(5), np.uint8(2), np.int32(2)) == hypergeometric(5, 2, 2)


def test_fits_a_cell_counts_the_cards_that_fit(view):
    yard = view.barnyard
    cell = yard.coop_cells()[0]
    kind = fits_cell(yard, cell)
    odds = draw_odds(view, cell, 2)
    assert odds.matching == sum(n for c, n in view.unlocated().items() if kind.test(c))
    assert odds.matching == sum(n for c, n in view.unlocated().items()
                                if cell in yard.hen_cells(c))
    assert draw_odds(view, list(cell), 2) == odds


def test_kinds_by_name_number_cell_or_kind(view):
    assert as_kind(view, "Pa3").test(card("Pa3")) and not as_kind(view, "Pa3").test(card("Pa4"))
    assert as_kind(view, "Padovana").test(card("Pa4"))
    assert as_kind(view, np.int64(3)).test(card("Wy3"))
    assert as_kind(view, KINDS[0]) is KINDS[0]
    assert draw_odds(view, 3, np.int64(2)) == draw_odds(view, of_number(3), 2)


def test_bad_odds_questions_raise(view):
    with pytest.raises(ValueError, match="cannot draw"):
        draw_odds(view, "Pa", view.deck_size + 1)
    with pytest.raises(ValueError, match="card number must be from 1 to 6"):
        draw_odds(view, 9, 1)
    with pytest.raises(ValueError, match="is not a kind of card"):
        draw_odds(view, "Zebra", 1)
    with pytest.raises(ValueError, match="draws must be a whole number"):
        draw_odds(view, "Pa", 1.0)
    with pytest.raises(ValueError, match="needs a View"):
        draw_odds(None, "Pa")
    with pytest.raises(ValueError, match="test of the kind 'a broken kind' failed"):
        draw_odds(view, Kind("a broken kind", lambda c: 1 / 0))
    with pytest.raises(ValueError, match="population must be from 0 to 1000"):
        hypergeometric(10**30, 1, 1)


def _odds_with(matching: int, unseen: int = 30, draws: int = 2):
    return [
        DrawOdds(k.description, draws, unseen, matching,
                 tuple(hypergeometric(unseen, matching, draws)), k.one, k.many)
        for k in (of_breed("Pa"), of_breed("Fa"), of_number(3), exactly("Ce2"),
                  fits_cell(Barnyard().place("Pa3", (0, 0)), (0, 1)))
    ]


def test_odds_read_as_sentences_for_every_kind_and_count():
    one = [str(o).split(":")[0] for o in _odds_with(1)]
    assert one == [
        "1 of the 30 unseen cards is a Padovana",
        "1 of the 30 unseen cards is a Faverolles",
        "1 of the 30 unseen cards is numbered 3",
        "1 of the 30 unseen cards is a Ce2",
        "1 of the 30 unseen cards could go as a hen at row 0, column 1",
    ]
    many = [str(o).split(":")[0] for o in _odds_with(2)]
    assert many == [
        "2 of the 30 unseen cards are Padovanas",
        "2 of the 30 unseen cards are Faverolles",  # the same word for one and for many
        "2 of the 30 unseen cards are numbered 3",
        "2 of the 30 unseen cards are Ce2s",
        "2 of the 30 unseen cards could go as a hen at row 0, column 1",
    ]
    none = [str(o).split(":")[0] for o in _odds_with(0)]
    assert none[0] == "none of the 30 unseen cards is a Padovana"
    assert none[3] == "none of the 30 unseen cards is a Ce2"
    # After the colon: P(at least one) = 1 - C(27,2)/C(30,2) = 1 - 351/435 = 28/145, exactly
    # and in per cent, and the expected count 2 * 3/30 = 1/5.
    assert str(_odds_with(3)[0]).split(": ", 1)[1] == \
        "P(at least one in 2 draws) = 28/145 (19.3%), expected number drawn 1/5"
    assert "P(at least one in 1 draw) = 1/10 (10.0%)" in str(_odds_with(3, draws=1)[0])
    assert str(_odds_with(1, unseen=1, draws=1)[2]).startswith(
        "1 of the 1 unseen card is numbered 3: P(at least one in 1 draw) = 1 (100.0%)")


def test_a_kind_made_by_hand_still_reads_as_a_sentence(view):
    red = Kind("a red hen", lambda c: c.breed.colour == "red")
    odds = draw_odds(view, red, 2)
    assert odds.matching > 1
    assert str(odds).startswith(f"{odds.matching} of the {odds.unseen} unseen cards are of the "
                                "kind 'a red hen': ")
    named = Kind("a red hen", red.test, "is red", "are red")
    assert str(draw_odds(view, named, 2)).startswith(
        f"{odds.matching} of the {odds.unseen} unseen cards are red: ")


def test_draw_odds_refuse_odds_objects_that_do_not_add_up():
    with pytest.raises(ValueError, match="distribution must be the hypergeometric odds"):
        DrawOdds("a Pa", 2, 30, 3, (Fraction(1), Fraction(0), Fraction(0)))
    with pytest.raises(ValueError, match="draws must be from 1 to 30"):
        DrawOdds("a Pa", 0, 30, 3, (Fraction(1),))


# -- only ValueError ---------------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(a=junk(), b=junk(), c=junk())
def test_every_odds_function_refuses_junk_with_value_error(view, a, b, c):
    for call, args in [
        (of_breed, (a,)), (of_number, (a,)), (exactly, (a,)), (fits_cell, (a, b)),
        (fits_cell, (view.barnyard, a)), (hypergeometric, (a, b, c)),
        (draw_odds, (a, b, c)), (draw_odds, (view, a, b)), (draw_odds, (view, "Pa", a)),
        (chance_at_least_one, (view, a, b)), (expected_number, (view, a, b)),
        (as_kind, (a, b)), (as_kind, (view, a)), (Kind, (a, b, c)), (Kind, ("x", len, a)),
        (DrawOdds, (a, b, c, a, b)), (DrawOdds, ("a Pa", 2, 30, 3, a, b, c)),
    ]:
        only_value_error(call, *args)


@settings(max_examples=100, deadline=None)
@given(population=st.integers(-3, 1200) | junk(), successes=st.integers(-3, 60),
       draws=st.integers(-3, 60))
def test_hypergeometric_sums_to_one_or_refuses(population, successes, draws):
    got = only_value_error(hypergeometric, population, successes, draws)
    if got is not None:
        assert sum(got) == 1 and len(got) == draws + 1


def test_a_kind_whose_test_breaks_gives_value_error(view):
    for test in (len, lambda c: c.nope, lambda c: np.array([1, 2])):
        only_value_error(draw_odds, view, Kind("odd", test))


def test_known_card_kept_after_a_coop_is_not_in_the_deck():
    """The reviewer's game: player 2 is known to hold the only Mo1 and places a different card
    face down. Mo1 is then in that hand or under that coop: never in the deck, for draw_odds and
    for sample_state."""
    from henkit.core import play_out
    from henkit.hens.actions import PlaceCoop
    from henkit.hens.bots import make_bot
    from henkit.hens.cards import COPIES_OF

    hits = []

    def watch(before, step, after):
        if isinstance(step.action, PlaceCoop):
            p = step.player
            for k in before.known_in_hand[p]:
                if COPIES_OF[k] == 1 and step.action.card != k and after.deck:
                    hits.append((p, k, after))

    play_out(State.new(3, seed=0), [make_bot("random")] * 3, 0, observer=watch)
    p, k, s = hits[0]
    assert k in s.known_in_hand_or_coops[p]
    v = s.view((p + 1) % 3)
    assert k not in v.unlocated()
    assert draw_odds(v, str(k), 1).at_least_one == 0
    for i in range(30):
        t = sample_state(v, seed=i)
        assert k not in t.deck
        under = [t.barnyards[p].coop_card(c) for c in t.barnyards[p].coop_cells_taken()]
        assert k in t.hands[p] or k in under
