"""The bots' fast paths score and decide exactly as the plain rules do.

The greedy and lookahead bots score trial placements incrementally (`Evaluator`, `ShapeAfter`,
memoised totals) and skip work that cannot change a decision; each test here checks one of those
paths against the full computation (`scoring.total` on the barnyard after the placement, the
whole-box shape formulas, the full deck expectation) on positions from seeded games.
"""

import copy
import random
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.core import Game, make_rng
from henkit.hens.actions import DECK, DRAW_DECK, Discard, Draw, Place, PlaceCoop, PlaceRooster
from henkit.hens.barnyard import BIT_OF, CELL_OF, bits_of
from henkit.hens.bots import _KIND, Evaluator, GreedyBot, LookaheadBot, RandomBot
from henkit.hens.cards import CARDS, NUM_KINDS, deck_counts
from henkit.hens.odds import sample_state
from henkit.hens.scoring import (
    ShapeAfter,
    breed_stats,
    combine,
    fast_total,
    joined_total,
    shape_facts,
    total,
)
from henkit.hens.state import State

SEEDS = st.integers(min_value=0, max_value=2**31)
PLAYERS = st.sampled_from([2, 3, 4])
GOALS = (None, 1, 2, 3, 4, 5, 6)


def _game(players: int, seed: int, greedy: bool = True) -> Game:
    """A finished game with every state kept: greedy bots build realistic groups, and a random
    bot in seat 1 places coops and odd shapes."""
    bots = [GreedyBot() if greedy and p != 1 else RandomBot() for p in range(players)]
    g = Game(State.new(players, seed=seed), bots, seed=seed + 1)
    g.run()
    return g


def _yards(g: Game, step: int):
    """Barnyards (with the game's goal) from every `step`-th state, the last one included."""
    for s in g.states[::step] + [g.state]:
        for y in s.barnyards:
            yield y, s.goal


def _first_best(values):
    """(best value, its cell bit) over (value, bit) pairs in bit order: ties go to the lowest bit;
    (None, -1) when there are none."""
    best, where = None, -1
    for v, i in values:
        if best is None or v > best:
            best, where = v, i
    return best, where


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_shape_after_is_shape_facts_with_the_hen_added(seed, players):
    checked = 0
    for y, _ in _yards(_game(players, seed), 5):
        for goal in GOALS:
            after = ShapeAfter(y.hen, y.coop, y.e2, y.e3, goal)
            for i in bits_of(y.open_mask()):
                b = 1 << i
                for eggs in (1, 2, 3):
                    want = shape_facts(y.hen | b, y.coop, y.e2 | b if eggs >= 2 else y.e2,
                                       y.e3 | b if eggs >= 3 else y.e3, goal)
                    assert after(i, eggs) == want, (str(y), goal, CELL_OF[i], eggs)
                    checked += 1
    assert checked


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_evaluator_scores_every_placement_as_the_full_scorer(seed, players):
    g = _game(players, seed)
    order = random.Random(seed)
    for y, game_goal in _yards(g, 13):
        goal = order.choice([game_goal, order.choice(GOALS[1:])])
        ev = Evaluator(y, goal)
        assert ev.now == total(y, goal)
        kinds = list(range(NUM_KINDS))
        order.shuffle(kinds)  # the caches fill in a different order each time
        for k in kinds:
            cells = list(bits_of(y.hen_mask(k)))
            want = [(total(y.place(k, CELL_OF[i]), goal), i) for i in cells]
            if order.random() < 0.5:
                assert ev.hen(k) == _first_best(want)
            for v, i in want:
                assert ev.hen_total(_KIND[k], i) == v
            assert ev.hen(k) == _first_best(want)
        coops = [(total(y.place(CARDS[0], CELL_OF[i], coop=True), goal), i)
                 for i in bits_of(y.open_mask())]
        for v, i in coops:
            assert ev.coop_total(i) == v
        assert ev.coop() == _first_best(coops)


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_the_evaluator_after_a_placement_answers_as_a_fresh_one(seed, players):
    g = _game(players, seed)
    order = random.Random(seed)
    for y, goal in _yards(g, 17):
        if len(y) == 12:
            continue
        ev = Evaluator(y, goal)
        k = order.randrange(NUM_KINDS)
        hens = list(bits_of(y.hen_mask(k)))
        coop = not hens or order.random() < 0.3
        i = order.choice(list(bits_of(y.open_mask())) if coop else hens)
        if order.random() < 0.5:
            ev.hen(order.randrange(NUM_KINDS))  # some of what the parent knows, or nothing
        after = ev.after(k, i, coop)
        fresh = Evaluator(y._put(k, i, coop), goal)
        assert after.yard == fresh.yard == y.place(k, CELL_OF[i], coop)
        assert after.now == fresh.now == total(after.yard, goal)
        assert after.all == fresh.all
        for k2 in range(NUM_KINDS):
            assert after.hen(k2) == fresh.hen(k2)
            assert after.best_one(k2) == fresh.best_one(k2)
        assert after.coop() == fresh.coop()


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_joined_totals_are_the_totals_of_the_combined_statistics(seed, players):
    for y, goal in _yards(_game(players, seed), 7):
        per = [breed_stats(m, y.e2, y.e3, 0) for m in y.breeds if m]
        for a in per:
            for b in per:
                for coops, medals in ((0, 0), (y.coops, y.medals), (2, 7)):
                    shape = shape_facts(y.hen, y.coop, y.e2, y.e3, goal)
                    want = fast_total(combine(a, b), coops, medals, shape, goal)
                    assert joined_total(a, b, coops, medals, shape, goal) == want
                    assert joined_total(a, b, coops, medals, shape, goal) == want  # memoised


