"""Rules invariants over random seeded legal games (hypothesis chooses seeds and player counts)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from henkit.hens.cards import deck_cards
from henkit.hens.odds import sample_state

from .helpers import random_game

SEEDS = st.integers(min_value=0, max_value=2**31)
PLAYERS = st.sampled_from([2, 3, 4])


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_games_end_with_full_boxes_and_every_card_accounted_for(seed, players):
    g = random_game(players, seed)
    end = g.state
    assert end.is_over
    removed = tuple(sorted(["Pa", "Wy", "Se", "Ba"].index(c) for c in end.removed_breeds))
    want = Counter(deck_cards(removed))
    assert len(want) and sum(want.values()) == {4: 72, 3: 62, 2: 50}[players]
    for y in end.barnyards:
        assert len(y) == 12
        assert y.shape in ((3, 4), (4, 3))
    for s in g.states[::9] + [end]:
        # deck + hands + discards + barnyards (coops included) = the deck for this player count
        assert Counter(s.all_cards()) == want
        assert all(len(h) <= 6 for h in s.hands)
    if any(y.hen for y in end.barnyards):
        assert any(y.rooster_cell is not None for y in end.barnyards)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_views_hide_what_they_must_and_sampled_states_agree_with_them(seed, players):
    g = random_game(players, seed)
    for s in g.states[::13]:
        if s.is_over or s.is_chance:
            continue
        me = s.player
        v = s.view(me)
        assert v.hand == s.hands[me]
        assert v.deck_size == len(s.deck)
        for q in range(players):
            if q != me:
                assert all(v.barnyards[q].coop_card(c) is None
                           for c in v.barnyards[q].coop_cells_taken())
        guess = sample_state(v, seed)
        # A state built from the view alone looks the same from this seat...
        assert guess.view(me) == v
        # ...and offers the same legal moves: bots choosing from legal moves use only the view.
        assert guess.legal_actions() == s.legal_actions()
        # The unseen cards are exactly deck + opponents' hands + opponents' coops.
        hidden = Counter(s.deck)
        for q in range(players):
            if q != me:
                hidden.update(s.hands[q])
                hidden.update(s.barnyards[q].coop_card(c) for c in s.barnyards[q].coop_cells_taken())
        assert v.unseen() == hidden


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS)
def test_every_placement_obeys_the_rules_and_apply_never_mutates(seed):
    from henkit.hens.barnyard import Barnyard

    g = random_game(4, seed)
    snapshots = [s.to_dict() for s in g.states[::17]]
    for y in g.state.barnyards:
        # Re-reading the final barnyard checks: connected, in the box, every touching pair legal.
        text = str(y)
        assert Barnyard.parse(text).shape == y.shape
    assert [s.to_dict() for s in g.states[::17]] == snapshots
