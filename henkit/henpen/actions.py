"""Henpen actions: small frozen values that print as a student would say them."""

from __future__ import annotations

from dataclasses import dataclass

from henkit.henpen.dice import SIDES, check_face, face_name
from henkit.henpen.rules import Claim


@dataclass(frozen=True)
class Roll:
    """Roll every die not yet set aside."""

    def __str__(self) -> str:
        return "roll the dice"


@dataclass(frozen=True)
class Take:
    """Set aside every die of the last roll showing `face` (1..5, or 6 for the worm)."""

    face: int

    def __post_init__(self) -> None:
        if type(self.face) is not int or not 1 <= self.face <= SIDES:  # plain faces need no change
            object.__setattr__(self, "face", check_face(self.face))

    def __str__(self) -> str:
        return f"take the {face_name(self.face, plural=True)}"


@dataclass(frozen=True)
class Stop:
    """Stop rolling and claim a serving: from the grill, or stolen from another player."""

    claim: Claim

    def __post_init__(self) -> None:
        if type(self.claim) is not Claim and not isinstance(self.claim, Claim):
            raise ValueError(f"Stop needs a Claim (e.g. Stop(Claim(25)) or Stop(Claim(25, owner=1))), "
                             f"not {self.claim!r}")

    def __str__(self) -> str:
        return f"stop and {self.claim}"


ROLL = Roll()
TAKES: dict[int, Take] = {f: Take(f) for f in range(1, SIDES + 1)}
"""One Take per face (1..5, 6 for the worm): actions are frozen values, so one serves every
state (the engine's legal actions and the bots' choices hand these out)."""
Action = Roll | Take | Stop
