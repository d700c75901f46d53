"""The class board's exact values: checked against brute-force enumeration, the solver, and
seeded simulations of the engines (the games the class plays)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations, product

import numpy as np
import pytest

from henkit.classpool.base import Board
from henkit.classpool.exact import (
    COMPARED_WITH_OPTIMAL,
    FAILED,
    STORED_SPECS,
    _walk,
    binomial,
    bot_spec,
    breed_count_law,
    bust_cells,
    bust_law,
    deck_breed_law,
    distance_band,
    draw_comparison,
    ending_comparisons,
    expected_distance,
    first_roll_comparisons,
    first_roll_law,
    hypergeometric,
    max_deviation,
    removal_choices,
    stored_law,
    total_variation,
    turn_end_law,
    tv_constant,
)
from henkit.classpool.turn_laws import LAWS
from henkit.core import CHANCE, Game
from henkit.henpen.bots import make_bot
from henkit.henpen.distributions import face_count_distribution, policy_distributions
from henkit.henpen.odds import bust_chance, position_reward, solve_turn
from henkit.henpen.rules import Rules
from henkit.henpen.state import State as HenpenState
from henkit.hens.cards import BREEDS, deck_cards
from henkit.hens.state import State as HensState

WORM = 6


# -- one roll ----------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_first_roll_law_is_the_count_over_every_roll(n: int) -> None:
    tally = Counter(sum(f == WORM for f in roll) for roll in product(range(1, 7), repeat=n))
    assert first_roll_law(n) == tuple(Fraction(tally[k], 6**n) for k in range(n + 1))


def test_first_roll_law_matches_the_engines_roll_table() -> None:
    assert first_roll_law(8) == face_count_distribution(8, WORM)
    assert sum(first_roll_law(8)) == 1


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_bust_law_is_the_share_of_rolls_showing_only_taken_faces(n: int) -> None:
    for k in range(6):
        taken = set(range(1, k + 1))
        busts = sum(all(f in taken for f in roll) for roll in product(range(1, 7), repeat=n))
        assert bust_law(n, k) == Fraction(busts, 6**n)
        assert bust_law(n, k) == bust_chance(n, range(1, k + 1))


# -- Hens deck ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "marked", "draws"), [(6, 2, 3), (7, 3, 4), (5, 5, 2), (8, 0, 3)])
def test_hypergeometric_is_the_count_over_every_hand(size: int, marked: int, draws: int) -> None:
    hands = list(combinations(range(size), draws))
    tally = Counter(sum(c < marked for c in hand) for hand in hands)
    assert hypergeometric(size, marked, draws) == tuple(
        Fraction(tally[k], len(hands)) for k in range(draws + 1))


def test_deck_breed_law_of_a_full_deck_is_each_breeds_share_of_its_72_cards() -> None:
    deck = deck_cards()
    assert len(deck) == 72
    shares = Counter(c.breed.code for c in deck)
    assert deck_breed_law(4) == {b.code: Fraction(shares[b.code], 72) for b in BREEDS}


@pytest.mark.parametrize("players", [2, 3])
def test_deck_breed_law_mixes_the_decks_the_engine_deals(players: int) -> None:
    # Every choice of removed breeds the engine makes has the chance removal_choices says
    # (over many seeds), and the law is the average breed share over those decks.
    seen = Counter(HensState.new(players, seed=s).removed_breeds for s in range(400))
    choices = dict(removal_choices(players))
    assert set(seen) == set(choices)
    for removed, n in seen.items():
        assert abs(n / 400 - float(choices[removed])) < 0.1
    law = {b.code: Fraction(0) for b in BREEDS}
    for removed, p in choices.items():
        deck = [c.breed.code for c in deck_cards(removed)]
        for code in law:
            law[code] += p * Fraction(deck.count(code), len(deck))
    assert deck_breed_law(players) == law
    assert sum(law.values()) == 1


def test_breed_count_law_is_the_count_over_every_ordered_draw() -> None:
    # Brute force over a small deck: all ordered draws of 2 cards of a 3-player deck (62 cards),
    # each deck equally likely.
    for m in (1, 2):
        total: Counter = Counter()
        for removed, p in removal_choices(3):
            deck = deck_cards(removed)
            draws = list(permutations(range(len(deck)), m))
            tally = Counter(sum(deck[i].breed.code == "Su" for i in d) for d in draws)
            for k, c in tally.items():
                total[k] += p * Fraction(c, len(draws))
        assert breed_count_law("Su", m, 3) == tuple(total[k] for k in range(m + 1))
    assert breed_count_law("Padovana", 5, 4) == hypergeometric(72, 12, 5)


def test_deck_draws_of_seeded_games_match_each_games_deck() -> None:
    # Every card the deck brings in 300 two-player games (bots choosing deck or pile as they
    # like) is one card of that game's shuffled deck: pooled, the breed shares sit inside the
    # 99% band of the law mixed over the decks these games dealt (their removed breeds).
    cards, decks = [], Counter()
    for s in range(300):
        state = HensState.new(2, seed=s)
        game = Game(state, [make_bot_hens("greedy"), make_bot_hens("random")], s)
        game.run()
        drawn = [str(step.action)[:2] for step in game.history if step.player == CHANCE]
        cards += drawn
        decks[state.removed_breeds] += len(drawn)
    law = {b.code: Fraction(0) for b in BREEDS}
    for removed, n in decks.items():
        deck = [c.breed.code for c in deck_cards(removed)]
        for code in law:
            law[code] += Fraction(n, len(cards)) * Fraction(deck.count(code), len(deck))
    distance = total_variation(Counter(cards), law)
    band = distance_band(law, [len(cards)], level=0.99, sims=2000, seed=1)
    assert len(cards) > 5000
    assert distance <= band.high[0]
    # Against the law mixed evenly (what the board shows) the distance is larger: 300 games
    # deal the four decks unevenly, and a game's draws share one deck.
    assert total_variation(Counter(cards), deck_breed_law(2)) > distance


def make_bot_hens(name: str):
    from henkit.hens.bots import make_bot as hens_bot

    return hens_bot(name)


# -- how a turn ends ---------------------------------------------------------------------------


def test_turn_end_law_matches_the_solvers_end_distribution() -> None:
    law = turn_end_law("threshold 25")
    exact = policy_distributions((25,), optimal=False, exact=True)["stop at 25"]
    lowest = 21  # the lowest serving of a full grill: a stop below it claims nothing
    assert sum(law.chances.values()) == 1
    assert law.chance("bust") + law.chance("no worm") == exact.fail
    assert law.chance("no serving") == sum(exact.at_total[:lowest])
    for t in range(lowest, len(exact.at_total)):
        assert law.chance(t) == exact.at_total[t]


def test_the_optimal_bots_law_is_worth_the_solvers_value() -> None:
    # The optimal bot may break ties (equal expected worms) unlike the solver's policy, so the
    # two distributions may differ a little; their expected worms are exactly the same.
    rules = Rules()
    law = turn_end_law("optimal")
    assert sum(law.chances.values()) == 1

    def worms(total: int) -> int:
        return rules.worms(max(t for t in rules.tiles if t <= total))

    value = sum(p * worms(e) for e, p in law.chances.items() if isinstance(e, int))
    assert value == solve_turn(position_reward(rules=rules), rules=rules, exact=True).value()


@pytest.mark.slow
@pytest.mark.parametrize("who", ["greedy", "random"])
def test_turn_end_law_matches_seeded_turns_of_the_bot(who: str) -> None:
    law = turn_end_law(who)
    assert sum(law.chances.values()) == 1
    bot = make_bot(bot_spec(who))
    ends: Counter = Counter()
    for s in range(3000):
        game = Game(HenpenState.new(1), [bot], s)
        game.advance(until=lambda st: st.turns_played >= 1)
        end = game.state.last_turn
        ends[end.failure or end.total] += 1
    assert set(ends) <= set(law.chances)
    band = distance_band(law.chances, [3000], level=0.99, sims=1000, seed=2)
    assert total_variation(ends, law.chances) <= band.high[0]


@pytest.mark.slow
def test_the_stored_laws_are_the_walks_own() -> None:
    # The board reads the usual bots' laws from henkit.classpool.turn_laws (no walk in class):
    # they are what the walk through the engine gives (the two quickest walked again here; the
    # rest checked against the solver below and against seeded games above).
    for spec in ("greedy", "threshold:25"):
        assert stored_law(spec) == _walk(spec, Rules())


def test_every_stored_law_is_exact_and_agrees_with_the_solver() -> None:
    assert set(STORED_SPECS) <= set(LAWS)
    lowest = 21
    exact = policy_distributions(range(20, 31), optimal=False, exact=True)
    for spec in STORED_SPECS:
        law = dict(stored_law(spec))
        assert sum(law.values()) == 1, spec
        # From 21 on (the lowest serving): below it the bot cannot stop (no serving to claim) and
        # rolls on, where the batch policy stops and fails; their laws differ there by design.
        if spec.startswith("threshold:") and int(spec.split(":")[1]) >= lowest:
            d = exact[f"stop at {spec.split(':')[1]}"]
            assert law["bust"] + law["no worm"] == d.fail
            assert law.get("no serving", 0) == sum(d.at_total[:lowest])
            assert all(law.get(t, 0) == d.at_total[t] for t in range(lowest, len(d.at_total)))


def test_other_rules_are_walked_not_read() -> None:
    rules = Rules(dice=4, worm_table={8: 1, 12: 2})
    law = turn_end_law("greedy", rules)
    assert sum(law.chances.values()) == 1
    assert max(k for k in law.chances if isinstance(k, int)) <= 4 * 5
    assert law.chances != turn_end_law("greedy").chances


def test_a_student_is_compared_with_the_optimal_play_and_told_so() -> None:
    law = turn_end_law("student")
    assert law.played_by == "optimal"
    assert law.chances == turn_end_law("optimal").chances
    assert law.note == COMPARED_WITH_OPTIMAL and "no single exact law" in law.note
    assert turn_end_law("my own bot") is None
    assert bot_spec("threshold 28") == "threshold:28"
    assert bot_spec("optimal (steal weight 1_2)") == "optimal:1/2"


# -- distances ---------------------------------------------------------------------------------


def test_distances_by_hand() -> None:
    law = (Fraction(1, 2), Fraction(1, 2))
    assert total_variation([1, 1], law) == 0
    assert total_variation([3, 1], law) == pytest.approx(0.25)
    assert max_deviation([3, 1], law) == pytest.approx(0.25)
    assert total_variation({"a": 1}, {"b": Fraction(1)}) == 1
    assert max_deviation([1, 0, 0], (Fraction(1, 3),) * 3) == pytest.approx(2 / 3)


def test_distance_band_is_seeded_and_shrinks_like_one_over_root_n() -> None:
    law = first_roll_law(8)
    ns = [100, 10_000]
    band = distance_band(law, ns, sims=3000, seed=5)
    assert band == distance_band(law, ns, sims=3000, seed=5)
    for lo, mean, hi in zip(band.low, band.mean, band.high, strict=True):
        assert lo < mean < hi
    # 100 times the observations: a tenth of the distance.
    assert band.mean[0] / band.mean[1] == pytest.approx(10, rel=0.1)
    assert band.high[0] / band.high[1] == pytest.approx(10, rel=0.15)
    assert band.mean[1] * math.sqrt(10_000) == pytest.approx(tv_constant(law), rel=0.05)


def test_seeded_first_rolls_stay_inside_the_band() -> None:
    rng = np.random.default_rng(11)
    rolls = rng.integers(1, 7, size=(4000, 8))
    worms = np.bincount((rolls == 6).sum(axis=1), minlength=9)
    band = distance_band(first_roll_law(8), [4000], level=0.99, seed=3)
    assert total_variation(list(worms), first_roll_law(8)) <= band.high[0]


# -- the board against the law -----------------------------------------------------------------


def test_comparisons_read_the_boards_counts() -> None:
    board = Board(first_rolls={(8, 0): 3, (8, 2): 1, (5, 1): 2},
                  busts={(3, 2): (1, 4), (8, 0): (0, 9)},
                  endings={("student", 25): 2, ("student", "bust"): 1, ("greedy", 21): 1},
                  draws={("deck", "Pa3", 4): 2, ("deck", "Mo1", 4): 1, ("pile", "Pa4", 4): 7,
                         ("deck", "Se2", 2): 5})
    five, eight = first_roll_comparisons(board)
    assert five.counts == (0, 2, 0, 0, 0, 0) and five.exact == first_roll_law(5)
    assert eight.counts[:3] == (3, 0, 1) and eight.n == 4
    assert eight.distance == pytest.approx(total_variation([3, 0, 1, 0, 0, 0, 0, 0, 0],
                                                           first_roll_law(8)))
    cells = bust_cells(board)
    assert [(c.dice, c.taken, c.busts, c.rolls) for c in cells] == [(8, 0, 0, 9), (3, 2, 1, 4)]
    assert cells[1].exact == Fraction(1, 27) and cells[1].share == 0.25
    students, greedy = ending_comparisons(board, laws=False)
    assert students.title == "students' turns" and greedy.title == "greedy's turns"
    assert students.keys[:3] == FAILED
    assert dict(zip(students.keys, students.counts, strict=True))[25] == 2
    draws = draw_comparison(board, players=4)
    assert dict(zip(draws.keys, draws.counts, strict=True)) == {
        "Pa": 2, "Wy": 0, "Se": 0, "Ba": 0, "Su": 0, "Fa": 0, "Ce": 0, "Mo": 1}
    assert "hypergeometric" in draws.note and draws.exact == tuple(deck_breed_law(4).values())
    empty = first_roll_comparisons(Board())[0]
    assert empty.n == 0 and empty.distance is None and empty.shares == (0.0,) * 9


def test_each_draw_is_compared_with_the_deck_of_its_own_game() -> None:
    """Draws of 2- and 3-player games pooled: the exact shares are the two decks' laws mixed as
    the draws came (not the 2-player deck's, which has no Se or Ba half the time); draws kept
    without their player count are left out, and the note says how many."""
    board = Board(draws={("deck", "Pa3", 2): 3, ("deck", "Ce1", 3): 1, ("deck", "Mo2", None): 4,
                         ("pile", "Wy1", 3): 2})
    both = draw_comparison(board)
    two, three = deck_breed_law(2), deck_breed_law(3)
    assert both.exact == tuple(Fraction(3, 4) * two[c] + Fraction(1, 4) * three[c]
                               for c in both.keys)
    assert sum(both.exact) == 1 and both.n == 4 and both.has_law
    assert "2 and 3-player games" in both.title and "4 draws kept without" in both.note
    only_three = draw_comparison(board, players=3)
    assert only_three.n == 1 and only_three.exact == tuple(three.values())
    assert two["Se"] != three["Se"]  # why the player count matters
    nothing = draw_comparison(Board())
    assert nothing.n == 0 and not nothing.has_law and "no draws yet" in nothing.title


def test_bad_input_is_a_value_error() -> None:
    for call in (
        lambda: first_roll_law(0), lambda: bust_law(3, 6), lambda: bust_law(True, 1),
        lambda: hypergeometric(5, 6, 1), lambda: hypergeometric(5, 2, 6),
        lambda: deck_breed_law(5), lambda: breed_count_law("Xx", 2),
        lambda: breed_count_law("Pa", 51, 2), lambda: turn_end_law(""),
        lambda: turn_end_law("greedy", rules="fast"), lambda: total_variation([0, 0], [1, 0]),
        lambda: total_variation([1], [Fraction(1, 2)]), lambda: distance_band([1], []),
        lambda: distance_band([1], [10], level=1.5), lambda: first_roll_comparisons({}),
        lambda: binomial(3, Fraction(3, 2)), lambda: draw_comparison(Board(), players=1),
    ):
        with pytest.raises(ValueError):
            call()


def test_the_expected_distance_is_c_over_root_n_and_the_band_centres_on_it():
    """expected_distance(law, ns) = C/sqrt(n); simulated classes' mean distance agrees at
    large n; bad n is refused."""
    law = first_roll_law(8)
    c = tv_constant(law)
    assert expected_distance(law, [1, 100, 10_000]) == pytest.approx((c, c / 10, c / 100))
    band = distance_band(law, [10_000], sims=400, seed=3)
    assert band.mean[0] == pytest.approx(expected_distance(law, [10_000])[0], rel=0.05)
    for bad in ([0], [-1], ["ten"], "10", None):
        with pytest.raises(ValueError):
            expected_distance(law, bad)
