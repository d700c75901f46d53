"""Henpen bots: each has a `name` and `choose(state, rng)` returning a legal action.

The rules of thumb (which face to take, which serving to claim) are the solver's own, from
`turnspace.take_preference` and `odds.best_claim`, so a bot and the batch simulator that copy a
strategy play it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from henkit.henpen.actions import ROLL, Action, Take
from henkit.henpen.advice import _optimal_action, best_stop
from henkit.henpen.dice import FACES, WORM
from henkit.henpen.state import DECIDE, TAKE, State
from henkit.henpen.turnspace import take_preference


@dataclass
class RandomBot:
    """Picks uniformly among the legal actions: the baseline every strategy must beat."""

    name: str = "random"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """A uniformly random legal action."""
        acts = state.legal_actions()
        return acts[int(rng.integers(len(acts)))]


def most_points_face(state: State) -> int:
    """The face of the roll setting aside the most points (ties: the higher face, worm first)."""
    roll, kept = state.roll, state.kept
    if roll is None:
        raise ValueError("there is no roll to take from")
    shown = [f for f in FACES if roll[f - 1] and not kept[f - 1]]
    return min(shown, key=lambda f: take_preference(f, roll[f - 1]))


def worm_first_face(state: State) -> int:
    """Worms while none are taken, else the most points (the batch threshold policy's rule)."""
    roll = state.roll
    if roll is not None and roll[WORM - 1] and not state.has_worm:
        return WORM
    return most_points_face(state)


@dataclass
class GreedyBot:
    """Takes the most points each roll and stops at the first serving it can claim."""

    name: str = "greedy"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """Most points now; stop as soon as any claim is possible."""
        if state.phase == TAKE:
            return Take(most_points_face(state))
        return best_stop(state) or ROLL


@dataclass
class ThresholdBot:
    """Stops once its total reaches `target` with a worm (the rule of thumb students try first)."""

    target: int = 25
    name: str = field(default="")

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise ValueError(f"threshold target must be a positive int, not {self.target!r}")
        self.name = self.name or f"threshold {self.target}"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """Take worms first, then the most points; stop at `target` or more when it can."""
        if state.phase == TAKE:
            return Take(worm_first_face(state))
        if state.phase == DECIDE:
            stop = best_stop(state)
            if stop is not None and (state.total >= self.target or ROLL not in state.legal_actions()):
                return stop
        return ROLL


@dataclass
class OptimalBot:
    """Maximises the expected worms of each turn for the real position (exact solver).

    `steal_weight` > 0 also values what a steal takes from the leader (see `odds.claim_worth`).
    """

    steal_weight: Fraction | int = 0
    name: str = field(default="")

    def __post_init__(self) -> None:
        if Fraction(self.steal_weight) < 0:
            raise ValueError(f"steal_weight must be >= 0, not {self.steal_weight}")
        self.name = self.name or (
            "optimal" if not self.steal_weight else f"optimal (steal weight {self.steal_weight})"
        )

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """The solver's choice: the best face, then stop or roll by expected worms."""
        # = Take(solution_for(state).best_face(...)) when taking; when deciding, best_stop(...)
        # if solution_for(state).best_decision(state) is not "roll" and a stop is legal, else
        # ROLL: one position and node look-up per decision instead of three checked ones.
        return _optimal_action(state, self.steal_weight)


BOTS = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "threshold": ThresholdBot,
    "optimal": OptimalBot,
}


def make_bot(spec: str) -> RandomBot | GreedyBot | ThresholdBot | OptimalBot:
    """A bot from a short name: 'random', 'greedy', 'optimal', 'optimal:1' (steal weight 1),
    'threshold' or 'threshold:28'."""
    name, _, arg = spec.strip().lower().partition(":")
    if name not in BOTS:
        raise ValueError(f"unknown Henpen bot {spec!r}; bots are {', '.join(BOTS)} "
                         "(threshold:T, optimal:W)")
    if name == "threshold":
        try:
            return ThresholdBot(int(arg) if arg else 25)
        except ValueError:
            raise ValueError(f"threshold bots are written threshold:T with T a number, not {spec!r}") from None
    if name == "optimal" and arg:
        try:
            return OptimalBot(Fraction(arg))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"optimal bots are written optimal:W with W a steal weight >= 0 "
                             f"(a number like 1 or 1/2), not {spec!r}") from None
    if arg:
        raise ValueError(f"the {name} bot takes no argument, not {spec!r}")
    return BOTS[name]()
