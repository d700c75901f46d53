"""Henpen, the push-your-luck dice game: rules, state, exact odds, bots and simulation."""

from henkit.henpen.actions import ROLL, Roll, Stop, Take
from henkit.henpen.dice import FACES, WORM, describe_roll, face_value, roll_outcomes
from henkit.henpen.rules import Claim, Rules, legal_claims
from henkit.henpen.state import Phase, State, TurnEnd, sample_state

__all__ = [
    "FACES",
    "ROLL",
    "WORM",
    "Claim",
    "Phase",
    "Roll",
    "Rules",
    "State",
    "Stop",
    "Take",
    "TurnEnd",
    "describe_roll",
    "face_value",
    "legal_claims",
    "roll_outcomes",
    "sample_state",
]
