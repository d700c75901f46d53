"""Interactive ipywidgets for henkit: the dice tray, the Henpen table, the Hens game and the arena.

Every widget is built on the engines (no rule is decided here), says in words what just
happened on its status line, and shows charts as plain plotly figures inside an Output.
`BarnyardGame` is the Hens game widget; the engine's grid of cards is `henkit.hens.Barnyard`.
"""

from henkit.widgets.arena import Arena
from henkit.widgets.barnyard import BarnyardGame
from henkit.widgets.dice_tray import DiceTray
from henkit.widgets.henpen_table import HenpenTable

__all__ = ["Arena", "BarnyardGame", "DiceTray", "HenpenTable"]
