"""Draw odds from a player's view: hypergeometric, checked by brute-force enumeration of the
unseen cards and by seeded simulation of real deck draws from sampled hidden states."""

from fractions import Fraction
from itertools import permutations

import pytest

from henkit.core import make_rng
from henkit.hens.actions import DECK, Draw
from henkit.hens.barnyard import Barnyard
from henkit.hens.odds import draw_odds, exactly, fits_cell, hypergeometric, of_breed, of_number

from .helpers import first_state, random_game


def brute_force(view, kind, draws):
    """P(at least one) and the expected count, over every ordered draw of physical cards."""
    pool = [k for k, c in sorted(view.unseen().items()) for _ in range(c)]
    hits = total = count = 0
    for seq in permutations(range(len(pool)), draws):
        n = sum(1 for i in seq if kind.test(pool[i]))
        hits += n > 0
        count += n
        total += 1
    return Fraction(hits, total), Fraction(count, total)


@pytest.fixture(scope="module")
def view():
    g = random_game(3, seed=12)
    s = first_state(g, lambda s: s.round == 5 and s.phase_name == "draw")
    return s.view(s.player)


@pytest.mark.parametrize("kind", [of_breed("Pa"), of_number(3), exactly("Ce6")])
@pytest.mark.parametrize("draws", [1, 2])
def test_exact_odds_match_brute_force(view, kind, draws):
    odds = draw_odds(view, kind, draws)
    assert (odds.at_least_one, odds.expected) == brute_force(view, kind, draws)
    assert sum(odds.distribution) == 1
    assert odds.expected == Fraction(draws * odds.matching, odds.unseen)


def test_fits_a_cell_counts_the_cards_that_fit(view):
    yard = view.barnyard
    cell = yard.coop_cells()[0]
    kind = fits_cell(yard, cell)
    odds = draw_odds(view, cell, 2)
    assert odds.matching == sum(n for c, n in view.unseen().items() if cell in yard.hen_cells(c))
    assert odds.at_least_one == brute_force(view, kind, 2)[0]


def test_hypergeometric_small_case_by_hand():
    # 2 aces among 5 cards, draw 2: P(0) = C(3,2)/C(5,2) = 3/10, P(1) = 2*3/10, P(2) = 1/10.
    assert hypergeometric(5, 2, 2) == [Fraction(3, 10), Fraction(6, 10), Fraction(1, 10)]


def test_odds_match_seeded_simulation(view):
    # Sample the hidden cards consistently with the view, then really draw twice from the deck.
    from henkit.hens.view import sample_state

    rng = make_rng(123)
    kind = of_breed("Wy")
    exact = float(draw_odds(view, kind, 2).at_least_one)
    n, hits = 3000, 0
    for _ in range(n):
        s = sample_state(view, rng)
        got = []
        for _ in range(2):
            s = s.apply(Draw(DECK))
            c = s.sample_chance(rng)
            got.append(c)
            s = s.apply(c)
        hits += any(kind.test(c) for c in got)
    sd = (exact * (1 - exact) / n) ** 0.5
    assert abs(hits / n - exact) < 5 * sd


def test_bad_odds_questions_raise(view):
    with pytest.raises(ValueError, match="cannot draw"):
        draw_odds(view, "Pa", view.deck_size + 1)
    with pytest.raises(ValueError, match="numbers go from 1 to 6"):
        draw_odds(view, 9, 1)
    with pytest.raises(ValueError, match="not a breed"):
        draw_odds(view, "Zebra", 1)


def _odds_with(matching: int, unseen: int = 30, draws: int = 2):
    from henkit.hens.odds import DrawOdds

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
    from henkit.hens.odds import Kind

    red = Kind("a red hen", lambda c: c.breed.colour == "red")
    odds = draw_odds(view, red, 2)
    assert odds.matching > 1
    assert str(odds).startswith(f"{odds.matching} of the {odds.unseen} unseen cards are of the "
                                "kind 'a red hen': ")
    named = Kind("a red hen", red.test, "is red", "are red")
    assert str(draw_odds(view, named, 2)).startswith(
        f"{odds.matching} of the {odds.unseen} unseen cards are red: ")
