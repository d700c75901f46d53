"""Bayes with cards (henkit.hens.inference): the greedy rule is the greedy bot's draw, the prior
and the posterior equal direct counts over every way to deal the hidden cards (the real bot
deciding in each deal), a seeded simulation lands where the posterior says, the deck's odds
before any evidence are the engine's draw odds, and bad input is a ValueError only."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb, sqrt

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from henkit.core import Game
from henkit.hens import (
    BREEDS,
    DECK,
    Draw,
    Rules,
    State,
    draw_odds,
    make_bot,
    sample_state,
    total,
)
from henkit.hens.barnyard import Barnyard
from henkit.hens.bots import GreedyBot, RandomBot
from henkit.hens.cards import card
from henkit.hens.inference import (
    MAX_HANDS,
    Posterior,
    greedy_draw,
    greedy_takes,
    greedy_value,
    hand_prior,
    posterior,
    unknown_cards,
)
from henkit.hens.odds import hypergeometric

from ..fuzz_values import junk, only_value_error

QUICK = settings(max_examples=25, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])


def greedy_game(seed: int) -> Game:
    """A finished 2-player game of greedy bots, player 1 first (history and states kept)."""
    g = Game(State.new(2, Rules(players=2, first_player=0), seed=seed),
             [make_bot("greedy"), make_bot("greedy")], seed)
    g.run()
    return g


@cache
def lesson() -> tuple[State, State]:
    """Notebook 5's Bayes position: seed 1, round 4, player 2 about to draw, and after its draw
    (it takes player 1's Ba3)."""
    g = Game(State.new(2, Rules(players=2, first_player=0), seed=1),
             [make_bot("greedy"), make_bot("greedy")], 1)
    before = g.advance(until=lambda s: s.round == 4 and s.player == 1 and s.phase == "draw")
    return before, g.advance(max_moves=1)


@cache
def lesson_posterior() -> Posterior:
    before, _ = lesson()
    return posterior(before.view(0), 1, greedy_takes(before.view(0), 1, 0))


def draw_states(players: int, seed: int):
    """Every first-draw state of a seeded game of mixed bots."""
    names = ("greedy", "random", "lookahead")
    g = Game(State.new(players, seed=seed),
             [make_bot(names[(i + seed) % 3]) for i in range(players)], seed)
    g.run()
    return [s for s in g.states if not s.is_over and not s.is_chance and s.phase == "draw"]


# -- the greedy rule is the greedy bot's draw ---------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_greedy_rule_is_the_greedy_bots_draw(players):
    bot, rng, checked = GreedyBot(), np.random.default_rng(0), 0
    for seed in range(4):
        for s in draw_states(players, seed):
            q = s.player
            chosen = bot.choose(s, rng).source
            v = s.view((q + 1) % players)
            tops = [(p, pile[-1]) for p, pile in enumerate(s.discards)
                    if s.pile_problem(p) is None]
            assert greedy_draw(s.barnyards[q], s.goal, s.hands[q], tops, bool(s.deck)) == chosen
            if not v.known_in_hand_or_coops[q]:
                for source, _ in tops:
                    like = greedy_takes(v, q, source)(tuple(sorted(s.hands[q])))
                    assert like == int(chosen == source)
            checked += 1
    assert checked > 100


def test_greedy_value_is_the_best_placement_score():
    yard = Barnyard.parse("Ba3 Ba2\n..  Ba5")
    assert total(yard, 5) == 13
    for c in ("Ba3", "Ba1", "Ba4", "Pa1", "Mo6", "Ce2"):
        hens = [total(yard.place(c, cell), 5) for cell in yard.hen_cells(c)]
        coops = [total(yard.place(c, cell, coop=True), 5) for cell in yard.coop_cells()]
        assert greedy_value(yard, 5, c) == max(hens + coops)
    assert greedy_value(yard, 5, "Ba3") == greedy_value(yard, 5, "Ba4") == 14
    assert greedy_value(yard, 5, "Ba1") == 15 and greedy_value(yard, 5, "Pa1") == 13


# -- the prior: every handful equally likely ----------------------------------------------------


def late_positions(count: int, most_unlocated: int = 14):
    """Player 2 about to make a first draw late in seeded greedy games, with player 1's pile to
    take from, no coop of player 2 face down and nothing known about its coops."""
    found = []
    for seed in range(1, 60):
        for s in greedy_game(seed).states:
            if (not s.is_over and not s.is_chance and s.phase == "draw" and s.player == 1
                    and s.draws == 0 and s.pile_problem(0) is None and s.deck):
                v = s.view(0)
                if (not v.hidden_coops()[1] and not v.known_in_hand_or_coops[1]
                        and sum(v.unlocated().values()) <= most_unlocated):
                    found.append(s)
                    break
        if len(found) == count:
            return found
    raise AssertionError("too few late positions")


def test_the_prior_is_a_count_over_the_physical_cards():
    for s in late_positions(4):
        v = s.view(0)
        cards = sorted(v.unlocated().elements())  # one entry per physical card
        m = unknown_cards(v, 1)
        direct = Counter(tuple(sorted(pick)) for pick in combinations(cards, m))
        total_ways = comb(len(cards), m)
        prior = dict(hand_prior(v, 1))
        assert prior == {h: Fraction(n, total_ways) for h, n in direct.items()}
        assert sum(prior.values()) == 1


def test_the_priors_count_table_is_hypergeometric():
    before, _ = lesson()
    v, post = before.view(0), lesson_posterior()
    pool = v.unlocated()
    for b in BREEDS:
        if b.code in v.removed_breeds:
            continue
        matching = sum(n for c, n in pool.items() if c.breed is b)
        rows = post.count_table(b.code)
        assert [r.prior for r in rows] == hypergeometric(sum(pool.values()), matching, 4)
        assert sum(r.posterior for r in rows) == 1
        for r in rows:
            assert r.joint == r.prior * r.likelihood and r.posterior == r.joint / post.evidence


# -- the posterior: direct counts over every deal, the real bot deciding -------------------------


def test_the_posterior_is_a_count_over_every_deal_with_the_bot_deciding():
    bot, rng = GreedyBot(), np.random.default_rng(0)
    informative = 0
    for s in late_positions(4):
        v = s.view(0)
        cards = sorted(v.unlocated().elements())
        m = unknown_cards(v, 1)
        d = s.to_dict()
        deals = takes = 0
        held = Counter()  # breed -> deals taken where the hand holds one
        top = Counter()  # breed -> sum over taken deals of P(deck top is that breed)
        for pick in combinations(range(len(cards)), m):
            hand = [cards[i] for i in pick]
            rest = [c for i, c in enumerate(cards) if i not in pick]
            d["hands"][1] = [str(c) for c in sorted(list(v.known_in_hand[1]) + hand)]
            d["deck"] = [str(c) for c in rest]
            deal = State.from_dict(d)
            deals += 1
            if bot.choose(deal, rng) != Draw(0, v.discard_tops[0]):
                continue
            takes += 1
            for b in {c.breed.code for c in hand}:
                held[b] += 1
            for b, n in Counter(c.breed.code for c in rest).items():
                top[b] += Fraction(n, len(rest))
        if not takes:
            with pytest.raises(ValueError, match="chance 0"):
                posterior(v, 1, greedy_takes(v, 1, 0))
            continue
        post = posterior(v, 1, greedy_takes(v, 1, 0))
        assert post.evidence == Fraction(takes, deals)
        informative += 0 < takes < deals
        for b in BREEDS:
            if b.code in v.removed_breeds:
                continue
            assert post.holds(b.code)[1] == Fraction(held[b.code], takes)
            assert post.deck_top(b.code)[1] == top[b.code] / takes
    assert informative  # some position where the take says something


def test_the_lessons_posterior_is_a_count_over_every_deal():
    # The lesson's position: 33 unseen cards, 40,920 ways to pick player 2's 4 (the greedy
    # rule, the bot's draw above, scoring each card once).
    before, _ = lesson()
    v, post = before.view(0), lesson_posterior()
    cards = sorted(v.unlocated().elements())
    assert len(cards) == 33
    value = {c: greedy_value(v.barnyards[1], v.goal, c) for c in set(cards)}
    top = greedy_value(v.barnyards[1], v.goal, v.discard_tops[0])
    takes, pa = 0, 0
    for pick in combinations(cards, 4):
        if max(value[c] for c in pick) < top:
            takes += 1
            pa += any(c.breed.code == "Pa" for c in pick)
    assert post.evidence == Fraction(takes, comb(33, 4)) == Fraction(comb(27, 4), comb(33, 4))
    assert post.holds("Pa")[1] == Fraction(pa, takes)
    # Ruling out the Barnevelders leaves a random handful of the other 27 cards.
    assert [r.posterior for r in post.count_table("Pa")] == hypergeometric(27, 9, 4)
    assert post.holds("Ba") == (1 - Fraction(comb(27, 4), comb(33, 4)), 0)
    assert post.deck_top("Ba") == (Fraction(6, 33), Fraction(6, 29))


def test_a_seeded_simulation_lands_where_the_posterior_says():
    before, _ = lesson()
    v, post = before.view(0), lesson_posterior()
    rng, bot = np.random.default_rng(5), GreedyBot()
    n, takes, pa, ba, ba_top = 4000, 0, 0, 0, 0
    for _ in range(n):
        world = sample_state(v, rng)
        if bot.choose(world, rng).source != 0:
            continue
        takes += 1
        hand = world.hands[1]
        pa += any(c.breed.code == "Pa" for c in hand)
        ba += any(c.breed.code == "Ba" for c in hand)
        nxt = world.apply(Draw(0, v.discard_tops[0])).apply(Draw(DECK))
        ba_top += nxt.sample_chance(rng).breed.code == "Ba"

    def near(count: int, trials: int, p: Fraction) -> bool:
        return abs(count / trials - float(p)) <= 4.5 * sqrt(float(p * (1 - p)) / trials)

    assert near(takes, n, post.evidence)
    assert ba == 0  # no deal where the bot took Ba3 had a Barnevelder in hand
    assert near(pa, takes, post.holds("Pa")[1])
    assert near(ba_top, takes, post.deck_top("Ba")[1])


# -- what the evidence does not change -----------------------------------------------------------


def test_before_any_evidence_the_deck_odds_are_the_engines():
    before, after = lesson()
    for v in (before.view(0), after.view(0)):
        post = posterior(v, 1, lambda hand: Fraction(1, 2))  # the random bot: 1/2, any hand
        assert post.evidence == Fraction(1, 2)
        for kind in ("Ba", "Pa", 3, "Ce5", (0, 0)):
            prior, after_all = post.deck_top(kind)
            assert prior == after_all == draw_odds(v, kind, 1).at_least_one
            assert post.holds(kind)[0] == post.holds(kind)[1]
    # Ba3 is known to be in player 2's hand after the take: the engine leaves it out, so the
    # take alone does not move its odds.
    assert draw_odds(after.view(0), "Ba", 1).at_least_one == Fraction(6, 33)
    assert draw_odds(before.view(0), "Ba", 1).at_least_one == Fraction(6, 33)
    assert after.view(0).known_in_hand[1] == (card("Ba3"),)


def test_the_random_bot_takes_a_pile_top_half_the_time():
    before, _ = lesson()
    assert [a.source for a in before.legal_actions()] == [DECK, 0]
    rng, bot = np.random.default_rng(3), RandomBot()
    takes = sum(bot.choose(before, rng).source == 0 for _ in range(2000))
    assert abs(takes / 2000 - 0.5) < 4.5 * sqrt(0.25 / 2000)


def test_known_hand_cards_go_to_the_likelihood():
    _, after = lesson()
    v = after.view(0)  # player 2 holds Ba3 (known) and 4 unknown cards
    seen = []
    posterior(v, 1, lambda hand: seen.append(hand) or 1)
    assert all(card("Ba3") in hand and len(hand) == 5 for hand in seen)
    assert len(seen) == len(hand_prior(v, 1))


@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 40), st.integers(9, 12))
def test_posteriors_add_up(seed, round_):
    states = [s for s in greedy_game(seed).states
              if not s.is_over and not s.is_chance and s.phase == "draw" and s.player == 1
              and s.round >= round_ and not s.known_in_hand_or_coops[1]]
    if not states:
        return
    v = states[0].view(0)
    prior = hand_prior(v, 1)
    assert sum(p for _, p in prior) == 1
    taken = Fraction(0)
    for src in [p for p, pile in enumerate(states[0].discards)
                if states[0].pile_problem(p) is None]:
        like = greedy_takes(v, 1, src)
        chance = sum((p for h, p in prior if like(tuple(sorted(v.known_in_hand[1] + h)))),
                     Fraction(0))
        taken += chance
        if not chance:
            continue
        post = posterior(v, 1, like)
        assert post.evidence == chance
        assert sum(post.chances(h)[2] for h in post.hands) == 1
        for kind in ("Ce", 6):
            rows = post.count_table(kind)
            assert sum(r.posterior for r in rows) == 1 == sum(r.prior for r in rows)
            if v.deck_size:  # before the evidence, the deck's odds are the engine's
                assert post.deck_top(kind)[0] == draw_odds(v, kind, 1).at_least_one
            else:
                with pytest.raises(ValueError, match="the deck is empty"):
                    post.deck_top(kind)
    assert taken <= 1


