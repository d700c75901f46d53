"""henkit.widgets.common: the bots' move loop shared by the Henpen table and the barnyard."""

from __future__ import annotations

import pytest

from henkit.widgets import common


def test_play_until_moves_once_then_until_done():
    moves = []
    common.play_until(lambda: moves.append(len(moves)), lambda: len(moves) >= 3)
    assert moves == [0, 1, 2]


def test_play_until_always_makes_the_first_move():
    moves = []
    common.play_until(lambda: moves.append(1), lambda: True)  # done already: still one move
    assert moves == [1]


def test_a_bot_that_never_finishes_is_stopped_with_a_reason(monkeypatch):
    monkeypatch.setattr(common, "MAX_BOT_MOVES", 5)
    moves = []
    with pytest.raises(ValueError, match="too many moves"):
        common.play_until(lambda: moves.append(1), lambda: False)
    assert len(moves) == 6  # the first move and five more


def test_a_refused_move_stops_the_loop():
    def move() -> None:
        raise ValueError("it is your turn")

    with pytest.raises(ValueError, match="your turn"):
        common.play_until(move, lambda: False)
