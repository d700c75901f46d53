"""Henpen, the push-your-luck dice game: rules, state, exact odds, bots and simulation."""

from henkit.henpen.actions import ROLL, Roll, Stop, Take
from henkit.henpen.bots import BOTS, GreedyBot, OptimalBot, RandomBot, ThresholdBot, make_bot
from henkit.henpen.dice import FACES, WORM, describe_roll, face_value, roll_outcomes
from henkit.henpen.rules import Claim, Rules, legal_claims
from henkit.henpen.simulate import play_game, simulate
from henkit.henpen.state import Phase, State, TurnEnd, View, sample_state

__all__ = [
    "BOTS",
    "FACES",
    "ROLL",
    "WORM",
    "Claim",
    "GreedyBot",
    "OptimalBot",
    "Phase",
    "RandomBot",
    "Roll",
    "Rules",
    "State",
    "Stop",
    "Take",
    "ThresholdBot",
    "TurnEnd",
    "View",
    "describe_roll",
    "face_value",
    "legal_claims",
    "make_bot",
    "play_game",
    "roll_outcomes",
    "sample_state",
    "simulate",
]
