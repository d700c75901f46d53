"""What one player can see of a Hens game.

A `View` holds everything public plus the viewer's own hand:

- the viewer's hand, barnyard (coops face up: the viewer placed them) and rooster choice;
- every other barnyard with its coops face down (H9) and, once revealed, its rooster (H10);
- every discard pile in full: each card was shown face up when discarded, so a player who
  remembers knows the whole pile (only the top may be drawn, H7);
- the cards publicly known to be in each hand: taken from a discard pile in view of everyone,
  and not yet played or discarded;
- hand sizes, the deck size, the goal card, the removed breeds (H4: a whole breed leaves the
  game, which everyone sees), the rules, round, phase, whose move it is and the draws so far;
- who has chosen a rooster cell, and every choice once all are revealed (H10).

It never holds an opponent's unknown hand cards, an opponent's coop faces, the deck's cards, or
an opponent's rooster cell before all roosters are revealed.

This module reads states but does not import `henkit.hens.state` (whose `State.view` calls
`view_of`); `henkit.hens.odds.sample_state` builds full states consistent with a view.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple, Self

import numpy as np

from henkit.checks import whole
from henkit.hens.barnyard import Barnyard, Cell, check_cell
from henkit.hens.cards import (
    BREED_INDEX,
    BREEDS,
    CARDS,
    Card,
    breed_index,
    cards_from,
    check_removed,
    deck_counts,
)
from henkit.hens.rules import Rules, check_players


class _Fields(NamedTuple):
    player: int  # the viewer (a seat index: 0 is player 1)
    players: int
    goal: int
    removed_breeds: tuple[str, ...]
    first_player: int
    round: int
    phase: str  # the state's Phase (a str: 'draw', 'chance', ...)
    to_move: int  # the player whose decision or draw it is (the chance node belongs to them)
    draws: int  # cards drawn so far this turn by `to_move`
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    known_in_hand: tuple[tuple[Card, ...], ...]  # per seat: cards publicly known to be held
    # per seat: cards publicly known to be in that hand or under that player's coops (so not in
    # the deck): known hand cards once the player placed a coop
    known_in_hand_or_coops: tuple[tuple[Card, ...], ...]
    barnyards: tuple[Barnyard, ...]
    discards: tuple[tuple[Card, ...], ...]  # per seat, bottom first: the top is last
    deck_size: int
    rooster_chosen: tuple[bool, ...]
    rooster_choices: tuple[Cell | None, ...]  # as far as the viewer knows (see View)
    rules: Rules


class View(_Fields):
    """One player's observation of a Hens game (an immutable named tuple; see the module note).

    `rooster_choices[q]` is seat q's rooster cell when the viewer knows it: the viewer's own
    once chosen, everyone's once all are revealed; None otherwise (also for a player without a
    hen). Build one with `state.view(player)`; building one by hand checks every field's type
    and size (ValueError naming the field), and `henkit.hens.odds.sample_state` checks that it
    could come from a game.
    """

    __slots__ = ()

    def __new__(
        cls, player: int, players: int, goal: int, removed_breeds: tuple[str, ...],
        first_player: int, round: int, phase: str, to_move: int, draws: int,
        hand: tuple[Card, ...], hand_sizes: tuple[int, ...],
        known_in_hand: tuple[tuple[Card, ...], ...],
        known_in_hand_or_coops: tuple[tuple[Card, ...], ...], barnyards: tuple[Barnyard, ...],
        discards: tuple[tuple[Card, ...], ...], deck_size: int, rooster_chosen: tuple[bool, ...],
        rooster_choices: tuple[Cell | None, ...], rules: Rules,
    ) -> Self:
        n = check_players(players)
        if not isinstance(rules, Rules) or rules.players != n:
            raise ValueError(f"rules must be the game's Rules for {n} players, not {rules!r}")
        removed = _removed_codes(removed_breeds, n)
        if not isinstance(phase, str):
            raise ValueError(f"phase must be the game's Phase (a str such as 'draw'), not "
                             f"{phase!r}")
        return tuple.__new__(cls, (
            _seat(player, "player", n),
            n,
            whole(goal, "goal (the goal card)", 1, 6),
            removed,
            _seat(first_player, "first_player", n),
            whole(round, "round", 1, 12),
            phase,
            _seat(to_move, "to_move", n),
            whole(draws, "draws (this turn's draws so far)", 0, 2),
            tuple(sorted(cards_from(hand, "hand"))),
            _per_seat(hand_sizes, n, "hand_sizes", lambda x, w: whole(x, w, 0, 6)),
            _per_seat(known_in_hand, n, "known_in_hand",
                      lambda x, w: tuple(sorted(cards_from(x, w)))),
            _per_seat(known_in_hand_or_coops, n, "known_in_hand_or_coops",
                      lambda x, w: tuple(sorted(cards_from(x, w)))),
            _per_seat(barnyards, n, "barnyards", _barnyard),
            _per_seat(discards, n, "discards", cards_from),
            whole(deck_size, "deck_size", 0, 72),
            _per_seat(rooster_chosen, n, "rooster_chosen", _flag),
            _per_seat(rooster_choices, n, "rooster_choices", _cell_or_none),
            rules,
        ))

    @property
    def barnyard(self) -> Barnyard:
        """This player's own barnyard."""
        return self.barnyards[self.player]

    @property
    def rooster_choice(self) -> Cell | None:
        """This player's own rooster cell (None before choosing, or without a hen)."""
        return self.rooster_choices[self.player]

    @property
    def discard_tops(self) -> tuple[Card | None, ...]:
        """The top card of every discard pile (None for an empty pile)."""
        return tuple(p[-1] if p else None for p in self.discards)

    def unseen(self) -> Counter:
        """Cards out of this player's sight: the deck, opponents' whole hands (cards known to
        be there included) and opponents' face-down coops.

        Every card of the game less this player's hand, the discard piles and every card face up
        in a barnyard (this player's coops included)."""
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

    def unlocated(self) -> Counter:
        """Cards whose place this player cannot tell: `unseen()` less the cards publicly known
        to be in opponents' hands or in an opponent's hand or coops
        (`known_in_hand_or_coops`). They lie in the deck, in the rest of opponents' hands and
        under opponents' coops; every deck draw comes from them."""
        left = self.unseen()
        for q, known in enumerate(self.known_in_hand):
            if q != self.player:
                left.subtract(known)
                left.subtract(self.known_in_hand_or_coops[q])
        return +left

    def hidden_coops(self) -> tuple[int, ...]:
        """How many face-down coops of unknown card each barnyard shows to this player."""
        return tuple(y.hidden_coops() for y in self.barnyards)

    def _removed(self) -> tuple[int, ...]:
        """The removed breeds as sorted breed indices."""
        return tuple(sorted(BREED_INDEX[c] for c in self.removed_breeds))

    def _replace(self, **changes: Any) -> View:
        """A copy with some fields changed, checked like a new View."""
        return View(**{**self._asdict(), **changes})


