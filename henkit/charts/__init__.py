"""Plotly charts for henkit: pure functions from engine data to `plotly.graph_objects.Figure`.

- `henkit.charts.style`: colours (breeds, die faces, failure), fonts, the template.
- `henkit.charts.henpen`: one roll, the law of large numbers, bust chances, turn ends, the solver.
- `henkit.charts.hens`: score waterfall, draw odds, score distributions per bot.
- `henkit.charts.arena`: tournament results with confidence intervals.

Lesson-specific charts are imported by name when a lesson needs them (a kernel that never
draws them does not load them): `henkit.charts.classboard` (the class board), `.tree` (game
trees for backward induction by hand), `.spread` (lesson 10: spread, risk, waiting times),
`.learning` (lesson 11: a learner graded by the solver).

Figures are plain `go.Figure`s (light to send to a browser) and deterministic: the same inputs
give the same figure JSON. Charts never compute odds themselves; they ask the engines.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["arena", "henpen", "hens", "style"]


def __getattr__(name: str) -> ModuleType:
    """`henkit.charts.arena` and the others, imported on first use: a lesson drawing Henpen
    charts only does not load the card game and the arena (a fresh dashboard kernel pays for
    every module it imports)."""
    if name in __all__:
        return importlib.import_module(f"henkit.charts.{name}")
    raise AttributeError(f"module 'henkit.charts' has no attribute {name!r}")
