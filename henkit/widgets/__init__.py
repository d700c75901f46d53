"""Interactive ipywidgets for henkit: the dice tray, the Henpen table, the Hens game and the arena.

Every widget is built on the engines (no rule is decided here), says in words what just
happened on its status line, and shows charts as plain plotly figures inside an Output.
`BarnyardGame` is the Hens game widget; the engine's grid of cards is `henkit.hens.Barnyard`.
Every widget that rolls or deals shows its seed, takes a typed one and draws a new one (on a
dashboard each viewer starts from a seed of their own unless the lesson pins it), and the game
widgets write their moves to the class pool (`seeding`; the arena's bot tournaments do not).
The game pieces (dice, servings, hen cards, coops, the rooster) are drawn, not typed: inline SVG
from `pieces`, sent once per page in one style, with a text name for screen readers.
Widgets that look alike share one Layout and one Style model (`common.shared_layout`), and a
click changes widgets, never makes new ones: a dashboard's page gets few models to set up.
`Predict` asks a student for a prediction before the experiment and the exact answer open.
`EndgameExplorer` sets up a 2-player Henpen endgame and works out the chance to win when asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henkit.lazy import lazy_package

if TYPE_CHECKING:
    from henkit.widgets.arena import Arena
    from henkit.widgets.barnyard import BarnyardGame
    from henkit.widgets.dice_tray import DiceTray
    from henkit.widgets.endgame import EndgameExplorer
    from henkit.widgets.henpen_table import HenpenTable
    from henkit.widgets.predict import Predict

__all__ = ["Arena", "BarnyardGame", "DiceTray", "EndgameExplorer", "HenpenTable", "Predict"]

# Each widget is imported when first asked for: a lesson that shows the dice tray does not pay
# for importing the arena's tournaments or the Hens engine (the kernel's import time is part of
# how long a dashboard takes to open).
_HOME = {"Arena": "arena", "BarnyardGame": "barnyard", "DiceTray": "dice_tray",
         "EndgameExplorer": "endgame", "HenpenTable": "henpen_table", "Predict": "predict"}

__getattr__, __dir__ = lazy_package(__name__, _HOME)
