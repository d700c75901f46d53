"""Shared helpers for the Hens tests: play seeded games and walk their states."""

from henkit.core import Game
from henkit.hens.bots import RandomBot
from henkit.hens.state import State


def random_game(players: int, seed: int) -> Game:
    """A finished game between random bots (history and states kept)."""
    g = Game(State.new(players, seed=seed), [RandomBot() for _ in range(players)], seed=seed + 1)
    g.run()
    return g


def first_state(game: Game, test):
    """The first state of a played game for which test(state) holds."""
    return next(s for s in game.states if test(s))
