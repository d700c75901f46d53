"""Play many seeded Henpen games between bots and collect per-game results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from henkit.core import Bot, make_rng
from henkit.henpen.dice import sample_roll
from henkit.henpen.rules import Rules
from henkit.henpen.state import DICE, OVER, State


@dataclass(frozen=True)
class GameResult:
    """One finished game: seed, bots by seat, who started, worms, servings, winners, turns."""

    seed: int | None
    bots: tuple[str, ...]
    first_player: int
    totals: tuple[int, ...]  # worms by seat
    servings: tuple[tuple[int, ...], ...]  # each seat's stack, bottom first
    winners: tuple[int, ...]
    turns: int
    final: State

    def to_dict(self) -> dict:
        """A JSON-ready dict (without the final state; use `final.to_dict()` for that)."""
        return {
            "seed": self.seed,
            "bots": list(self.bots),
            "first_player": self.first_player,
            "totals": list(self.totals),
            "servings": [list(s) for s in self.servings],
            "winners": list(self.winners),
            "turns": self.turns,
        }


def play_to_end(state: State, bots: Sequence[Bot], seed: int | None = None) -> State:
    """Play a state to its end with bots and a seeded generator (no history kept: fast)."""
    if len(bots) != state.players:
        raise ValueError(f"{state.players} players need {state.players} bots, not {len(bots)}")
    rng = make_rng(seed)
    s = state
    # Reads the phase directly (this module belongs to the engine): the loop runs for every
    # roll and decision of the game.
    while s.phase != OVER:
        if s.phase == DICE:
            s = s._rolled(sample_roll(s.dice_left, rng))  # = s.apply(s.sample_chance(rng))
        else:
            s = s.apply(bots[s.player].choose(s, rng))
    return s


def play_game(
    bots: Sequence[Bot], seed: int | None = None, rules: Rules | None = None, first_player: int = 0
) -> GameResult:
    """Play one game from a full grill; the same seed and bots give the same game."""
    start = State.new(len(bots), rules, first_player=first_player)
    end = play_to_end(start, bots, seed)
    return GameResult(
        seed=seed,
        bots=tuple(b.name for b in bots),
        first_player=first_player,
        totals=end.scores(),
        servings=end.stacks,
        winners=tuple(end.winners()),
        turns=end.turns_played,
        final=end,
    )


def simulate(
    bots: Sequence[Bot], games: int, seed: int = 0, rules: Rules | None = None
) -> list[GameResult]:
    """Play `games` games with seeds seed, seed+1, ...; bots[i] sits in seat i, and the first
    player rotates (game k starts with seat k mod players) so no seat keeps the first move."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative whole number, not {seed!r}")
    n = len(bots)
    return [play_game(bots, seed + k, rules, first_player=k % n) for k in range(games)]