# -- bad input: ValueError, naming what is allowed ------------------------------------------------


def test_bad_input_is_refused_with_what_is_allowed():
    before, _ = lesson()
    v = before.view(0)
    with pytest.raises(ValueError, match="is the viewer"):
        hand_prior(v, 0)
    with pytest.raises(ValueError, match="seat"):
        hand_prior(v, 2)
    with pytest.raises(ValueError, match="View"):
        hand_prior(before, 1)
    with pytest.raises(ValueError, match="about to draw"):
        greedy_takes(v._replace(phase="place"), 1, 0)
    with pytest.raises(ValueError, match="cannot take from seat 1"):
        greedy_takes(v, 1, 1)
    with pytest.raises(ValueError, match="function of a hand"):
        posterior(v, 1, 0.5)
    with pytest.raises(ValueError, match="exact chance from 0 to 1"):
        posterior(v, 1, lambda hand: 0.5)
    with pytest.raises(ValueError, match="exact chance from 0 to 1"):
        posterior(v, 1, lambda hand: 2)
    with pytest.raises(ValueError, match="failed on the hand"):
        posterior(v, 1, lambda hand: 1 / 0)
    with pytest.raises(ValueError, match="chance 0"):
        posterior(v, 1, lambda hand: 0)
    with pytest.raises(ValueError, match="not a possible unknown part"):
        lesson_posterior().chances(["Ba1", "Ba2", "Ba4", "Ba4", "Ba4"])
    with pytest.raises(ValueError, match="deck is empty"):
        greedy_draw(v.barnyards[1], 5, ["Pa1"], [], deck=False)
    with pytest.raises(ValueError, match="pairs"):
        greedy_draw(v.barnyards[1], 5, ["Pa1"], ["Ba3"])
    with pytest.raises(ValueError, match="build one with posterior"):
        Posterior(v, 1, (), (), 1, (), Fraction(1))
    # Early in a 4-player game the hands are too many to list one by one.
    early = State.new(4, seed=0)
    with pytest.raises(ValueError, match=f"more than {MAX_HANDS:,}"):
        hand_prior(early.view(0), 1)


