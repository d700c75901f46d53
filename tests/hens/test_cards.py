"""The card table against the rulebook's component list and DECISIONS H1-H4."""

from collections import Counter

import pytest

from henkit.hens.cards import BREEDS, CARDS, card, check_removed, deck_cards
from henkit.hens.state import State


def test_full_deck_has_72_cards_with_the_rulebook_breed_sizes():
    deck = deck_cards()
    assert len(deck) == 72
    per_breed = Counter(c.breed.code for c in deck)
    # "12 brown, 12 blue, 10 red, 10 purple, 8 grey, 8 yellow, 6 black, 6 green"
    assert per_breed == {"Pa": 12, "Wy": 12, "Se": 10, "Ba": 10, "Su": 8, "Fa": 8, "Ce": 6,
                         "Mo": 6}
    colours = {b.code: b.colour for b in BREEDS}
    assert colours == {"Pa": "brown", "Wy": "blue", "Se": "red", "Ba": "purple", "Su": "grey",
                       "Fa": "yellow", "Ce": "black", "Mo": "green"}


@pytest.mark.parametrize(
    ("code", "eggs", "copies", "medals"),
    [
        # Padovana/Wyandotte row of the rulebook table, with H1 (every number doubled).
        ("Pa1", 2, 2, 0), ("Pa2", 1, 2, 0), ("Wy5", 1, 2, 0), ("Wy6", 2, 2, 0),
        # Sebright/Barnevelder: 2 eggs, 2 eggs (2 copies), 1 egg (2), 1 egg (2), 2 eggs (2), 2.
        ("Se1", 2, 1, 0), ("Se2", 2, 2, 0), ("Ba3", 1, 2, 0), ("Ba5", 2, 2, 0), ("Ba6", 2, 1, 0),
        # Sultan/Faverolles: 3, 2, 1 (2), 1 (2), 2, 3 eggs; 1 medal (H3).
        ("Su1", 3, 1, 1), ("Su3", 1, 2, 1), ("Fa6", 3, 1, 1),
        # Cemani/Modern Game: 3, 2, 2, 2, 2, 3 eggs; one copy each; 2 medals.
        ("Ce1", 3, 1, 2), ("Ce4", 2, 1, 2), ("Mo6", 3, 1, 2),
    ],
)
def test_card_table_rows(code, eggs, copies, medals):
    c = card(code)
    assert c.eggs == eggs
    assert c.medals == medals
    assert Counter(deck_cards())[c] == copies


def test_card_prints_its_code_and_reads_any_case():
    assert str(card("ce6")) == "Ce6"
    assert repr(card("PA3")) == "Pa3"
    assert card("Mo2").describe() == "Modern Game 2 (green, 2 eggs, 2 medals)"
    assert len(CARDS) == 48


@pytest.mark.parametrize("bad", ["Xx3", "Pa7", "Pa0", "", "Pa", 48, -1, None])
def test_bad_card_names_say_what_a_card_is(bad):
    with pytest.raises(ValueError, match="card"):
        card(bad)


@pytest.mark.parametrize(("players", "size"), [(4, 72), (3, 62), (2, 50)])
def test_deck_for_each_player_count(players, size):
    for seed in range(5):
        s = State.new(players, seed=seed)
        assert len(s.all_cards()) == size
        removed = s.removed_breeds
        if players == 3:
            assert len(removed) == 1 and removed[0] in ("Se", "Ba")
        if players == 2:
            assert sorted(removed) in (["Pa", "Se"], ["Ba", "Pa"], ["Se", "Wy"], ["Ba", "Wy"])
        assert not any(c.breed.code in removed for c in s.all_cards())


def test_removed_breeds_must_follow_the_rulebook():
    with pytest.raises(ValueError, match="one 10-card breed"):
        check_removed(3, (0,))
    with pytest.raises(ValueError, match="no breed"):
        check_removed(4, (2,))
