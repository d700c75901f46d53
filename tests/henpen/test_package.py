"""The henkit.henpen package: the same public names as henkit.hens, and the state's extras."""

from fractions import Fraction

import henkit.henpen
import henkit.hens
from henkit.henpen import State, make_bot, simulate


def test_package_exports_the_names_hens_exports_for_bots_games_and_views():
    shared = {"BOTS", "GreedyBot", "RandomBot", "Phase", "Rules", "State", "View", "make_bot",
              "play_game", "sample_state", "simulate"}
    assert shared <= set(henkit.hens.__all__)
    assert shared | {"ThresholdBot", "OptimalBot"} <= set(henkit.henpen.__all__)
    for name in henkit.henpen.__all__:
        assert hasattr(henkit.henpen, name), name
    assert henkit.henpen.View is State
    assert make_bot("greedy") is not None
    assert simulate is henkit.henpen.simulate


def test_returns_gives_each_seat_its_share_of_the_win():
    s = State.new(3, grill=[21, 22], stacks=[[25], [26, 23], [24, 27]])
    assert s.winners() == (2,)
    assert s.returns() == (0.0, 0.0, 1.0)
    tie = State.new(2, grill=[21], stacks=[[22], [22 + 1]])
    w = tie.winners()
    assert sum(tie.returns()) == 1
    assert all(r == Fraction(1, len(w)) for p, r in enumerate(tie.returns()) if p in w)
