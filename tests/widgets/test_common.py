"""henkit.widgets.common: the bots' move loop shared by the Henpen table and the barnyard."""

from __future__ import annotations

import pytest

from henkit.core import CHANCE, Game
from henkit.henpen import State as HenpenState
from henkit.widgets import common


class Counting:
    """A bot that counts its moves and always plays its first legal action."""

    name = "counting"

    def __init__(self) -> None:
        self.moves = 0

    def choose(self, state, rng):
        self.moves += 1
        return state.legal_actions()[0]


def henpen_game(bots, seed=1) -> Game:
    return Game(HenpenState.new(len(bots)), bots, seed)


def test_bot_move_is_the_bots_choice_and_the_dice_it_rolls():
    game = henpen_game([Counting(), None])
    common.bot_move(game)  # the bot rolls: its Roll, then the dice land at once
    assert [s.player for s in game.history] == [0, CHANCE]
    assert not game.state.is_chance
    common.bot_move(game)  # the bot takes a face: one move, no chance follows
    assert [s.player for s in game.history] == [0, CHANCE, 0]


def test_bot_move_is_what_two_steps_were():
    # The widgets once called game.step() and, at a chance node, game.step() again.
    a, b = henpen_game([Counting(), Counting()], 4), henpen_game([Counting(), Counting()], 4)
    for _ in range(30):
        if a.state.is_over:
            break
        common.bot_move(a)
        b.step()
        if b.state.is_chance:
            b.step()
        assert a.history == b.history and a.state == b.state


def test_bots_play_until_a_human_is_to_move_or_the_game_ends():
    game = henpen_game([None, Counting()])
    common.bots_play(game)  # nothing to do: the human moves first
    assert game.history == []
    everyone = henpen_game([Counting(), Counting()])
    common.bots_play(everyone)
    assert everyone.state.is_over


def test_a_bot_that_never_finishes_is_stopped_with_a_reason(monkeypatch):
    monkeypatch.setattr(common, "MAX_BOT_MOVES", 5)
    game = henpen_game([Counting(), Counting()])
    with pytest.raises(ValueError, match="too many moves"):
        common.bots_play(game)
    assert len(game.history) == 5


def test_a_refused_move_stops_the_loop_and_keeps_the_moves_made():
    class Refusing(Counting):
        def choose(self, state, rng):
            if self.moves == 2:
                raise ValueError("no move")
            return super().choose(state, rng)

    game = henpen_game([Refusing(), Refusing()])
    with pytest.raises(ValueError, match="no move"):
        common.bots_play(game)
    assert game.history and game.states[-1] is game.state


@pytest.mark.parametrize("widget", ["table", "barnyard"])
def test_the_widgets_drive_bots_through_game_advance(monkeypatch, widget):
    # One loop plays bots: the widgets' bot buttons never call Game.step themselves.
    from henkit.widgets.barnyard import BarnyardGame
    from henkit.widgets.henpen_table import HenpenTable

    w = (HenpenTable(["greedy"], seed=3, human=1, show_chart=False) if widget == "table"
         else BarnyardGame(["greedy"], seed=2, human=1, show_chart=False))
    if w.game.waiting_for_human:
        pytest.skip("the human starts this seed")  # pragma: no cover

    def no_step(self):
        raise AssertionError("a widget stepped the game itself")

    monkeypatch.setattr(Game, "step", no_step)
    w.next_move()
    assert len(w.game.history) >= 1
    w.play_bots()
    assert w.game.waiting_for_human or w.state.is_over
    assert "Not allowed" not in common.status_text(w.status)


def test_a_game_log_scrolls_by_keyboard_and_is_named_for_screen_readers():
    html = common.log_html(["Player 2 <bot> rolled", "You took the 3s"])
    # axe-core's scrollable-region-focusable: a box that scrolls takes the keyboard focus.
    assert html.startswith("<div role='region' aria-label='What happened, newest first' "
                           "tabindex='0' style='max-height:16em;overflow-y:auto'>")
    assert "<li>Player 2 &lt;bot&gt; rolled</li><li>You took the 3s</li>" in html
    with pytest.raises(ValueError, match="list of lines"):
        common.log_html("one line")
    with pytest.raises(ValueError, match="name for screen readers"):
        common.log_html([], label="")
