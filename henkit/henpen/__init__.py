"""Henpen, the push-your-luck dice game: rules, state, exact odds, bots and simulation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from henkit.lazy import lazy_package

if TYPE_CHECKING:
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

_HOME = {  # each public name -> the module that defines it
    "BOTS": "bots",
    "Claim": "rules",
    "FACES": "dice",
    "GreedyBot": "bots",
    "OptimalBot": "bots",
    "Phase": "state",
    "ROLL": "actions",
    "RandomBot": "bots",
    "Roll": "actions",
    "Rules": "rules",
    "State": "state",
    "Stop": "actions",
    "Take": "actions",
    "ThresholdBot": "bots",
    "TurnEnd": "state",
    "View": "state",
    "WORM": "dice",
    "describe_roll": "dice",
    "face_value": "dice",
    "legal_claims": "rules",
    "make_bot": "bots",
    "play_game": "simulate",
    "roll_outcomes": "dice",
    "sample_state": "state",
    "simulate": "simulate",
}


# Each name is imported from its module when first asked for (`henkit.lazy`): a lesson importing
# one module of the package does not pay for importing the others. `import henkit.henpen` then
# `henkit.henpen.odds` works too.
__getattr__, __dir__ = lazy_package(__name__, _HOME, submodules=True)
