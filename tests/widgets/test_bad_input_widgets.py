"""Bad input to a widget's constructor is a ValueError, and only a ValueError.

Arbitrary values (`tests/fuzz_values.junk`) go into one constructor argument at a time of
DiceTray, HenpenTable, BarnyardGame, Arena and EndgameExplorer, the others being valid; numpy
integers are integers (a seat, a seed) and numpy bools are True/False. Widgets are slow to
build, so the example counts are small; the cases the review found are spelled out as examples.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings

from henkit.henpen import State
from henkit.widgets.arena import Arena
from henkit.widgets.barnyard import BarnyardGame
from henkit.widgets.dice_tray import DiceTray
from henkit.widgets.endgame import EndgameExplorer
from henkit.widgets.henpen_table import HenpenTable

from ..fuzz_values import junk, only_value_error

FEW = settings(max_examples=12, deadline=None, derandomize=True,
               suppress_health_check=[HealthCheck.too_slow])


def build(cls: type, args: dict[str, Any], name: str, x: Any) -> Any:
    return only_value_error(cls, **{**args, name: x})


BARNYARD = {"bots": ("random",), "seed": 1, "human": 0, "rules": None, "show_chart": False,
            "pin_seed": False, "pool": False}
TABLE = {"bots": ("random",), "seed": 1, "human": 0, "rules": None, "show_advice": False,
         "show_chart": False, "pin_seed": False, "pool": False}
TRAY = {"seed": 1, "state": None, "players": 1, "rules": None, "show_advice": False,
        "show_chart": False, "game": None, "names": None, "on_move": None, "pin_seed": False,
        "pool": False}
EXPLORER = {"start": State.new(2, grill=[23], stacks=[[24], [26]]), "limit": 100}
ARENA = {"game": "henpen", "bots": ("greedy", "random"), "games": 4, "seed": 0,
         "executor": "serial", "show_chart": False, "pin_seed": False}


@pytest.mark.parametrize("name", list(BARNYARD))
@FEW
@given(x=junk())
@example(x=None)
@example(x=1.5)
@example(x=-1)
@example(x="x")
@example(x=np.int64(1))
def test_barnyard_game(name, x):
    build(BarnyardGame, BARNYARD, name, x)


@pytest.mark.parametrize("name", list(TABLE))
@FEW
@given(x=junk())
@example(x=None)
@example(x=1.5)
@example(x=-1)
@example(x="x")
@example(x=np.int64(1))
def test_henpen_table(name, x):
    build(HenpenTable, TABLE, name, x)


@pytest.mark.parametrize("name", list(TRAY))
@FEW
@given(x=junk())
@example(x=1.5)
@example(x=-1)
@example(x="x")
@example(x=np.int64(1))
def test_dice_tray(name, x):
    build(DiceTray, TRAY, name, x)


@pytest.mark.parametrize("name", list(ARENA))
@FEW
@given(x=junk())
@example(x=None)
@example(x=1.5)
@example(x=-1)
@example(x="x")
@example(x=np.int64(3))
def test_arena(name, x):
    build(Arena, ARENA, name, x)


@pytest.mark.parametrize("name", list(EXPLORER))
@FEW
@given(x=junk())
@example(x=None)
@example(x=1.5)
@example(x=-1)
@example(x="x")
def test_endgame_explorer(name, x):
    build(EndgameExplorer, EXPLORER, name, x)


def test_numpy_integers_and_bools_are_accepted():
    b = BarnyardGame(["random"], seed=np.int64(2), human=np.int64(1), show_chart=np.bool_(False))
    assert b.human == 1 and type(b.human) is int
    t = HenpenTable(["random"], seed=np.int64(2), human=np.int64(1), show_chart=np.bool_(False),
                    show_advice=np.bool_(False))
    assert t.game.bots[1] is None
    assert DiceTray(seed=np.int64(3), players=np.int64(2), show_chart=np.bool_(False)).game
    a = Arena("hens", ["greedy", "random"], games=np.int64(6), seed=np.int64(2),
              show_chart=np.bool_(False))
    assert a.games.value == 6 and a.seed.value == 2
    assert EndgameExplorer(EXPLORER["start"], limit=np.int64(14)).limit == 14


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"bots": None}, "bots"), ({"bots": 1.5}, "bots"), ({"bots": -1}, "bots"),
    ({"show_chart": "x"}, "show_chart"), ({"show_chart": 1.5}, "show_chart"),
    ({"show_chart": np.int64(1)}, "show_chart"), ({"human": 1.5}, "human"),
    ({"human": 3}, "human"), ({"seed": -1}, "seed"), ({"seed": "x"}, "seed"),
])
def test_barnyard_game_says_what_is_wrong(kwargs, words):
    with pytest.raises(ValueError, match=words):
        BarnyardGame(**{**BARNYARD, **kwargs})