# -- the greedy bot against its definition, computed the plain way ----------------------------


def _hen_value(yard, goal, k):
    """(best total placing card k as a hen, its cell bit): every legal cell scored in full."""
    return _first_best((total(yard.place(k, c), goal), BIT_OF[c]) for c in yard.hen_cells(k))


def _coop_value(yard, goal):
    return _first_best((total(yard.place(CARDS[0], c, coop=True), goal), BIT_OF[c])
                       for c in yard.coop_cells())


def _best_of(yard, goal, cards):
    """The best total one of `cards` reaches; a coop only when no hen reaches now - 1."""
    now = total(yard, goal)
    values = [v for v, _ in (_hen_value(yard, goal, k) for k in cards) if v is not None]
    best = max(values) if values else None
    if best is None or best < now - 1:
        c = _coop_value(yard, goal)[0]
        if c is not None and (best is None or c > best):
            best = c
    return now if best is None else best


def _worst(yard, goal, hand):
    """The card scoring least now (unplaceable lowest); ties go to the higher card."""
    def value(k):
        v = _hen_value(yard, goal, k)[0]
        return -10**6 if v is None else v
    return min(hand, key=lambda k: (value(k), -k))


def _plain_greedy(state):
    """The greedy bot's documented choice, with every score worked out by `scoring.total`."""
    p, goal = state.player, state.goal
    yard, hand = state.barnyards[p], sorted(set(state.hands[p]))
    phase = state.phase
    if phase == "rooster":
        if not yard.hen:
            return PlaceRooster(None)
        return PlaceRooster(CELL_OF[_first_best(
            (total(yard.with_rooster(CELL_OF[i]), goal), i) for i in bits_of(yard.hen))[1]])
    if phase == "draw":
        best, pick = _best_of(yard, goal, hand), None
        for a in state.legal_actions():
            if a.source != DECK and _best_of(yard, goal, [a.card]) > best:
                best, pick = _best_of(yard, goal, [a.card]), a
        return pick if pick is not None else state.legal_actions()[0]
    if phase == "discard":
        return Discard(CARDS[_worst(yard, goal, hand)])
    best, choice = None, None
    for k in hand:
        v, i = _hen_value(yard, goal, k)
        if v is not None and (best is None or v > best):
            best, choice = v, Place(CARDS[k], CELL_OF[i])
    if best is None or best < total(yard, goal) - 1:
        v, i = _coop_value(yard, goal)
        if v is not None and (best is None or v > best):
            return PlaceCoop(CARDS[_worst(yard, goal, hand)], CELL_OF[i])
    return choice


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_the_greedy_bot_decides_as_its_plain_definition(seed, players):
    g = _game(players, seed)
    bots = [GreedyBot() for _ in range(players)]  # one per seat, reused: its caches in play
    phases = Counter()
    for s in g.states:
        if s.is_over or s.is_chance:
            continue
        assert bots[s.player].choose(s, make_rng(0)) == _plain_greedy(s), str(s)
        phases[s.phase] += 1
    assert phases["place"] and phases["discard"] and phases["draw"] and phases["rooster"]


