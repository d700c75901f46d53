"""Henpen bots: each has a `name` and `choose(state, rng)` returning a legal action."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from henkit.henpen.actions import ROLL, Action, Stop, Take
from henkit.henpen.dice import VALUES, WORM
from henkit.henpen.state import DECIDE, TAKE, State


@dataclass
class RandomBot:
    """Picks uniformly among the legal actions: the baseline every strategy must beat."""

    name: str = "random"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """A uniformly random legal action."""
        acts = state.legal_actions()
        return acts[int(rng.integers(len(acts)))]


def best_claim(state: State) -> Stop | None:
    """The stop that gains the most worms (a steal also costs its owner; ties: the grill)."""
    stops = [a for a in state.legal_actions() if isinstance(a, Stop)]
    if not stops:
        return None
    # Stealing is worth its worms twice over in the race (we gain, they lose): prefer it on ties
    # of worms gained only when it is strictly better, so the simple rule stays easy to explain.
    return max(stops, key=lambda a: (state.rules.worms(a.claim.tile), a.claim.owner is not None))


def most_points_face(state: State) -> int:
    """The face of the roll worth the most points (count x value), worms winning ties."""
    roll, kept = state.roll, state.kept
    assert roll is not None
    return max(
        (f for f in range(1, 7) if roll[f - 1] and not kept[f - 1]),
        key=lambda f: (roll[f - 1] * VALUES[f - 1], f == WORM),
    )


@dataclass
class GreedyBot:
    """Takes the most points each roll and stops at the first serving it can claim."""

    name: str = "greedy"

    def choose(self, state: State, rng: np.random.Generator) -> Action:
        """Most points now; stop as soon as any claim is possible."""
        if state.phase == TAKE:
            return Take(most_points_face(state))
        if state.phase == DECIDE and (stop := best_claim(state)) is not None:
            return stop
        return ROLL


def threshold_face(state: State) -> int:
    """The threshold bot's pick: worms while it has none, else the most points."""
    roll, kept = state.roll, state.kept
    assert roll is not None
    if not kept[WORM - 1] and roll[WORM - 1]:
        return WORM
    return most_points_face(state)


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
            return Take(threshold_face(state))
        if state.phase == DECIDE:
            stop = best_claim(state)
            if stop is not None and (state.total >= self.target or ROLL not in state.legal_actions()):
                return stop
        return ROLL
