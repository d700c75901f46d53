"""The fast paths agree with the plain rules: they change speed, never a move or a score."""

import copy
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.core import make_rng
from henkit.hens.actions import DECK, Draw
from henkit.hens.barnyard import HIDDEN, STRIDE, Barnyard, bit, bits_of, components, spread
from henkit.hens.bots import make_bot
from henkit.hens.inference import (
    Posterior,
    _tops,
    greedy_draw,
    greedy_takes,
    hand_prior,
    posterior,
)
from henkit.hens.scoring import group_sizes, shape_facts, tiebreak_key, winners
from henkit.hens.state import randbelow

from .helpers import random_game
from .test_inference_fast import positions, reference_prior

SEEDS = st.integers(min_value=0, max_value=2**31)
PLAYERS = st.sampled_from([2, 3, 4])


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_the_random_bot_is_a_uniform_pick_from_the_legal_list(seed, players):
    g = random_game(players, seed)
    bot = make_bot("random")
    for i, s in enumerate(g.states):
        if s.is_over or s.is_chance:
            continue
        rng = make_rng(seed + i)
        twin = copy.deepcopy(rng)
        legal = s.legal_actions()
        moves = s.legal_moves()  # the lazy sequence the random bot indexes
        assert len(moves) == len(legal) and list(moves) == legal
        # The same draw from the same stream picks the same move, and uses the stream alike.
        assert bot.choose(s, rng) == legal[randbelow(twin, len(legal))]
        assert rng.bit_generator.random_raw() == twin.bit_generator.random_raw()


def test_the_random_bot_has_no_move_once_the_game_is_over():
    end = random_game(2, 0).state
    with pytest.raises(ValueError, match="no player decides in the over phase"):
        make_bot("random").choose(end, make_rng(0))


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_group_sizes_match_the_groups_found_cell_by_cell(seed, players):
    g = random_game(players, seed)
    for s in g.states[::17] + [g.state]:
        for y in s.barnyards:
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
        for y in s.barnyards:
            if not y.n:
                continue
            rows = shape_facts(y.hen, y.coop, y.e2, y.e3, 4)[0]
            cols = shape_facts(y.hen, y.coop, y.e2, y.e3, 5)[1]
            assert rows == _full_lines_by_hand(y, 1, rows=True)
            assert cols == _full_lines_by_hand(y, 2, rows=False)


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_a_deck_draw_uses_the_generator_once_as_the_old_fast_deal(seed, players):
    # The game loop applies sample_chance(rng) at every chance node: one randbelow over the
    # deck, the card at that place, exactly as the old one-step deal consumed the stream.
    g = random_game(players, seed)
    for i, s in enumerate(g.states):
        if not s.is_chance:
            continue
        rng = make_rng(seed + i)
        twin = copy.deepcopy(rng)
        k = s.sample_chance(rng)
        assert k == s.deck[randbelow(twin, len(s.deck))]
        assert rng.bit_generator.random_raw() == twin.bit_generator.random_raw()
        after = s.apply(k)
        assert len(after.deck) == len(s.deck) - 1 and after.hands[s.player].count(k) == \
            s.hands[s.player].count(k) + 1


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_hen_and_open_masks_are_the_placement_rules(seed, players):
    # Barnyard.hen_mask / open_mask (bit operations) against placement_problem (the rules
    # written cell by cell): the same cells for every card, as a hen and as a coop.
    from henkit.hens.barnyard import CELL_OF, VALID_CELLS, placement_problem
    from henkit.hens.cards import CARDS

    g = random_game(players, seed)
    for s in g.states[::9] + [g.state]:
        for y in s.barnyards:
            # The masks take the hens of a breed or number away from all hens with ^: they
            # hold hens only (and every hen is in one breed's and one number's mask).
            assert sum(y.breeds) == sum(y.nums) == y.hen
            coop_cells = {c for c in VALID_CELLS if placement_problem(y, CARDS[0], c, True) is None}
            assert {CELL_OF[i] for i in bits_of(y.open_mask())} == coop_cells
            assert y.coop_cells() == sorted(coop_cells, key=bit)  # lowest bit first
            masks = y.hen_masks(CARDS)  # every card at once (the place phase's form)
            for k in CARDS:
                hen_cells = {c for c in VALID_CELLS if placement_problem(y, k, c) is None}
                assert {CELL_OF[i] for i in bits_of(y.hen_mask(k))} == hen_cells
                assert y.hen_cells(k) == sorted(hen_cells, key=bit)
                assert masks[k] == y.hen_mask(k)


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_draw_moves_are_the_draw_rule(seed, players):
    # The draw phase's moves (the table `_PILE_SOURCES`, empty piles dropped as the
    # moves are built) against `pile_problem` asked seat by seat: the deck while it holds cards,
    # then every seat whose pile the rule allows, each Draw naming that pile's top card.
    games = (random_game(players, seed + k) for k in range(6))
    draws = []
    for g in games:  # the next game too when no pile was empty after round 1 (about 3 % of
        # 2-player games), so that the check below meets an empty pile
        draws += [s for s in g.states if s.phase == "draw"]
        if any(() in s.discards and s.round > 1 for s in draws):
            break
    assert any(len(s.draw_sources()) > 1 for s in draws)  # piles were drawable at times
    assert any(() in s.discards and s.round > 1 for s in draws)  # and some pile was empty
    for s in draws:
        seats = [q for q in range(players) if s.pile_problem(q) is None]
        sources = ([DECK] if s.deck else []) + seats
        assert s.draw_sources() == sources
        want = [Draw(DECK) if q == DECK else Draw(q, s.discards[q][-1]) for q in sources]
        assert s.legal_moves() == want and s.legal_actions() == want


