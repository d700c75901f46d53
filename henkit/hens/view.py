"""What one player can see of a Hens game, and hidden cards sampled consistently with it.

A view holds the player's own hand and barnyard, every other barnyard with its coops face down,
every discard pile (each card in a pile was shown face up when it was discarded, so a player who
remembers knows the whole pile; only the top may be drawn), the deck size and hand sizes. It never
holds an opponent's hand, an opponent's coop cards, the deck's cards, or an opponent's rooster
before all roosters are revealed.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import numpy as np

from henkit.core import Seed, make_rng
from henkit.hens.barnyard import COOP, HIDDEN, Barnyard, bit, bits_of
from henkit.hens.cards import BREED_INDEX, CARDS, Card, deck_counts
from henkit.hens.rules import Rules
from henkit.hens.state import PHASES, HensState


class HensView(NamedTuple):
    """One player's observation of a Hens game (a named tuple: immutable and quick to build)."""

    player: int
    players: int
    goal: int
    removed_breeds: tuple[str, ...]
    first_player: int
    round: int
    phase: str
    to_move: int  # the player whose decision or draw it is (the chance node belongs to them)
    draws: int  # cards drawn so far this turn by `to_move`
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    barnyards: tuple[Barnyard, ...]
    discards: tuple[tuple[Card, ...], ...]
    deck_size: int
    rooster_chosen: tuple[bool, ...]
    rooster_choice: tuple[int, int] | None  # this player's own choice while roosters are hidden
    rules: Rules

    @property
    def barnyard(self) -> Barnyard:
        """This player's own barnyard."""
        return self.barnyards[self.player]

    @property
    def discard_tops(self) -> tuple[Card | None, ...]:
        """The top card of every discard pile (None for an empty pile)."""
        return tuple(p[-1] if p else None for p in self.discards)

    def unseen(self) -> Counter:
        """Cards this player cannot see: the deck, opponents' hands and opponents' coops."""
        # Plain counts by card kind rather than Counter arithmetic: the lookahead bot asks at
        # every decision.
        left = list(deck_counts(self._removed()))
        for k in self.hand:
            left[k] -= 1
        for pile in self.discards:
            for k in pile:
                left[k] -= 1
        for y in self.barnyards:
            for k in y.cards():  # hens everywhere, and this player's own coops
                left[k] -= 1
        return Counter({CARDS[k]: c for k, c in enumerate(left) if c > 0})

    def _removed(self) -> tuple[int, ...]:
        return tuple(sorted(BREED_INDEX[c] for c in self.removed_breeds))

    def hidden_coops(self) -> tuple[int, ...]:
        """How many face-down coops of unknown card each barnyard shows to this player."""
        return tuple(sum(1 for i in bits_of(y.coop) if y.grid[i] == HIDDEN) for y in self.barnyards)


def view_of(state: HensState, player: int) -> HensView:
    """The view of `state` from `player`'s seat."""
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < state.n:
        raise ValueError(
            f"player must be a seat index 0-{state.n - 1} (0 is player 1), not {player!r}")
    yards = list(state._shown_yards())
    yards[player] = state.yards[player]
    return HensView(
        player, state.n, state.goal, state.removed_breeds, state.first, state.round,
        PHASES[state.phase], state.player, state.draws, state.hands[player],
        tuple(map(len, state.hands)), tuple(yards), state.piles, len(state.deck), state.chosen,
        state.choices[player], state.rules,
    )


def sample_state(view: HensView, seed: Seed = None) -> HensState:
    """A full state that `view` could come from: unseen cards dealt at random to opponents'
    hands, opponents' coops and the deck; opponents' hidden rooster choices on random hens."""
    rng = make_rng(seed)
    pool = [k for k, c in sorted(view.unseen().items()) for _ in range(c)]
    order = rng.permutation(len(pool))
    cards = [pool[i] for i in order]
    me = view.player
    s = HensState._blank(view.rules, view.goal, view._removed(), view.first_player)
    s.phase = PHASES.index(view.phase)
    s.player = view.to_move
    s.round = view.round
    s.turn = (view.to_move - view.first_player) % view.players
    s.draws = s.drawn = view.draws
    hands, yards, choices = [], [], []
    at = 0
    for q in range(view.players):
        if q == me:
            hands.append(view.hand)
            yards.append(view.barnyards[q])
            choices.append(view.rooster_choice)
            continue
        size = view.hand_sizes[q]
        hands.append(tuple(sorted(cards[at:at + size])))
        at += size
        y = view.barnyards[q]
        grid = list(y.grid)
        for i in bits_of(y.coop):
            if grid[i] == HIDDEN:
                grid[i] = COOP + int(cards[at])
                at += 1
        filled = y._copy()
        filled.grid = tuple(grid)
        yards.append(filled)
        choices.append(_random_hen(y, rng) if view.rooster_chosen[q] else None)
    s.hands = tuple(hands)
    s.yards = tuple(yards)
    s.piles = view.discards
    s.deck = tuple(sorted(cards[at:]))
    s.chosen = view.rooster_chosen
    s.choices = tuple(choices)
    if len(s.deck) != view.deck_size:
        raise ValueError("this view is inconsistent: the unseen cards do not fill the deck")
    return s


def _random_hen(y: Barnyard, rng: np.random.Generator) -> tuple[int, int] | None:
    hens = [c for c, _ in y.hens()]
    return hens[int(rng.integers(len(hens)))] if hens else None


__all__ = ["HensView", "bit", "sample_state", "view_of"]
