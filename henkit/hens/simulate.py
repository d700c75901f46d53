"""Play many seeded Hens games between bots and collect one `GameResult` per game.

Seats and seeds follow henkit's one seating rule (`henkit.core.seating`, the arena's too):
with `rotate=True` (the default) games come in deals of one seed played once in every rotation
of the seating (the same deal and goal card for every rotation); with `rotate=False` bot i sits
in seat i and game g has seed `seed + g`. The first player is drawn from the game's seed (the
rulebook's random start). Summaries: `henkit.results.summarise` / `results_table`.
"""

from __future__ import annotations

from collections.abc import Sequence

from henkit.core import Bot, GameResult, play_series
from henkit.hens.rules import Rules
from henkit.hens.state import State

__all__ = ["GameResult", "play_game", "simulate"]


def simulate(
    bots: Sequence[Bot], games: int, seed: int = 0, rules: Rules | None = None, *,
    rotate: bool = True,
) -> list[GameResult]:
    """Play `games` seeded games between `bots` (one per seat, in bot order).

    The same bots, games, seed, rules and `rotate` give the same games, and the same games as
    `henkit.arena.run_tournament("hens", specs, games, seed, rotate=rotate)` with these bots'
    specs. Each result's `final` is the finished State (`final.score_sheets()` for the details).
    """
    return play_series(State.new, bots, games, seed, rules, rotate=rotate)


def play_game(bots: Sequence[Bot], seed: int = 0, rules: Rules | None = None) -> GameResult:
    """One game, bots[i] in seat i: game 0 of `simulate(..., rotate=False)`."""
    return play_series(State.new, bots, 1, seed, rules, rotate=False)[0]