def test_the_draw_sources_table_is_the_pile_rule():
    # Every entry of the table against `pile_problem` of a one-card pile, asked seat by seat
    # (its players, seat, first round or not, deck empty or not).
    from henkit.hens.state import _PILE_SOURCES, pile_problem

    for players in (2, 3, 4):
        for player in range(players):
            for first in (False, True):
                for deck in (False, True):
                    seats = [q for q in range(players)
                             if pile_problem(q, player, players, 1 if first else 2, 1) is None]
                    assert _PILE_SOURCES[players][player][first][deck] == tuple(
                        [DECK] * deck + seats)
                    assert (player in seats, bool(seats)) == (False, not first)


def test_the_discard_table_is_the_discard_rule():
    from henkit.hens.state import _MUST_DISCARD, must_discard

    assert _MUST_DISCARD == tuple(must_discard(held) for held in range(len(_MUST_DISCARD)))
    assert len(_MUST_DISCARD) > 12 * 6  # every hand size up to the whole deck


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_a_pile_draw_is_allowed_exactly_when_the_pile_rule_allows_it(seed, players):
    # `apply` checks a pile draw against the table of `pile_problem` first: every seat, at
    # every draw of a game, is refused with the rule's own words exactly when the rule says no.
    g = random_game(players, seed)
    for s in [s for s in g.states if s.phase == "draw"][::3]:
        for q in range(DECK, players + 1):  # the deck, every seat, and a seat too many
            why = s.pile_problem(q) if q != DECK else None
            move = Draw(q, s.discards[q][-1] if why is None and q != DECK else None)
            try:
                s.apply(move)
            except ValueError as e:
                assert why is not None and str(e) == why or q == DECK and not s.deck
            else:
                assert why is None and (q != DECK or s.deck)


@settings(max_examples=200, deadline=None)
@given(m=st.integers(min_value=0, max_value=2**60))
def test_spread_is_the_four_shifts(m):
    # `spread` (and its inlined copies in the masks and the flood fill) shifts twice, not four
    # times: the same cells as one cell left, right, up and down.
    assert spread(m) == m << 1 | m >> 1 | m << STRIDE | m >> STRIDE
    # The flood fill's groups: every cell of m once, each group joined by sides and touching
    # no other group.
    groups = list(components(m))
    assert sum(groups) == m and all(g & spread(h) == 0 for g in groups for h in groups
                                    if g != h)


@settings(max_examples=200, deadline=None)
@given(m=st.integers(min_value=0, max_value=2**60))
def test_bit_list_is_bits_of(m):
    # bit_list reads a grid mask a row (byte) at a time from a table; bits_of a bit at a time.
    from henkit.hens.barnyard import bit_list

    assert bit_list(m) == tuple(bits_of(m))