def test_cards_known_to_be_in_a_hand_or_under_coops_are_refused():
    for seed in range(1, 80):
        for s in greedy_game(seed).states:
            if not s.is_over and s.known_in_hand_or_coops[1]:
                with pytest.raises(ValueError, match="known to be in its hand or under its coops"):
                    hand_prior(s.view(0), 1)
                return
    pytest.fail("no game had a card known to be in a hand or under its coops")


@QUICK
@given(junk())
def test_only_value_error_escapes(x):
    before, _ = lesson()
    v = before.view(0)
    yard = v.barnyards[1]
    post = lesson_posterior()
    for call, args in [
        (hand_prior, (x, 1)), (hand_prior, (v, x)), (unknown_cards, (v, x)),
        (greedy_value, (x, 5, "Ba3")), (greedy_value, (yard, x, "Ba3")),
        (greedy_value, (yard, 5, x)),
        (greedy_draw, (x, 5, ["Pa1"], [(0, "Ba3")])), (greedy_draw, (yard, x, ["Pa1"], [])),
        (greedy_draw, (yard, 5, x, [(0, "Ba3")])), (greedy_draw, (yard, 5, ["Pa1"], x)),
        (greedy_draw, (yard, 5, ["Pa1"], [(0, "Ba3")], x)),
        (greedy_takes, (x, 1, 0)), (greedy_takes, (v, x, 0)), (greedy_takes, (v, 1, x)),
        (posterior, (x, 1, lambda h: 1)), (posterior, (v, x, lambda h: 1)),
        (posterior, (v, 1, x)), (posterior, (v, 1, lambda h: x)),
        (post.count_table, (x,)), (post.holds, (x,)), (post.deck_top, (x,)),
        (post.chances, (x,)),
        (Posterior, (v, 1, x, post.ways, post.everything, post.likelihoods, post.evidence)),
        (Posterior, (v, 1, post.hands, post.ways, post.everything, post.likelihoods, x)),
    ]:
        only_value_error(call, *args)
