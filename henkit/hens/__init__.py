"""Hens, the card game: rules engine, exact draw odds, bots and simulation (numpy only).

Start with `State.new(players, seed=...)`; read `State`, `Barnyard`, `score` and the bots.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henkit.lazy import lazy_package

if TYPE_CHECKING:
    from henkit.hens.actions import DECK, Discard, Draw, Place, PlaceCoop, PlaceRooster
    from henkit.hens.barnyard import Barnyard, Group
    from henkit.hens.bots import BOTS, GreedyBot, LookaheadBot, RandomBot, make_bot
    from henkit.hens.cards import BREEDS, CARDS, Breed, Card, card, deck_cards
    from henkit.hens.goals import GOALS, GoalCard, goal_card
    from henkit.hens.odds import chance_at_least_one, draw_odds, expected_number, sample_state
    from henkit.hens.rules import Rules
    from henkit.hens.scoring import Score, ScoreLine, score, total, winners
    from henkit.hens.simulate import GameResult, play_game, simulate
    from henkit.hens.state import TERMINAL, Phase, State
    from henkit.hens.view import View

__all__ = [
    "BOTS", "BREEDS", "CARDS", "DECK", "GOALS", "TERMINAL", "Barnyard", "Breed", "Card",
    "Discard", "Draw", "GameResult", "GoalCard", "GreedyBot", "Group", "LookaheadBot", "Phase",
    "Place", "PlaceCoop", "PlaceRooster", "RandomBot", "Rules", "Score", "ScoreLine", "State",
    "View", "card", "chance_at_least_one", "deck_cards", "draw_odds", "expected_number",
    "goal_card", "make_bot", "play_game", "sample_state", "score", "simulate", "total", "winners",
]

_HOME = {  # each public name -> the module that defines it
    "BOTS": "bots",
    "BREEDS": "cards",
    "Barnyard": "barnyard",
    "Breed": "cards",
    "CARDS": "cards",
    "Card": "cards",
    "DECK": "actions",
    "Discard": "actions",
    "Draw": "actions",
    "GOALS": "goals",
    "GameResult": "simulate",
    "GoalCard": "goals",
    "GreedyBot": "bots",
    "Group": "barnyard",
    "LookaheadBot": "bots",
    "Phase": "state",
    "Place": "actions",
    "PlaceCoop": "actions",
    "PlaceRooster": "actions",
    "RandomBot": "bots",
    "Rules": "rules",
    "Score": "scoring",
    "ScoreLine": "scoring",
    "State": "state",
    "TERMINAL": "state",
    "View": "view",
    "card": "cards",
    "chance_at_least_one": "odds",
    "deck_cards": "cards",
    "draw_odds": "odds",
    "expected_number": "odds",
    "goal_card": "goals",
    "make_bot": "bots",
    "play_game": "simulate",
    "sample_state": "odds",
    "score": "scoring",
    "simulate": "simulate",
    "total": "scoring",
    "winners": "scoring",
}


# Each name is imported from its module when first asked for (`henkit.lazy`): a lesson importing
# one module of the package does not pay for importing the others. `import henkit.hens` then
# `henkit.hens.odds` works too.
__getattr__, __dir__ = lazy_package(__name__, _HOME, submodules=True)