def test_known_cards_follow_the_public_moves():
    # Taken from a pile: known; placed or discarded: one copy less; a coop: one copy of each
    # known kind forgotten (the coop may hide any card).
    from henkit.hens.cards import card
    from henkit.hens.state import known_after_coop, known_after_draw, known_after_seen

    pa1, wy3 = card("Pa1"), card("Wy3")
    assert known_after_draw((wy3,), pa1) == (pa1, wy3)
    assert known_after_seen((pa1, pa1, wy3), pa1) == (pa1, wy3)
    assert known_after_seen((wy3,), pa1) == (wy3,)
    assert known_after_coop((pa1, pa1, wy3)) == (pa1,)
    g = random_game(4, seed=3)
    for before, step, after in zip(g.states, g.history, g.states[1:], strict=False):
        if isinstance(step.action, Draw) and step.action.source != DECK:
            assert step.action.card in after.known_in_hand[before.player]
        for q in range(4):
            assert not Counter(after.known_in_hand[q]) - Counter(after.hands[q])


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_current_player_follows_the_phase_and_the_player(seed, players):
    # current_player is kept as an attribute (the game loop reads it at every move): it is
    # always what the phase and the player say, on played states and on rebuilt ones.
    from henkit.core import CHANCE, TERMINAL
    from henkit.hens.state import State

    g = random_game(players, seed)
    for s in g.states:
        want = CHANCE if s.is_chance else TERMINAL if s.is_over else s.player
        assert s.current_player == want
    for s in g.states[::23]:
        assert State.from_dict(s.to_dict()).current_player == s.current_player


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_scores_and_winners_of_a_state_are_the_scorers(seed, players):
    # scores() and winners() share a functools cache of the totals: the same answers as the
    # scoring functions called afresh.
    from henkit.hens.scoring import total, winners

    g = random_game(players, seed)
    for s in g.states[::31] + [g.state]:
        assert s.scores() == tuple(total(y, s.goal) for y in s.barnyards)
        assert s.winners() == tuple(winners(s.barnyards, s.goal))


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_winners_are_the_largest_tiebreak_keys(seed, players):
    # `winners` works out the rest of the H15 keys (group sizes, medals) only for the players
    # tied on the most points: the same players as the largest of everyone's `tiebreak_key`.
    g = random_game(players, seed)
    for s in g.states[::17] + [g.state]:
        yards = list(s.barnyards)
        # A barnyard twice ties on every key; early states tie on points with different groups.
        for group in (yards, [*yards, yards[0]], [yards[-1], *yards]):
            keys = [tiebreak_key(y, s.goal) for y in group]
            plain = [i for i, k in enumerate(keys) if k == max(keys)]
            assert winners(group, s.goal) == plain
            assert winners(group, s.goal, [k[0] for k in keys]) == plain


# -- Bayes with cards: the posterior's fast paths -------------------------------------------------


def _bayes_positions():
    """(view, seat, source) of first draws in two seeded games where a pile may be taken and
    the prior is small enough to recount by hand."""
    return positions(2, 0, 2) + positions(3, 1, 1)


def _reference_posterior(view, seat, likelihood):
    """Bayes' rule written out: every hand's prior (by brute force, not by the kit's lister),
    its likelihood as a Fraction, their sum."""
    known = view.known_in_hand[seat]
    rows = [(hand, prior, Fraction(likelihood(tuple(sorted(known + hand)))))
            for hand, prior in reference_prior(view, seat)]
    return rows, sum(prior * like for _, prior, like in rows)


def test_the_greedy_likelihood_is_the_greedy_draw_rule_for_every_hand():
    # greedy_takes remembers each card's score and the pick per best score; greedy_draw works
    # each hand out from the barnyard: they agree on every possible hand.
    checked = 0
    for v, q, source in _bayes_positions():
        like = greedy_takes(v, q, source)
        tops = _tops(v, q)
        yard, known = v.barnyards[q], v.known_in_hand[q]
        for hand, _ in hand_prior(v, q)[::13]:
            whole = tuple(sorted(known + hand))
            pick = greedy_draw(yard, v.goal, whole, tops, bool(v.deck_size))
            assert like(whole) == int(pick == source)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("shape", ["greedy", "bools", "ints", "fractions", "mixed"])
def test_the_posterior_is_bayes_rule_written_out(shape):
    for v, q, source in _bayes_positions():
        if shape == "greedy":
            likelihood = greedy_takes(v, q, source)
        else:
            def likelihood(hand, shape=shape):
                h = sum((i + 3) * c for i, c in enumerate(hand)) % 5
                if shape == "bools":
                    return h < 3
                if shape == "ints":
                    return int(h >= 2)
                if shape == "fractions":
                    return Fraction(h, 4) if h < 5 else 1
                # True, 1 and Fraction(1) are one chance; so are 0, False and Fraction(0).
                return (True, 1, Fraction(1), 0, False)[h] if h != 2 else Fraction(2, 6)

        rows, evidence = _reference_posterior(v, q, likelihood)
        if not evidence:
            with pytest.raises(ValueError, match="chance 0"):
                posterior(v, q, likelihood)
            continue
        p = posterior(v, q, likelihood)
        assert p.evidence == evidence
        assert p.hands == tuple(h for h, _, _ in rows)
        assert [Fraction(n, p.everything) for n in p.ways] == [prior for _, prior, _ in rows]
        assert p.likelihoods == tuple(like for _, _, like in rows)
        assert {type(like) for like in p.likelihoods} == {Fraction}
        # The arrays the counts use are those a Posterior built by hand (no hint) works out.
        plain = Posterior(p.view, p.seat, p.hands, p.ways, p.everything, p.likelihoods,
                          p.evidence)
        assert "_made" not in plain.__dict__
        fast, slow = p._table, plain._table
        assert fast[3] == slow[3]
        for a, b in zip(fast[:3], slow[:3], strict=True):
            assert a.dtype == b.dtype and a.tolist() == b.tolist()


