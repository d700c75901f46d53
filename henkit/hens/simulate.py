"""Play many seeded Hens games between bots and collect per-game results."""

# Per-seat summaries (for both games) live in henkit.results.

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from henkit.core import Bot, Seed, make_rng
from henkit.hens.actions import DECK, Draw
from henkit.hens.rules import Rules
from henkit.hens.scoring import Score, winners
from henkit.hens.state import CHANCE_DRAW, DRAW, OVER, HensState, new_game


@dataclass(frozen=True)
class GameResult:
    """One finished game: its seed, who played, the goal card, scores and winners."""

    seed: int | None
    bots: tuple[str, ...]
    goal: int
    removed_breeds: tuple[str, ...]
    first_player: int
    totals: tuple[int, ...]
    scores: tuple[Score, ...]
    winners: tuple[int, ...]
    final: HensState

    def to_dict(self) -> dict:
        """A JSON-ready dict (without the final state; use `final.to_dict()` for that)."""
        return {
            "seed": self.seed,
            "bots": list(self.bots),
            "goal": self.goal,
            "removed_breeds": list(self.removed_breeds),
            "first_player": self.first_player,
            "totals": list(self.totals),
            "scores": [s.to_dict() for s in self.scores],
            "winners": list(self.winners),
        }


def play_to_end(state: HensState, bots: Sequence[Bot], seed: Seed = None) -> HensState:
    """Play a state to its end with bots and a seeded generator (no history kept: fast)."""
    if len(bots) != state.players:
        raise ValueError(f"{state.players} players need {state.players} bots, not {len(bots)}")
    rng = make_rng(seed)
    s = state
    # Reads the phase directly (this module belongs to the engine): the loop runs ~250 times a game.
    while s.phase != OVER:
        if s.phase == CHANCE_DRAW:
            s = s._deal(rng)  # = s.apply(s.sample_chance(rng))
            continue
        action = bots[s.player].choose(s, rng)
        if type(action) is Draw and action.source == DECK and s.phase == DRAW and s.deck:
            s = s._deal(rng)  # the deck draw and its card at once: no one sees the state between
        else:
            s = s.apply(action)
    return s


def play_game(bots: Sequence[Bot], seed: int | None = None, rules: Rules | None = None) -> GameResult:
    """Set up and play one game; the same seed (and bots) gives the same game."""
    rules = rules or Rules(players=len(bots))
    if rules.players != len(bots):
        raise ValueError(f"rules are for {rules.players} players but {len(bots)} bots were given")
    rng = make_rng(seed)
    start = new_game(rules, rng)
    end = play_to_end(start, bots, rng)
    scores = tuple(end.scores())
    return GameResult(
        seed=seed,
        bots=tuple(b.name for b in bots),
        goal=end.goal,
        removed_breeds=end.removed_breeds,
        first_player=end.first,
        totals=tuple(s.total for s in scores),
        scores=scores,
        winners=tuple(winners(end.yards, end.goal, [s.total for s in scores])),
        final=end,
    )


def simulate(
    bots: Sequence[Bot], games: int, seed: int = 0, rules: Rules | None = None
) -> list[GameResult]:
    """Play `games` games with seeds seed, seed+1, ...; bots[i] always sits in seat i."""
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, not {games!r}")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative whole number, not {seed!r}")
    return [play_game(bots, seed + i, rules) for i in range(games)]
