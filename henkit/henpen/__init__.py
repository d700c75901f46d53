"""Henpen, the push-your-luck dice game: rules, state, exact odds, bots and simulation."""

from __future__ import annotations

import sys
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType
from typing import TYPE_CHECKING, Any

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


# Each name is imported from its module when first asked for (PEP 562): a lesson importing one
# module of the package does not pay for importing the others (a kernel's import time is part
# of how long a dashboard takes to open). `import henkit.henpen` then `henkit.henpen.odds` works too.
def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is not None:
        value = getattr(import_module(f"{__name__}.{home}"), name)
    elif not name.startswith("_") and find_spec(f"{__name__}.{name}") is not None:
        value = import_module(f"{__name__}.{name}")  # a submodule
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value  # later lookups find it without this call
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(ModuleType):
    """This package, whose public names keep their meaning when a submodule of the same name is
    imported (`simulate`): Python binds a submodule to its package's attribute, which the eager
    package's own import then overwrote with the function; lazily, that binding is skipped."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _HOME and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