def test_a_bad_likelihood_is_named_at_its_first_hand():
    v, q, _ = _bayes_positions()[0]
    hands = [h for h, _ in hand_prior(v, q)]
    for bad in (1.0, 2, -1, "1", None, [1]):
        def likelihood(hand, bad=bad):
            return 1 if hand != hands[3] else bad  # 1 first, so 1.0 cannot pass as it

        with pytest.raises(ValueError, match="a likelihood must be an exact chance") as e:
            posterior(v, q, likelihood)
        assert ", ".join(map(str, hands[3])) in str(e.value)


# -- sampled states: the barnyard copies and the deal ---------------------------------------------


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_a_barnyard_copy_holds_every_slot(seed, players):
    # Barnyard._copy assigns slot by slot: a slot added later and not copied would be missing.
    g = random_game(players, seed)
    for s in g.states[::13] + [g.state]:
        for yard in s.barnyards:
            for y in (yard, yard.hidden()):
                new = y._copy()
                assert new is not y and new == y
                for name in Barnyard.__slots__:
                    want = None if name == "_hidden" else getattr(y, name)
                    assert getattr(new, name) == want, name


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_coop_cards_fill_the_hidden_coops_top_row_first(seed, players):
    g = random_game(players, seed)
    filled = 0
    for s in g.states[::5] + [g.state]:
        for y in s.barnyards:
            shown = y.hidden()  # as opponents see it: every coop face down, card unknown
            cells = [c for c in shown.coop_cells_taken() if shown.grid[bit(c)] == HIDDEN]
            cards = [y.coop_card(c) for c in cells]  # coop_cells_taken lists top row first
            assert shown.with_coop_cards(cards) == y
            assert shown.with_coop_cards(tuple(map(str, cards))) == y  # codes are cards too
            assert shown.hidden_coops() == len(cells)
            filled += bool(cells)
            for wrong in (cards + cards[:1], cards[1:], None):
                if wrong is not None and len(wrong) == len(cells):
                    continue
                with pytest.raises(ValueError, match=f"give one card for each of the "
                                                     f"{len(cells)} coops of unknown card"):
                    shown.with_coop_cards(wrong)
    assert filled


def test_sampled_states_and_their_draws_are_the_same_for_a_seed():
    # Every speed-up of sample_state and of the moves after it keeps the random stream and
    # each result: a digest of seeded samples (views with hidden coops among them) and the
    # deck draws after them, taken before those speed-ups.
    import hashlib

    from henkit.hens.odds import sample_state

    h, coops, held = hashlib.sha256(), 0, 0
    for players in (2, 3, 4):
        g = random_game(players, players)
        rng = make_rng(2024 + players)
        for s in g.states[::9]:
            if s.is_over:
                continue
            v = s.view(s.player if not s.is_chance else (s.player + 1) % players)
            coops += sum(v.hidden_coops())
            held += sum(bool(v.known_in_hand_or_coops[q]) for q in range(players) if q != v.player)
            for _ in range(3):
                w = sample_state(v, rng)
                if w.phase == "draw" and w.deck:
                    w = w.apply(Draw(DECK))
                    w = w.apply(w.sample_chance(rng))
                h.update(w.to_json().encode())
    assert coops and held  # some deals fill coops, some place cards known to be held
    assert h.hexdigest() == "66b5eed15fc926146dfd4436f909c7468d942ffe06e3dd96a2ef0dc3fc922511"


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, n=st.integers(0, 72))
def test_shuffling_a_list_is_reading_it_through_a_permutation(seed, n):
    # The deal shuffles its list of cards in place instead of reading it through
    # rng.permutation: the same order, and the stream left in the same place.
    cards = [f"card {i}" for i in range(n)]
    rng, twin = make_rng(seed), make_rng(seed)
    shuffled = cards.copy()
    rng.shuffle(shuffled)
    assert shuffled == [cards[i] for i in twin.permutation(n).tolist()]
    assert rng.bit_generator.random_raw() == twin.bit_generator.random_raw()