def view_of(state: Any, player: int) -> View:
    """The view of a Hens `State` from `player`'s seat (a seat index: 0 is player 1)."""
    rules = getattr(state, "rules", None)
    if not isinstance(rules, Rules):
        raise ValueError(f"view_of needs a Hens State, not {type(state).__name__}")
    n = rules.players
    me = player if type(player) is int and 0 <= player < n else _seat(player, "player", n)
    try:
        yards = tuple(y if q == me else y.hidden() for q, y in enumerate(state.barnyards))
        choices = state.rooster_choices
        if not state.roosters_revealed:  # H10: a choice stays hidden until all have chosen
            choices = tuple(c if q == me else None for q, c in enumerate(choices))
        hands = state.hands
        # The state's fields are checked already: skip View's checks (views are built per
        # decision).
        return View._make((
            me, n, state.goal, state.removed_breeds, state.first_player, state.round,
            state.phase, state.player, state.draws, hands[me], tuple(map(len, hands)),
            state.known_in_hand, state.known_in_hand_or_coops, yards, state.discards, len(state.deck), state.rooster_chosen,
            choices, rules,
        ))
    except AttributeError as e:  # not a Hens State, though it has rules
        raise ValueError(f"view_of needs a Hens State, not {type(state).__name__}: {e}") from None


# ----- checks of hand-built views -----
def _seat(x: Any, what: str, n: int) -> int:
    seat = whole(x, what)
    if not 0 <= seat < n:
        raise ValueError(f"{what} must be a seat index 0-{n - 1} (0 is player 1), not {seat}")
    return seat


def _removed_codes(codes: Any, n: int) -> tuple[str, ...]:
    if not isinstance(codes, (tuple, list)):
        raise ValueError(f"removed_breeds must be a tuple of breed codes, not {codes!r}")
    idx = tuple(sorted(breed_index(c) for c in codes))
    check_removed(n, idx)
    return tuple(BREEDS[i].code for i in idx)


def _per_seat(items: Any, n: int, what: str, check: Any) -> tuple:
    if not isinstance(items, (tuple, list)) or len(items) != n:
        raise ValueError(f"{what} must be a tuple with one entry per player ({n}), not {items!r}")
    return tuple(check(x, f"{what}[{q}]") for q, x in enumerate(items))


def _barnyard(y: Any, what: str) -> Barnyard:
    if not isinstance(y, Barnyard):
        raise ValueError(f"{what} must be a Barnyard, not {y!r}")
    return y


def _flag(x: Any, what: str) -> bool:
    if not isinstance(x, (bool, np.bool_)):
        raise ValueError(f"{what} must be True or False, not {x!r}")
    return bool(x)


def _cell_or_none(x: Any, what: str) -> Cell | None:
    if x is None:
        return None
    try:
        return check_cell(x)
    except ValueError as e:
        raise ValueError(f"{what} must be None or a cell: {e}") from None


__all__ = ["View", "view_of"]