@settings(max_examples=5, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_bots_decide_from_what_their_view_shows(seed, players):
    # A state resampled from the mover's view (other hands, coops and the deck dealt afresh)
    # gets the same move, with the same generator: the bot reads nothing hidden.
    g = _game(players, seed)
    for j, s in enumerate(g.states):
        if s.is_over or s.is_chance:
            continue
        twin = sample_state(s.view(s.player), seed=j)
        for bot in (GreedyBot, LookaheadBot):
            assert bot().choose(s, make_rng(j)) == bot().choose(twin, make_rng(j))


# -- the lookahead bot's shortcuts -------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, size=st.integers(min_value=0, max_value=60), samples=st.sampled_from([1, 12]))
def test_lookahead_samples_use_the_generator_as_choosing_from_the_pool_itself(seed, size,
                                                                             samples):
    pool = sorted(random.Random(seed).choices(range(NUM_KINDS), k=size))
    rng = make_rng(seed)
    twin = copy.deepcopy(rng)
    got = LookaheadBot(samples=samples)._samples(pool, rng)
    if not pool:
        want = [()]
    else:
        array = np.array(pool, dtype=np.int64)
        want = [tuple(int(x) for x in twin.choice(array, size=min(2, size), replace=False))
                for _ in range(samples)]
    assert got == want
    assert rng.bit_generator.random_raw() == twin.bit_generator.random_raw()


def _draw_in_full(state, ev, hand, unseen):
    """The lookahead's draw with the deck's expectation always worked out."""
    mine = ev.best_of(hand)
    options = {}
    for a in state.legal_actions():
        if a.source == DECK:
            n = sum(unseen.values())
            options[a] = sum(c * max(mine, ev.best_one(k)) for k, c in unseen.items()) / n
        else:
            options[a] = max(mine, ev.best_one(a.card))
    best = max(options.values())
    return DRAW_DECK if options.get(DRAW_DECK) == best else max(options, key=options.get)


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_lookahead_draws_as_with_the_deck_expectation_always_worked_out(seed, players):
    g = _game(players, seed)
    drawn = Counter()
    for s in g.states:
        if s.phase != "draw":
            continue
        v = s.view(s.player)
        ev, hand, unseen = Evaluator(v.barnyard, v.goal), sorted(set(v.hand)), v.unseen()
        got = LookaheadBot._draw_ahead(s, ev, hand, v.unseen)
        assert got == _draw_in_full(s, Evaluator(v.barnyard, v.goal), hand, unseen)
        drawn[got == DRAW_DECK] += 1
    assert drawn[True]


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_unseen_cards_are_the_deck_less_every_card_in_view(seed, players):
    g = _game(players, seed, greedy=False)
    for s in g.states[::7]:
        for p in range(players):
            v = s.view(p)
            left = Counter({CARDS[k]: c for k, c in enumerate(deck_counts(v._removed())) if c})
            seen = list(v.hand) + [k for pile in v.discards for k in pile]
            seen += [k for y in v.barnyards for k in y.cards()]
            left.subtract(seen)
            got = v.unseen()
            assert got == +left and list(got) == list(+left)  # same cards, same order
            assert all(isinstance(k, type(CARDS[0])) for k in got)


def test_a_draw_decision_from_a_state_with_only_piles_left():
    # With the deck empty the lookahead compares pile tops only (no deck option to skip).
    g = _game(4, 0)
    late = [s for s in g.states if s.phase == "draw" and not s.deck]
    assert late
    for s in late:
        v = s.view(s.player)
        ev = Evaluator(v.barnyard, v.goal)
        got = LookaheadBot._draw_ahead(s, ev, sorted(set(v.hand)), v.unseen)
        assert isinstance(got, Draw) and got.source != DECK and got in s.legal_actions()
        assert got == _draw_in_full(s, Evaluator(v.barnyard, v.goal), sorted(set(v.hand)),
                                    v.unseen())
