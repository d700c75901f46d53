"""Actions built by hand: card codes as text mean the same card, bools are never a player."""

import pytest

from henkit.hens.actions import DECK, Discard, Draw, Place, PlaceCoop, PlaceRooster
from henkit.hens.cards import card
from henkit.hens.state import State

from .helpers import first_state, random_game


@pytest.mark.parametrize(
    ("typed", "engine"),
    [
        (Place("Pa2", (0, 1)), Place(card("Pa2"), (0, 1))),
        (Place(" pa2 ", [0, 1]), Place(card("Pa2"), (0, 1))),
        (PlaceCoop("Ce6", (1, 0)), PlaceCoop(card("Ce6"), (1, 0))),
        (Discard("Wy3"), Discard(card("Wy3"))),
        (Draw(0, "Ce1"), Draw(0, card("Ce1"))),
        (PlaceRooster([1, 2]), PlaceRooster((1, 2))),
    ],
)
def test_card_codes_make_the_same_action_as_the_engine(typed, engine):
    assert typed == engine and hash(typed) == hash(engine)
    assert repr(typed) == repr(engine) and str(typed) == str(engine)
    assert typed in {engine}


@pytest.mark.parametrize(
    "build",
    [
        lambda: Place(None, (0, 1)),
        lambda: Place("Zz9", (0, 1)),
        lambda: Place(True, (0, 1)),
        lambda: PlaceCoop(2.0, (0, 1)),
        lambda: Discard(99),
        lambda: Draw(0, ["Ce1"]),
    ],
)
def test_a_value_that_is_no_card_is_refused_when_the_action_is_built(build):
    with pytest.raises(ValueError, match="not a card|out of range"):
        build()


def test_typed_codes_play_like_the_engine_actions_in_every_phase():
    g = random_game(3, seed=4)
    checked = set()
    for before, step, after in zip(g.states, g.history, g.states[1:], strict=False):
        a = step.action
        if type(a) in (Place, PlaceCoop):
            typed = type(a)(str(a.card), list(a.cell))
        elif type(a) is Discard:
            typed = Discard(str(a.card))
        elif type(a) is Draw and a.source != DECK:
            typed = Draw(a.source, str(a.card))
        else:
            continue
        assert before.apply(typed) == after
        checked.add(type(a))
    assert checked == {Place, PlaceCoop, Discard, Draw}


def test_a_bool_is_never_a_player():
    g = random_game(2, seed=5)
    s = first_state(g, lambda st: st.phase == "draw" and st.round > 1 and st.player == 0
                    and st.discards[1])
    top = s.discards[1][-1]
    assert s.apply(Draw(1, top)) is not None  # seat 1's pile (player 2's) may be drawn from ...
    before = s.to_dict()
    with pytest.raises(ValueError, match=r"True is not a player: .* the seat index of the player "
                                         r"whose pile it is \(0 is player 1\)"):
        s.apply(Draw(True, top))  # ... but True is not seat 1 (refused as the Draw is built)
    with pytest.raises(ValueError, match="False is not a player"):
        s.apply(Draw(False))
    assert s.to_dict() == before
    with pytest.raises(ValueError, match="player must be"):
        State.new(2, seed=1).view(True)
